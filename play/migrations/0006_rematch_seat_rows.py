"""Each guest's rematch seat names the seat's row it took, so that a second call with the old
seat's token gives that seat a new token only while the guest still holds it. The rows linked
before are found by their game and seat."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def link_seat_rows(apps: Any, schema_editor: Any) -> None:
    rematch_seats, seats = apps.get_model("play", "RematchSeat"), apps.get_model("games", "Seat")
    row = seats.objects.filter(game_id=OuterRef("game_id"), seat=OuterRef("seat")).values("pk")
    rematch_seats.objects.update(seat_row_id=Subquery(row[:1]))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_idempotent_answers_without_game"),
        ("play", "0005_rematch_seats"),
    ]

    operations = [
        migrations.AddField(
            model_name="rematchseat",
            name="seat_row",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="games.seat",
            ),
        ),
        migrations.RunPython(link_seat_rows, migrations.RunPython.noop),
    ]

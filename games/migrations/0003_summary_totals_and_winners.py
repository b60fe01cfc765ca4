"""Totals and winners as summary columns, so the lobby lists them without replaying; stored
games get them from their last `RoundEnded` and their `GameEnded` events."""

from typing import Any

from django.db import migrations, models


def fill_from_the_logs(apps: Any, schema_editor: Any) -> None:
    """Each game's totals from its last scored round (zeros before any), winners from its end."""
    game_model = apps.get_model("games", "Game")
    event_model = apps.get_model("games", "GameEvent")
    for game in game_model.objects.all().iterator():
        scored = event_model.objects.filter(game=game, type="RoundEnded").order_by("-sequence")
        last = scored.values_list("payload", flat=True).first()
        ended = event_model.objects.filter(game=game, type="GameEnded")
        end = ended.values_list("payload", flat=True).first()
        game.totals = last["totals"] if last else [0] * game.seats
        game.winners = end["winners"] if end else None
        game.save(update_fields=["totals", "winners"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_snapshot_text_and_fewer_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="totals",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="game",
            name="winners",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(fill_from_the_logs, migrations.RunPython.noop),
    ]

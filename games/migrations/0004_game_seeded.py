"""Whether a game's creator chose its seed (`seeded`), shown in the lobby, views and
histories. Games stored before it cannot tell (their seed is stored either way), so they are
marked seeded: `seeded=false` must only ever list games no one can have rigged."""

from typing import Any

from django.db import migrations, models


def mark_stored_games_seeded(apps: Any, schema_editor: Any) -> None:
    apps.get_model("games", "Game").objects.update(seeded=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_summary_totals_and_winners"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="seeded",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_stored_games_seeded, migrations.RunPython.noop),
    ]

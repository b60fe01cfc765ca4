"""Whether a game's creator chose its seed (`seeded`), shown in the lobby, views and
histories. Games stored before it cannot tell (their seed is stored either way): they read
`false`."""

from django.db import migrations, models


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
    ]

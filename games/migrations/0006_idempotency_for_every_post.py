"""Idempotency keys on every POST: a key belongs to a scope (a seat of a game, or a client
address), and the first answer is kept as the text it was rendered to (jsonb reordered its
keys), seat tokens cut out. Stored actions' answers keep working: their scope is their seat."""

from typing import Any

import orjson
from django.db import migrations, models


def seat_scopes_and_text_bodies(apps: Any, schema_editor: Any) -> None:
    response_model = apps.get_model("games", "IdempotentResponse")
    for row in response_model.objects.all().iterator():
        row.scope = f"seat:{row.game_id}:{row.seat}"
        row.body_text = orjson.dumps(row.body).decode()
        row.save(update_fields=["scope", "body_text"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_game_checkpoints"),
    ]

    operations = [
        migrations.AddField(
            model_name="idempotentresponse",
            name="scope",
            field=models.CharField(default="", max_length=120),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="idempotentresponse",
            name="body_text",
            field=models.TextField(default=""),
            preserve_default=False,
        ),
        migrations.RunPython(seat_scopes_and_text_bodies, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="idempotentresponse",
            name="unique_idempotency_key",
        ),
        migrations.RemoveField(model_name="idempotentresponse", name="seat"),
        migrations.RemoveField(model_name="idempotentresponse", name="body"),
        migrations.RenameField(
            model_name="idempotentresponse", old_name="body_text", new_name="body"
        ),
        migrations.AddField(
            model_name="idempotentresponse",
            name="token_slots",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="idempotentresponse",
            name="updated_at",
            field=models.DateTimeField(auto_now=True),
        ),
        migrations.AddConstraint(
            model_name="idempotentresponse",
            constraint=models.UniqueConstraint(
                fields=("scope", "key"), name="unique_idempotency_scope_key"
            ),
        ),
    ]

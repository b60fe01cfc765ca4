"""The built-in strategies' system bot accounts, so that their players' pages exist at once."""

from django.db import migrations

BUILTIN = ("random", "greedy", "rusher", "clearer", "statistician")


def create_builtin_bots(apps, schema_editor):  # type: ignore[no-untyped-def]
    account = apps.get_model("accounts", "Account")
    for handle in BUILTIN:
        account.objects.get_or_create(
            handle_key=handle, defaults={"handle": handle, "kind": "bot", "builtin": True}
        )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(create_builtin_bots, migrations.RunPython.noop)]

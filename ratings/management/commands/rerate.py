"""`manage.py rerate`: recompute every rating from the rated games' logs and check it against
the stored history (R14). Exit status 1 if anything differs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ratings.services import rerate


class Command(BaseCommand):
    help = (
        "Recompute every rating from the finished rated games' logs, in the order they were "
        "rated, and compare each stored row and current rating with the recomputation."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        found = rerate()
        for difference in found.differences:
            self.stderr.write(difference)
        if found.differences:
            raise CommandError(f"{len(found.differences)} differences from the stored ratings")
        self.stdout.write(
            f"{found.games} rated games, {found.rows} rating changes: identical to the stored ones"
        )

"""Playing together's jobs, run by the workers (`manage.py worker`): a challenge's expiry at
its time, and the matcher of quick play.

Each is queued in the transaction of the change that calls for it and checks first, so a late
or duplicate job changes nothing. A seek's creation queues the matcher at once, and again when
the seek's time-based triggers come due (its group may start smaller, its `bots_after` may
pass); the workers' sweep runs the matcher and the expiries too (`play.sweep`), so a job lost
or late changes nothing but when. The module's path is named by every queued job's row, so it
stays here; a task body imports the use cases inside the function, as `games.tasks` does.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django_tasks import task


@task()
def expire_challenge(challenge_id: str) -> bool:
    """Expire the challenge if it is still pending at its time; answers whether it did."""
    from play import challenges

    return challenges.expire_challenge(uuid.UUID(challenge_id))


@task()
def match_seeks() -> int:
    """Expire the lapsed seeks and seat every group of compatible seekers that is ready;
    answers the seeks acted on. Any number of workers may run it at once."""
    from play import matcher

    return matcher.match()


def schedule_matching(created_at: datetime, bots_after: int | None, *, rated: bool = False) -> None:
    """Queue the matcher for a seek created at `created_at`: now, once its group may start
    smaller (`SEEK_SMALLEST_AFTER_SECONDS`), once its `bots_after` has passed and, for a rated
    seek, each time its rating window widens (`play.matcher.RATING_WINDOW_*`)."""
    from play import matcher

    match_seeks.enqueue()
    widened = matcher.window_widenings() if rated else ()
    waits = {settings.SEEK_SMALLEST_AFTER_SECONDS, bots_after or 0, *widened} - {0}
    for wait in sorted(waits):
        match_seeks.using(run_after=created_at + timedelta(seconds=wait)).enqueue()

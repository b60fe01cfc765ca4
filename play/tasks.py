"""Playing together's jobs, run by the workers (`manage.py worker`): a challenge's expiry at
its time. Queued in the transaction of the change that calls for them; each checks first, so a
late or duplicate job changes nothing. The path of each is named by its queued rows, so it
stays here; a task body imports the use cases inside the function (as `games.tasks` does)."""

from __future__ import annotations

import uuid

from django_tasks import task


@task()
def expire_challenge(challenge_id: str) -> bool:
    """Expire the challenge if it is still pending at its time; answers whether it did."""
    from play import challenges

    return challenges.expire_challenge(uuid.UUID(challenge_id))

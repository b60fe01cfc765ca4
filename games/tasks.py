"""The service's own moves as jobs (R13), run by the workers (`manage.py worker`).

Jobs are queued by `schedule`, in the transaction of the append that calls for them (the
database backend inserts a row), so a move that commits always has its follow-up queued and
one that rolls back has none. Every job checks the game first: a late or duplicate job
changes nothing.

The module's path is named by every queued job's row, so it stays here. The use cases import
it to queue jobs; each task body imports the use cases inside the function (the HackSoft
styleguide's recipe), so the two never import each other at load time.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django_tasks import task


@task()
def play_bots(game_id: str, version: int) -> int:
    """The bots' moves from `version` on, each its own append, until a person must act;
    nothing if the game is no longer at `version`. Answers the moves made."""
    from games import core

    return core.play_bots(uuid.UUID(game_id), version)


@task()
def expire_turn(game_id: str, turn: int | None) -> bool:
    """Time the turn `turn` (None: the current one) out, if its deadline has passed and it is
    still being played. Answers whether it did."""
    from games import core

    return core.expire_turn(uuid.UUID(game_id), turn)


def schedule(
    game_id: uuid.UUID,
    version: int,
    *,
    bots: bool,
    deadline: datetime | None,
    turn: int | None,
    bots_at: datetime | None = None,
) -> None:
    """Queue what the game now needs: its bots' moves (at `bots_at`, the game's pace, R15;
    None: at once), and a timeout at `deadline`."""
    if bots:
        (play_bots if bots_at is None else play_bots.using(run_after=bots_at)).enqueue(
            str(game_id), version
        )
    if deadline is not None:
        expire_turn.using(run_after=deadline).enqueue(str(game_id), turn)

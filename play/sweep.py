"""What the workers' sweep (`manage.py worker`) does for playing together, beside the games'
owed moves: every step finds what came due (challenges to expire, seeks to match or lapse)
and acts on it, each safe to run on any number of workers at once."""

from __future__ import annotations

import logging
from collections.abc import Callable

from play import matcher
from play.challenges import expire_due_challenges

logger = logging.getLogger("play.sweep")

#: The steps of a sweep, in order; each answers how many things it acted on.
SWEEP_STEPS: list[Callable[[], int]] = [
    expire_due_challenges,
    matcher.match,  # seeks: the lapsed ones expire, the ready groups start their games
]


def sweep() -> int:
    """Run every step once, each on its own: one that fails is logged and the others still
    run (what it missed comes due again at the next sweep). Answers how many things they
    acted on."""
    return sum(_step(step) for step in SWEEP_STEPS)


def _step(step: Callable[[], int]) -> int:
    try:
        return step()
    except Exception:
        logger.warning("sweep step %s failed", step.__qualname__, exc_info=True)
        return 0

"""What the workers' sweep (`manage.py worker`) does for playing together, beside the games'
owed moves: every step finds what came due (challenges to expire, seeks to match or lapse)
and acts on it, each safe to run on any number of workers at once."""

from __future__ import annotations

from collections.abc import Callable

from play import matcher
from play.challenges import expire_due_challenges

#: The steps of a sweep, in order; each answers how many things it acted on.
SWEEP_STEPS: list[Callable[[], int]] = [
    expire_due_challenges,
    matcher.match,  # seeks: the lapsed ones expire, the ready groups start their games
]


def sweep() -> int:
    """Run every step once; answers how many things they acted on."""
    return sum(step() for step in SWEEP_STEPS)

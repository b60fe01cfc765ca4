"""`random`: any legal action, uniformly; the floor every other strategy must clear."""

from __future__ import annotations

from ..actions import Action
from .seen import Seen


class Random:
    """The `random` strategy: a uniform choice, seeded by `Seen.rng` so it replays."""

    def choose(self, seen: Seen) -> Action:
        return seen.rng().choice(seen.view.legal_actions)

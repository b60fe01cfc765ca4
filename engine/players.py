"""Engine players that choose among the legal actions: for tests, benchmarks and bots.

A player sees only a `GameView` (what its seat may know), so the same player can drive the
engine directly or a game over HTTP (`GameView` is built from the API's JSON by `view_from_data`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from .actions import Action, Discard
from .strategies.greedy import greedy_action
from .view import GameView


class SeesLegalActions(Protocol):
    @property
    def legal_actions(self) -> Sequence[Action]: ...


class Player(Protocol):
    def choose(self, view: GameView) -> Action: ...


class RandomPlayer:
    """Picks uniformly among the legal actions; needs nothing but the list."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeesLegalActions) -> Action:
        return self.rng.choice(view.legal_actions)


class GreedyPlayer:
    """Keeps low cards and builds columns of three: a fair, fast opponent (the `greedy`
    strategy of `engine.strategies`, for callers that hold only a view)."""

    def choose(self, view: GameView) -> Action:
        return greedy_action(view)


__all__ = ["Discard", "GreedyPlayer", "Player", "RandomPlayer"]

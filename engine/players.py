"""Engine players that choose among the legal actions: for tests, benchmarks and bots.

A player sees only a `GameView` (what its seat may know), so the same player can drive the
engine directly or a game over HTTP (`GameView` is built from the API's JSON by `view_from_data`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from .actions import DISCARD, DRAW, TAKE_DISCARD, Action, Discard, Replace, Reveal
from .view import FACE_DOWN, FACE_UP, REMOVED, Cell, GameView


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
    """Keeps low cards and builds columns of three: a fair, fast opponent."""

    #: A face-up card this much above the held card is worth replacing.
    IMPROVEMENT = 2
    #: A held card this low is worth placing on a face-down card.
    LOW_CARD = 3

    def choose(self, view: GameView) -> Action:
        legal = view.legal_actions
        if view.you is None or not legal:
            raise ValueError("nothing to choose")
        grid = view.players[view.you].grid
        if DRAW in legal:
            top = view.discard_top
            if top is not None and self._placement(grid, top, must=False) is not None:
                return TAKE_DISCARD
            return DRAW
        held = view.held_card
        if held is not None and held.value is not None:
            place = self._placement(grid, held.value, must=DISCARD not in legal)
            if place is not None and Replace(*place) in legal:
                return Replace(*place)
            if DISCARD in legal:
                return DISCARD
        reveals = [a for a in legal if isinstance(a, Reveal)]
        if reveals:
            return self._reveal(grid, reveals)
        return legal[0]

    def _reveal(self, grid: Sequence[Sequence[Cell]], reveals: list[Reveal]) -> Reveal:
        """Turn a card in the column with the fewest face-up cards (spreads the information)."""

        def shown(action: Reveal) -> int:
            return sum(1 for cell in grid[action.column] if cell.state == FACE_UP)

        return min(reveals, key=lambda a: (shown(a), a.column, a.row))

    def _placement(
        self, grid: Sequence[Sequence[Cell]], value: int, *, must: bool
    ) -> tuple[int, int] | None:
        best_face_up: tuple[int, int, int] | None = None  # (face-up value, column, row)
        face_down: list[tuple[int, int]] = []
        for column, cells in enumerate(grid):
            if cells and cells[0].state == REMOVED:
                continue
            matching = [c.state == FACE_UP and c.value == value for c in cells]
            if sum(matching) == 2:
                return column, matching.index(False)  # completes a column (R8)
            for row, cell in enumerate(cells):
                if cell.state == FACE_DOWN:
                    face_down.append((column, row))
                elif cell.value is not None and (
                    best_face_up is None or cell.value > best_face_up[0]
                ):
                    best_face_up = (cell.value, column, row)
        if best_face_up is not None and best_face_up[0] - value >= self.IMPROVEMENT:
            return best_face_up[1], best_face_up[2]
        if face_down and value <= self.LOW_CARD:
            return face_down[0]
        if must:
            if best_face_up is not None and best_face_up[0] > value:
                return best_face_up[1], best_face_up[2]
            if face_down:
                return face_down[0]
            if best_face_up is not None:
                return best_face_up[1], best_face_up[2]
        return None


__all__ = ["Discard", "GreedyPlayer", "Player", "RandomPlayer"]

"""End of a round and of the game: final reveal (R10), scores (R11), winners (R3)."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import COLUMNS, ROWS, cell_index
from .state import Grid


def final_reveal(grid: Grid) -> tuple[int | None, ...]:
    """Turn every card face up and remove the columns of three equal cards (R10 with R8).

    Returns the 12 cells after the reveal, None where a column is gone.
    """
    cells: list[int | None] = list(grid.values)
    for column in range(COLUMNS):
        base = cell_index(column, 0)
        if grid.gone >> base & 1:
            cells[base : base + ROWS] = [None] * ROWS
            continue
        a, b, c = grid.values[base : base + ROWS]
        if a == b == c:
            cells[base : base + ROWS] = [None] * ROWS
    return tuple(cells)


def raw_score(cells: Sequence[int | None]) -> int:
    """The sum of the cards left in a grid; removed columns count 0 (R11)."""
    return sum(value for value in cells if value is not None)


def closer_is_doubled(raw_scores: Sequence[int], closer: int, penalty: bool) -> bool:
    """R11: a positive closer score is doubled when any other player scored the same or less."""
    closer_score = raw_scores[closer]
    if not penalty or closer_score <= 0:
        return False
    return any(score <= closer_score for seat, score in enumerate(raw_scores) if seat != closer)


def round_scores(raw_scores: Sequence[int], closer: int, doubled: bool) -> tuple[int, ...]:
    return tuple(
        score * 2 if doubled and seat == closer else score for seat, score in enumerate(raw_scores)
    )


def game_is_over(totals: Sequence[int], end_score: int) -> bool:
    """R3: the game ends after a round in which any total reaches the end score."""
    return max(totals) >= end_score


def winners(totals: Sequence[int]) -> tuple[int, ...]:
    """R3: the lowest total wins; every seat tied for it is a winner."""
    best = min(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)

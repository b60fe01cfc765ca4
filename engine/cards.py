"""The 150-card Skyjo deck (R1) and the grid geometry (R4.1)."""

from __future__ import annotations

from collections import Counter

#: How many copies of each card value the deck holds (R1).
CARD_COUNTS: dict[int, int] = {-2: 5, -1: 10, 0: 15, **{value: 10 for value in range(1, 13)}}

#: The unshuffled deck, in ascending order: 150 cards.
FULL_DECK: tuple[int, ...] = tuple(
    value for value, count in sorted(CARD_COUNTS.items()) for _ in range(count)
)

DECK_SIZE = len(FULL_DECK)
FULL_DECK_COUNTER: Counter[int] = Counter(FULL_DECK)

#: A grid is 4 columns of 3 cards; cell index = column * ROWS + row.
COLUMNS = 4
ROWS = 3
CELLS = COLUMNS * ROWS
ALL_CELLS_MASK = (1 << CELLS) - 1


def cell_index(column: int, row: int) -> int:
    """Index of (column, row) in a flat 12-cell grid."""
    return column * ROWS + row


def column_mask(column: int) -> int:
    """Bit mask of the three cells of a column."""
    return 0b111 << cell_index(column, 0)


COLUMN_MASKS: tuple[int, ...] = tuple(column_mask(c) for c in range(COLUMNS))
#: The cells of each column, top to bottom (`COLUMN_CELLS[column][row]` is
#: `cell_index(column, row)`): a lookup for the paths run on every event and every view.
COLUMN_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(cell_index(c, r) for r in range(ROWS)) for c in range(COLUMNS)
)

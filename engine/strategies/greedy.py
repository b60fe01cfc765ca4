"""`greedy`: keeps low cards and builds columns of three; the engine's long-standing
`GreedyPlayer`, here as a function of the view, written for speed (a tournament calls it
hundreds of times a game) with exactly the old player's choices."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..actions import DISCARD, DRAW, REPLACES, TAKE_DISCARD, Action, Draw, Reveal, TakeDiscard
from ..cards import ROWS
from ..state import DECK
from ..view import FACE_DOWN, FACE_UP, REMOVED, Cell, GameView
from .seen import Seen

#: A face-up card this much above the held card is worth replacing.
IMPROVEMENT = 2
#: A held card this low is worth placing on a face-down card.
LOW_CARD = 3

Columns = Sequence[Sequence[Cell]]


def greedy_action(view: GameView) -> Action:
    """Take the discard when it has a good place, else draw; place a held card where it
    gains, else discard it; reveal in the column with the fewest face-up cards."""
    legal = view.legal_actions
    if view.you is None or not legal:
        raise ValueError("nothing to choose")
    grid = view.player(view.you).grid
    kind = type(legal[0])
    if kind is Draw or kind is TakeDiscard:
        top = view.discard_top
        if top is not None and _placement(grid, top, must=False) is not None:
            return TAKE_DISCARD
        return DRAW
    held = view.held_card
    if held is not None and held.value is not None:
        can_discard = held.source == DECK  # R6b: only a card drawn from the draw pile
        place = _placement(grid, held.value, must=not can_discard)
        if place is not None:
            return REPLACES[place[0] * ROWS + place[1]]
        if can_discard:
            return DISCARD
    if kind is Reveal:
        return _reveal(grid, legal)
    return legal[0]


def _reveal(grid: Columns, reveals: Sequence[Action]) -> Action:
    """Turn a card in the column with the fewest face-up cards (spreads the information);
    of equals, the first by column then row."""
    shown = [_facts(cells).shown for cells in grid]
    best: Reveal | None = None
    best_key = (0, 0, 0)
    for action in reveals:
        assert isinstance(action, Reveal)
        key = (shown[action.column], action.column, action.row)
        if best is None or key < best_key:
            best, best_key = action, key
    assert best is not None
    return best


class ColumnFacts(NamedTuple):
    """What `_placement` and `_reveal` read of one column of a grid view."""

    cells: Sequence[Cell]  # the column itself: holding it keeps its id from being reused
    skipped: bool  # removed (or empty): no card goes there
    pair: int | None  # the card of which exactly two cells are face up, if any
    other: int  # the row that is not one of the pair (-1: none)
    top: int | None  # the highest card shown, first of equals
    top_row: int
    down_row: int  # the first face-down row (-1: none)
    shown: int  # the face-up cells


#: `ColumnFacts` by the identity of the column: a seat's view takes its columns from one
#: shared set (`engine.view`), so a column is read once per process, not once per move.
_FACTS: dict[int, ColumnFacts] = {}
_FACTS_KEPT = 16384


def _facts(cells: Sequence[Cell]) -> ColumnFacts:
    """The `ColumnFacts` of a column, found by its identity, else read."""
    kept = _FACTS.get(id(cells))
    if kept is not None and kept.cells is cells:
        return kept
    if len(_FACTS) >= _FACTS_KEPT:
        _FACTS.clear()
    facts = _FACTS[id(cells)] = _read_column(cells)
    return facts


def _read_column(cells: Sequence[Cell]) -> ColumnFacts:
    """Read one column (see `ColumnFacts`), cell by cell."""
    up = [cell.value for cell in cells if cell.state == FACE_UP]
    pairs = [card for card in set(up) if up.count(card) == 2]
    pair = pairs[0] if pairs else None
    other = next((row for row, c in enumerate(cells) if c.state != FACE_UP or c.value != pair), -1)
    top: int | None = None
    top_row = -1
    down_row = -1
    for row, cell in enumerate(cells):
        if cell.state == FACE_DOWN:
            if down_row < 0:
                down_row = row
        elif cell.value is not None and (top is None or cell.value > top):
            top, top_row = cell.value, row
    skipped = not cells or cells[0].state == REMOVED
    return ColumnFacts(cells, skipped, pair, other, top, top_row, down_row, len(up))


def _placement(grid: Columns, value: int, *, must: bool) -> tuple[int, int] | None:
    """Where `value` should go: completing a column (R8), replacing a face-up card at least
    `IMPROVEMENT` higher, or a face-down card when it is low; when it `must` go somewhere,
    the best of the rest. None: keep it off the grid. One pass over the columns' facts (this
    runs for most of a bot's moves): the highest face-up card, the first of equals, and the
    first face-down cell are followed as it goes."""
    best_value: int | None = None
    best: tuple[int, int] | None = None  # (column, row) of the highest face-up card
    first_down: tuple[int, int] | None = None
    kept_facts = _FACTS.get
    for column, cells in enumerate(grid):
        facts = kept_facts(id(cells))  # `_facts(cells)`, its first lookup written out
        if facts is None or facts[0] is not cells:
            facts = _facts(cells)
        _, skipped, pair, other, top, top_row, down_row, _ = facts
        if skipped:
            continue
        if pair == value:
            return column, other  # completes a column (R8)
        if top is not None and (best_value is None or top > best_value):
            best_value, best = top, (column, top_row)
        if first_down is None and down_row >= 0:
            first_down = (column, down_row)
    if best_value is not None and best_value - value >= IMPROVEMENT:
        return best
    if first_down is not None and value <= LOW_CARD:
        return first_down
    if must:
        if best_value is not None and best_value > value:
            return best
        if first_down is not None:
            return first_down
        if best is not None:
            return best
    return None


class Greedy:
    """The `greedy` strategy: `greedy_action` of the seat's view."""

    def choose(self, seen: Seen) -> Action:
        return greedy_action(seen.view)

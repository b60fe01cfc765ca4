"""Helpers for engine tests: rigged deals and a table that drives a game through the engine."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine import (
    DISCARD,
    DRAW,
    FULL_DECK,
    Action,
    Event,
    GameState,
    Join,
    Options,
    Replace,
    Reveal,
    RiggedShuffler,
    create_game,
    decide,
    evolve,
    replay,
)
from engine.cards import CELLS, ROWS
from engine.events import RoundEnded
from engine.state import PLAYING, SETUP

Position = tuple[int, int]  # (column, row)


def cols(*columns: Sequence[int]) -> list[int]:
    """A grid written as its 4 columns of 3 cards (top to bottom), as 12 cells in deal order."""
    assert len(columns) == 4 and all(len(column) == ROWS for column in columns)
    return [value for column in columns for value in column]


def position(cell: int) -> Position:
    """(column, row) of a cell index."""
    return divmod(cell, ROWS)


def _spread(cards: Iterable[int]) -> list[int]:
    """`cards` dealt one of each value in turn (-2, -1, 0, ..., 12, -2, ...): neighbours differ
    while they can, so filler never makes a column of three equal cards by accident."""
    left = Counter(cards)
    out: list[int] = []
    while left:
        for value in sorted(left):
            out.append(value)
            left[value] -= 1
            if not left[value]:
                del left[value]
    return out


def rig_deal(
    seats: int,
    grids: Sequence[Sequence[int]] = (),
    *,
    discard_top: int | None = None,
    draw: Sequence[int] = (),
) -> tuple[int, ...]:
    """A 150-card deal order (top first): seat s gets `grids[s]` as cells 0..11 (cell = column
    * 3 + row), then `discard_top` starts the discard pile, then `draw` is the top of the draw
    pile. Whatever is not given is filled from the rest of the deck (R1)."""
    assert len(grids) <= seats
    assert all(len(grid) == CELLS for grid in grids)
    left = Counter(FULL_DECK)
    used = [value for grid in grids for value in grid] + list(draw)
    if discard_top is not None:
        used.append(discard_top)
    left.subtract(used)
    assert all(count >= 0 for count in left.values()), f"more cards than R1 allows: {left}"
    filler = _spread(left.elements())
    order: list[int] = []
    for seat in range(seats):
        if seat < len(grids):
            order.extend(grids[seat])
        else:
            order.extend(filler[:CELLS])
            del filler[:CELLS]
    if discard_top is None:
        discard_top = filler.pop(0)
    order.append(discard_top)
    order.extend(draw)
    order.extend(filler)
    assert len(order) == len(FULL_DECK) and Counter(order) == Counter(FULL_DECK)
    return tuple(order)


class Table:
    """A game driven through `decide`, folded with `evolve`, checked against `act` and `replay`
    after every action."""

    def __init__(
        self,
        seats: int,
        deals: Sequence[Sequence[int]] = (),
        *,
        options: Options | None = None,
        reshuffles: Sequence[Sequence[int]] = (),
        join: bool = True,
    ) -> None:
        self.shuffler = RiggedShuffler(deals, reshuffles)
        self.events: list[Event] = create_game(seats, options)
        self.state: GameState = replay(self.events)
        if join:
            for seat in range(seats):
                self.do(None, Join(f"Player {seat}"))

    @property
    def seats(self) -> int:
        return self.state.seats

    def do(self, seat: int | None, action: Action) -> list[Event]:
        """Apply one action; return its events (a `RuleError` propagates, state unchanged)."""
        before = self.state
        new = decide(before, seat, action, self.shuffler)
        state = before
        for event in new:
            state = evolve(state, event)
        assert before.version == len(self.events)
        self.events.extend(new)
        self.state = state
        assert state.version == len(self.events)
        assert replay(self.events) == state
        return new

    def do_all(self, seat: int, *actions: Action) -> list[Event]:
        """Several actions by one seat; all their events."""
        out: list[Event] = []
        for action in actions:
            out.extend(self.do(seat, action))
        return out

    def setup(self, reveals: Sequence[Sequence[Position]]) -> list[Event]:
        """Each seat turns its two cards (R4.3), seat by seat: `reveals[seat]` = 2 positions."""
        assert self.state.phase == SETUP
        out: list[Event] = []
        for seat, positions in enumerate(reveals):
            for column, row in positions:
                out.extend(self.do(seat, Reveal(column, row)))
        return out

    def reveal_turn(self, cell: int | None = None) -> list[Event]:
        """The current seat draws, discards the drawn card and turns `cell` (default: its
        first face-down cell), keeping its rigged grid as dealt (R6b)."""
        seat = self.current
        if cell is None:
            cell = first_face_down(self.state, seat)
        return self.do_all(seat, DRAW, DISCARD, Reveal(*position(cell)))

    def replace_turn(self, cell: int) -> list[Event]:
        """The current seat draws and puts the drawn card at `cell` (R6b): no card is turned
        unless `cell` is face down."""
        return self.do_all(self.current, DRAW, Replace(*position(cell)))

    def play_round_by_reveals(self) -> RoundEnded:
        """Every seat plays reveal turns until the round ends; its `RoundEnded` event."""
        while True:
            for event in self.reveal_turn():
                if isinstance(event, RoundEnded):
                    return event

    @property
    def current(self) -> int:
        assert self.state.phase == PLAYING and self.state.current is not None
        return self.state.current

    def last(self, kind: type[Event]) -> Event:
        """The last event of type `kind` in the log."""
        for event in reversed(self.events):
            if isinstance(event, kind):
                return event
        raise AssertionError(f"no {kind.__name__} in the log")


def first_face_down(state: GameState, seat: int) -> int:
    down = state.grids[seat].face_down
    assert down, f"seat {seat} has no face-down card"
    return (down & -down).bit_length() - 1


def types(events: Iterable[Event]) -> list[str]:
    return [type(event).__name__ for event in events]

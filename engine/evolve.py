"""`evolve(state, event) -> state`: apply one event, never validating. Replay is a fold.

Each `_apply_*` writes to a private copy of the state that nobody else holds yet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .cards import ALL_CELLS_MASK, CELLS, COLUMN_CELLS, COLUMN_MASKS, ROWS, cell_index
from .events import (
    CardDrawn,
    CardReplaced,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    DrawPileReshuffled,
    Event,
    FinalTurnsBegan,
    GameCanceled,
    GameCreated,
    GameEnded,
    PlayerJoined,
    PlayerLeft,
    PlayStarted,
    RoundDealt,
    RoundEnded,
    SeatAbandoned,
    SeatLeft,
    TurnPassed,
    TurnTimedOut,
)
from .state import (
    CANCELED,
    CHOOSE,
    DECK,
    DISCARD_PILE,
    EMPTY,
    FINISHED,
    PLACE_DRAWN,
    PLACE_TAKEN,
    PLAYING,
    REVEAL_AFTER_DISCARD,
    ROUND_ENDED,
    SETUP,
    SETUP_REVEALS,
    TURN_DONE,
    WAITING,
    GameState,
    Grid,
    RoundResult,
)

T = TypeVar("T")


_new_tuple = tuple.__new__


def _set_grid(s: GameState, seat: int, values: tuple[int, ...], up: int, gone: int) -> None:
    """Give `seat` the grid `Grid(values, up, gone)`, built without the named tuple's
    Python-level `__new__` (which only passes its arguments on): a grid is rebuilt on most
    moves."""
    grids = list(s.grids)
    grids[seat] = _new_tuple(Grid, (values, up, gone))
    s.grids = tuple(grids)


def _with(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """`values` with the seat's entry replaced."""
    return (*values[:seat], value, *values[seat + 1 :])


def _turn_done(s: GameState, seat: int) -> None:
    """`seat` finished its turn (or its setup reveals): played by the seat itself, it ends
    its streak of timeouts (R13); played for it after a timeout, it does not."""
    if s.timing_out == seat:
        s.timing_out = None
    elif s.timeouts[seat]:
        s.timeouts = _with(s.timeouts, seat, 0)


def _caused(s: GameState, e: Event) -> None:
    """Note `e` among the last action's events: something it caused (a removed column, the
    final turns, the round's or the game's end). An action always precedes these."""
    s.last_action = (*s.last_action, e)


def _game_created(s: GameState, e: GameCreated) -> None:
    s.seats = e.seats
    s.options = e.options
    s.names = (None,) * e.seats
    s.totals = (0,) * e.seats
    s.bots = (None,) * e.seats
    s.accounts = (None,) * e.seats
    s.timeouts = (0,) * e.seats
    s.left = (False,) * e.seats
    s.phase = WAITING


def _player_joined(s: GameState, e: PlayerJoined) -> None:
    s.names = _with(s.names, e.seat, e.name)
    s.bots = _with(s.bots, e.seat, e.bot)
    s.accounts = _with(s.accounts, e.seat, e.account)
    s.last_action = (e,)


def _player_left(s: GameState, e: PlayerLeft) -> None:
    s.names = _with(s.names, e.seat, None)
    s.bots = _with(s.bots, e.seat, None)
    s.accounts = _with(s.accounts, e.seat, None)
    s.last_action = (e,)


def _seat_left(s: GameState, e: SeatLeft) -> None:
    s.bots = _with(s.bots, e.seat, e.bot)
    s.left = _with(s.left, e.seat, True)
    s.last_action = (e,)


def _turn_timed_out(s: GameState, e: TurnTimedOut) -> None:
    s.timeouts = _with(s.timeouts, e.seat, s.timeouts[e.seat] + 1)
    s.timing_out = e.seat


def _seat_abandoned(s: GameState, e: SeatAbandoned) -> None:
    s.bots = _with(s.bots, e.seat, e.bot)


def _round_dealt(s: GameState, e: RoundDealt) -> None:
    deck = e.deck
    seats = s.seats
    s.grids = tuple(Grid(deck[seat * CELLS : (seat + 1) * CELLS]) for seat in range(seats))
    s.discard = (deck[seats * CELLS],)
    s.deck = deck
    s.deck_pos = seats * CELLS + 1
    s.phase = SETUP
    s.round = e.round
    s.current = None
    s.step = CHOOSE
    s.held = None
    s.held_from = None
    s.closer = None
    s.final_turns_left = 0
    s.reshuffles = 0
    s.turn += 1
    if s.unattended:
        s.unattended_rounds += 1


def _card_revealed(s: GameState, e: CardRevealed) -> None:
    grid = s.grids[e.seat]
    up = grid.up | 1 << COLUMN_CELLS[e.column][e.row]
    _set_grid(s, e.seat, grid.values, up, grid.gone)
    s.last_action = (e,)
    if s.phase == PLAYING:
        s.step = TURN_DONE
    elif up.bit_count() == SETUP_REVEALS:
        _turn_done(s, e.seat)


def _play_started(s: GameState, e: PlayStarted) -> None:
    s.turn += 1
    s.phase = PLAYING
    s.current = e.seat
    s.starter = e.seat
    s.step = CHOOSE


def _card_drawn(s: GameState, e: CardDrawn) -> None:
    s.held = s.deck[s.deck_pos]
    s.deck_pos += 1
    s.held_from = DECK
    s.step = PLACE_DRAWN
    s.last_action = (e,)


def _discard_taken(s: GameState, e: DiscardTaken) -> None:
    s.held = s.discard[-1]
    s.discard = s.discard[:-1]
    s.held_from = DISCARD_PILE
    s.step = PLACE_TAKEN
    s.last_action = (e,)


def _card_replaced(s: GameState, e: CardReplaced) -> None:
    grid = s.grids[e.seat]
    cell = COLUMN_CELLS[e.column][e.row]
    values = list(grid.values)
    replaced = values[cell]
    values[cell] = s.held  # type: ignore[assignment]
    _set_grid(s, e.seat, tuple(values), grid.up | 1 << cell, grid.gone)
    s.discard = (*s.discard, replaced)
    s.held = None
    s.held_from = None
    s.step = TURN_DONE
    s.last_action = (e,)


def _drawn_card_discarded(s: GameState, e: DrawnCardDiscarded) -> None:
    s.discard = (*s.discard, s.held)  # type: ignore[arg-type]
    s.held = None
    s.held_from = None
    s.step = REVEAL_AFTER_DISCARD
    s.last_action = (e,)


def _column_removed(s: GameState, e: ColumnRemoved) -> None:
    grid = s.grids[e.seat]
    base = cell_index(e.column, 0)
    s.discard = (*s.discard, *grid.values[base : base + ROWS])
    _set_grid(s, e.seat, grid.values, grid.up, grid.gone | COLUMN_MASKS[e.column])
    _caused(s, e)


def _draw_pile_reshuffled(s: GameState, e: DrawPileReshuffled) -> None:
    s.deck = e.order
    s.deck_pos = 0
    s.discard = s.discard[-1:]
    s.reshuffles += 1


def _turn_passed(s: GameState, e: TurnPassed) -> None:
    seat = e.seat
    if s.closer is not None and seat != s.closer:
        s.final_turns_left -= 1
    if s.timing_out is not None or s.timeouts[seat]:  # `_turn_done`, checked inline first
        _turn_done(s, seat)
    s.turn += 1
    s.current = e.next_seat
    s.step = CHOOSE


def _final_turns_began(s: GameState, e: FinalTurnsBegan) -> None:
    s.closer = e.closer_seat
    s.final_turns_left = s.seats - 1
    _caused(s, e)


def _round_ended(s: GameState, e: RoundEnded) -> None:
    grids = []
    discard = list(s.discard)
    for grid, final in zip(s.grids, e.grids, strict=True):
        gone = 0
        for cell, value in enumerate(final):
            if value is None:
                gone |= 1 << cell
                if not grid.gone >> cell & 1:  # removed at the final reveal (R10)
                    discard.append(grid.values[cell])
        grids.append(Grid(grid.values, ALL_CELLS_MASK & ~gone, gone))
    s.grids = tuple(grids)
    s.discard = tuple(discard)
    s.totals = e.totals
    s.rounds = (
        *s.rounds,
        RoundResult(
            e.round, e.closer_seat, e.grids, e.raw_scores, e.round_scores, e.closer_doubled
        ),
    )
    s.last_closer = e.closer_seat
    if s.current is not None:
        _turn_done(s, s.current)
    s.phase = ROUND_ENDED
    s.current = None
    s.starter = None
    s.step = CHOOSE
    _caused(s, e)


def _game_ended(s: GameState, e: GameEnded) -> None:
    s.phase = FINISHED
    s.winners = e.winners
    s.totals = e.totals
    _caused(s, e)


def _game_canceled(s: GameState, e: GameCanceled) -> None:
    s.phase = CANCELED


APPLY: dict[type[Any], Callable[[GameState, Any], None]] = {
    GameCreated: _game_created,
    PlayerJoined: _player_joined,
    RoundDealt: _round_dealt,
    CardRevealed: _card_revealed,
    PlayStarted: _play_started,
    CardDrawn: _card_drawn,
    DiscardTaken: _discard_taken,
    CardReplaced: _card_replaced,
    DrawnCardDiscarded: _drawn_card_discarded,
    ColumnRemoved: _column_removed,
    DrawPileReshuffled: _draw_pile_reshuffled,
    TurnPassed: _turn_passed,
    FinalTurnsBegan: _final_turns_began,
    RoundEnded: _round_ended,
    GameEnded: _game_ended,
    PlayerLeft: _player_left,
    SeatLeft: _seat_left,
    TurnTimedOut: _turn_timed_out,
    SeatAbandoned: _seat_abandoned,
    GameCanceled: _game_canceled,
}


def evolve(state: GameState, event: Event) -> GameState:
    """The state after `event`. `state` itself is left as it was."""
    new = state.copy()
    APPLY[type(event)](new, event)
    new.version += 1
    return new


def replay(events: Iterable[Event], state: GameState = EMPTY) -> GameState:
    """Fold `evolve` over a log, from the empty state (or from a snapshot `state`)."""
    new = state.copy()
    apply = APPLY
    count = 0
    for event in events:
        apply[type(event)](new, event)
        count += 1
    new.version += count
    return new

"""Moves the service makes for a seat (R13): a bot's, and a timed-out seat's turn.

Who chooses is the caller's (`choose(state, seat)`, a strategy on that seat's view); this
module says which seats are the service's to move and plays out a timed-out turn, so the
same rules hold wherever they are played: the service, the tests, a tournament.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import Action, TimeOut
from .decide import act, seats_to_act
from .events import Event
from .shuffle import Shuffler
from .state import PLAYING, SETUP, GameState

Chooser = Callable[[GameState, int], Action]


def bot_seats_to_act(state: GameState) -> tuple[int, ...]:
    """The seats with something to do now that a bot plays."""
    bots = state.bots
    return tuple(seat for seat in seats_to_act(state) if bots[seat] is not None)


def past_round_limit(state: GameState, max_rounds: int) -> bool:
    """Whether the service stops playing this game for its bots (`StopPlay`, R13): no person
    holds a seat, and more than `max_rounds` rounds were dealt so. Checked before every move,
    so it stops as the round after the last allowed one is dealt, before a card of it is
    turned."""
    in_play = state.phase == SETUP or state.phase == PLAYING
    return in_play and state.unattended and state.unattended_rounds > max_rounds


def human_seats_to_act(state: GameState) -> tuple[int, ...]:
    """The seats with something to do now that a person plays: the ones a clock runs for."""
    bots = state.bots
    return tuple(seat for seat in seats_to_act(state) if bots[seat] is None)


def finish_turn(
    state: GameState,
    seat: int,
    choose: Chooser,
    shuffler: Shuffler,
    log: list[Event] | None = None,
) -> tuple[list[Event], GameState]:
    """`seat`'s moves, chosen by `choose`, until its turn (or its setup reveals) is done:
    until a new turn begins or the seat has nothing left to do. `log`, the game's events so
    far, is extended move by move (a strategy's history may be reading it)."""
    events: list[Event] = []
    log = [] if log is None else log
    turn = state.turn
    while state.turn == turn and seat in seats_to_act(state):
        new, state = act(state, seat, choose(state, seat), shuffler)
        events += new
        log += new
    return events, state


def time_out(
    state: GameState,
    choose: Chooser,
    shuffler: Shuffler,
    bot: str,
    log: list[Event] | None = None,
) -> tuple[list[Event], GameState]:
    """Every person's seat with something to do runs out of time (R13): for each, in seat
    order, `TurnTimedOut` (and `SeatAbandoned` to `bot` after `max_timeouts` in a row), then
    the moves `choose` makes to finish its turn. `log` as for `finish_turn`."""
    events: list[Event] = []
    log = [] if log is None else log
    turn = state.turn
    for seat in human_seats_to_act(state):
        if state.turn != turn:  # the turn ended with an earlier seat's (setup's last reveal)
            break
        timed, state = act(state, seat, TimeOut(bot), shuffler)
        log += timed
        played, state = finish_turn(state, seat, choose, shuffler, log)
        events += timed + played
    return events, state

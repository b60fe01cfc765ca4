"""R13 on the engine alone: bots' seats, leaving, timeouts and the streak that hands a seat to
a bot, the service's moves (`engine.autoplay`), and the audit of logs that hold them."""

from __future__ import annotations

import pytest

from engine import (
    Cancel,
    GameState,
    GreedyPlayer,
    Join,
    Leave,
    Options,
    Reveal,
    SeededShuffler,
    TimeOut,
    act,
    create_game,
    decide,
    replay,
    seats_to_act,
)
from engine import errors as rule_errors
from engine.audit import InvalidLog, verify_log
from engine.autoplay import bot_seats_to_act, finish_turn, human_seats_to_act, time_out
from engine.errors import InvalidOptions, WrongStep
from engine.events import (
    Event,
    GameCanceled,
    PlayerJoined,
    PlayerLeft,
    SeatAbandoned,
    SeatLeft,
    TurnTimedOut,
)
from engine.simulate import chooser_from_view
from engine.snapshot import state_from_data, state_to_data
from engine.state import CANCELED
from engine.view import view

GREEDY = chooser_from_view(GreedyPlayer())


class Game:
    """A game on the engine: its log and state, moved on by `do`."""

    def __init__(self, seats: int, joiners: list[str | None], **options: object) -> None:
        self.shuffler = SeededShuffler(seats * 7)
        self.events: list[Event] = create_game(seats, Options(**options))  # type: ignore[arg-type]
        self.state: GameState = replay(self.events)
        for number, bot in enumerate(joiners):
            self.do(None, Join(f"Player {number}", bot))

    def do(self, seat: int | None, action: object) -> list[Event]:
        new, self.state = act(self.state, seat, action, self.shuffler)  # type: ignore[arg-type]
        self.events += new
        return new

    def play(self, events: tuple[list[Event], GameState]) -> list[Event]:
        new, self.state = events
        self.events += new
        return new

    def reveal_setup(self, seat: int) -> None:
        for column in (0, 1):
            self.do(seat, Reveal(column, 0))


def test_a_bot_joins_like_a_person_with_its_strategy() -> None:
    game = Game(3, [None, "greedy"])
    assert game.events[-1] == PlayerJoined(1, "Player 1", "greedy")
    assert game.state.bots == (None, "greedy", None)
    game.do(None, Join("Player 2", "random"))
    assert game.state.phase == "setup"
    assert bot_seats_to_act(game.state) == (1, 2) and human_seats_to_act(game.state) == (0,)


def test_leaving_a_waiting_game_opens_the_seat_for_the_next_joiner() -> None:
    game = Game(3, [None, "greedy"])
    assert game.do(0, Leave()) == [PlayerLeft(0)]
    assert game.state.names == (None, "Player 1", None) and game.state.bots[0] is None
    game.do(None, Join("Cyd"))
    assert game.state.names[0] == "Cyd"
    with pytest.raises(rule_errors.UnknownSeat):
        game.do(2, Leave())  # no one sits there


def test_leaving_a_started_game_hands_the_seat_to_a_bot_once() -> None:
    game = Game(2, [None, None])
    assert game.do(1, Leave("random")) == [SeatLeft(1, "random")]
    assert game.state.bots == (None, "random") and game.state.left == (False, True)
    assert game.state.names[1] == "Player 1"
    with pytest.raises(rule_errors.WrongStep):
        game.do(1, Leave())
    assert game.state.last_action == (SeatLeft(1, "random"),)


def test_a_finished_game_cannot_be_left() -> None:
    game = Game(2, ["greedy", "greedy"], end_score=1)
    while bot_seats_to_act(game.state):
        seat = bot_seats_to_act(game.state)[0]
        game.do(seat, GREEDY(game.state, seat))
    assert game.state.phase == "finished"
    with pytest.raises(rule_errors.GameFinished):
        game.do(0, Leave())


@pytest.mark.parametrize("seats", range(2, 9))
def test_bots_alone_play_any_table_to_the_end(seats: int) -> None:
    game = Game(seats, ["greedy"] * seats, end_score=30)
    moves = 0
    while bot_seats_to_act(game.state):
        seat = bot_seats_to_act(game.state)[0]
        game.do(seat, GREEDY(game.state, seat))
        moves += 1
    assert game.state.phase == "finished" and moves > seats * 2
    assert verify_log(game.events) == game.state


def test_a_timeout_counts_and_a_turn_of_ones_own_ends_the_streak() -> None:
    game = Game(2, [None, None])
    game.play(time_out(game.state, GREEDY, game.shuffler, "greedy"))
    assert game.state.timeouts == (1, 1) and game.state.phase == "playing"
    current = game.state.current
    assert current is not None
    game.play(finish_turn(game.state, current, GREEDY, game.shuffler))  # played by the seat
    assert game.state.timeouts[current] == 0 and game.state.timeouts[1 - current] == 1


def test_max_timeouts_in_a_row_hand_the_seat_to_a_bot() -> None:
    game = Game(2, [None, None], max_timeouts=2)
    game.reveal_setup(1)
    game.play(time_out(game.state, GREEDY, game.shuffler, "greedy"))  # seat 0's setup
    assert game.state.timeouts == (1, 0)
    while game.state.bots[0] is None:
        game.play(time_out(game.state, GREEDY, game.shuffler, "random"))
    assert game.state.timeouts[0] == 2
    abandoned = game.events.index(SeatAbandoned(0, "random"))
    assert game.events[abandoned - 1] == TurnTimedOut(0)
    assert game.state.bots == ("random", None) and game.state.left == (False, False)
    assert verify_log(game.events) == game.state


def test_a_seat_a_bot_plays_after_its_timeouts_cannot_be_left() -> None:
    """A seat handed to a bot (`SeatAbandoned`) could still be left, logging a `SeatLeft` for
    a seat a bot already plays: the rules refuse it, and the audit refuses a log holding one."""
    game = Game(2, [None, "greedy"], max_timeouts=1)
    game.play(time_out(game.state, GREEDY, game.shuffler, "random"))
    assert game.state.bots == ("random", "greedy") and game.state.left == (False, False)
    with pytest.raises(rule_errors.WrongStep, match="random bot already plays"):
        game.do(0, Leave("greedy"))
    with pytest.raises(rule_errors.WrongStep):
        game.do(1, Leave("greedy"))  # a bot's own seat, from the start
    with pytest.raises(InvalidLog) as caught:
        verify_log([*game.events, SeatLeft(0, "greedy")])
    assert (caught.value.sequence, caught.value.code) == (len(game.events) + 1, "wrong_step")


def test_only_a_seat_with_something_to_do_times_out() -> None:
    game = Game(2, [None, None])
    game.reveal_setup(0)
    with pytest.raises(rule_errors.NotYourTurn):
        game.do(0, TimeOut())
    assert human_seats_to_act(game.state) == (1,)


def test_a_timed_out_setup_plays_every_late_persons_reveals_and_no_bots() -> None:
    game = Game(4, [None, "greedy", None, None])
    game.reveal_setup(3)
    new = game.play(time_out(game.state, GREEDY, game.shuffler, "greedy"))
    timed = [event.seat for event in new if isinstance(event, TurnTimedOut)]
    assert timed == [0, 2]
    assert seats_to_act(game.state) == (1,)  # the bot's reveals are the bot's own moves
    assert game.state.timeouts == (1, 0, 1, 0)


def test_finishing_a_turn_stops_where_the_next_turn_begins() -> None:
    """A final turn that ends the round deals the next: the seat's setup reveals of the new
    round are not part of its timed-out turn."""
    game = Game(2, [None, None], end_score=500)
    game.play(time_out(game.state, GREEDY, game.shuffler, "greedy"))
    rounds = game.state.round
    while game.state.round == rounds:
        seat = game.state.current
        assert seat is not None
        turn = game.state.turn
        game.play(finish_turn(game.state, seat, GREEDY, game.shuffler))
        assert game.state.turn == turn + 1
    assert game.state.phase == "setup"
    assert all(grid.up == 0 for grid in game.state.grids)


def test_logs_with_the_seats_events_audit_and_tampering_is_caught() -> None:
    game = Game(3, [None, "greedy"], max_timeouts=1)
    game.do(0, Leave())
    game.do(None, Join("Cyd"))
    game.do(None, Join("Dee"))
    game.play(time_out(game.state, GREEDY, game.shuffler, "greedy"))
    assert verify_log(game.events) == game.state
    abandoned = next(i for i, e in enumerate(game.events) if isinstance(e, SeatAbandoned))
    without = game.events[:abandoned] + game.events[abandoned + 1 :]
    with pytest.raises(InvalidLog) as caught:
        verify_log(without)  # the streak reached max_timeouts: the rules hand the seat over
    assert caught.value.sequence == abandoned + 1 and caught.value.code == "event_mismatch"
    with pytest.raises(InvalidLog) as caught:
        verify_log([*game.events[: abandoned - 1], SeatAbandoned(0, "greedy")])  # no timeout
    assert caught.value.code == "unexpected_event"


def test_the_new_state_survives_a_snapshot() -> None:
    game = Game(3, [None, "greedy", None], max_timeouts=2, turn_seconds=60)
    game.play(time_out(game.state, GREEDY, game.shuffler, "greedy"))
    game.do(2, Leave())
    back = state_from_data(state_to_data(game.state))
    assert back == game.state
    assert (back.bots, back.timeouts, back.left) == (
        (None, "greedy", "greedy"),
        (1, 0, 1),
        (False, False, True),
    )


@pytest.mark.parametrize(
    "options",
    [
        {"turn_seconds": 4},
        {"turn_seconds": 86_401},
        {"turn_seconds": True},
        {"turn_seconds": 5.0},
        {"max_timeouts": 0},
        {"max_timeouts": 21},
        {"max_timeouts": None},
    ],
)
def test_clock_options_are_bounded(options: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions):
        Options(**options)  # type: ignore[arg-type]


def test_clock_options_at_their_bounds() -> None:
    assert Options(turn_seconds=5, max_timeouts=1).to_data()["turn_seconds"] == 5
    assert Options(turn_seconds=86_400, max_timeouts=20).max_timeouts == 20


def test_a_waiting_game_is_canceled_for_a_reason_and_its_log_audits() -> None:
    """R13: a game waiting for players can be called off; its state and view say so, the
    rules refuse everything after it, and the audit recovers the cancel from the log."""
    game = Game(3, [None])
    assert game.do(None, Cancel("expired")) == [GameCanceled("expired")]
    assert game.state.phase == CANCELED
    assert view(game.state, None).to_data()["status"] == "canceled"
    assert verify_log(game.events) == game.state == replay(game.events)
    assert state_from_data(state_to_data(game.state)) == game.state


@pytest.mark.parametrize("reason", ["declined", "canceled", "expired"])
def test_every_documented_reason_cancels(reason: str) -> None:
    assert Game(2, []).do(None, Cancel(reason)) == [GameCanceled(reason)]


def test_a_started_game_or_an_unknown_reason_is_not_canceled() -> None:
    started = Game(2, [None, "greedy"])
    with pytest.raises(WrongStep, match="played out"):
        decide(started.state, None, Cancel("canceled"))
    with pytest.raises(WrongStep, match="one of declined, canceled, expired"):
        decide(Game(2, []).state, None, Cancel("bored"))
    with pytest.raises(InvalidLog, match="played out"):
        verify_log([*started.events, GameCanceled("canceled")])

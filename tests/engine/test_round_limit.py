"""R13, no person left: the service's `StopPlay` ends a game that bots alone play, on the
totals so far; the rules allow it exactly while no person holds a seat, so an audit checks
it without knowing how many rounds the service plays first."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import (
    GreedyPlayer,
    Join,
    Leave,
    Options,
    SeededShuffler,
    StopPlay,
    TimeOut,
    act,
    replay,
)
from engine import errors as rule_errors
from engine.audit import InvalidLog, verify_log
from engine.autoplay import bot_seats_to_act, past_round_limit
from engine.events import (
    END_SCORE,
    ROUND_LIMIT,
    GameEnded,
    RoundDealt,
    RoundEnded,
    event_from_data,
    upcast,
)
from engine.simulate import chooser_from_view
from engine.snapshot import state_from_data, state_to_data

from .support import Table, cols, rig_deal, types

GREEDY = chooser_from_view(GreedyPlayer())
#: The same grid for both seats: equal rounds, so equal totals without the closer penalty.
TWIN = cols([1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12])
SETUP = [[(0, 0), (0, 1)], [(0, 0), (0, 1)]]


def bots_table(seats: int, end_score: int = 100_000) -> Table:
    table = Table(seats, join=False, options=Options(end_score=end_score))
    for seat in range(seats):
        table.do(None, Join(f"Bot {seat}", "random"))
    return table


def play_bots_until(table: Table, done: type) -> None:
    """The bots' moves until one of them causes an event of type `done`."""
    while True:
        seat = bot_seats_to_act(table.state)[0]
        if any(isinstance(e, done) for e in table.do(seat, GREEDY(table.state, seat))):
            return


def twin_table() -> Table:
    """Two persons dealt the same grid every round, with no closer penalty."""
    deal = rig_deal(2, [TWIN, TWIN])
    return Table(2, [deal] * 5, options=Options(closer_penalty=False))


def test_stopping_ends_a_bots_game_on_its_totals_with_ties_shared() -> None:
    table = twin_table()
    table.setup(SETUP)
    assert table.play_round_by_reveals().totals == (78, 78)
    table.do(0, Leave())
    table.do(1, Leave())
    assert table.state.phase == "setup" and table.state.round == 2
    assert table.do(None, StopPlay()) == [GameEnded((78, 78), (0, 1), ROUND_LIMIT)]
    assert table.state.phase == "finished" and table.state.winners == (0, 1)
    assert verify_log(table.events) == table.state


def test_the_rules_refuse_to_stop_while_a_person_plays() -> None:
    table = twin_table()
    table.do(0, Leave())
    with pytest.raises(rule_errors.WrongStep, match="seat 1"):
        table.do(None, StopPlay())
    waiting = Table(2, join=False)
    waiting.do(None, Join("Bot", "greedy"))
    with pytest.raises(rule_errors.GameNotStarted):
        waiting.do(None, StopPlay())


def test_rounds_count_from_the_first_deal_with_no_person() -> None:
    table = twin_table()
    table.setup(SETUP)
    table.do(0, Leave())
    table.do(1, Leave())  # mid-round: this round was dealt to a person
    assert table.state.unattended_rounds == 0
    play_bots_until(table, RoundEnded)
    assert table.state.unattended_rounds == 1 and not past_round_limit(table.state, 1)
    play_bots_until(table, RoundEnded)
    assert table.state.unattended_rounds == 2 and past_round_limit(table.state, 1)


def test_a_bots_game_stops_as_the_round_after_the_limit_is_dealt() -> None:
    table = bots_table(3)
    assert table.state.unattended_rounds == 1  # the last bot's join dealt round 1
    while not past_round_limit(table.state, 2):
        play_bots_until(table, RoundDealt)
    assert table.state.round == 3 and len(table.state.rounds) == 2
    assert all(grid.up == 0 for grid in table.state.grids)  # not a card of round 3 turned
    [ended] = table.do(None, StopPlay())
    assert ended == GameEnded(table.state.totals, table.state.winners, ROUND_LIMIT)
    assert min(table.state.totals) == table.state.totals[table.state.winners[0]]
    assert not past_round_limit(table.state, 2)  # finished: nothing more to stop
    assert state_from_data(state_to_data(table.state)) == table.state
    assert verify_log(table.events) == table.state


def test_an_abandoned_clock_game_has_no_person_left() -> None:
    table = Table(2, options=Options(turn_seconds=30, max_timeouts=1))
    for seat in (0, 1):
        table.do(seat, TimeOut())
    assert table.state.bots == ("greedy", "greedy") and table.state.unattended
    assert types(table.do(None, StopPlay())) == ["GameEnded"]


def test_the_audit_refuses_a_stop_while_a_person_plays_and_a_changed_reason() -> None:
    table = twin_table()
    table.do(0, Leave())
    stopped = GameEnded((0, 0), (0, 1), ROUND_LIMIT)
    with pytest.raises(InvalidLog) as caught:
        verify_log([*table.events, stopped])
    assert caught.value.code == "wrong_step" and caught.value.sequence == len(table.events) + 1
    table.do(1, Leave())
    with pytest.raises(InvalidLog) as caught:
        verify_log([*table.events, GameEnded((0, 0), (0, 1), END_SCORE)])
    assert caught.value.code == "event_mismatch"
    assert verify_log([*table.events, stopped]).phase == "finished"


def test_a_schema_1_game_end_was_an_end_score() -> None:
    old = {"totals": [101, 40], "winners": [1]}
    assert event_from_data("GameEnded", old, 1) == GameEnded((101, 40), (1,), END_SCORE)
    with pytest.raises(ValueError, match="reason"):
        upcast("GameEnded", 1, {**old, "reason": ROUND_LIMIT})


@given(
    bots=st.lists(st.booleans(), min_size=2, max_size=8),
    leavers=st.sets(st.integers(0, 7)),
    started=st.booleans(),
)
def test_stopping_is_legal_exactly_when_no_person_holds_a_seat(
    bots: list[bool], leavers: set[int], started: bool
) -> None:
    seats = len(bots)
    joiners = bots if started else bots[:-1]
    state = replay(Table(seats, join=False).events)
    for number, bot in enumerate(joiners):
        joiner = Join(f"P{number}", "greedy" if bot else None)
        state = act(state, None, joiner, SeededShuffler(1))[1]
    for seat in sorted(leavers & set(range(len(joiners)))):
        if state.bots[seat] is None:
            state = act(state, seat, Leave())[1]
    no_person = started and None not in state.bots
    try:
        [ended] = act(state, None, StopPlay())[0]
    except (rule_errors.WrongStep, rule_errors.GameNotStarted):
        assert not no_person
    else:
        assert no_person and ended.reason == ROUND_LIMIT  # type: ignore[union-attr]

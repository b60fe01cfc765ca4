"""R14: a rated game's ranks (ties share a rank, seats handed over to a bot rank last) and
who may sit at a rated table (accounts only, one seat each, built-in bots included)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Join, Options, RuleError, create_game, replay
from engine.events import GameCreated, SeatAbandoned, SeatLeft
from engine.ranking import final_ranks, handed_over
from engine.state import GameState

from .support import Table
from .test_errors import refused


def finished(totals: list[int]) -> GameState:
    state = replay(create_game(len(totals)))
    state.totals = tuple(totals)
    return state


def test_the_lowest_total_ranks_first_and_ties_share_a_rank() -> None:
    assert final_ranks(finished([40, 12, 40, 7]), frozenset()) == (3, 2, 3, 1)


def test_seats_handed_over_rank_last_together_whatever_their_totals() -> None:
    assert final_ranks(finished([3, 50, 9, 80]), frozenset({0, 2})) == (3, 1, 3, 2)


def test_the_seats_handed_over_are_those_left_or_abandoned() -> None:
    events = [GameCreated(4, Options()), SeatLeft(1, "greedy"), SeatAbandoned(3, "greedy")]
    assert handed_over(events) == frozenset({1, 3})


@given(st.lists(st.integers(-20, 200), min_size=2, max_size=8), st.data())
def test_ranks_follow_the_totals_among_the_seats_that_stayed(
    totals: list[int], data: st.DataObject
) -> None:
    gone = frozenset(data.draw(st.sets(st.integers(0, len(totals) - 1))))
    ranks = final_ranks(finished(totals), gone)
    stayed = [seat for seat in range(len(totals)) if seat not in gone]
    for a in stayed:
        beaten = sum(totals[b] < totals[a] for b in stayed)
        assert ranks[a] == beaten + 1
    assert all(ranks[seat] == len(stayed) + 1 for seat in gone)


def test_a_rated_game_seats_accounts_and_each_once_built_in_bots_included() -> None:
    table = Table(3, join=False, options=Options(rated=True))
    table.do(None, Join("greedy", bot="greedy", account="greedy"))
    assert refused(table.state, None, Join("greedy", bot="greedy", account="greedy")) == (
        "already_seated"
    )
    assert refused(table.state, None, Join("a guest")) == "account_required"
    casual = Table(3, join=False)
    casual.do(None, Join("greedy", bot="greedy", account="greedy"))
    casual.do(None, Join("greedy", bot="greedy", account="greedy"))  # casual: a bot twice
    assert casual.state.bots == ("greedy", "greedy", None)


def test_rated_must_be_a_boolean() -> None:
    with pytest.raises(RuleError):
        Options(rated=1)  # type: ignore[arg-type]

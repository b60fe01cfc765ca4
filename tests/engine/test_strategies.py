"""The built-in strategies: legal choices only, no hidden state read, replayable choices, and
the history and card counting they see."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    DISCARD,
    FULL_DECK,
    Action,
    Event,
    GameState,
    Replace,
    RiggedShuffler,
    SeededShuffler,
    view,
)
from engine.decide import act, seats_to_act
from engine.players import GreedyPlayer
from engine.shuffle import Shuffler
from engine.simulate import start_game
from engine.state import DECK, FINISHED, PLAYING
from engine.strategies import STRATEGIES, History, Seen, choose
from engine.strategies.counting import discard_pile
from engine.strategies.planner import RUSH_AFTER, Planner, Style
from engine.view import FACE_DOWN, FACE_UP, Cell, GameView, HeldCard, event_for_viewer

NAMES = tuple(STRATEGIES)
Deal = tuple[int, ...]


def seat_to_act(state: GameState) -> int:
    if state.phase == PLAYING and state.current is not None:
        return state.current
    return seats_to_act(state)[0]


class Step(NamedTuple):
    state: GameState
    seat: int
    seen: Seen
    action: Action
    log: list[Event]  # the log so far (a copy)


def steps(
    lineup: Sequence[str], shuffler: Shuffler, key: str = "k", max_actions: int = 20_000
) -> Iterator[Step]:
    """Play a game with `lineup`; yield each step before its action is applied. Histories are
    kept incrementally, as the tournament does."""
    seats = len(lineup)
    events, state = start_game(seats, shuffler)
    histories = [History(seat, seats, events) for seat in range(seats)]
    for _ in range(max_actions):
        if state.phase == FINISHED:
            return
        seat = seat_to_act(state)
        seen = Seen(view(state, seat), histories[seat], key)
        action = choose(lineup[seat], seen)
        yield Step(state, seat, seen, action, list(events))
        new, state = act(state, seat, action, shuffler)
        events.extend(new)
    raise AssertionError("the game did not end")


@st.composite
def lineups(draw: st.DrawFn) -> tuple[tuple[str, ...], int]:
    seats = draw(st.integers(2, 8))
    return tuple(draw(st.sampled_from(NAMES)) for _ in range(seats)), draw(st.integers(0, 2**62))


def check_legal_game(lineup: tuple[str, ...], seed: int) -> None:
    for step in steps(lineup, SeededShuffler(seed), key=str(seed)):
        assert step.action in step.seen.view.legal_actions, (lineup[step.seat], step)


@pytest.mark.parametrize("seats", [2, 5, 8])
def test_every_strategy_chooses_legal_actions(seats: int) -> None:
    """A quick round of every strategy at every seat count sampled (the property below
    searches many more)."""
    lineup = tuple(NAMES[(seats + i) % len(NAMES)] for i in range(seats))
    check_legal_game(lineup, seed=seats)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lineups())
def test_strategies_only_choose_legal_actions(case: tuple[tuple[str, ...], int]) -> None:
    check_legal_game(*case)


def twin_deals(seats: int, seed: int, cells: Sequence[int]) -> tuple[Deal, Deal]:
    """Two round-1 deals that differ only in cards no one has seen yet: seat 0's `cells`
    (or, without cells, two cards of the draw pile) traded with cards of other values deep
    in the draw pile."""
    deck = list(SeededShuffler(seed).deal_order(1))
    twin = list(deck)
    deep = list(range(len(deck) - 1, seats * 12 + 40, -1))
    for cell in cells or (deep.pop(),):
        other = next(i for i in deep if twin[i] != twin[cell])
        deep.remove(other)
        twin[cell], twin[other] = twin[other], twin[cell]
    assert sorted(twin) == sorted(FULL_DECK) and twin != deck
    return tuple(deck), tuple(twin)


def seen_data(seen: Seen) -> tuple[object, ...]:
    return seen.view.to_data(), list(seen.history)


def twin_choices(name: str, seats: int, seed: int, cells: Sequence[int]) -> int:
    """Play the twins side by side while the seat to act has seen the same things in both,
    checking it makes the same choice; how many choices were compared."""
    deal, twin = twin_deals(seats, seed, cells)
    lineup = (name,) * seats
    a = steps(lineup, RiggedShuffler([deal], fallback=SeededShuffler(seed)), key="twin")
    b = steps(lineup, RiggedShuffler([twin], fallback=SeededShuffler(seed)), key="twin")
    compared = 0
    for one, two in zip(a, b, strict=False):
        assert one.seat == two.seat
        if seen_data(one.seen) != seen_data(two.seen):
            return compared  # a difference became visible to this seat: the games may part
        assert one.action == two.action, (name, compared)
        compared += 1
    return compared


@pytest.mark.parametrize("name", NAMES)
def test_no_strategy_reads_hidden_state(name: str) -> None:
    """Twin games that differ only in face-down cards and the draw pile: the same choices as
    long as the seat to act has seen the same things."""
    for seats, seed in ((2, 3), (3, 8)):
        assert twin_choices(name, seats, seed, cells=()) > 20
        assert twin_choices(name, seats, seed, cells=(5, 11)) > 3  # its own face-down cards


def test_the_twins_do_differ_in_hidden_cards() -> None:
    """The twin test compares games that really differ."""
    deal, twin = twin_deals(2, 3, cells=(5, 11))
    a = next(steps(("greedy", "greedy"), RiggedShuffler([deal]))).state
    b = next(steps(("greedy", "greedy"), RiggedShuffler([twin]))).state
    assert a.grids != b.grids and a.draw_pile != b.draw_pile
    assert view(a, 0).to_data() == view(b, 0).to_data()


@pytest.mark.parametrize("name", NAMES)
def test_same_key_and_version_give_the_same_choice(name: str) -> None:
    """A bot replays exactly: the choice depends on the key, the view and the history only,
    not on what an instance remembers (a fresh history, without memo, chooses the same)."""
    for index, step in enumerate(steps((name, "greedy"), SeededShuffler(5), key="g-5")):
        if index % 7 == 0 and step.seat == 0:
            fresh = History(0, 2, step.log)
            assert choose(name, Seen(view(step.state, 0), fresh, "g-5")) == step.action


def test_the_random_strategy_depends_on_its_key() -> None:
    state = next(steps(("random", "random"), SeededShuffler(1))).state
    seen = view(state, 0)
    choices = {choose("random", Seen(seen, (), f"game-{i}")) for i in range(40)}
    assert len(choices) > 3
    assert {choose("random", Seen(seen, (), "same")) for _ in range(10)} == {
        choose("random", Seen(seen, (), "same"))
    }


def test_greedy_strategy_is_the_greedy_player() -> None:
    """`engine.players.GreedyPlayer` (existing callers) and the `greedy` strategy agree."""
    player = GreedyPlayer()
    for step in steps(("rusher", "greedy"), SeededShuffler(2)):
        assert choose("greedy", step.seen) == player.choose(step.seen.view)


def test_registry_describes_every_strategy_in_one_sentence() -> None:
    assert {"random", "greedy", "rusher", "clearer", "statistician"} <= set(STRATEGIES)
    for name, info in STRATEGIES.items():
        text = info.description
        assert text.endswith(".") and text.count(". ") == 0 and len(text) < 200, name
        assert callable(info.factory().choose)


def test_history_shows_events_as_the_seat_may_see_them() -> None:
    events, _ = start_game(3, SeededShuffler(4))
    for seat in range(3):
        history = History(seat, 3, events)
        assert len(history) == len(events)
        assert [e["data"] for e in history] == [event_for_viewer(e, seat, 3) for e in events]
        assert history[-1]["type"] == "RoundDealt"
        assert "deck" not in history[-1]["data"]
        assert history[1:3] == [history[1], history[2]]
    with pytest.raises(IndexError):
        History(0, 3, events)[len(events)]


def test_history_redacts_lazily_and_sees_appended_events() -> None:
    events: list[Event] = []
    history = History(0, 2, events)
    shared, _ = start_game(2, SeededShuffler(9))
    events.extend(shared[:2])
    assert len(history) == 2 and history[0]["type"] == "GameCreated"
    events.extend(shared[2:])
    assert len(history) == len(shared) and history[-1]["type"] == "RoundDealt"


def test_discard_pile_is_followed_exactly_from_the_history() -> None:
    """Card counting is right: the discard pile followed through a seat's history is the
    engine's own discard pile at every step, reshuffles included (long stalled rounds)."""
    checked = reshuffled = 0
    for step in steps(("clearer", "statistician", "rusher"), SeededShuffler(6)):
        pile = discard_pile(step.seen.history)
        assert pile.cards == list(step.state.discard), checked
        reshuffled += step.state.reshuffles
        checked += 1
    assert checked > 100


class Stubborn(Planner):
    """A planner that never chooses to close a round (it would have to be sure to win it)."""

    style = Style(close_at=1.01, patience=10**6)


def test_a_stalled_round_is_ended() -> None:
    """Past `RUSH_AFTER` turns of a round a planner only hurries to close it, so two planners
    that never choose to close still finish the game, each round within 12 turns a seat of
    the limit."""
    seats = 2
    shuffler = SeededShuffler(11)
    events, state = start_game(seats, shuffler)
    histories = [History(seat, seats, events) for seat in range(seats)]
    players = [Stubborn(), Stubborn()]
    longest = 0
    for _ in range(20_000):
        if state.phase == FINISHED:
            break
        seat = seat_to_act(state)
        history = histories[seat]
        action = players[seat].choose(Seen(view(state, seat), history, "stubborn"))
        longest = max(longest, discard_pile(history).turns)
        new, state = act(state, seat, action, shuffler)
        events.extend(new)
    assert state.phase == FINISHED
    assert RUSH_AFTER <= longest <= RUSH_AFTER + 2 * 12


def held_view(
    grid: Sequence[Sequence[int | None]], held: int, others: Sequence[int | None]
) -> GameView:
    """A view of seat 0 holding a drawn card `held`, its grid (4 columns of 3: a value face
    up, None face down) and the other seat's, from a real game's step with the same options."""
    for step in steps(("greedy", "greedy"), SeededShuffler(1)):
        seen = step.seen.view
        if seen.you == 0 and seen.held_card is not None and seen.held_card.source == DECK:
            break
    mine = _player_grid(grid)
    theirs = _player_grid([others[i : i + 3] for i in range(0, 12, 3)])
    players = (
        replace(seen.players[0], grid=mine),
        replace(seen.players[1], grid=theirs),
    )
    return replace(seen, players=players, held_card=HeldCard(0, DECK, held), closer_seat=None)


def _player_grid(grid: Sequence[Sequence[int | None]]) -> tuple[tuple[Cell, ...], ...]:
    return tuple(
        tuple(Cell(FACE_DOWN, None) if v is None else Cell(FACE_UP, v) for v in column)
        for column in grid
    )


PLANNERS = ("rusher", "clearer", "statistician")


@pytest.mark.parametrize("name", PLANNERS)
def test_planners_never_clear_a_column_of_negative_cards(name: str) -> None:
    """Three -1s clear to 0 and lose the seat 3 points (R8): a planner keeps them apart."""
    grid = [(-1, -1, 5), (3, 2, None), (None, None, None), (4, None, None)]
    seen = held_view(grid, -1, [None] * 12)
    assert choose(name, Seen(seen)) != Replace(0, 2)


@pytest.mark.parametrize("name", PLANNERS)
def test_planners_clear_a_column_of_high_cards(name: str) -> None:
    grid = [(10, 10, 1), (3, 2, None), (None, None, None), (4, None, None)]
    seen = held_view(grid, 10, [None] * 12)
    assert choose(name, Seen(seen)) == Replace(0, 2)


def test_statistician_does_not_close_when_it_expects_to_lose_the_round() -> None:
    """With 40 points showing against an opponent at 6 with three cards to turn, closing
    would double its score (R11): it keeps its last card face down."""
    grid = [(9, 8, 7), (6, 5, 4), (1, 1, 0), (-1, 0, None)]
    seen = held_view(grid, 2, [0, 1, 2, 0, 1, 2, None, None, None, -1, 1, 0])
    action = choose("statistician", Seen(seen))
    assert action not in (Replace(3, 2), DISCARD)


def test_statistician_closes_when_it_expects_to_be_lowest() -> None:
    grid = [(0, 1, -1), (0, 1, 2), (-2, 0, 1), (-1, 0, None)]
    seen = held_view(grid, 0, [9, 10, 11, 12, 8, None, None, None, None, None, None, None])
    assert choose("statistician", Seen(seen)) == Replace(3, 2)


def test_seen_rng_is_seeded_by_key_version_and_seat() -> None:
    state = next(steps(("random", "random"), SeededShuffler(1))).state
    one: GameView = view(state, 0)
    two: GameView = view(state, 1)
    assert Seen(one, (), "k").rng().random() == Seen(one, (), "k").rng().random()
    assert Seen(one, (), "k").rng().random() != Seen(two, (), "k").rng().random()
    assert Seen(one, (), "k").rng().random() != Seen(one, (), "j").rng().random()


def test_without_the_doubling_penalty_closing_holds_no_fear() -> None:
    """R12 `closer_penalty` off: holding a 12 it has no use for, the statistician discards it
    and turns its last card; with the penalty on it would rather spoil a face-up card than
    close at those odds."""
    grid = [(9, 8, 7), (6, 5, 4), (1, 1, 0), (-1, 0, None)]
    seen = held_view(grid, 12, [0, 1, 2, 0, 1, 2, None, None, None, -1, 1, 0])
    assert choose("statistician", Seen(seen)) not in (Replace(3, 2), DISCARD)
    relaxed = replace(seen, options={"end_score": 100, "closer_penalty": False})
    assert choose("statistician", Seen(relaxed)) == DISCARD

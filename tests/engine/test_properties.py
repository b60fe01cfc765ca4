"""Properties of random legal play, 2 to 8 seats, many seeds, random, greedy and stalling players.

Each game is played action by action through `act`; the checks after an action are chosen per
test (their cost differs a lot), and every finished log is checked against R3, R5, R10, R11.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note
from hypothesis import strategies as st

from engine import (
    DISCARD,
    DRAW,
    FULL_DECK,
    TAKE_DISCARD,
    Action,
    Event,
    GameState,
    GreedyPlayer,
    Join,
    Options,
    RandomPlayer,
    Replace,
    Reveal,
    RuleError,
    SeededShuffler,
    create_game,
    evolve,
    legal_actions,
    replay,
    seats_to_act,
    view,
)
from engine.actions import REPLACES, REVEALS
from engine.decide import act
from engine.events import (
    CardDrawn,
    CardReplaced,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    DrawPileReshuffled,
    FinalTurnsBegan,
    GameEnded,
    PlayerJoined,
    PlayStarted,
    RoundDealt,
    RoundEnded,
)
from engine.simulate import chooser_from_legal, chooser_from_view
from engine.state import DECK, FINISHED, PLACE_DRAWN, PLACE_TAKEN, PLAYING, WAITING
from engine.view import FACE_DOWN, REMOVED, event_for_viewer

Chooser = Callable[[GameState, int], Action]
KINDS = ("random", "greedy", "stall")
DECK_COUNT = Counter(FULL_DECK)

# Every action a seat could send, legal or not, including positions off the grid.
CANDIDATES: tuple[Action, ...] = (
    *REVEALS,
    *REPLACES,
    Reveal(4, 0),
    Reveal(0, 3),
    Reveal(-1, 0),
    Replace(4, 0),
    Replace(0, 3),
    Replace(0, -1),
    DRAW,
    TAKE_DISCARD,
    DISCARD,
)

#: Long searches: `make test` runs them, `make test-fast` does not.
pytestmark = pytest.mark.slow


def stalling_chooser(seed: int, stall: float = 0.85) -> Chooser:
    """Mostly draws and puts the card on a face-up card, so rounds are long and the draw pile
    runs out (R9); otherwise plays at random."""
    rng = random.Random(seed)

    def choose(state: GameState, seat: int) -> Action:
        legal = legal_actions(state, seat)
        if state.phase == PLAYING and rng.random() < stall:
            if DRAW in legal:
                return DRAW
            if state.step in (PLACE_DRAWN, PLACE_TAKEN):
                grid = state.grids[seat]
                face_up = [
                    a for i, a in enumerate(REPLACES) if grid.is_up(i) and not grid.is_gone(i)
                ]
                if face_up:
                    return rng.choice(face_up)
        return rng.choice(legal)

    return choose


def make_chooser(kind: str, seed: int) -> Chooser:
    if kind == "random":
        return chooser_from_legal(RandomPlayer(seed))
    if kind == "greedy":
        return chooser_from_view(GreedyPlayer())
    return stalling_chooser(seed)


@dataclass(frozen=True)
class Spec:
    seats: int
    seed: int
    kinds: tuple[str, ...]
    options: Options


@st.composite
def specs(
    draw: st.DrawFn,
    kinds: Sequence[str] = ("random", "greedy"),
    end_scores: Sequence[int] = (100, 100, 60, 30, 1),
) -> Spec:
    seats = draw(st.integers(2, 8))
    return Spec(
        seats=seats,
        seed=draw(st.integers(0, 2**63)),
        kinds=tuple(draw(st.sampled_from(kinds)) for _ in range(seats)),
        options=Options(
            end_score=draw(st.sampled_from(end_scores)), closer_penalty=draw(st.booleans())
        ),
    )


Step = Callable[[GameState, int | None, Action, list[Event], GameState, list[Event]], None]


def play(spec: Spec, on_step: Step | None = None, max_actions: int = 50_000) -> list[Event]:
    """A whole game; `on_step(before, seat, action, new_events, after, log)` after each action.
    In setup the seat to act is picked at random among those with reveals left (R4.3)."""
    shuffler = SeededShuffler(spec.seed)
    rng = random.Random(spec.seed)
    choosers = [make_chooser(kind, spec.seed + seat) for seat, kind in enumerate(spec.kinds)]
    log = create_game(spec.seats, spec.options)
    state = replay(log)
    for _ in range(max_actions):
        if state.phase == FINISHED:
            return log
        seat: int | None
        action: Action
        if state.phase == WAITING:
            seat, action = None, Join(f"player {len(log)}")
        else:
            seat = rng.choice(seats_to_act(state))
            action = choosers[seat](state, seat)
        snapshot = state.copy()
        new, after = act(state, seat, action, shuffler)
        assert state == snapshot, "decide changed the state it was given"
        assert new, "a legal action records at least one event"
        log.extend(new)
        if on_step is not None:
            on_step(state, seat, action, new, after, log)
        state = after
    raise AssertionError(f"no end after {max_actions} actions")


# Checks after one action.


def check_fold_and_conservation(
    before: GameState, seat: int | None, action: Action, new: list[Event], after: GameState
) -> None:
    """`evolve` folds the new events into `act`'s state; all 150 cards after every event."""
    state = before
    for event in new:
        state = evolve(state, event)
        if state.phase != WAITING:
            assert Counter(state.cards_in_play()) == DECK_COUNT, event
    assert state == after
    assert after.version == before.version + len(new)


def check_view(state: GameState, viewer: int | None) -> None:
    seen = view(state, viewer)
    for player in seen.players:
        for column in player.grid:
            for cell in column:
                if cell.state == FACE_DOWN or cell.state == REMOVED:
                    assert cell.value is None
    if state.held is not None:
        held = seen.held_card
        assert held is not None and held.seat == state.current
        if state.held_from == DECK and viewer != state.current:
            assert held.value is None
        else:
            assert held.value == state.held
    else:
        assert seen.held_card is None
    assert seen.legal_actions == tuple(legal_actions(state, viewer))
    data = seen.to_data()
    assert "deck" not in data and "draw_pile" not in data


ACTION_EVENTS = (
    PlayerJoined,
    CardRevealed,
    CardDrawn,
    DiscardTaken,
    CardReplaced,
    DrawnCardDiscarded,
)


def check_last_action(state: GameState, viewer: int | None, log: list[Event]) -> None:
    """The view's last action shows the viewer no card its event feed does not: its cards are
    those of the last action's event as `event_for_viewer` gives it (a draw: the drawer's)."""
    last = view(state, viewer).last_action
    event = next(e for e in reversed(log) if isinstance(e, ACTION_EVENTS))
    data = event_for_viewer(event, viewer, state.seats)
    assert last is not None and last.seat == data["seat"]
    assert last.value == data.get("value") and last.replaced == data.get("replaced")
    if isinstance(event, CardDrawn) and viewer != event.seat:
        assert last.value is None


def check_event_views(event: Event, seats: int) -> None:
    for viewer in (None, *range(seats)):
        data = event_for_viewer(event, viewer, seats)
        if isinstance(event, RoundDealt):
            assert set(data) == {"round", "discard_top", "deck_size"}
        elif isinstance(event, DrawPileReshuffled):
            assert set(data) == {"deck_size"}
        elif isinstance(event, CardDrawn) and viewer != event.seat:
            assert data["value"] is None


def check_legal_actions(state: GameState, shuffler: SeededShuffler) -> None:
    """Every listed action is accepted; every other candidate is refused with a RuleError.
    (Joining is never listed; it is legal only while seats are open.)"""
    candidates = CANDIDATES if state.phase == WAITING else (*CANDIDATES, Join("late"))
    for seat in (None, *range(state.seats), state.seats, -1, True):
        legal = legal_actions(state, seat)
        assert len(set(legal)) == len(legal)
        for action in legal:
            events, _ = act(state, seat, action, shuffler)
            assert events
        for action in candidates:
            if action in legal:
                continue
            try:
                act(state, seat, action, shuffler)
            except RuleError:
                continue
            raise AssertionError(f"seat {seat} may {action} though it is not listed")


# Checks of a finished log.


def check_finished_log(log: list[Event], options: Options) -> None:
    state = replay(log)
    assert state.phase == FINISHED
    seats = state.seats
    game_ended = log[-1]
    assert isinstance(game_ended, GameEnded)
    rounds = [event for event in log if isinstance(event, RoundEnded)]
    assert rounds and rounds[-1] is log[-2]
    # R11: scores of each round; R3: totals, end score and winners.
    totals = [0] * seats
    for number, ended in enumerate(rounds, start=1):
        assert ended.round == number
        for seat, grid in enumerate(ended.grids):
            for column in range(4):
                cells = grid[column * 3 : column * 3 + 3]
                assert cells.count(None) in (0, 3)  # whole columns only (R8)
                if None not in cells:
                    assert not cells[0] == cells[1] == cells[2]  # every triple is removed
            assert ended.raw_scores[seat] == sum(v for v in grid if v is not None)
        raw = ended.raw_scores
        closer = ended.closer_seat
        doubled = (
            options.closer_penalty
            and raw[closer] > 0
            and any(raw[s] <= raw[closer] for s in range(seats) if s != closer)
        )
        assert ended.closer_doubled == doubled
        for seat in range(seats):
            factor = 2 if doubled and seat == closer else 1
            assert ended.round_scores[seat] == raw[seat] * factor
            totals[seat] += ended.round_scores[seat]
        assert list(ended.totals) == totals
        game_over = max(totals) >= options.end_score
        assert game_over == (ended is rounds[-1])
    assert list(game_ended.totals) == totals == list(state.totals)
    best = min(totals)
    assert game_ended.winners == tuple(s for s in range(seats) if totals[s] == best)
    check_round_structure(log, seats)


def check_round_structure(log: list[Event], seats: int) -> None:
    """R4: two reveals each before play; R5: who starts; R10: one more turn for each other
    seat after the closer, in seat order."""
    state = replay(log[:1])
    previous_closer: int | None = None
    closer: int | None = None
    final_turns: list[int] = []
    for event in log[1:]:
        if isinstance(event, PlayStarted):
            assert all(grid.up.bit_count() == 2 for grid in state.grids)
            if event.round == 1:
                sums = [sum(g.values[i] for i in range(12) if g.is_up(i)) for g in state.grids]
                assert event.seat == sums.index(max(sums))
            else:
                assert event.seat == previous_closer
        elif isinstance(event, FinalTurnsBegan):
            closer, final_turns = event.closer_seat, []
        elif closer is not None and isinstance(event, CardDrawn | DiscardTaken):
            final_turns.append(event.seat)  # each turn starts with one of these (R6)
        elif isinstance(event, RoundEnded):
            assert closer is not None and event.closer_seat == closer
            assert final_turns == [(closer + k) % seats for k in range(1, seats)]
            previous_closer, closer = closer, None
        state = evolve(state, event)


def slow(max_examples: int) -> settings:
    """Whole games are slow examples: no deadline, and a bounded number of them."""
    return settings(
        max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


@slow(100)
@given(specs(kinds=KINDS))
def test_cards_replay_and_immutability_at_every_step(spec: Spec) -> None:
    """All 150 cards after every event; replay of the log from scratch equals the live state
    after every action; the state before an action is unchanged by it."""

    def on_step(
        before: GameState,
        seat: int | None,
        action: Action,
        new: list[Event],
        after: GameState,
        log: list[Event],
    ) -> None:
        check_fold_and_conservation(before, seat, action, new, after)
        assert replay(log) == after

    log = play(spec, on_step)
    check_finished_log(log, spec.options)


@slow(50)
@given(specs(kinds=KINDS))
def test_no_view_shows_a_hidden_card(spec: Spec) -> None:
    def on_step(
        before: GameState,
        seat: int | None,
        action: Action,
        new: list[Event],
        after: GameState,
        log: list[Event],
    ) -> None:
        for viewer in (None, *range(after.seats)):
            check_view(after, viewer)
            check_last_action(after, viewer, log)
        for event in new:
            check_event_views(event, after.seats)

    play(spec, on_step)


@slow(40)
@given(specs(kinds=KINDS, end_scores=(100, 30, 1)))
def test_listed_actions_accepted_and_unlisted_refused(spec: Spec) -> None:
    shuffler = SeededShuffler(spec.seed)

    def on_step(
        before: GameState,
        seat: int | None,
        action: Action,
        new: list[Event],
        after: GameState,
        log: list[Event],
    ) -> None:
        check_legal_actions(after, shuffler)

    play(spec, on_step)


@slow(300)
@given(specs())
def test_every_game_ends_with_scores_totals_and_winners_by_the_rules(spec: Spec) -> None:
    log = play(spec)
    check_finished_log(log, spec.options)
    # Coverage, shown by --hypothesis-show-statistics.
    rounds = [e for e in log if isinstance(e, RoundEnded)]
    note(f"rounds: {'1' if len(rounds) == 1 else '2-4' if len(rounds) <= 4 else '5+'}")
    for kind in (ColumnRemoved, DrawPileReshuffled):
        if any(isinstance(e, kind) for e in log):
            note(f"has {kind.__name__}")
    if any(r.closer_doubled for r in rounds):
        note("a closer was doubled")
    if len(log[-1].winners) > 1:  # type: ignore[union-attr]
        note("shared win")


def test_stalling_play_reshuffles_and_keeps_every_invariant() -> None:
    """R9 under random play: long rounds run the draw pile out, repeatedly."""
    reshuffles = 0
    for seed in range(6):
        spec = Spec(2 + seed % 3, seed, ("stall",) * (2 + seed % 3), Options(end_score=1))

        def on_step(
            before: GameState,
            seat: int | None,
            action: Action,
            new: list[Event],
            after: GameState,
            log: list[Event],
        ) -> None:
            check_fold_and_conservation(before, seat, action, new, after)
            for event in new:
                if isinstance(event, DrawPileReshuffled):
                    assert after.discard[:1] == before.discard[-1:]
                    assert after.reshuffles >= 1

        log = play(spec, on_step)
        check_finished_log(log, spec.options)
        reshuffles += sum(isinstance(event, DrawPileReshuffled) for event in log)
    assert reshuffles >= 6

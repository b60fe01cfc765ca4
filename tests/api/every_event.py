"""A 4-seat game in which every event type of play occurs, planned on the engine and played
over HTTP by tests of the event schemas (tests/api/test_event_schemas.py, the generated
clients'); and a game with the seats' events (R13: leaving, timeouts, bots), `seats_plan`.

Greedy players never empty a 4-seat draw pile, so round 1 is stalled (draw, put the card on a
face-up one) until the pile runs out and is reshuffled; greedy players then finish the game.
The service derives every shuffle from the seed the same way, so the planned actions replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import (
    DRAW,
    EVENT_TYPES,
    Action,
    Cancel,
    Event,
    GreedyPlayer,
    Join,
    Leave,
    Options,
    Replace,
    Reveal,
    SeededShuffler,
    act,
    create_game,
    event_to_data,
    event_type,
    replay,
    schema_version,
    seats_to_act,
    view,
)
from engine.autoplay import time_out
from engine.simulate import chooser_from_view
from engine.view import FACE_UP, GameView

SEATS = 4
#: With this seed and end score the game has two rounds, a reshuffle and every event type of
#: play (the tests check it still does).
SEED, END_SCORE = 40, 40
#: The events of seats changing hands (R13), which `seats_plan` makes; `game_plan` the others.
SEAT_EVENTS = frozenset({"PlayerLeft", "SeatLeft", "TurnTimedOut", "SeatAbandoned"})
#: The end of a game called off before it started (R13), which `canceled_plan` makes.
CANCELED_EVENTS = frozenset({"GameCanceled"})
PLAY_EVENTS = frozenset(EVENT_TYPES) - SEAT_EVENTS - CANCELED_EVENTS


def stalling_choice(seen: GameView, greedy: GreedyPlayer) -> Action:
    """Draw and put the card on a face-up one: the round goes on until the pile runs out."""
    if DRAW in seen.legal_actions:
        return DRAW
    assert seen.you is not None
    for column, cells in enumerate(seen.players[seen.you].grid):
        for row, cell in enumerate(cells):
            if cell.state == FACE_UP and Replace(column, row) in seen.legal_actions:
                return Replace(column, row)
    return greedy.choose(seen)


@dataclass(frozen=True)
class Plan:
    """The game's actions (seat, action), the events they made, and how many of those events
    there were before the last action (the log of the game just before its end)."""

    actions: list[tuple[int, Action]]
    events: list[Event]
    before_last: int


def game_plan(seed: int = SEED, end_score: int = END_SCORE) -> Plan:
    """The game played on the engine."""
    shuffler = SeededShuffler(seed)
    events = create_game(SEATS, Options(end_score, True))
    state = replay(events)
    for seat in range(SEATS):
        new, state = act(state, None, Join(f"Player {seat}"), shuffler)
        events += new
    greedy, actions, before_last = GreedyPlayer(), [], 0
    while state.phase != "finished":
        before_last = len(events)
        seat = seats_to_act(state)[0]
        seen = view(state, seat)
        stalling = state.round == 1 and state.reshuffles == 0 and state.phase == "playing"
        action = stalling_choice(seen, greedy) if stalling else greedy.choose(seen)
        new, state = act(state, seat, action, shuffler)
        events += new
        actions.append((seat, action))
    return Plan(actions, events, before_last)


def seats_plan(end_score: int = 20) -> list[Event]:
    """A finished game on the engine with every seats' event (R13): seat 0's first player
    leaves before the start and another takes the seat, seat 3 is a bot, seat 1 lets its setup
    time run out (once is too often: `max_timeouts` 1) and seat 2 leaves at its first turn."""
    shuffler = SeededShuffler(SEED)
    events = create_game(SEATS, Options(end_score, turn_seconds=30, max_timeouts=1))
    state = replay(events)
    for action, seat in [(Join("Ann"), None), (Leave(), 0), (Join("Player 0"), None)]:
        new, state = act(state, seat, action, shuffler)
        events += new
    for seat in range(1, SEATS):
        joiner = Join(f"Player {seat}", "greedy" if seat == 3 else None)
        new, state = act(state, None, joiner, shuffler)
        events += new
    for seat, column in ((0, 0), (0, 1), (2, 0), (2, 1)):
        new, state = act(state, seat, Reveal(column, 0), shuffler)
        events += new
    choose = chooser_from_view(GreedyPlayer())
    new, state = time_out(state, choose, shuffler, "greedy")  # seat 1's reveals: a bot's now
    events += new
    while state.phase != "finished":
        seat = seats_to_act(state)[0]
        if seat == 2 and not state.left[2]:
            new, state = act(state, 2, Leave("random"))
            events += new
        new, state = act(state, seat, choose(state, seat), shuffler)
        events += new
    return events


def canceled_plan() -> list[Event]:
    """A game two of whose seats were taken, then called off (a challenge declined)."""
    events = create_game(SEATS, Options(end_score=END_SCORE))
    for name in ("Ada", "Bob"):
        events += act(replay(events), None, Join(name))[0]
    return events + act(replay(events), None, Cancel("declined"))[0]


def history_document(events: list[Event]) -> dict[str, Any]:
    """A history document (format `skyjo-history` 1) holding these events, for an import."""
    first = events[0]
    state = replay(events)
    return {
        "format": "skyjo-history",
        "format_version": 1,
        "game": {
            "seats": SEATS,
            "options": first.options.to_data(),  # type: ignore[union-attr]
            "players": [
                {"seat": s, "name": name} for s, name in enumerate(state.names) if name is not None
            ],
        },
        "events": [
            {
                "sequence": sequence,
                "type": event_type(event),
                "schema_version": schema_version(event),
                "data": event_to_data(event),
            }
            for sequence, event in enumerate(events, start=1)
        ],
    }

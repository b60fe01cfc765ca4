"""A 4-seat game in which every event type occurs, planned on the engine and played over HTTP
by tests of the event schemas (tests/api/test_event_schemas.py, the generated clients').

Greedy players never empty a 4-seat draw pile, so round 1 is stalled (draw, put the card on a
face-up one) until the pile runs out and is reshuffled; greedy players then finish the game.
The service derives every shuffle from the seed the same way, so the planned actions replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import (
    DRAW,
    Action,
    Event,
    GreedyPlayer,
    Join,
    Options,
    Replace,
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
from engine.view import FACE_UP, GameView

SEATS = 4
#: With this seed and end score the game has two rounds, a reshuffle and every event type
#: (the tests check it still does).
SEED, END_SCORE = 40, 40


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


def history_document(events: list[Event]) -> dict[str, Any]:
    """A history document (format `skyjo-history` 1) holding these events, for an import."""
    return {
        "format": "skyjo-history",
        "format_version": 1,
        "game": {
            "seats": SEATS,
            "options": {"end_score": END_SCORE, "closer_penalty": True},
            "players": [{"seat": s, "name": f"Player {s}"} for s in range(SEATS)],
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

"""Helpers for the history tests: engine players over HTTP, feeds, history documents built
from the stored log or from the engine alone, and what each viewer may see of an event."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from typing import Any

from rest_framework.test import APIClient

from engine import (
    DRAW,
    Action,
    Event,
    GameView,
    GreedyPlayer,
    Join,
    Options,
    Replace,
    SeededShuffler,
    act,
    action_to_data,
    event_to_data,
    event_type,
    replay,
    schema_version,
    seats_to_act,
    view,
)
from engine import create_game as create_engine_game
from engine.view import FACE_UP
from games.models import GameEvent
from tests.api.support import GAMES, bearer, get_view, view_from_data
from tests.api.support import act as act_over_http

GRID = 12  # cards per seat (R4)
DECK = 150  # cards (R1)


class Hoarder:
    """Draws and lays the card on one of its face-up cards for its first `stall` draws, so the
    round goes on and the draw pile runs out (R9); then plays as `GreedyPlayer`."""

    def __init__(self, stall: int = 0) -> None:
        self.stall = stall
        self.draws = 0
        self.greedy = GreedyPlayer()

    def choose(self, game_view: GameView) -> Action:
        legal = game_view.legal_actions
        held = game_view.held_card
        if self.draws < self.stall and game_view.status == "playing":
            if DRAW in legal:
                self.draws += 1
                return DRAW
            if held is not None and held.source == "deck" and game_view.you is not None:
                for column, cells in enumerate(game_view.players[game_view.you].grid):
                    for row, cell in enumerate(cells):
                        if cell.state == FACE_UP and Replace(column, row) in legal:
                            return Replace(column, row)
        return self.greedy.choose(game_view)


PlayerFactory = Callable[[], Hoarder | GreedyPlayer]


def engine_game(
    seats: int, seed: int, end_score: int, make_player: PlayerFactory = GreedyPlayer
) -> tuple[list[Event], list[tuple[int, Action]]]:
    """The game these players play with this seed on the engine alone, as the service plays it
    (joins named "Player 0", "Player 1"...): its events and the actions taken."""
    shuffler = SeededShuffler(seed)
    events = create_engine_game(seats, Options(end_score=end_score))
    state = replay(events)
    for seat in range(seats):
        new, state = act(state, None, Join(f"Player {seat}"), shuffler)
        events.extend(new)
    players = [make_player() for _ in range(seats)]
    actions = []
    while state.phase != "finished":
        seat = seats_to_act(state)[0]
        action = players[seat].choose(view(state, seat))
        new, state = act(state, seat, action, shuffler)
        events.extend(new)
        actions.append((seat, action))
    return events, actions


def document_of(events: Sequence[Event]) -> dict[str, Any]:
    """A `skyjo-history` document holding these engine events."""
    return {
        "format": "skyjo-history",
        "format_version": 1,
        "game": {},
        "events": [
            {
                "sequence": sequence,
                "type": event_type(event),
                "schema_version": schema_version(event),
                "at": "2026-01-01T00:00:00Z",
                "data": event_to_data(event),
            }
            for sequence, event in enumerate(events, start=1)
        ],
    }


@functools.cache
def _engine_history_json(seats: int, seed: int, end_score: int) -> str:
    return json.dumps(document_of(engine_game(seats, seed, end_score)[0]))


def engine_history(seats: int = 2, seed: int = 3, end_score: int = 1) -> dict[str, Any]:
    """A fresh copy of the history greedy players write with this seed (built once)."""
    document: dict[str, Any] = json.loads(_engine_history_json(seats, seed, end_score))
    return document


def stored_rows(game_id: str) -> list[tuple[int, str, int, Any]]:
    """(sequence, type, schema version, payload) of every stored event, in order."""
    return list(
        GameEvent.objects.filter(game_id=game_id)
        .order_by("sequence")
        .values_list("sequence", "type", "schema_version", "payload")
    )


def stored_history(game_id: str) -> dict[str, Any]:
    """The game's log as a history document, finished or not (the API exports finished
    games only)."""
    return {
        "format": "skyjo-history",
        "format_version": 1,
        "events": [
            {"sequence": seq, "type": kind, "schema_version": version, "data": payload}
            for seq, kind, version, payload in stored_rows(game_id)
        ],
    }


def feed_page(
    client: APIClient, game_id: str, token: str | None = None, **query: Any
) -> dict[str, Any]:
    response = client.get(f"{GAMES}/{game_id}/events", query, **(bearer(token) if token else {}))
    assert response.status_code == 200, response.content
    data: dict[str, Any] = response.json()
    return data


def whole_feed(
    client: APIClient, game_id: str, token: str | None = None, after: int = 0
) -> list[dict[str, Any]]:
    """Every event after `after` as the viewer sees it, page by page."""
    events: list[dict[str, Any]] = []
    while True:
        page = feed_page(client, game_id, token, after=after, limit=1000)
        events.extend(page["events"])
        if not page["events"]:
            return events
        after = page["events"][-1]["sequence"]


def visible_data(kind: str, payload: dict[str, Any], viewer: int | None, seats: int) -> Any:
    """What R4 and R7 let `viewer` (None: a spectator) learn from a stored event before the
    game ends: a deal shows only its first discard and the draw pile's size, a reshuffle only
    the new pile's size, a draw its value to the drawer only; the rest is face up for all."""
    if kind == "RoundDealt":
        return {
            "round": payload["round"],
            "discard_top": payload["deck"][seats * GRID],
            "deck_size": DECK - seats * GRID - 1,
        }
    if kind == "DrawPileReshuffled":
        return {"deck_size": len(payload["order"])}
    if kind == "CardDrawn" and viewer != payload["seat"]:
        return {**payload, "value": None}
    return payload


def drive_over_http(
    client: APIClient,
    game_id: str,
    tokens: Sequence[str],
    players: Sequence[Hoarder | GreedyPlayer],
    *,
    before_action: Callable[[int], None] | None = None,
    max_actions: int | None = None,
) -> int:
    """Each seat's engine player chooses from its own view as served (`view_from_data`) and
    sends its choice, until the game is finished (or `max_actions` were sent). Two requests an
    action: the actor's view, then the action. `before_action(n)` runs before the n-th
    (0-based). Answers the number of actions sent."""
    sent = 0
    current: int | None = None
    while max_actions is None or sent < max_actions:
        if current is None:  # setup (or the start): find a seat with a reveal left
            seat_views = (get_view(client, game_id, token) for token in tokens)
            found = next(((s, v) for s, v in enumerate(seat_views) if v["legal_actions"]), None)
            if found is None:
                break
            seat, served = found
        else:
            seat, served = current, get_view(client, game_id, tokens[current])
        choice = action_to_data(players[seat].choose(view_from_data(served)))
        assert choice in served["legal_actions"], (choice, served["legal_actions"])
        if before_action is not None:
            before_action(sent)
        answer = act_over_http(client, game_id, tokens[seat], choice)
        sent += 1
        if answer["status"] == "finished":
            break
        current = answer["current_seat"] if answer["status"] == "playing" else None
    return sent

"""A Python SDK generated from `openapi.yaml` plays whole games against a live server.

No hand-written HTTP here: every request goes through the generated client (the
`python_client` fixture generates and imports it), every answer is parsed into the generated
models, and errors come back as the generated `Problem` model for their documented status.
"""

from __future__ import annotations

import importlib
import json
import random
import uuid
from collections import Counter
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine import TURN_ACTION_KINDS

ROOT = Path(__file__).resolve().parents[2]
SEATS = 3
END_SCORE = 40
GAME_SEED = 2024
CHOICE_SEED = 7
#: A generous bound: a 3-seat game to 40 points takes a few hundred actions.
MAX_ACTIONS = 5000


def _act(client: Any, game_id: uuid.UUID, choice: Any, verbatim: bool) -> Any:
    """Send a legal action (one of the generated per-kind models) as it is to `act`, or with
    the generated operation of its kind, its position passed straight to `PositionRequest`."""
    from skyjo_service_api_client.api.turns import act
    from skyjo_service_api_client.models import PositionRequest, ReplaceAction, RevealAction

    if verbatim:
        return act.sync_detailed(game_id, client=client, body=choice)
    operation = importlib.import_module(f"skyjo_service_api_client.api.turns.{choice.action}")
    if isinstance(choice, RevealAction | ReplaceAction):
        body = PositionRequest(column=choice.column, row=choice.row)
        return operation.sync_detailed(game_id, client=client, body=body)
    return operation.sync_detailed(game_id, client=client)


def _choose(legal: list[Any], used: Counter[str], rng: random.Random) -> Any:
    """A seeded random choice, steered to a kind of action not used yet whenever one is legal."""
    fresh = [a for a in legal if a.action.value not in used]
    return rng.choice(fresh or legal)


@pytest.mark.django_db(transaction=True)
def test_a_three_seat_game_played_to_the_end(python_client: ModuleType, live_server: Any) -> None:
    from skyjo_service_api_client import AuthenticatedClient, Client
    from skyjo_service_api_client.api.lobby import create_game, get_game, join_game
    from skyjo_service_api_client.models import (
        CreateGameRequest,
        Game,
        GameStatus,
        Joined,
        JoinRequest,
        OptionsRequest,
    )

    lobby = Client(base_url=live_server.url, raise_on_unexpected_status=True)
    body = CreateGameRequest(
        seats=SEATS, options=OptionsRequest(end_score=END_SCORE), seed=GAME_SEED
    )
    created = create_game.sync_detailed(client=lobby, body=body)
    assert created.status_code == 201
    game = created.parsed
    assert isinstance(game, Game)
    assert game.status == GameStatus.WAITING
    assert (game.seats, game.open_seats, game.you) == (SEATS, SEATS, None)
    assert game.options.end_score == END_SCORE
    assert created.headers["Location"] == f"/api/v1/games/{game.id}"
    assert created.headers["ETag"] == f'"{game.version}"'

    seats = []
    for seat, name in enumerate(["Ada", "Bob", "Cyd"]):
        joined = join_game.sync(game.id, client=lobby, body=JoinRequest(name=name))
        assert isinstance(joined, Joined)
        assert (joined.seat, joined.name, joined.game.you) == (seat, name, seat)
        seats.append(
            AuthenticatedClient(
                base_url=live_server.url, token=joined.token, raise_on_unexpected_status=True
            )
        )
    assert joined.game.status == GameStatus.SETUP  # the last seat deals round 1

    rng = random.Random(CHOICE_SEED)
    used: Counter[str] = Counter()
    actions = 0
    finished: Game | None = None
    while finished is None:
        moved = False
        for seat, client in enumerate(seats):
            view = get_game.sync(game.id, client=client)
            assert isinstance(view, Game)
            assert view.you == seat
            if view.status == GameStatus.FINISHED:
                finished = view
                break
            if not view.legal_actions:
                continue
            choice = _choose(view.legal_actions, used, rng)
            answer = _act(client, game.id, choice, verbatim=actions % 2 == 1)
            assert answer.status_code == 200, answer.content
            after = answer.parsed
            assert isinstance(after, Game)
            assert after.you == seat
            assert after.version > view.version
            assert answer.headers["ETag"] == f'"{after.version}"'
            used[choice.action.value] += 1
            actions += 1
            moved = True
        assert finished is not None or moved, "no seat could act and the game is not over"
        assert actions < MAX_ACTIONS, f"no end after {actions} actions"

    assert set(used) == set(TURN_ACTION_KINDS), f"kinds used: {dict(used)}"
    assert finished.winners
    assert finished.legal_actions == []
    assert finished.current_seat is None
    assert max(p.total for p in finished.players) >= END_SCORE
    assert min(p.total for p in finished.players) == min(
        finished.players[w].total for w in finished.winners
    )
    assert finished.rounds and all(len(r.players) == SEATS for r in finished.rounds)
    assert all(
        [p.total for p in finished.players][s]
        == sum(r.players[s].round_score for r in finished.rounds)
        for s in range(SEATS)
    )


@pytest.mark.django_db(transaction=True)
def test_errors_are_generated_problem_models(python_client: ModuleType, live_server: Any) -> None:
    from skyjo_service_api_client import AuthenticatedClient, Client
    from skyjo_service_api_client.api.lobby import create_game, get_game, join_game, list_games
    from skyjo_service_api_client.api.turns import draw, reveal
    from skyjo_service_api_client.models import (
        CreateGameRequest,
        Game,
        GameList,
        GameStatus,
        Joined,
        JoinRequest,
        ListGamesStatus,
        PositionRequest,
        Problem,
    )

    lobby = Client(base_url=live_server.url, raise_on_unexpected_status=True)
    game = create_game.sync(client=lobby, body=CreateGameRequest(seats=2, seed=5))
    assert isinstance(game, Game)
    seats = []
    for name in ["Ada", "Bob"]:
        joined = join_game.sync(game.id, client=lobby, body=JoinRequest(name=name))
        assert isinstance(joined, Joined)
        seats.append(
            AuthenticatedClient(
                base_url=live_server.url, token=joined.token, raise_on_unexpected_status=True
            )
        )

    def problem(response: Any, status: int, code: str) -> Any:
        assert response.status_code == status, response.content
        assert response.headers["Content-Type"].startswith("application/problem+json")
        assert isinstance(response.parsed, Problem), response.parsed
        assert (response.parsed.status, response.parsed.code) == (status, code)
        assert response.parsed.type_.endswith(code)  # `type` is a keyword-ish name: `type_`
        assert response.parsed.title and response.parsed.detail
        return response.parsed

    # The table is full: 409 from the lobby.
    problem(
        join_game.sync_detailed(game.id, client=lobby, body=JoinRequest(name="Cyd")),
        409,
        "game_full",
    )

    # Setup: an out-of-range position is a 400 with field errors, then two reveals per seat.
    bad = problem(
        reveal.sync_detailed(game.id, client=seats[0], body=PositionRequest(column=9, row=0)),
        400,
        "invalid_request",
    )
    assert "column" in bad.errors.additional_properties
    for client in seats:
        for column in (0, 1):
            answer = reveal.sync(game.id, client=client, body=PositionRequest(column=column, row=0))
            assert isinstance(answer, Game)
    view = get_game.sync(game.id, client=seats[0])
    assert isinstance(view, Game)
    assert view.status == GameStatus.PLAYING
    current = seats[view.current_seat]
    other = seats[1 - view.current_seat]

    # The wrong seat's token: 409 not_your_turn, parsed as the generated Problem model.
    problem(draw.sync_detailed(game.id, client=other), 409, "not_your_turn")

    # A token that is not a seat of this game: 401; no such game: 404.
    stranger = AuthenticatedClient(base_url=live_server.url, token="not-a-seat-token")
    problem(draw.sync_detailed(game.id, client=stranger), 401, "invalid_token")
    problem(get_game.sync_detailed(uuid.uuid4(), client=current), 404, "game_not_found")

    # If-Match on an older version: 412 with the current version.
    stale = problem(
        draw.sync_detailed(game.id, client=current, if_match=f'"{view.version - 1}"'),
        412,
        "version_mismatch",
    )
    assert stale.current_version == view.version

    # If-None-Match with the current ETag: 304, nothing to parse.
    unchanged = get_game.sync_detailed(game.id, client=current, if_none_match=f'"{view.version}"')
    assert unchanged.status_code == 304
    assert unchanged.parsed is None

    # Idempotency-Key: the retry gets the first answer and the draw happens once.
    first = draw.sync_detailed(game.id, client=current, idempotency_key="draw-1")
    again = draw.sync_detailed(game.id, client=current, idempotency_key="draw-1")
    assert first.status_code == again.status_code == 200
    assert isinstance(first.parsed, Game) and isinstance(again.parsed, Game)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.parsed.version == first.parsed.version == view.version + 1
    assert first.parsed.held_card is not None and first.parsed.held_card.value is not None

    # Spectators: the same game without a token (a plain Client) hides the drawn card.
    spectator = get_game.sync(game.id, client=lobby)
    assert isinstance(spectator, Game)
    assert spectator.you is None and spectator.legal_actions == []
    assert spectator.held_card is not None and spectator.held_card.value is None

    # The lobby filter is the generated enum.
    page = list_games.sync(client=lobby, status=ListGamesStatus.PLAYING, limit=100)
    assert isinstance(page, GameList)
    assert game.id in {summary.id for summary in page.results}


@pytest.mark.django_db(transaction=True)
def test_a_plain_client_watches_and_a_seat_client_plays(
    python_client: ModuleType, live_server: Any
) -> None:
    """Optional authentication: `get_game` and `list_events` take a plain `Client` (the
    spectator's view and feed) as well as an `AuthenticatedClient` (the seat's)."""
    from skyjo_service_api_client import AuthenticatedClient, Client
    from skyjo_service_api_client.api.history import list_events
    from skyjo_service_api_client.api.lobby import create_game, get_game, join_game
    from skyjo_service_api_client.models import (
        CreateGameRequest,
        EventFeed,
        Game,
        Joined,
        JoinRequest,
    )

    spectator = Client(base_url=live_server.url, raise_on_unexpected_status=True)
    game = create_game.sync(client=spectator, body=CreateGameRequest(seats=2, seed=3))
    assert isinstance(game, Game)
    joined = [join_game.sync(game.id, client=spectator, body=JoinRequest(name=n)) for n in "AB"]
    assert isinstance(joined[0], Joined) and isinstance(joined[1], Joined)
    seat = AuthenticatedClient(base_url=live_server.url, token=joined[0].token)

    watched = get_game.sync(game.id, client=spectator)
    assert isinstance(watched, Game)
    assert watched.you is None and watched.legal_actions == []
    mine = get_game.sync(game.id, client=seat)
    assert isinstance(mine, Game)
    assert mine.you == 0 and mine.legal_actions

    feed = list_events.sync(game.id, client=spectator)
    assert isinstance(feed, EventFeed)
    assert feed.version == watched.version
    assert [event.sequence for event in feed.events] == list(range(1, feed.version + 1))


def _feed(client: Any, game_id: uuid.UUID) -> list[tuple[Any, dict[str, Any]]]:
    """Every event of the feed as the generated client parses it, with its raw JSON."""
    from skyjo_service_api_client.api.history import list_events

    items: list[tuple[Any, dict[str, Any]]] = []
    while True:
        page = list_events.sync_detailed(game_id, client=client, after=len(items), limit=1000)
        assert page.status_code == 200, page.content
        raw = json.loads(page.content)["events"]
        items += zip(page.parsed.events, raw, strict=True)
        if not raw:
            return items


def _check_typed_feed(
    models: ModuleType, items: list[tuple[Any, dict[str, Any]]], viewer: int | None, finished: bool
) -> set[str]:
    """Each event is its type's model, its payload the model of the shape expected, and
    nothing is lost in parsing (the model gives back the JSON it was read from)."""
    for position, (event, raw) in enumerate(items, start=1):
        name = raw["type"]
        assert isinstance(event, getattr(models, f"{name}Event")), (name, type(event))
        assert (event.sequence, event.type_.value) == (position, name)
        assert isinstance(event.at, datetime)
        dumped = event.to_dict()
        assert {**dumped, "at": raw["at"]} == raw
        data = event.data
        if name == "RoundDealt" and finished:
            assert isinstance(data, models.RoundDealt) and len(data.deck) == 150
        elif name == "RoundDealt":
            assert isinstance(data, models.RoundDealtRedacted) and data.deck_size >= 0
            assert isinstance(data.discard_top, int)
        elif name == "DrawPileReshuffled" and finished:
            assert isinstance(data, models.DrawPileReshuffled) and data.order
        elif name == "DrawPileReshuffled":
            assert isinstance(data, models.DrawPileReshuffledRedacted) and data.deck_size > 0
        elif name == "CardDrawn":
            assert isinstance(data, models.CardDrawn)
            assert (data.value is None) == (not finished and viewer != data.seat)
        elif name == "RoundEnded":
            assert isinstance(data, models.RoundEnded) and isinstance(data.closer_seat, int)
            assert [len(grid) for grid in data.grids] == [12] * 4
        else:
            assert isinstance(data, getattr(models, name))
    return {raw["type"] for _, raw in items}


@pytest.mark.django_db(transaction=True)
def test_events_and_histories_parse_into_typed_models(
    python_client: ModuleType, live_server: Any
) -> None:
    """A 4-seat game with every event type (tests/api/every_event.py; it is played over HTTP
    in tests/api/test_event_schemas.py): imported just before its last action, it is followed
    through the generated client, unfinished and finished, as a seat and as a spectator. Each
    event parses into its type's model (`RoundDealtEvent` with a `RoundDealtRedacted` payload
    while the game runs...), and so does each of its history's."""
    from skyjo_service_api_client import AuthenticatedClient, Client, models
    from skyjo_service_api_client.api.history import get_history, import_history

    from engine import EVENT_TYPES, action_to_data
    from games.api.inputs import (
        action_component_name,
    )
    from tests.api import every_event

    plan = every_event.game_plan()
    lobby = Client(base_url=live_server.url, raise_on_unexpected_status=True)
    document = every_event.history_document(plan.events[: plan.before_last])
    imported = import_history.sync(client=lobby, body=models.HistoryRequest.from_dict(document))
    assert isinstance(imported, models.ImportedGame), imported
    tokens = {seat_token.seat: seat_token.token for seat_token in imported.seat_tokens}
    seats = {seat: AuthenticatedClient(live_server.url, token) for seat, token in tokens.items()}

    for viewer, client in ((None, lobby), (1, seats[1])):
        seen = _check_typed_feed(models, _feed(client, imported.id), viewer, finished=False)
        assert seen == every_event.PLAY_EVENTS - {"GameEnded"}
    last_seat, last_action = plan.actions[-1]
    data = action_to_data(last_action)
    choice = getattr(models, action_component_name(data["action"])).from_dict(data)
    assert _act(seats[last_seat], imported.id, choice, verbatim=True).status_code == 200
    for viewer, client in ((None, lobby), (2, seats[2])):
        seen = _check_typed_feed(models, _feed(client, imported.id), viewer, finished=True)
        assert seen == every_event.PLAY_EVENTS

    history = get_history.sync(imported.id, client=lobby)
    assert isinstance(history, models.History)
    assert len(history.events) == len(plan.events)
    for event in history.events:
        name = event.type_.value
        assert isinstance(event, getattr(models, f"{name}HistoryEvent"))
        assert event.schema_version == EVENT_TYPES[name].SCHEMA_VERSION
        assert isinstance(event.data, getattr(models, name))


def test_old_history_files_parse_into_their_schema_1_models(python_client: ModuleType) -> None:
    """A history file with schema-1 payloads parses, as an import body and as a history, into
    the models of those older shapes (`FinalTurnsBeganSchema1`: `closer`)."""
    from skyjo_service_api_client import models

    fixture = ROOT / "tests" / "fixtures" / "history_closer_schema1.json"
    document = json.loads(fixture.read_text())
    for parsed, suffix in (
        (models.History.from_dict(document), ""),
        (models.HistoryRequest.from_dict(document), "Request"),
    ):
        old = [e for e in parsed.events if e.schema_version == 1 and "closer" in e.data.to_dict()]
        assert {type(e.data).__name__ for e in old} == {
            f"FinalTurnsBeganSchema1{suffix}",
            f"RoundEndedSchema1{suffix}",
        }
        assert all(isinstance(e.data.closer, int) for e in old)
        current = [e for e in parsed.events if e.type_.value == "GameCreated"]
        assert isinstance(current[0].data, getattr(models, f"GameCreated{suffix}"))


@pytest.mark.django_db(transaction=True)
def test_two_accounts_and_a_guest_play_to_the_end(
    python_client: ModuleType, live_server: Any
) -> None:
    """Two bot accounts (signed up through the SDK) and a guest: the accounts' personal tokens
    act for their seats, the guest's seat token for its own, and the game ends."""
    from skyjo_service_api_client import AuthenticatedClient, Client
    from skyjo_service_api_client.api.accounts import create_account, get_account
    from skyjo_service_api_client.api.lobby import create_game, get_game, join_game
    from skyjo_service_api_client.models import (
        Account,
        AccountCreated,
        AccountJoined,
        AccountKind,
        CreateGameRequest,
        Game,
        GameStatus,
        Joined,
        JoinRequest,
        OptionsRequest,
        SignUpRequest,
    )

    lobby = Client(base_url=live_server.url, raise_on_unexpected_status=True)

    def authenticated(token: str) -> Any:
        return AuthenticatedClient(
            base_url=live_server.url, token=token, raise_on_unexpected_status=True
        )

    body = CreateGameRequest(seats=3, options=OptionsRequest(end_score=END_SCORE), seed=GAME_SEED)
    game = create_game.sync(client=lobby, body=body)
    assert isinstance(game, Game)
    seats = []
    for handle in ("ada", "bob"):
        signed = create_account.sync(
            client=lobby, body=SignUpRequest(handle=handle, kind=AccountKind.BOT)
        )
        assert isinstance(signed, AccountCreated) and signed.token.startswith("skyjo_pat_")
        client = authenticated(signed.token)
        joined = join_game.sync(game.id, client=client, body=JoinRequest())
        assert isinstance(joined, AccountJoined)
        assert (joined.name, joined.account, joined.game.you) == (handle, handle, len(seats))
        seats.append(client)
    guest = join_game.sync(game.id, client=lobby, body=JoinRequest(name="Cyd"))
    assert isinstance(guest, Joined) and guest.game.status == GameStatus.SETUP
    seats.append(authenticated(guest.token))

    rng, used, actions = random.Random(CHOICE_SEED), Counter[str](), 0
    while True:
        views = [get_game.sync(game.id, client=client) for client in seats]
        assert [view.you for view in views] == [0, 1, 2]
        if views[0].status == GameStatus.FINISHED:
            break
        for seat, view in enumerate(views):
            if view.legal_actions:
                answer = _act(seats[seat], game.id, _choose(view.legal_actions, used, rng), False)
                assert answer.status_code == 200, answer.content
                actions += 1
                break
        assert actions < MAX_ACTIONS
    finished = views[0]
    assert finished.winners and [p.account for p in finished.players] == ["ada", "bob", None]
    profile = get_account.sync(client=seats[0])
    assert isinstance(profile, Account)
    assert profile.handle == "ada" and profile.games.played == 1

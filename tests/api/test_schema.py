"""The committed openapi.yaml is exactly what the code generates, validates without warnings,
and stays friendly to SDK generators."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Account, PersonalToken
from accounts.scopes import ALL_SCOPES
from engine import POSITION_KINDS, TURN_ACTION_KINDS
from games.core.history import MAX_EVENTS
from tests.api.support import bearer
from tests.play.support import account, challenge, finished

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "openapi.yaml"
METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> str:
    target = tmp_path_factory.mktemp("schema") / "openapi.yaml"
    # --fail-on-warn raises on any warning or error of drf-spectacular's generation.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    return target.read_text()


@pytest.fixture(scope="module")
def schema(generated: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(generated)
    return loaded


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def test_committed_schema_is_what_the_code_generates(generated: str) -> None:
    assert COMMITTED.read_text() == generated, "openapi.yaml is stale: run `make schema`"


def test_schema_is_openapi_3_0_3_with_the_game_flow(schema: dict[str, Any]) -> None:
    assert schema["openapi"] == "3.0.3"
    description = schema["info"]["description"]
    assert "flow of a game" in description.lower()
    assert "/api/v1/rules" in description


def test_every_operation_has_a_readable_id_tags_and_documented_errors(
    schema: dict[str, Any],
) -> None:
    ids = set()
    for path, method, operation in operations(schema):
        operation_id = operation["operationId"]
        assert operation_id.isidentifier() and operation_id.islower(), operation_id
        assert "api_v1" not in operation_id, f"generated id on {method} {path}"
        ids.add(operation_id)
        assert operation["tags"] and set(operation["tags"]) <= {
            "lobby",
            "turns",
            "history",
            "meta",
            "accounts",
            "challenges",
            "seeks",
            "ladder",
            "chat",
            "ratings",
        }
        for status, response in operation["responses"].items():
            if status.startswith(("4", "5")):
                content = response["content"]
                assert list(content) == ["application/problem+json"], (path, status)
                schema_ref = content["application/problem+json"]["schema"]["$ref"]
                assert schema_ref == "#/components/schemas/Problem"
        assert "429" in operation["responses"], f"{method} {path} documents no 429"
        assert "Retry-After" in operation["responses"]["429"]["headers"]
    expected = {
        "list_games",
        "create_game",
        "get_game",
        "join_game",
        "reveal",
        "draw",
        "take_discard",
        "replace",
        "discard",
        "list_events",
        "get_history",
        "import_history",
        "rotate_token",
        "get_leaderboard",
        "get_player_ratings",
    }
    assert expected <= ids


def test_components_have_chosen_names(schema: dict[str, Any]) -> None:
    names = set(schema["components"]["schemas"])
    assert not [name for name in names if name.endswith("Enum")]
    assert {"Game", "Problem", "GameStatus", "CellState", "CardSource", "LegalAction"} <= names
    # COMPONENT_SPLIT_REQUEST: request bodies have their own components.
    assert {"CreateGameRequest", "JoinRequest", "PositionRequest"} <= names


def test_a_legal_action_is_one_typed_shape_per_kind(schema: dict[str, Any]) -> None:
    """`legal_actions` and `POST .../actions` share one component, a `oneOf` told apart by
    `action`, so a generated client passes a listed action to the endpoint as it is."""
    components = schema["components"]["schemas"]
    legal = components["LegalAction"]
    mapping = legal["discriminator"]["mapping"]
    assert legal["discriminator"]["propertyName"] == "action"
    assert list(mapping) == list(TURN_ACTION_KINDS)
    for kind, ref in mapping.items():
        shape = components[ref.rsplit("/", 1)[1]]
        positioned = {"action", "column", "row"} if kind in POSITION_KINDS else {"action"}
        assert set(shape["required"]) == set(shape["properties"]) == positioned
        assert shape["additionalProperties"] is False
    listed = components["Game"]["properties"]["legal_actions"]["items"]
    body = schema["paths"]["/api/v1/games/{game_id}/actions"]["post"]["requestBody"]
    assert (
        listed
        == body["content"]["application/json"]["schema"]
        == {"$ref": "#/components/schemas/LegalAction"}
    )
    assert body["required"] is True


def test_turns_document_conditional_and_idempotent_headers(schema: dict[str, Any]) -> None:
    for path, _, operation in operations(schema):
        if "/actions" not in path:
            continue
        headers = {p["name"] for p in operation["parameters"] if p["in"] == "header"}
        assert {"If-Match", "Idempotency-Key"} <= headers
        assert "ETag" in operation["responses"]["200"]["headers"]
        assert {"412", "422", "409", "401"} <= set(operation["responses"])
        assert operation["security"] == [{"SeatToken": []}]


def test_spectators_may_read_a_game_without_a_token(schema: dict[str, Any]) -> None:
    get_game = schema["paths"]["/api/v1/games/{game_id}"]["get"]
    # Optional authentication is the document's default, inherited (games.schema
    # optional_auth_by_default); every other operation states its own.
    assert "security" not in get_game
    assert schema["security"] == [{}, {"SeatToken": []}]
    public = schema["paths"]["/api/v1/games"]["post"]
    assert public["security"] == []
    assert schema["components"]["securitySchemes"]["SeatToken"]["scheme"] == "bearer"
    headers = {p["name"] for p in get_game["parameters"] if p["in"] == "header"}
    assert "If-None-Match" in headers and "304" in get_game["responses"]


@pytest.mark.django_db
def test_live_schema_and_documentation_pages_are_served(api: APIClient) -> None:
    live = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert live.status_code == 200
    assert yaml.safe_load(live.content)["info"]["title"] == "Skyjo service API"
    for page in ("/api/docs/", "/api/redoc/"):
        response = api.get(page)
        assert response.status_code == 200
        html = response.content.decode()
        # Assets come from drf-spectacular-sidecar (static files), not from a CDN.
        assert "drf_spectacular_sidecar" in html
        assert "cdn.jsdelivr" not in html


def test_links_chain_a_game_from_creation_to_actions(schema: dict[str, Any]) -> None:
    """OpenAPI links (followed by tests/api/test_fuzz.py): create -> join -> act, with the
    joined seat's token; every link names an operation of the schema."""
    by_id = {operation["operationId"]: operation for _, _, operation in operations(schema)}
    created = by_id["create_game"]["responses"]["201"]["links"]
    assert created["JoinGame"] == {
        "operationId": "join_game",
        "description": "Take a seat.",
        "parameters": {"path.game_id": "$response.body#/id"},
    }
    joined = by_id["join_game"]["responses"]["201"]["links"]
    for action in ("reveal", "draw", "take_discard", "replace", "discard", "rotate_token"):
        link = next(link for link in joined.values() if link["operationId"] == action)
        assert link["parameters"]["path.game_id"] == "$response.body#/game/id"
        assert link["parameters"]["header.Authorization"] == "Bearer {$response.body#/token}"
    rotated = by_id["rotate_token"]["responses"]["200"]["links"]
    assert rotated["Draw"]["parameters"]["header.Authorization"] == "Bearer {$response.body#/token}"
    for operation in by_id.values():
        for response in operation["responses"].values():
            for link in response.get("links", {}).values():
                assert link["operationId"] in by_id


def test_the_stream_documents_each_frame_s_shape(schema: dict[str, Any]) -> None:
    """OpenAPI 3.0 has no item schema for `text/event-stream`: the response's schema is each
    frame's, as an EventSource (or schemathesis) parses it."""
    responses = schema["paths"]["/api/v1/games/{game_id}/stream"]["get"]["responses"]
    ref = responses["200"]["content"]["text/event-stream"]["schema"]["$ref"]
    frame = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(frame["properties"]) == {"id", "event", "data", "retry"}
    assert set(frame["required"]) == {"event", "data"}
    kinds = schema["components"]["schemas"]["StreamFrameKind"]["enum"]
    assert {"CardDrawn", "GameEnded", "view", "skipped"} <= set(kinds)


def test_an_import_documents_the_bounds_of_its_events(schema: dict[str, Any]) -> None:
    """An import of no events (or too many) is refused, but the schema allowed any list: it
    now says `minItems: 1` and `maxItems`, the import's own limit."""
    request = schema["paths"]["/api/v1/games/import"]["post"]["requestBody"]
    component = request["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    events = schema["components"]["schemas"][component]["properties"]["events"]
    assert (events["minItems"], events["maxItems"]) == (1, MAX_EVENTS)


# The scopes each operation declares are the scopes it enforces.

ANY_SCOPE, EVERY_SCOPE = "x-required-scopes-any", "x-required-scopes"
#: Operations that declare scopes but are not called below: the streams (they hold a place and
#: answer a stream) and the turn actions (each needs a game at the right moment); the join,
#: leave and event feed of the same declaration (`PLAY_OPERATIONS`) are.
NOT_CALLED = {
    "stream_game",
    "stream_account",
    "act",
    "reveal",
    "draw",
    "take_discard",
    "replace",
    "discard",
}


def declared_scopes(operation: dict[str, Any]) -> tuple[list[str], bool]:
    """(the scopes an operation declares, whether any one of them will do)."""
    assert not (EVERY_SCOPE in operation and ANY_SCOPE in operation), operation["operationId"]
    if ANY_SCOPE in operation:
        return operation[ANY_SCOPE], True
    return operation.get(EVERY_SCOPE, []), False


@dataclass(frozen=True)
class Call:
    """A call of an operation by one of the accounts of `World`, which gets past every check
    before its token's scopes."""

    handle: str
    method: str
    path: str
    body: dict[str, Any] | None = None


#: Each operation, called by an account that may call it (the `World`'s ids filled in).
CALLS = {
    "list_challenges": Call("ada", "get", "/api/v1/challenges"),
    "create_challenge": Call("ada", "post", "/api/v1/challenges", {"players": ["bob"], "seats": 2}),
    "get_challenge": Call("ada", "get", "/api/v1/challenges/{challenge}"),
    "accept_challenge": Call("cyd", "post", "/api/v1/challenges/{challenge}/accept"),
    "decline_challenge": Call("cyd", "post", "/api/v1/challenges/{challenge}/decline"),
    "cancel_challenge": Call("ada", "post", "/api/v1/challenges/{challenge}/cancel"),
    "create_seek": Call("bob", "post", "/api/v1/seeks", {"seats": {"min": 2, "max": 4}}),
    "get_seek": Call("ada", "get", "/api/v1/seeks/{seek}"),
    "delete_seek": Call("ada", "delete", "/api/v1/seeks/{seek}"),
    "join_ladder": Call("ada", "post", "/api/v1/account/ladder", {"seats": [2]}),
    "leave_ladder": Call("ada", "delete", "/api/v1/account/ladder"),
    "rematch": Call("ada", "post", "/api/v1/games/{game}/rematch"),
    "post_chat_message": Call(
        "ada", "post", "/api/v1/games/{game}/chat", {"room": "players", "text": "Hi"}
    ),
    "mute_chat_room": Call("ada", "put", "/api/v1/games/{game}/chat/mutes/players"),
    "unmute_chat_room": Call("ada", "delete", "/api/v1/games/{game}/chat/mutes/players"),
    "join_game": Call("ada", "post", "/api/v1/games/{game}/players", {}),
    "leave_game": Call("ada", "post", "/api/v1/games/{game}/players/0/leave"),
    "list_events": Call("ada", "get", "/api/v1/games/{game}/events"),
    "free_reserved_seat": Call("ada", "delete", "/api/v1/games/{game}/reservations/cyd"),
    "get_account": Call("ada", "get", "/api/v1/account"),
    "delete_account": Call("ada", "delete", "/api/v1/account"),
    "list_tokens": Call("ada", "get", "/api/v1/account/tokens"),
    "create_token": Call("ada", "post", "/api/v1/account/tokens", {"scopes": ["play"]}),
    "revoke_token": Call("ada", "delete", "/api/v1/account/tokens/{token}"),
    "list_account_games": Call("ada", "get", "/api/v1/account/games"),
    "list_account_events": Call("ada", "get", "/api/v1/account/events"),
}


@dataclass(frozen=True)
class World:
    """A finished game of ada and bob, ada's challenge to cyd, ada's seek, ada's first token."""

    game: str
    challenge: str
    seek: str
    token: int


@pytest.fixture
def world(api: APIClient) -> World:
    ada, bob, _ = (account(handle) for handle in ("ada", "bob", "cyd"))
    game_id, _ = finished(api, [ada, bob])
    made = challenge(api, ada, ["cyd"])
    seek = api.post("/api/v1/seeks", {"seats": {"min": 2, "max": 2}}, format="json", **bearer(ada))
    assert seek.status_code == 201, seek.content
    first = PersonalToken.objects.filter(account__handle="ada").order_by("id").first()
    assert first is not None
    return World(game_id, made["id"], seek.json()["id"], first.id)


def token_with(handle: str, scopes: set[str]) -> str:
    """A new personal token of `handle`'s account holding exactly `scopes`."""
    credential = services.session_credential(Account.objects.get(handle=handle))
    return services.create_token(credential, "scoped", sorted(scopes)).token


def call(api: APIClient, world: World, operation: str, scopes: set[str]) -> Any:
    """The operation's `Call`, made with a new token holding `scopes`."""
    made = CALLS[operation]
    path = made.path.format(**vars(world))
    send = getattr(api, made.method)
    return send(path, made.body, format="json", **bearer(token_with(made.handle, scopes)))


def refused_for_scope(response: Any) -> bool:
    return response.status_code == 403 and response.json()["code"] == "missing_scope"


def test_every_operation_that_declares_scopes_is_called_below(schema: dict[str, Any]) -> None:
    declaring = {
        operation["operationId"]
        for _, _, operation in operations(schema)
        if declared_scopes(operation)[0]
    }
    assert declaring == set(CALLS) | NOT_CALLED
    for _, _, operation in operations(schema):
        assert set(declared_scopes(operation)[0]) <= set(ALL_SCOPES)


@pytest.mark.django_db
@pytest.mark.parametrize("operation", sorted(CALLS))
def test_an_operation_enforces_the_scopes_it_declares(
    schema: dict[str, Any], api: APIClient, world: World, operation: str
) -> None:
    """Declared every one: a token lacking any one of them is refused (403 `missing_scope`),
    one holding them all is not. Declared any one: a token holding none is refused, one
    holding any single one of them is not. The refusals are tried first, as they change
    nothing."""
    [found] = [op for _, _, op in operations(schema) if op["operationId"] == operation]
    names, any_one = declared_scopes(found)
    everything = set(ALL_SCOPES)
    lacking = [everything - set(names)] if any_one else [everything - {n} for n in names]
    holding = [{name} for name in names] if any_one else [set(names)]
    for scopes in lacking:
        response = call(api, world, operation, scopes)
        assert refused_for_scope(response), (scopes, response.status_code, response.content)
    for scopes in holding:
        response = call(api, world, operation, scopes)
        assert response.status_code < 500, response.content
        assert response.status_code != 401 and not refused_for_scope(response), (
            scopes,
            response.content,
        )

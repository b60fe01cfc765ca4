"""No input, however malformed, gets a 500: every error is a problem document."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from games.api.headers import if_match
from games.api.problems import field_errors
from games.core.errors import InvalidRequest
from games.models import Seat

from .support import (
    GAMES,
    PROBLEM_JSON,
    action_url,
    assert_problem,
    bearer,
    create_game,
    game_url,
    start_game,
)

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
field_names = st.sampled_from(
    ["seats", "options", "seed", "name", "column", "row", "end_score", "closer_penalty", "x"]
)
#: Objects that look like real requests, with plausible and implausible values.
json_bodies = st.dictionaries(field_names, json_values, max_size=4) | json_values
raw_bodies = st.binary(max_size=64) | st.text(max_size=64).map(
    lambda t: t.encode("utf-8", "replace")
)
header_values = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=40)


def assert_not_a_server_error(response: Any) -> None:
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        assert response["Content-Type"].startswith(PROBLEM_JSON)
        body = response.json()
        assert body["status"] == response.status_code
        assert {"type", "title", "status", "detail", "code"} <= set(body)


@pytest.fixture
def game(api: APIClient) -> tuple[str, list[str]]:
    return start_game(api, 2, seed=11)


def targets(game_id: str) -> list[str]:
    return [
        GAMES,
        f"{GAMES}/{game_id}/players",
        *(action_url(game_id, kind) for kind in ("reveal", "draw", "take_discard", "replace")),
        action_url(game_id, "discard"),
    ]


@FUZZ
@given(body=json_bodies, target=st.integers(min_value=0, max_value=6), seated=st.booleans())
def test_any_json_body(
    api: APIClient, game: tuple[str, list[str]], body: Any, target: int, seated: bool
) -> None:
    game_id, tokens = game
    url = targets(game_id)[target]
    auth = bearer(tokens[0]) if seated else {}
    response = api.post(url, json.dumps(body), content_type="application/json", **auth)
    assert_not_a_server_error(response)


@FUZZ
@given(raw=raw_bodies, target=st.integers(min_value=0, max_value=6))
def test_any_bytes(api: APIClient, game: tuple[str, list[str]], raw: bytes, target: int) -> None:
    game_id, tokens = game
    url = targets(game_id)[target]
    response = api.post(url, raw, content_type="application/json", **bearer(tokens[1]))
    assert_not_a_server_error(response)


@FUZZ
@given(
    authorization=st.none() | header_values.map(lambda v: "Bearer " + v) | header_values,
    if_match=st.none() | header_values,
    if_none_match=st.none() | header_values,
    key=st.none() | header_values,
)
def test_any_headers(
    api: APIClient,
    game: tuple[str, list[str]],
    authorization: str | None,
    if_match: str | None,
    if_none_match: str | None,
    key: str | None,
) -> None:
    game_id, _ = game
    headers = {
        name: value
        for name, value in (
            ("HTTP_AUTHORIZATION", authorization),
            ("HTTP_IF_MATCH", if_match),
            ("HTTP_IF_NONE_MATCH", if_none_match),
            ("HTTP_IDEMPOTENCY_KEY", key),
        )
        if value is not None
    }
    assert_not_a_server_error(api.get(game_url(game_id), **headers))
    assert_not_a_server_error(api.get(GAMES, **headers))
    reveal = {"column": 0, "row": 0}
    assert_not_a_server_error(
        api.post(action_url(game_id, "reveal"), reveal, format="json", **headers)
    )


@FUZZ
@given(
    path=st.text(
        alphabet=st.characters(min_codepoint=33, max_codepoint=0x2FF, exclude_characters="/?#%"),
        min_size=1,
        max_size=40,
    ),
    query=st.dictionaries(
        st.sampled_from(["status", "limit", "offset", "x"]), st.text(max_size=12), max_size=3
    ),
)
def test_any_game_id_and_query(api: APIClient, path: str, query: dict[str, str]) -> None:
    assert_not_a_server_error(api.get(game_url(path)))
    assert_not_a_server_error(api.get(GAMES, query))
    assert_not_a_server_error(api.post(f"{GAMES}/{path}/players", {"name": "A"}, format="json"))


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000,
        b'{"a":' * 100_000,
        b'{"seats": 2, "options": ' + b"[" * 5_000 + b"]" * 5_000 + b"}",
        b'{"\\ud800": 1}',
        b'{"seats": 2, "options": {"\\udc00x": true}}',
        b'{"name": "\\ud83d"}',
        b'{"seats": ' + b"9" * 5_000 + b"}",
        b'{"seats": 1e999}',
    ],
)
def test_pathological_json(api: APIClient, game: tuple[str, list[str]], raw: bytes) -> None:
    game_id, tokens = game
    for url in targets(game_id):
        response = api.post(url, raw, content_type="application/json", **bearer(tokens[0]))
        assert_not_a_server_error(response)
        assert response.status_code == 400


def test_a_name_with_a_lone_surrogate(api: APIClient) -> None:
    game_id = create_game(api, 3)["id"]
    response = api.post(
        f"{GAMES}/{game_id}/players", b'{"name": "A\\udfffB"}', content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert not Seat.objects.exists()


def test_schema_and_docs_render(api: APIClient) -> None:
    """The OpenAPI document is served (and is built from the same views)."""
    response = api.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    assert "/api/v1/games" in paths and "/api/v1/games/{game_id}/actions/take-discard" in paths


def test_escaped_surrogate_pairs_are_text(api: APIClient) -> None:
    """A surrogate pair escape is one character, as JSON means it: only lone halves are refused."""
    game_id = create_game(api, 2)["id"]
    response = api.post(
        f"{GAMES}/{game_id}/players",
        b'{"name": "Ada \\ud83c\\udca1"}',
        content_type="application/json",
    )
    assert response.status_code == 201
    assert response.json()["name"] == "Ada \U0001f0a1"


# Found by fuzzing the API against its schema (tests/api/test_fuzz.py): one test per bug.

SCHEMA = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())


def operation(operation_id: str) -> dict[str, Any]:
    return next(
        op
        for item in SCHEMA["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and op.get("operationId") == operation_id
    )


def parameter(operation_id: str, name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        p for p in operation(operation_id)["parameters"] if p["name"] == name
    )
    return found


def test_nested_field_errors_have_the_documented_flat_shape(api: APIClient) -> None:
    """A nested object's field errors were answered nested ({"options": {"end_score": [...]}}),
    which the Problem schema (errors: name -> list of messages) does not allow: generated
    clients failed to parse them. A nested field is now named by its dotted path."""
    response = api.post(
        GAMES, {"seats": 2, "options": {"end_score": 0, "closer_penalty": {}}}, format="json"
    )
    errors = assert_problem(response, 400, "invalid_request")["errors"]
    assert set(errors) == {"options.end_score", "options.closer_penalty"}
    assert all(
        isinstance(messages, list) and all(isinstance(m, str) for m in messages)
        for messages in errors.values()
    )
    not_an_object = api.post(GAMES, {"seats": 2, "options": "fast"}, format="json")
    assert list(assert_problem(not_an_object, 400, "invalid_request")["errors"]) == ["options"]
    assert field_errors({"events": [{}, {"type": ["Unknown."]}], "non_field_errors": ["No."]}) == {
        "events.1.type": ["Unknown."],
        "non_field_errors": ["No."],
    }


def test_request_bodies_document_that_they_refuse_unknown_fields(api: APIClient) -> None:
    """The service refuses unknown fields (400) but the schema allowed any: a request the
    schema called valid was refused. The strict bodies now say `additionalProperties: false`."""
    for name in ("CreateGameRequest", "OptionsRequest", "JoinRequest", "PositionRequest"):
        assert SCHEMA["components"]["schemas"][name]["additionalProperties"] is False, name
    game_id = create_game(api, 2)["id"]
    refused = api.post(f"{GAMES}/{game_id}/players", {"name": "Ada", "": 1}, format="json")
    assert "" in assert_problem(refused, 400, "invalid_request")["errors"]


def test_an_action_is_authenticated_before_its_request_is_validated(
    api: APIClient, game: tuple[str, list[str]]
) -> None:
    """A malformed action (If-Match, Idempotency-Key or body) without a token was answered 400,
    telling an unauthenticated client about the request: now, as for a well-formed one, an
    unknown game is 404 and a missing or foreign token 401 first."""
    game_id, tokens = game
    _, strangers = start_game(api, 2, seed=12)
    url = action_url(game_id, "reveal")
    malformed: list[dict[str, Any]] = [
        {"data": {"column": 9, "row": 0}},
        {"data": {"column": 0, "row": 0}, "HTTP_IF_MATCH": "soon"},
        {"data": {"column": 0, "row": 0}, "HTTP_IDEMPOTENCY_KEY": " "},
        {"data": "{", "content_type": "application/json"},
    ]
    for request in malformed:
        request = {"format": "json", **request} if "content_type" not in request else request
        assert_problem(api.post(url, **request), 401, "invalid_token")
        assert_problem(api.post(url, **request, **bearer(strangers[0])), 401, "invalid_token")
        unknown = action_url("00000000-0000-0000-0000-000000000000", "reveal")
        assert_problem(api.post(unknown, **request), 404, "game_not_found")
        assert_problem(api.post(url, **request, **bearer(tokens[0])), 400, "invalid_request")
    rotate = f"{GAMES}/{game_id}/players/0/token"
    assert_problem(api.post(rotate, {"x": 1}, format="json"), 401, "invalid_token")


def test_a_post_to_an_unknown_api_path_is_a_404_problem() -> None:
    """The catch-all 404 view was not exempt from CSRF: a POST to an unknown API path got
    Django's 403 HTML page. (The test client skips CSRF checks unless told not to.)"""
    browser_like = APIClient(enforce_csrf_checks=True)
    for path in ("/api/v1/nothing", "/api/v1/games/x/players/-1/token", "/api/v2/games"):
        response = browser_like.post(path, {"x": 1}, format="json")
        assert_problem(response, 404, "not_found")


@pytest.mark.parametrize(
    ("path", "query", "field"),
    [("", "at=", "at"), ("/events", "after=", "after"), ("/events", "limit=", "limit")],
)
def test_an_empty_query_number_is_refused(
    api: APIClient, game: tuple[str, list[str]], path: str, query: str, field: str
) -> None:
    """`?at=` was taken for no `at` (the current game, not a replay), although the schema
    calls it a whole number: now 400, like any other value that is not one."""
    game_id, _ = game
    response = api.get(f"{game_url(game_id)}{path}?{query}")
    assert field in assert_problem(response, 400, "invalid_request")["errors"]


def test_query_numbers_document_their_bounds() -> None:
    """`at`, `after` and `limit` were documented as any integer; the service refused values
    out of its bounds with 400. The schema now states the bounds."""
    assert parameter("get_game", "at")["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 2**31 - 1,
    }
    assert parameter("list_events", "after")["schema"]["minimum"] == 0
    assert parameter("list_events", "limit")["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 1000,
    }


@pytest.mark.parametrize(
    ("header", "value", "accepted"),
    [
        ("If-Match", '"5"', True),
        ("If-Match", 'W/"5"', True),
        ("If-Match", ' "5"\t', True),
        ("If-Match", "*", True),
        ("If-Match", '"5", "6"', True),
        ("If-Match", 'W/"4",,"5" ,', True),  # empty list elements are allowed (RFC 9110)
        ("If-Match", "5", False),  # no entity tag: was taken for "5"
        ("If-Match", " 5 ", False),
        ("If-Match", '"5" "6"', False),
        ("If-Match", '"5", *', False),
        ("If-Match", ",", False),
        ("If-Match", '"\u0665"', False),  # an Arabic-Indic 5: int() reads it, HTTP does not
        ("If-Match", "", False),
        ("If-Match", 'W/8868"', False),  # was taken for 8868
        ("If-Match", '"12', False),
        ("If-Match", "W/12", False),
        ("Idempotency-Key", "retry-1", True),
        ("Idempotency-Key", " a b ", True),
        ("Idempotency-Key", "x" * 255, True),
        ("Idempotency-Key", "x" * 256, False),
        ("Idempotency-Key", "cl\u00e9", False),
        ("Idempotency-Key", "\u00a0", False),
        ("Idempotency-Key", "a\tb", False),
    ],
)
def test_the_headers_patterns_are_what_the_service_accepts(
    api: APIClient, game: tuple[str, list[str]], header: str, value: str, accepted: bool
) -> None:
    """If-Match and Idempotency-Key were documented as any string, and the service took any
    Unicode digit for a version and any printable character in a key: the schema now has a
    pattern, and the service accepts exactly what it matches."""
    game_id, tokens = game
    pattern = parameter("reveal", header)["schema"]["pattern"]
    assert (re.search(pattern, value) is not None) == accepted
    meta = "HTTP_" + header.upper().replace("-", "_")
    response = api.post(
        action_url(game_id, "reveal"),
        {"column": 0, "row": 0},
        format="json",
        **bearer(tokens[0]),
        **{meta: value},
    )
    assert (response.status_code != 400) == accepted, response.content


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet='W/"0123456789 \t*,x', max_size=16))
def test_the_if_match_pattern_and_the_parser_agree_exactly(value: str) -> None:
    """The schema's pattern and games.api.headers accept the same If-Match values (`W/8868"` and
    `"12` were taken for versions, which the pattern refused), and the parser refuses none it
    accepts: a value it takes is `*` (None) or the versions of its strong tags (none when all
    are weak: 412)."""
    pattern = parameter("reveal", "If-Match")["schema"]["pattern"]
    request = Request(APIRequestFactory().post("/", HTTP_IF_MATCH=value))
    try:
        parsed = if_match(request)
    except InvalidRequest as refused:
        assert refused.code == "invalid_request" and refused.extra["errors"]["If-Match"]
        parsed_ok = False
    else:
        parsed_ok = True
        strong = re.findall(r'(?<!W/)"([0-9]+)"', value)
        assert parsed == (None if "*" in value else {int(number) for number in strong})
    assert (re.search(pattern, value) is not None) == parsed_ok, value


def test_a_malformed_authorization_header_matters_only_where_a_token_is_read(
    api: APIClient, game: tuple[str, list[str]]
) -> None:
    """A malformed `Authorization` header was refused (401) by every operation, those that take
    no token included, where 401 is not documented; and before the throttles counted it. Now
    only the operations that read a token refuse it."""
    game_id, _ = game
    basic = {"HTTP_AUTHORIZATION": "Basic dXNlcjpwYXNz"}
    assert api.post(GAMES, {"seats": 2}, format="json", **basic).status_code == 201
    assert api.get(GAMES, **basic).status_code == 200
    assert api.get("/api/v1/rules", **basic).status_code == 200
    joined = api.post(
        f"{GAMES}/{create_game(api, 2)['id']}/players", {"name": "A"}, format="json", **basic
    )
    assert joined.status_code == 201
    assert_problem(api.get(game_url(game_id), **basic), 401, "invalid_token")
    assert_problem(api.get(f"{game_url(game_id)}/events", **basic), 401, "invalid_token")

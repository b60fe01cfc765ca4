"""No input, however malformed, gets a 500: every error is a problem document."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.models import Seat

from .support import (
    GAMES,
    PROBLEM_JSON,
    action_url,
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

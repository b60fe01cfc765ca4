"""Problems explain themselves: every code the service can answer with has a document (what
happened, why, what to do), listed by `GET /api/v1/problems`, and every status an operation
can answer (405 for another method, 415 for a body that is not JSON...) is documented for it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

from accounts import services
from engine import ALL_RULE_ERRORS
from games.api.problems import PROBLEM_TYPES
from games.core import errors

from .support import assert_problem, bearer, create_game, game_url, start_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = yaml.safe_load((ROOT / "openapi.yaml").read_text())
PROBLEMS = "/api/v1/problems"
METHODS = ("get", "put", "post", "delete", "patch")
#: `code` arguments of the problems the service's code raises or answers with.
RAISED_CODE = re.compile(r'(?:Problem|problem_response|_json_problem)\(\s*\d{3},\s*"([a-z_]+)"')


def test_the_index_lists_every_code_with_its_document(api: APIClient) -> None:
    response = api.get(PROBLEMS)
    assert response.status_code == 200
    index = response.json()
    assert [entry["code"] for entry in index] == list(PROBLEM_TYPES)
    for entry in index:
        assert entry["type"] == f"{PROBLEMS}/{entry['code']}"
        assert api.get(entry["type"]).json() == entry
        assert entry["explanation"] and entry["advice"]
        assert entry["description"] == f"{entry['explanation']} {entry['advice']}"


def service_error_codes() -> set[str]:
    """The codes of the services' domain errors (games.errors), every one of them."""
    found, pending = set(), [errors.ServiceError]
    while pending:
        for kind in pending.pop().__subclasses__():
            found.add(kind.code)
            pending.append(kind)
    return found


def test_every_code_the_service_raises_is_documented() -> None:
    sources = "\n".join(path.read_text() for path in (ROOT / "games").rglob("*.py"))
    raised = set(RAISED_CODE.findall(sources)) | service_error_codes()
    rule_codes = {error.code for error in ALL_RULE_ERRORS} - {"invalid_options"}
    assert raised >= {"invalid_request", "version_mismatch", "game_not_found"}  # it finds them
    assert "not_found" in raised and "payload_too_large" in raised  # and the plumbing's
    assert raised | rule_codes <= set(PROBLEM_TYPES)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("concurrent_update", ["read", "retry"]),
        ("version_mismatch", ["read the game again", "decide again", "current_version"]),
        ("throttled", ["Retry-After"]),
        ("invalid_history", ["sequence", "rule_code"]),
        ("idempotency_key_reused", ["new key"]),
    ],
)
def test_a_document_says_what_to_do(api: APIClient, code: str, words: list[str]) -> None:
    document = api.get(f"{PROBLEMS}/{code}").json()
    for word in words:
        assert word.lower() in document["description"].lower(), (word, document)


def test_each_rule_code_says_what_was_refused_and_where_the_legal_moves_are(
    api: APIClient,
) -> None:
    for error in ALL_RULE_ERRORS:
        if error.code == "invalid_options":
            continue
        document = api.get(f"{PROBLEMS}/{error.code}").json()
        assert document["status"] == 409
        assert " ".join((error.__doc__ or "").split()) in document["explanation"]
        assert "refuse" in document["explanation"]
        if error.code not in {"game_full", "game_finished", "game_not_started", "account_required"}:
            assert "legal_actions" in document["advice"] or "current_seat" in document["advice"]


def test_account_required_says_how_to_join_a_rated_game(api: APIClient) -> None:
    document = api.get(f"{PROBLEMS}/account_required").json()
    assert document["status"] == 409 and document["title"] == "Account required"
    assert "rated" in document["explanation"] and "guest" in document["explanation"]
    assert "personal token" in document["advice"] and "`bot`" in document["advice"]


def test_an_unknown_code_is_a_404_problem(api: APIClient) -> None:
    assert_problem(api.get(f"{PROBLEMS}/no_such_code"), 404, "not_found")


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in SCHEMA["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def _concrete(path: str, game_id: str) -> str:
    concrete = path.replace("{game_id}", game_id).replace("{seat}", "0")
    concrete = concrete.replace("{token_id}", "1").replace("{handle}", "greedy")
    return concrete.replace("{code}", "throttled").replace("{room}", "players")


def test_another_method_is_a_documented_405_problem_with_allow(api: APIClient) -> None:
    game_id = create_game(api, 2)["id"]
    for path, method, operation in _operations():
        assert "405" in operation["responses"], (method, path)
        documented = {m.upper() for m in SCHEMA["paths"][path] if m in METHODS}
        wrong = next(m for m in ("delete", "put", "patch") if m.upper() not in documented)
        response = getattr(api, wrong)(_concrete(path, game_id))
        assert_problem(response, 405, "method_not_allowed")
        assert documented <= set(response["Allow"].replace(" ", "").split(",")), path


def test_a_body_that_is_not_json_is_a_documented_415_problem(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2)
    personal = services.sign_up("ada", "bot", None).token.token
    posts = [(path, operation) for path, method, operation in _operations() if method == "post"]
    assert len(posts) >= 8
    for path, operation in posts:
        assert "415" in operation["responses"], path
        # Who you are before what you sent: an account's operation is called with its token.
        token = personal if {"AccountToken": []} in operation.get("security", []) else tokens[0]
        response = api.post(
            _concrete(path, game_id), "seats=2", content_type="text/plain", **bearer(token)
        )
        assert_problem(response, 415, "unsupported_media_type")


def test_get_game_at_past_the_version_is_the_documented_400(api: APIClient) -> None:
    game = create_game(api, 2)
    response = api.get(game_url(game["id"]), {"at": game["version"] + 1})
    problem = assert_problem(response, 400, "invalid_request")
    assert problem["errors"] == {"at": [f"Ensure this value is at most {game['version']}."]}
    operation = SCHEMA["paths"]["/api/v1/games/{game_id}"]["get"]
    at = next(p for p in operation["parameters"] if p["name"] == "at")
    assert "400" in operation["responses"] and "past the game's `version`" in at["description"]

"""The API fuzzed against its own contract (openapi.yaml) with schemathesis.

Every operation gets generated requests, valid and invalid (schemathesis' examples, coverage and
fuzzing phases); a stateful run then follows the schema's OpenAPI links (create -> join -> act,
rotate...) so that requests reach games that are dealt and being played, not only unknown ids.
Every answer must: not be a server error; have a documented status, content type and headers;
match its documented schema; and, for an error, be an RFC 9457 problem.

The app is called in-process (WSGI), inside the test's database transaction; throttling is off
(tests/conftest.py). Both runs are bounded (max examples, steps) to stay well under a minute.
The bugs these runs found are pinned by plain regression tests in test_robustness.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any, ClassVar

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize
from schemathesis.checks import CHECKS as REGISTERED_CHECKS
from schemathesis.checks import (
    ignored_auth,
    load_all_checks,
    positive_data_acceptance,
)
from schemathesis.generation.stateful.state_machine import StepInput, StepOutput

from engine import action_to_data, legal_actions, seats_to_act
from games import core
from games.models import Game, Seat

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PROBLEM_FIELDS = {"type", "title", "status", "detail", "code"}
CREATE_GAME = "POST /api/v1/games"
JOIN_GAME = "POST /api/v1/games/{game_id}/players"
ROTATE_TOKEN = "POST /api/v1/games/{game_id}/players/{seat}/token"


class InProcessApp:
    """Django's WSGI app as the test client runs it: the request signals do not close the
    database connection, which holds the test's transaction (django.test.client does this)."""

    def __init__(self) -> None:
        self.handler = WSGIHandler()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
        try:
            return self.handler(environ, start_response)
        finally:
            request_started.connect(close_old_connections)
            request_finished.connect(close_old_connections)


#: A valid request may still be refused by the game's state: 409 (the rules), 412 (If-Match
#: named another version), 422 (an Idempotency-Key reused).
ACCEPTED_STATUSES = ["2xx", "401", "403", "404", "409", "412", "422", "429"]
CONFIG = schemathesis.Config.from_dict(
    {
        "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED_STATUSES}},
        "operations": [
            {
                # `?at=` is valid up to the game's version, which no schema can say: past it
                # the answer is the documented 400 (tests/api/test_problem_types.py). And an
                # `If-None-Match` naming the current version (or `*`) is answered 304, on the
                # game and on its feed.
                "include-operation-id": ["get_game", "list_events"],
                "checks": {
                    "positive_data_acceptance": {
                        "expected-statuses": [*ACCEPTED_STATUSES, "304", "400"]
                    }
                },
            },
            {
                # The stream answers for minutes (until its game ends or LIVE_STREAM_SECONDS
                # pass), and schemathesis reads a whole body before it checks it: each case would
                # hang. Its errors (400, 401, 404, 429, 503) are tested in-process in
                # tests/api/test_stream_errors.py, its frames with real servers in tests/live;
                # its parameters are the feed's, fuzzed there.
                "include-operation-id": "stream_game",
                "enabled": False,
            },
        ],
    }
)
schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml", config=CONFIG)
schema.app = InProcessApp()


def problem_details(ctx: Any, response: Any, case: Any) -> bool:
    """Every error is an RFC 9457 problem with a stable code, whatever the request was."""
    if response.status_code < 400:
        return True
    content_type = response.headers.get("Content-Type", response.headers.get("content-type"))
    content_type = content_type[0] if isinstance(content_type, list) else content_type
    assert content_type and content_type.startswith("application/problem+json"), content_type
    body = json.loads(response.content)
    assert set(body) >= PROBLEM_FIELDS, body
    assert body["status"] == response.status_code, body
    assert body["type"].endswith("/" + body["code"]), body
    return True


#: Every check schemathesis has (its registry), the stateful ones included: use_after_free and
#: ensure_resource_availability only say something about a sequence of calls.
#: (`max_response_time` is not in the registry: it checks a configured time budget.)
load_all_checks()
CHECKS = list(REGISTERED_CHECKS.get_all())
#: Checks that do not hold for an operation, and why.
EXCLUDED = {
    # A history can match the document's schema and still not replay by the rules (400
    # invalid_history): which events may follow which is the rules' business, not a schema's.
    "import_history": [positive_data_acceptance],
    # A person needs a password that Django's validators accept, a bot may have none (400
    # `weak_password`, `invalid_account`): rules about one field given another's value.
    "create_account": [positive_data_acceptance],
    # A seek's `seats.min` may not be above its `seats.max` (400), and an account has one
    # searching seek at a time (409 `already_seeking`, an accepted status).
    "create_seek": [positive_data_acceptance],
}


def accepts_but_a_seeded_rated_game(ctx: Any, response: Any, case: Any) -> bool | None:
    """`positive_data_acceptance` for a game's creation, but for the one rule about one field
    given another's value: a rated game takes no `seed` (400 naming `seed`, R14: its deal is
    secret), which a schema cannot say."""
    body = case.body if isinstance(case.body, dict) else {}
    if body.get("rated") is True and body.get("seed") is not None:
        assert response.status_code == 400, response.status_code
        return True
    return positive_data_acceptance(ctx, response, case)  # type: ignore[no-any-return]


#: Checks narrowed for an operation, in place of the one they narrow.
NARROWED = {"create_game": {positive_data_acceptance: accepts_but_a_seeded_rated_game}}


def checks_for(case: Any) -> list[Any]:
    operation = case.operation.definition.raw.get("operationId")
    excluded, narrowed = EXCLUDED.get(operation, []), NARROWED.get(operation, {})
    return [narrowed.get(check, check) for check in CHECKS if check not in excluded]


@pytest.fixture(autouse=True)
def _short_long_polls(settings: Any) -> None:
    """A generated `wait` would hold each case for up to 30 s in this single process, where
    no other request can move the game meanwhile: hold long polls a moment only."""
    settings.LIVE_LONG_POLL_SECONDS = 0.01


@schema.parametrize()
@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_every_operation_against_the_schema(case: Any) -> None:
    case.call_and_validate(checks=checks_for(case), additional_checks=[problem_details])


# Stateful: following the links


def _token(authorization: Any) -> str | None:
    if isinstance(authorization, str) and authorization.startswith("Bearer "):
        return authorization.removeprefix("Bearer ")
    return None


class _RootsFrom:
    """A state machine's transition controller that starts scenarios with one operation only."""

    def __init__(self, control: Any, root: str) -> None:
        self._control = control
        self._root = root

    def allow_root_transition(self, label: str, bundles: Any) -> bool:
        return label == self._root and bool(self._control.allow_root_transition(label, bundles))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._control, name)


_Machine: Any = schema.as_state_machine()
_JOINED = _Machine.bundles[f"{JOIN_GAME} -> 201"]


class GameStateMachine(_Machine):  # type: ignore[misc, valid-type]
    """The schema's state machine, following its links, with three additions:

    - each scenario may begin with a game already in play (`a_game_in_play`: created, every
      seat joined, then some legal actions, all through the API and checked like any step),
      whose last join answer feeds the links: the fuzzed requests then reach dealt rounds,
      held cards and finished games, not only the lobby;
    - a link from one action to the next names the game only (a seat's token is the client's
      own): the machine then presents the token of a seat that may act, learnt from the join
      and rotation answers;
    - scenarios start with `create_game` only: the stateless test already sends every
      operation random ids, and a scenario's steps are better spent going deep.
    """

    statuses: ClassVar[set[str]] = set()
    tokens: dict[str, dict[int, str]]

    def setup(self) -> None:
        self.tokens = {}
        self.own_cases: set[str] = set()
        self.held: set[str] = set()
        self.control = _RootsFrom(self.control, CREATE_GAME)

    def call_operation(self, operation_id: str, **parts: Any) -> StepOutput:
        """One request the machine chooses itself, checked like a generated one (but for
        ignored_auth, whose probes would double the cost of every move)."""
        case = schema.find_operation_by_id(operation_id).Case(**parts)
        self.recorder.record_case(case=case)
        self.own_cases.add(case.id)
        return self.step(StepInput.initial(case))

    @initialize(
        target=_JOINED,
        seed=st.integers(min_value=0, max_value=2**32),
        seats=st.integers(min_value=2, max_value=3),
        end_score=st.integers(min_value=1, max_value=40),
        moves=st.integers(min_value=0, max_value=80),
        rng=st.randoms(use_true_random=False),
    )
    def a_game_in_play(
        self, seed: int, seats: int, end_score: int, moves: int, rng: Random
    ) -> StepOutput:
        created = self.call_operation(
            "create_game", body={"seats": seats, "options": {"end_score": end_score}, "seed": seed}
        )
        game_id = created.response.json()["id"]
        joins = [
            self.call_operation(
                "join_game", path_parameters={"game_id": game_id}, body={"name": f"P{seat}"}
            )
            for seat in range(seats)
        ]
        for _ in range(moves):
            state = core.game_state(Game.objects.get(pk=game_id))
            to_act = seats_to_act(state)
            if not to_act:
                break
            seat = rng.choice(to_act)
            action = action_to_data(rng.choice(legal_actions(state, seat)))
            kind = action.pop("action")
            self.call_operation(
                kind,
                path_parameters={"game_id": game_id},
                headers={"Authorization": f"Bearer {self.tokens[game_id][seat]}"},
                **({"body": action} if action else {}),
            )
        return rng.choice(joins)

    def before_call(self, case: Any) -> None:
        if "/actions/" not in case.path:
            return
        game_id = str(case.path_parameters.get("game_id"))
        seats_tokens = self.tokens.get(game_id)
        if not seats_tokens or _token(case.headers.get("Authorization")) in seats_tokens.values():
            return  # not a game it knows, or a real seat's token already (its turn or not)
        game = Game.objects.filter(pk=game_id).first()
        to_act = seats_to_act(core.game_state(game)) if game is not None else ()
        seat = next((seat for seat in to_act if seat in seats_tokens), None)
        if seat is not None:
            case.headers["Authorization"] = f"Bearer {seats_tokens[seat]}"

    def after_call(self, response: Any, case: Any) -> None:
        super().after_call(response, case)
        if response.status_code >= 400 or not response.content:
            return
        body = json.loads(response.content)
        if not isinstance(body, dict):
            return
        operation = case.operation.label
        if isinstance(body.get("token"), str):
            self.held.add(body["token"])
        if operation == JOIN_GAME and response.status_code == 201 and "token" in body:  # a person's
            self.tokens.setdefault(body["game"]["id"], {})[body["seat"]] = body["token"]
        elif operation == ROTATE_TOKEN:
            game_id = str(case.path_parameters["game_id"])
            self.tokens.setdefault(game_id, {})[body["seat"]] = body["token"]
        game = body.get("game", body)
        if isinstance(game, dict) and isinstance(game.get("status"), str):
            type(self).statuses.add(game["status"])

    def validate_response(
        self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
    ) -> None:
        authorization = case.headers.get("Authorization")
        # Every token an answer gave, retired ones included: a rotation retried with its
        # Idempotency-Key presents the token it replaced (its answer was lost).
        known = self.held | {token for seats in self.tokens.values() for token in seats.values()}
        checks = checks_for(case)
        if case.id in self.own_cases:
            checks.remove(ignored_auth)
        case.validate_response(
            response,
            checks=checks,
            # A real seat token (from a join or rotation answer, or presented by the machine)
            # is credentials the client holds, not a generated one: ignored_auth then checks
            # that the same request without it, or with another, is refused.
            headers={"Authorization": authorization} if _token(authorization) in known else None,
            additional_checks=[problem_details],
            transport_kwargs=kwargs or None,
            recorder=self.recorder,
        )


def test_stateful_games_against_the_schema() -> None:
    GameStateMachine.statuses = set()
    GameStateMachine.run(
        settings=settings(
            max_examples=20,
            stateful_step_count=15,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.generate],
        )
    )
    # The runs went past the lobby: dealt rounds, turns being played.
    assert Seat.objects.exists()
    assert {"waiting", "setup", "playing"} <= GameStateMachine.statuses, GameStateMachine.statuses

"""R15: the service's bots at a person's pace. With a person seated (or a pace chosen), each
`play_bots` job makes one bot action and queues the next at the pace, and the first bot
action after a person's waits it too; bots alone play at once, many actions a job. The option
is recorded in `GameCreated` and shown in the view, with the pace in force. Jobs run in this
process (`run_jobs`: only the due ones) on a clock moved by hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django_tasks_db.models import DBTaskResult
from rest_framework.test import APIClient

from games import core
from games.models import Game
from games.store import log

from .bots_support import Clock, due_jobs, run_jobs, seat_bot
from .ratings_support import valid
from .support import GAMES, act, assert_problem, get_view, join

pytestmark = pytest.mark.django_db

#: The service's default pace in these tests (tests/conftest.py sets 0 for the rest).
DEFAULT_MS = 700


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


@pytest.fixture
def default_pace(monkeypatch: pytest.MonkeyPatch) -> int:
    """The service's default pace as in production (`SKYJO_BOT_PACE_MS`)."""
    monkeypatch.setattr(settings, "SKYJO_BOT_PACE_MS", DEFAULT_MS)
    return DEFAULT_MS


def new_game(api: APIClient, seats: int = 2, **options: Any) -> str:
    body: dict[str, Any] = {"seats": seats, "seed": 5}
    if options:
        body["options"] = options
    response = api.post(GAMES, body, format="json")
    assert response.status_code == 201, response.content
    return str(response.json()["id"])


def bot_jobs() -> Any:
    return DBTaskResult.objects.filter(task_path="games.tasks.play_bots", status="READY")


def run_one_due_job() -> int:
    """The one due job, run as a worker runs it: answers its result (the moves made)."""
    [job] = due_jobs()
    result: int = job.task.call(*job.args_kwargs["args"], **job.args_kwargs["kwargs"])
    job.set_successful(result)
    return result


def version(game_id: str) -> int:
    return Game.objects.get(pk=game_id).version


def until_the_bots_turn(api: APIClient, game_id: str, token: str) -> None:
    """The person's setup reveals, then their moves (the first legal one) until a bot must act."""
    act(api, game_id, token, {"action": "reveal", "column": 0, "row": 0})
    act(api, game_id, token, {"action": "reveal", "column": 1, "row": 0})
    while Game.objects.get(pk=game_id).current_seat == 0:
        act(api, game_id, token, get_view(api, game_id, token)["legal_actions"][0])


def assert_paced(game_id: str, clock: Clock, pace: timedelta, moves: int) -> None:
    """`moves` bot actions, each one job due `pace` after the append before it (not sooner)."""
    for _ in range(moves):
        [job] = bot_jobs()
        assert job.run_after == clock.now + pace
        clock.advance(pace.total_seconds() - 0.001)
        assert run_jobs() == 0  # not due yet
        clock.advance(0.001)
        before = version(game_id)
        assert run_one_due_job() == 1
        assert version(game_id) > before


def test_a_chosen_pace_plays_one_bot_action_a_job_at_that_pace(
    api: APIClient, clock: Clock
) -> None:
    pace = timedelta(milliseconds=500)
    game_id = new_game(api, bot_pace_ms=500)
    token = join(api, game_id, "Ada")["token"]
    seat_bot(api, game_id, "greedy")  # the last seat: the deal, and the bot's setup reveals
    assert_paced(game_id, clock, pace, 2)
    assert not bot_jobs().exists()  # the bot's reveals done: the person's turn to reveal
    until_the_bots_turn(api, game_id, token)
    assert_paced(game_id, clock, pace, 2)  # the first waits the pace from the person's action


def test_with_a_person_seated_the_services_default_pace_applies(
    api: APIClient, clock: Clock, default_pace: int
) -> None:
    pace = timedelta(milliseconds=default_pace)
    game_id = new_game(api)
    assert get_view(api, game_id)["bot_pace_ms"] == 0  # no one seated yet
    token = join(api, game_id, "Ada")["token"]
    seat_bot(api, game_id, "statistician")
    view = valid("Game", api.get(f"{GAMES}/{game_id}"))
    assert view["bot_pace_ms"] == default_pace and "bot_pace_ms" not in view["options"]
    assert_paced(game_id, clock, pace, 2)
    until_the_bots_turn(api, game_id, token)
    [job] = bot_jobs()  # queued by the person's action: the first bot action waits the pace
    assert job.run_after == clock.now + pace
    assert run_jobs() == 0
    assert_paced(game_id, clock, pace, 2)


def test_a_seat_handed_to_a_bot_leaves_bots_alone_at_once(
    api: APIClient, clock: Clock, default_pace: int
) -> None:
    """A person who leaves a started game is no person at the table (R13's `SeatLeft`)."""
    game_id = new_game(api)
    token = join(api, game_id, "Ada")["token"]
    seat_bot(api, game_id, "greedy")
    left = api.post(
        f"{GAMES}/{game_id}/players/0/leave", HTTP_AUTHORIZATION=f"Bearer {token}", format="json"
    )
    assert left.status_code == 200, left.content
    assert get_view(api, game_id)["bot_pace_ms"] == 0
    assert run_one_due_job() > 2  # both seats' setup reveals and more, in one job


@pytest.mark.parametrize(("options", "per_job"), [({}, "many"), ({"bot_pace_ms": 300}, "one")])
def test_bots_alone_play_at_once_unless_their_creator_chose_a_pace(
    api: APIClient, clock: Clock, default_pace: int, options: dict[str, Any], per_job: str
) -> None:
    game_id = new_game(api, **options)
    seat_bot(api, game_id, "greedy")
    seat_bot(api, game_id, "random")
    assert get_view(api, game_id)["bot_pace_ms"] == options.get("bot_pace_ms", 0)
    if per_job == "many":
        assert run_one_due_job() > 10
    else:
        assert run_jobs() == 0  # the first action waits the pace from the deal
        assert_paced(game_id, clock, timedelta(milliseconds=300), 3)


def test_the_chosen_pace_is_recorded_and_shown(api: APIClient) -> None:
    game_id = new_game(api, bot_pace_ms=1200)
    created = log.events(Game.objects.get(pk=game_id))[0]
    assert created.type == "GameCreated" and created.payload["options"]["bot_pace_ms"] == 1200
    view = valid("Game", api.get(f"{GAMES}/{game_id}"))
    assert view["options"]["bot_pace_ms"] == 1200 and view["bot_pace_ms"] == 1200
    [event] = api.get(f"{GAMES}/{game_id}/events").json()["events"][:1]
    assert event["data"]["options"]["bot_pace_ms"] == 1200
    plain = new_game(api)
    assert "bot_pace_ms" not in log.events(Game.objects.get(pk=plain))[0].payload["options"]


def test_a_history_keeps_the_chosen_pace(api: APIClient) -> None:
    """Exported and imported with the game (a replay can play at it); 0 is a choice too."""
    game_id = new_game(api, bot_pace_ms=0, end_score=30)
    seat_bot(api, game_id, "greedy")
    seat_bot(api, game_id, "random")
    run_jobs()
    history = api.get(f"{GAMES}/{game_id}/history").json()
    assert history["game"]["options"]["bot_pace_ms"] == 0
    assert history["events"][0]["data"]["options"]["bot_pace_ms"] == 0
    imported = api.post(f"{GAMES}/import", history, format="json")
    assert imported.status_code == 201, imported.content
    assert imported.json()["options"]["bot_pace_ms"] == 0


@pytest.mark.parametrize("pace", [-1, 10_001, 0.5, "700", True])
def test_a_pace_out_of_bounds_is_refused_naming_the_field(api: APIClient, pace: object) -> None:
    response = api.post(GAMES, {"seats": 2, "options": {"bot_pace_ms": pace}}, format="json")
    assert list(assert_problem(response, 400, "invalid_request")["errors"]) == [
        "options.bot_pace_ms"
    ]


def test_the_sweep_leaves_a_paced_game_to_its_job(
    api: APIClient, clock: Clock, default_pace: int
) -> None:
    """The sweep takes a game for one owed a move after `SKYJO_SWEEP_GRACE` (30 s) only, far
    beyond any pace (10 s at most): a paced game's job is due long before."""
    game_id = new_game(api, bot_pace_ms=10_000)
    join(api, game_id, "Ada")
    seat_bot(api, game_id, "greedy")
    clock.advance(10)
    assert core.sweep(settings.SKYJO_SWEEP_GRACE) == 0  # its job is due now: no second one
    assert run_jobs() == 1
    clock.advance(settings.SKYJO_SWEEP_GRACE)  # the next job lost (a worker killed): swept
    DBTaskResult.objects.filter(status="READY").delete()
    assert core.sweep(settings.SKYJO_SWEEP_GRACE) == 1

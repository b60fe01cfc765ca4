"""Helpers for the service's own moves (R13) in one process: run the queued jobs as a worker
would, move the service's clock, and seat bots over HTTP."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db.models import Q
from django_tasks_db.models import DBTaskResult, get_date_max
from rest_framework.test import APIClient

from games.core import clock

from .support import GAMES


def due_jobs() -> Any:
    """The queued jobs due by the service's clock (`games.clock.now`, which a test may move),
    in the worker's order."""
    due = Q(run_after=get_date_max()) | Q(run_after__lte=clock.now())
    return DBTaskResult.objects.filter(due, status="READY")


def run_jobs(limit: int = 1_000) -> int:
    """Run the due jobs, each as a worker runs it (its task called with its arguments, then
    marked done), until none is due; answers how many ran. In this process and transaction."""
    ran = 0
    while (job := due_jobs().first()) is not None:
        assert ran < limit, "the jobs never ran out"
        result = job.task.call(*job.args_kwargs["args"], **job.args_kwargs["kwargs"])
        job.set_successful(result)
        ran += 1
    return ran


class Clock:
    """The service's clock, moved by hand (`games.clock.now`)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = clock.now()
        monkeypatch.setattr(clock, "now", lambda: self.now)

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def seat_bot(client: APIClient, game_id: str, strategy: str, **extra: Any) -> dict[str, Any]:
    response = client.post(f"{GAMES}/{game_id}/players", {"bot": strategy, **extra}, format="json")
    assert response.status_code == 201, response.content
    data: dict[str, Any] = response.json()
    return data


def leave(client: APIClient, game_id: str, seat: int, token: str, **headers: str) -> Any:
    return client.post(
        f"{GAMES}/{game_id}/players/{seat}/leave", HTTP_AUTHORIZATION=f"Bearer {token}", **headers
    )

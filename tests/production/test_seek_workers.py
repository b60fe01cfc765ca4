"""The matcher on two real worker processes (`manage.py worker`) and PostgreSQL: many seeks made
at once, each queuing the matcher, the matcher's job queued again and again besides, and both
workers matching at the same time (`SKIP LOCKED`): every seek is seated in exactly one game,
each game holds its seekers once, each seeker is told once, and every game's log replays."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.db import connection, transaction
from django_tasks_db.models import DBTaskResult

from accounts import services
from accounts.models import InboxEntry
from engine.audit import verify_log
from games.models import Game, Seat
from games.store import log
from play import SeekRequest, create_seek
from play.models import Seek, SeekStatus
from play.tasks import match_seeks
from tests.production.test_workers import running_worker, wait_until

pytestmark = [pytest.mark.server, pytest.mark.django_db(transaction=True)]

#: Seekers, and the seat ranges they ask for in turn: groups of every size form and re-form.
SEEKERS = 48
RANGES = [(2, 2), (2, 4), (3, 4), (2, 3), (4, 4), (2, 8)]
#: The workers keep the seeks alive for the test's length (no account stream is open here).
WORKERS_ENV = {"SEEK_IDLE_SECONDS": "600", "SKYJO_WORKER_INTERVAL": "0.05"}


def make_seeks() -> list[Seek]:
    """A seek for each of `SEEKERS` new accounts, all committed at once with their matcher's
    jobs (and as many again): both workers wake to match the same seeks. Bots may fill a
    table after 3 s, so that every seek is seated in the end."""
    accounts = [services.sign_up(f"seeker{i}", "bot", None).account for i in range(SEEKERS)]
    seeks = []
    with transaction.atomic():
        for index, account in enumerate(accounts):
            low, high = RANGES[index % len(RANGES)]
            wanted = SeekRequest(low, high, bots_after=3)
            seeks.append(create_seek(services.session_credential(account), wanted))
            match_seeks.enqueue()  # and a duplicate job: more matchers at once
    return seeks


def all_matched() -> bool:
    return not Seek.objects.exclude(status=SeekStatus.MATCHED).exists()


def test_two_workers_seat_every_seek_exactly_once(settings: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("two matchers at once, skipping each other's locked rows: PostgreSQL")
    settings.SEEK_IDLE_SECONDS = 600
    with running_worker(**WORKERS_ENV), running_worker(**WORKERS_ENV):
        seeks = make_seeks()
        wait_until(all_matched, 90, "every seek to be matched")
    rows = Seek.objects.select_related("account").order_by("created_at")
    assert rows.count() == len(seeks)
    seated = Seat.objects.filter(account__handle__startswith="seeker")
    by_seat = {(s.game_id, s.seat): s.account.handle for s in seated.select_related("account")}
    for seek in rows:  # in its game, in its seat, once
        assert by_seat[(seek.game_id, seek.seat)] == seek.account.handle
    assert len(by_seat) == len(seeks)
    assert Counter(s.account_id for s in seated).most_common(1)[0][1] == 1
    games = Game.objects.filter(seeks__isnull=False).distinct()
    for game in games:
        seekers = [s for s in rows if s.game_id == game.id]
        assert 1 <= len(seekers) <= game.seats
        assert all(s.seats_min <= game.seats <= s.seats_max for s in seekers)
        assert verify_log([e.event for e in log.events(game)]).version == game.version
    told = InboxEntry.objects.filter(type="seek_matched")
    assert sorted(e.payload["seek"] for e in told) == sorted(str(s.id) for s in rows)
    matchers = DBTaskResult.objects.filter(task_path="play.tasks.match_seeks")
    assert not DBTaskResult.objects.filter(status="FAILED").exists()
    workers = {w for ids in matchers.values_list("worker_ids", flat=True) for w in ids}
    assert len(workers) == 2  # both matched, at the same time

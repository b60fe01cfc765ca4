"""An account's seek through the use cases (`play.seeks`): made, read, withdrawn, one at a
time; alive while its account is seen (a read, its account stream), expired once it is not for
`SEEK_IDLE_SECONDS` or older than `SEEK_MAX_SECONDS`; its matching queued with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django_tasks_db.models import DBTaskResult

from accounts.errors import MissingScope
from games.core.resources import iso_time
from play import read_seek, seek_data, seen, withdraw_seek
from play.errors import AlreadySeeking, SeekAlreadyMatched, SeekNotFound
from play.matcher import match
from play.models import SeekStatus
from play.seeks import lapse_seeks
from tests.api.bots_support import Clock

from .seek_support import account, fresh, seek

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def test_a_new_seek_is_searching_and_says_what_it_asks_for(clock: Clock) -> None:
    made = seek(account("ada"), 2, 4, turn_seconds=30, bots_after=20)
    data = seek_data(made)
    assert data == {
        "id": str(made.id),
        "status": "searching",
        "created_at": data["created_at"],
        "seats": {"min": 2, "max": 4},
        "turn_seconds": 30,
        "bots_after": 20,
        "rated": False,
        "expires_at": data["expires_at"],
        "game": None,
        "seat": None,
    }
    assert made.created_at == made.seen_at == clock.now
    assert made.expires_at == clock.now + timedelta(seconds=600)
    assert data["expires_at"] == iso_time(clock.now + timedelta(seconds=30))


def test_one_searching_seek_per_account(clock: Clock) -> None:
    ada = account("ada")
    first = seek(ada, 2, 4)
    with pytest.raises(AlreadySeeking) as refused:
        seek(ada, 3, 3)
    assert refused.value.extra == {"seek": str(first.id)}
    seek(account("bob"))  # another account's is its own
    withdraw_seek(ada, first.id)
    second = seek(ada, 3, 3)
    assert fresh(second).status == SeekStatus.SEARCHING


def test_a_lapsed_seek_makes_way_for_a_new_one(clock: Clock) -> None:
    ada = account("ada")
    first = seek(ada)
    clock.advance(30)
    second = seek(ada)
    assert fresh(first).status == SeekStatus.EXPIRED
    assert fresh(second).status == SeekStatus.SEARCHING


def test_a_seek_is_its_accounts_alone() -> None:
    mine = seek(account("ada"))
    bob = account("bob")
    for seek_id in (mine.id, "not-a-uuid", "00000000-0000-0000-0000-000000000000"):
        with pytest.raises(SeekNotFound):
            read_seek(bob, seek_id)
        with pytest.raises(SeekNotFound):
            withdraw_seek(bob, seek_id)
    assert fresh(mine).status == SeekStatus.SEARCHING


def test_every_use_needs_the_play_scope() -> None:
    ada = account("ada")
    mine = seek(ada)
    reader = replace(ada, scopes=frozenset({"account:read", "challenge:read"}))
    for use in (read_seek, withdraw_seek):
        with pytest.raises(MissingScope):
            use(reader, mine.id)
    with pytest.raises(MissingScope):
        seek(replace(account("bob"), scopes=frozenset({"chat:write"})))


def test_a_read_keeps_a_seek_alive_until_its_bound(clock: Clock) -> None:
    ada = account("ada")
    mine = seek(ada)
    for _ in range(29):  # 580 s, read every 20 s
        clock.advance(20)
        assert read_seek(ada, mine.id).status == SeekStatus.SEARCHING
        assert lapse_seeks() == 0
    clock.advance(20)  # 600 s: its bound, read or not
    assert read_seek(ada, mine.id).status == SeekStatus.EXPIRED


def test_a_seek_not_seen_expires_and_a_late_read_does_not_revive_it(clock: Clock) -> None:
    ada = account("ada")
    mine = seek(ada)
    clock.advance(29)
    assert lapse_seeks() == 0
    clock.advance(1)
    assert seen(ada.account_id) == 0  # too late: it has lapsed
    read = read_seek(ada, mine.id)
    assert read.status == SeekStatus.EXPIRED
    assert seek_data(read)["expires_at"] == iso_time(read.created_at + timedelta(seconds=30))


def test_the_sweep_expires_the_seeks_no_one_sees(clock: Clock) -> None:
    ada, bob = account("ada"), account("bob")
    lost, kept = seek(ada, 3, 3), seek(bob, 4, 4)
    clock.advance(20)
    assert seen(bob.account_id) == 1  # bob's account stream is open
    clock.advance(15)
    assert match() == 1
    assert fresh(lost).status == SeekStatus.EXPIRED
    assert fresh(kept).status == SeekStatus.SEARCHING
    assert fresh(kept).seen_at == clock.now - timedelta(seconds=15)


def statements(call: Callable[[], Any]) -> list[str]:
    """The SQL statements `call` sends, upper-cased."""
    with CaptureQueriesContext(connection) as captured:
        call()
    return [query["sql"].lstrip().upper() for query in captured.captured_queries]


def test_a_sign_of_presence_writes_only_for_a_searching_seek(clock: Clock) -> None:
    """The account stream and the long poll call `seen` for every account, seeking or not:
    without a searching seek it costs one read and writes nothing (on SQLite any UPDATE, even
    of no row, waits for the database's one write lock)."""
    ada, bob = account("ada"), account("bob")
    seek(bob)
    (read,) = statements(lambda: seen(ada.account_id))
    assert read.startswith("SELECT")
    withdrawn = seek(ada)
    withdraw_seek(ada, withdrawn.id)
    assert [sql.split()[0] for sql in statements(lambda: seen(ada.account_id))] == ["SELECT"]
    mine = seek(ada)
    clock.advance(5)
    assert [sql.split()[0] for sql in statements(lambda: seen(ada.account_id))] == [
        "SELECT",
        "UPDATE",
    ]
    assert fresh(mine).seen_at == clock.now


def test_withdrawn_once_and_for_all(clock: Clock) -> None:
    ada = account("ada")
    mine = seek(ada)
    assert withdraw_seek(ada, mine.id).status == SeekStatus.CANCELED
    assert withdraw_seek(ada, mine.id).status == SeekStatus.CANCELED  # again: as it is
    assert seen(ada.account_id) == 0
    data = seek_data(read_seek(ada, mine.id))
    assert (data["status"], data["expires_at"]) == ("canceled", None)


def test_an_expired_seek_stays_expired_when_withdrawn(clock: Clock) -> None:
    ada = account("ada")
    mine = seek(ada)
    clock.advance(31)
    lapse_seeks()
    assert withdraw_seek(ada, mine.id).status == SeekStatus.EXPIRED


def test_a_matched_seek_cannot_be_withdrawn() -> None:
    ada = account("ada")
    mine = seek(ada, 2, 2, bots_after=0)
    match()
    matched = fresh(mine)
    assert matched.status == SeekStatus.MATCHED
    with pytest.raises(SeekAlreadyMatched):
        withdraw_seek(ada, mine.id)
    assert fresh(mine).status == SeekStatus.MATCHED


def queued(task: str) -> list[Any]:
    jobs = DBTaskResult.objects.filter(task_path=task, status="READY")
    return sorted(job.run_after for job in jobs)


def test_a_seek_queues_its_matching_now_and_at_its_time_triggers(clock: Clock) -> None:
    seek(account("ada"), bots_after=45)
    seek(account("bob"), bots_after=20)
    seek(account("eve"))
    jobs = queued("play.tasks.match_seeks")
    later = [when for when in jobs if when.year < 9999]  # the database backend's "at once"
    assert len(jobs) - len(later) == 3
    assert later == [clock.now + timedelta(seconds=s) for s in (20, 20, 20, 45)]

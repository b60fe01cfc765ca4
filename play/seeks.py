"""Quick play: an account asks for a game (`Seek`: a range of seats, a clock, how long before
bots may fill it) and the matcher (`play.matcher`) seats it with compatible seekers.

A seek is `searching` until the matcher seats it (`matched`), its account withdraws it
(`canceled`) or it lapses (`expired`). It lives while its account is present, for a bounded
time: its account stream open (which says so every few seconds, `seen`) and each read of the
seek move `seen_at` on; a seek not seen for `SEEK_IDLE_SECONDS`, or older than
`SEEK_MAX_SECONDS`, expires. One searching seek per account at a time: a second is refused
(409 `already_seeking`, naming the first), so a client that lost its seek's id finds it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet

from accounts.credentials import AccountCredential
from games.core import clock
from games.core.resources import iso_time
from play import tasks
from play.errors import AlreadySeeking, SeekAlreadyMatched, SeekNotFound
from play.models import Seek, SeekStatus


@dataclass(frozen=True)
class SeekRequest:
    """What a seeker asks for (validated by the entry point): `seats_min` to `seats_max`
    seats, each turn's clock (None: no clock), the seconds after which bots may fill the
    empty seats (None: never, keep waiting), and whether the game is rated (R14: then the
    matcher seats it with rated seekers only, near its rating first: `play.matcher`)."""

    seats_min: int
    seats_max: int
    turn_seconds: int | None = None
    bots_after: int | None = None
    rated: bool = False


def create_seek(account: AccountCredential, wanted: SeekRequest) -> Seek:
    """A new searching seek of `account` (scope `play`), its matching queued with it; 409
    `already_seeking` while the account has one searching."""
    account.require("play")
    with transaction.atomic():
        lapse_seeks(Seek.objects.filter(account_id=account.account_id))
        _refuse_a_second(account.account_id)
        try:
            with transaction.atomic():  # a concurrent creation's row: the unique index refuses
                seek = _new_seek(account.account_id, wanted, clock.now())
        except IntegrityError:
            _refuse_a_second(account.account_id)
            raise
        tasks.schedule_matching(seek.created_at, seek.bots_after, rated=seek.rated)
    return seek


def _new_seek(account_id: int, wanted: SeekRequest, now: datetime) -> Seek:
    return Seek.objects.create(
        account_id=account_id,
        seats_min=wanted.seats_min,
        seats_max=wanted.seats_max,
        turn_seconds=wanted.turn_seconds,
        bots_after=wanted.bots_after,
        rated=wanted.rated,
        created_at=now,
        seen_at=now,
        expires_at=now + timedelta(seconds=settings.SEEK_MAX_SECONDS),
    )


def _refuse_a_second(account_id: int) -> None:
    current = _searching().filter(account_id=account_id).values_list("id", flat=True).first()
    if current is not None:
        raise AlreadySeeking(current)


def read_seek(account: AccountCredential, seek_id: object) -> Seek:
    """The account's seek (404 `seek_not_found` for another's): a read of a searching seek is
    a sign of its account's presence, unless it has lapsed already (it expires now)."""
    account.require("play")
    seek = _own_seek(account, seek_id)
    if seek.status == SeekStatus.SEARCHING:
        mine = Seek.objects.filter(pk=seek.pk)
        if not lapse_seeks(mine):
            _searching().filter(pk=seek.pk).update(seen_at=clock.now())
        seek.refresh_from_db()
    return seek


def withdraw_seek(account: AccountCredential, seek_id: object) -> Seek:
    """The account gives its seek up (`canceled`); a seek no longer searching stays as it is,
    but a matched one is a seat in a game: 409 `seek_already_matched`."""
    account.require("play")
    with transaction.atomic():  # waits for a matcher holding the seek, then reads its outcome
        seek = _own_seek(account, seek_id, for_update=True)
        if seek.status == SeekStatus.MATCHED:
            raise SeekAlreadyMatched(seek.id)
        if seek.status == SeekStatus.SEARCHING:
            seek.status = SeekStatus.CANCELED
            seek.save(update_fields=["status"])
    return seek


def _own_seek(account: AccountCredential, seek_id: object, *, for_update: bool = False) -> Seek:
    try:
        key = uuid.UUID(str(seek_id))
    except ValueError:
        raise SeekNotFound(seek_id) from None
    rows = Seek.objects.filter(pk=key, account_id=account.account_id)
    seek = (rows.select_for_update() if for_update else rows).first()
    if seek is None:
        raise SeekNotFound(seek_id)
    return seek


def seen(account_id: int) -> int:
    """A sign of the account's presence (its account stream is open, it polls its events): its
    searching seek, if it has not lapsed, lives on; answers the seeks it moved on (0 or 1).
    Called for every account, seeking or not: one indexed read, and an UPDATE only when there
    is a seek to move on (on SQLite any UPDATE, even of no row, waits for the one write
    lock)."""
    now = clock.now()
    live = _live(now).filter(account_id=account_id)
    if not live.exists():
        return 0
    return live.update(seen_at=now)


def lapse_seeks(seeks: QuerySet[Seek] | None = None) -> int:
    """Expire the searching seeks (of `seeks`, else every one) not seen for
    `SEEK_IDLE_SECONDS` or older than `SEEK_MAX_SECONDS`; answers how many. A read first:
    every sweep runs it, and on SQLite an UPDATE takes the write lock even when it changes
    no row, which the bots' and clocks' moves then wait for."""
    now = clock.now()
    rows = Seek.objects.all() if seeks is None else seeks
    lapsed = rows.filter(status=SeekStatus.SEARCHING).filter(
        Q(seen_at__lte=now - idle_time()) | Q(expires_at__lte=now)
    )
    return lapsed.update(status=SeekStatus.EXPIRED) if lapsed.exists() else 0


def idle_time() -> timedelta:
    return timedelta(seconds=settings.SEEK_IDLE_SECONDS)


def _searching() -> QuerySet[Seek]:
    return Seek.objects.filter(status=SeekStatus.SEARCHING)


def _live(now: datetime) -> QuerySet[Seek]:
    """The searching seeks that have not lapsed at `now`: the matcher's candidates."""
    return _searching().filter(seen_at__gt=now - idle_time(), expires_at__gt=now)


def live_seeks(now: datetime) -> QuerySet[Seek]:
    """The seeks the matcher may seat at `now`: searching, not lapsed, of a live account,
    oldest first."""
    return _live(now).filter(account__deleted_at__isnull=True).order_by("created_at", "id")


def seek_data(seek: Seek) -> dict[str, Any]:
    """A seek as the API and the pages show it."""
    return {
        "id": str(seek.id),
        "status": seek.status,
        "created_at": iso_time(seek.created_at),
        "seats": {"min": seek.seats_min, "max": seek.seats_max},
        "turn_seconds": seek.turn_seconds,
        "bots_after": seek.bots_after,
        "rated": seek.rated,
        "expires_at": _expiry(seek),
        "game": None if seek.game_id is None else str(seek.game_id),
        "seat": seek.seat,
    }


def _expiry(seek: Seek) -> str | None:
    """When a searching seek expires unless seen again (for an expired one: when it did);
    None once matched or canceled."""
    if seek.status in (SeekStatus.MATCHED, SeekStatus.CANCELED):
        return None
    return iso_time(min(seek.seen_at + idle_time(), seek.expires_at))

"""Seats kept for someone (`SeatHold`): a reserved handle, a challenge's invitee, a rematch's
player. A hold counts only while the game waits and until it expires; a join by its holder uses
it, a join by anyone else must leave a seat for every hold (409 `seat_reserved`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q

from accounts.services import find_player
from games.core import clock
from games.core.errors import HoldNotFound, NotCreator, SeatReserved
from games.models import Game, SeatHold


@dataclass(frozen=True)
class Holder:
    """Who is joining, as holds name people: an account, or a guest proving (by its old seat
    token) that it held `guest_seat` of the game this one is the rematch of."""

    account_id: int | None = None
    guest_seat: int | None = None


def live_holds(game: Game) -> list[SeatHold]:
    """The game's holds that still keep a seat (with their accounts): none once it has left
    `waiting`; none for an account deleted since (no one could take or free its seat)."""
    if game.status != "waiting":
        return []
    now = clock.now()
    alive = Q(expires_at__isnull=True) | Q(expires_at__gt=now)
    live_account = Q(account__isnull=True) | Q(account__deleted_at__isnull=True)
    return list(game.holds.filter(alive, live_account).select_related("account"))


def _alive(hold: SeatHold, now: datetime) -> bool:
    unexpired = hold.expires_at is None or hold.expires_at > now
    return unexpired and (hold.account is None or hold.account.deleted_at is None)


def hold_for(game: Game, holder: Holder, open_seats: int) -> SeatHold | None:
    """The hold `holder` takes its seat with, if any; `SeatReserved` when every open seat is
    held for others."""
    holds = live_holds(game)
    own = next((hold for hold in holds if _held_by(hold, holder)), None)
    if own is None and open_seats <= len(holds):
        raise SeatReserved()
    return own


def _held_by(hold: SeatHold, holder: Holder) -> bool:
    if hold.account_id is not None:
        return hold.account_id == holder.account_id
    return holder.guest_seat is not None and hold.guest_seat == holder.guest_seat


def hold_seats(
    game: Game,
    account_ids: Iterable[int] = (),
    guest_seats: Iterable[int] = (),
    expires_at: datetime | None = None,
) -> None:
    """Keep a seat of `game` for each account and each guest of its previous game."""
    holds = [SeatHold(game=game, account_id=a, expires_at=expires_at) for a in account_ids]
    holds += [SeatHold(game=game, guest_seat=s, expires_at=expires_at) for s in guest_seats]
    SeatHold.objects.bulk_create(holds)


def reserved_accounts(handles: Iterable[str]) -> list[int]:
    """The accounts of `handles` (404 `player_not_found` for any unknown), each once."""
    return list(dict.fromkeys(find_player(handle).id for handle in handles))


def free_hold(game: Game, handle: str, by_account: int) -> None:
    """The creator frees the seat it reserved for `handle`: anyone may take it now. Only a
    hold that still counts can be freed (404 once the game started or the hold expired)."""
    if game.created_by_id is None or game.created_by_id != by_account:
        raise NotCreator()
    account_id = find_player(handle).id
    live = [hold.pk for hold in live_holds(game) if hold.account_id == account_id]
    if not SeatHold.objects.filter(pk__in=live).delete()[0]:
        raise HoldNotFound(handle)


def held_handles(game: Game) -> list[str]:
    """The handles the game's live holds are for (guests' holds are not named), in the order
    they were made."""
    return [hold.account.handle for hold in _ordered(live_holds(game)) if hold.account is not None]


def prefetched_handles(game: Game) -> list[str]:
    """`held_handles` from holds fetched with the game and their accounts (a lobby's page of
    games: `resources.with_links`), without a query per game."""
    if game.status != "waiting":
        return []
    now = clock.now()
    alive = [hold for hold in game.holds.all() if _alive(hold, now)]
    return [hold.account.handle for hold in _ordered(alive) if hold.account is not None]


def _ordered(holds: list[SeatHold]) -> list[SeatHold]:
    return sorted(holds, key=lambda hold: hold.pk)

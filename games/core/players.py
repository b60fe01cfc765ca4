"""The games of an account: its record (games played, won, under way), its public profile,
its games as the lobby lists them, and "my games" (whose turn first).

The accounts' room knows nothing of games, so what an account did at the tables is counted
here, from the seats it held (`Seat.account`) and the games' summary columns (`status`,
`winners`, `current_seat`, `turn_deadline`): no log is replayed but for the setup's turns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from accounts.credentials import AccountCredential
from accounts.models import Account
from accounts.services import find_player, live_account
from engine import seats_to_act
from games.core.lobby import visible_to
from games.core.resources import game_summary, iso_time, with_links
from games.core.states import game_state
from games.models import Game, Seat, Status

#: The statuses of a game under way: dealt and not finished.
ACTIVE = (Status.SETUP, Status.PLAYING)
#: What `status=` may ask for in an account's games: a stored status, or `active` (either of
#: `ACTIVE`); `canceled`: the games called off before they started (a challenge declined...).
ACCOUNT_GAME_STATUSES = ("active", Status.WAITING, Status.FINISHED, Status.CANCELED)


@dataclass(frozen=True)
class Record:
    """Games counted once each, however many of their seats the account held (a built-in
    bot may hold several): `played` the finished ones, `won` those where one of its seats
    is among the winners, `active` those dealt and not finished."""

    played: int
    won: int
    active: int


def record_of(account_id: int) -> Record:
    seats = Seat.objects.filter(account_id=account_id, game__status__in=(*ACTIVE, Status.FINISHED))
    rows = seats.values_list("game_id", "seat", "game__status", "game__winners")
    played, won, active = set(), set(), set()
    for game_id, seat, status, winners in rows:
        if status == Status.FINISHED:
            played.add(game_id)
            if seat in (winners or []):
                won.add(game_id)
        else:
            active.add(game_id)
    return Record(len(played), len(won), len(active))


def _owner_handle(account: Account) -> str | None:
    return None if account.owner is None or account.owner.deleted_at else account.owner.handle


def player_profile(handle: str) -> dict[str, Any]:
    """A live account's public page (404 `player_not_found` for no such handle, or a
    deleted account's)."""
    account = find_player(handle)
    record = record_of(account.id)
    return {
        "handle": account.handle,
        "kind": account.kind,
        "builtin": account.builtin,
        "owner": _owner_handle(account),
        "created_at": iso_time(account.created_at),
        "games_played": record.played,
        "games_won": record.won,
    }


def account_profile(credential: AccountCredential) -> dict[str, Any]:
    """The account a token stands for, as its owner sees it (its record beside it)."""
    account = live_account(credential)
    record = record_of(account.id)
    return {
        "handle": account.handle,
        "kind": account.kind,
        "created_at": iso_time(account.created_at),
        "owner": _owner_handle(account),
        "builtin": account.builtin,
        "games": {"played": record.played, "won": record.won, "active": record.active},
    }


def _games_of(account_id: int, status: str | None) -> QuerySet[Game]:
    games = Game.objects.filter(seat_rows__account_id=account_id).distinct()
    if status == "active":
        return games.filter(status__in=ACTIVE)
    return games if status is None else games.filter(status=status)


def player_games(handle: str, status: str | None, viewer: int | None = None) -> QuerySet[Game]:
    """The games a live player sat in (`status`: a game status or `active`), newest first,
    their seats fetched with them: pages of them are the lobby's entries. Its unlisted games
    only for an account `viewer` that may find them too (`lobby.visible_to`)."""
    account = find_player(handle)
    games = with_links(_games_of(account.id, status).filter(visible_to(viewer)))
    return games.order_by("-created_at", "-id")


def my_games(credential: AccountCredential, status: str | None) -> list[dict[str, Any]]:
    """The account's games as lobby entries plus its `seat`, `your_turn` and the game's
    `turn_deadline`: the games under way first, those where it is to act first among them,
    then by deadline (soonest first, none last); then the waiting ones, then the ended ones
    (finished or canceled), each newest first. A list, not a query: whose turn it is in a
    setup is in the state, not in a column."""
    games = with_links(_games_of(credential.account_id, status))
    entries = [_my_entry(game, credential.account_id) for game in games]
    return [entry for _, entry in sorted(entries, key=lambda item: item[0])]


def _my_entry(game: Game, account_id: int) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The entry of `game` and its place in "my games"."""
    mine = [row for row in game.seat_rows.all() if row.account_id == account_id]
    seat = min(row.seat for row in mine)
    to_act = _to_act(game, {row.seat for row in mine if row.bot is None})
    entry = {
        **game_summary(game),
        "seat": seat,
        "your_turn": bool(to_act),
        "turn_deadline": None if game.turn_deadline is None else iso_time(game.turn_deadline),
    }
    rank = {Status.SETUP: 0, Status.PLAYING: 0, Status.WAITING: 1}.get(game.status, 2)
    deadline = game.turn_deadline.timestamp() if game.turn_deadline else float("inf")
    newest_first = -game.updated_at.timestamp()
    return (rank, not to_act, deadline if rank == 0 else 0, newest_first, str(game.id)), entry


def _to_act(game: Game, seats: set[int]) -> bool:
    """Whether one of `seats` (the account's own, played by no bot) is to act now."""
    if not seats or game.status not in ACTIVE:
        return False
    if game.status == Status.PLAYING:
        return game.current_seat in seats
    return bool(seats & set(seats_to_act(game_state(game))))

"""Rematches: a finished game's players ask for another game like it, and all of them get the
same one, whoever asks first (boardgame.io's `playAgain`).

The first call creates the rematch: the same seats and options, a new secret seed, the same
`listed`, linked to the old game by `Game.rematch_of` (unique, so a game has one rematch, and
two first calls racing end with one game). The old game's bots sit at once with their
strategies, every person's seat is held for them (an account by its account, a guest by its
old seat, proven by its old seat token) for `REMATCH_HOLD_SECONDS`, and every account seated
in the old game but the caller is told (`rematch_offered`). Every call, the first included,
seats its caller: an account by its account, a guest with a new seat token (a guest's call
again gives its seat in the rematch another new token, and the one given before stops
working).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, router, transaction

from accounts.credentials import AccountCredential
from accounts.inbox import Letter, deliver
from engine import Event, Options
from engine.errors import AlreadySeated, GameCanceled
from engine.events import PlayerJoined, PlayerLeft, RoundDealt
from games import core
from games.core import clock
from games.core.errors import ConcurrentUpdate, GameNotFinished, InvalidToken
from games.core.resources import next_game
from games.core.tokens import Credential, hash_token, new_token
from games.models import Game, Seat, Status
from play.conflicts import retried
from play.errors import NotAPlayer
from play.models import RematchSeat

#: Events read at a time while looking for the seats' joins (all before the first deal).
JOINS_PAGE = 50
#: The inbox entry that tells an account of a rematch of a game it sat in.
REMATCH_OFFERED = "rematch_offered"


@dataclass(frozen=True)
class Rematched:
    """The caller's seat in the rematch `game`; `token` a guest's new seat token (shown once:
    each call of the guest gives its seat another, and the one before stops working); `created`
    whether this call created the rematch."""

    game: Game
    seat: int
    token: str | None
    created: bool


@retried
def rematch(game_id: object, credential: Credential | None) -> Rematched:
    """Seat the caller, a player of the finished game `game_id` (its seat token, or its
    account's personal token), in that game's rematch, created by the first call. All or
    nothing: a call that is refused leaves no rematch and no seat behind."""
    with transaction.atomic(using=_alias()):
        old, seat = players_seat(game_id, credential)
        new, created = _the_rematch(old, credential)
        return _seated(new, old, seat, credential, created)


def _alias() -> str:
    return str(router.db_for_write(Game))


def players_seat(game_id: object, credential: Credential | None) -> tuple[Game, int]:
    """The finished game and the caller's seat in it: 401 `invalid_token` without a seat's
    token (a spectator, a seat whose player left), 403 `not_a_player` for an account seated
    in it nowhere, 409 `game_not_finished` (or `game_canceled`) before its end."""
    try:
        game, seat = core.game_and_seat(game_id, credential, required=True)
    except InvalidToken:
        if isinstance(credential, AccountCredential):
            raise NotAPlayer() from None
        raise
    assert seat is not None
    if game.status == Status.CANCELED:
        raise GameCanceled("A canceled game was never played: it has no rematch.")
    if game.status != Status.FINISHED:
        raise GameNotFinished("A rematch is for a finished game: this one is not over yet.")
    return game, seat


def _the_rematch(old: Game, credential: Credential | None) -> tuple[Game, bool]:
    """The old game's rematch, and whether this call created it. The old game's row is held
    while looking (PostgreSQL; SQLite's transactions take the write lock), so concurrent
    first calls create one; the unique `rematch_of` is the last guard."""
    try:
        with transaction.atomic(using=_alias()):
            list(Game.objects.select_for_update(no_key=True).filter(pk=old.pk).values("pk"))
            existing = next_game(old, fresh=True)
            if existing is not None:
                return existing, False
            return _create(old, credential), True
    except (IntegrityError, ConcurrentUpdate):  # what was kept on `old` was rolled back
        existing = next_game(old, fresh=True)
        if existing is None:
            raise
        return existing, False


def _create(old: Game, credential: Credential | None) -> Game:
    """The rematch of `old`: its bots seated, its people's seats held, its accounts told."""
    options = Options.from_data(old.options).to_data()
    new = core.create_game(
        seats=old.seats, options=options, seed=None, listed=old.listed, rematch_of=old
    )
    for name, bot in joined_bots(old):
        core.join_game(new.id, name, bot)
    people = _people(old)
    core.hold_seats(
        new,
        account_ids=[row.account_id for row in people if row.account_id is not None],
        guest_seats=[row.seat for row in people if row.account_id is None],
        expires_at=hold_expiry(),
    )
    deliver(_offers(old, new, credential))
    return new


def hold_expiry() -> datetime:
    """When the seats a rematch holds for its players open to anyone."""
    return clock.now() + timedelta(seconds=settings.REMATCH_HOLD_SECONDS)


def joined_bots(game: Game) -> list[tuple[str, str]]:
    """The (name, strategy) of each seat whose player joined as a bot, in seat order: each
    seat's last join before the first deal (a bot that took a seat over later, after a leave
    or timeouts, is no bot of the table)."""
    joined: dict[int, PlayerJoined] = {}
    for event in _events_before_the_deal(game):
        if isinstance(event, PlayerJoined):
            joined[event.seat] = event
        elif isinstance(event, PlayerLeft):
            joined.pop(event.seat, None)
    return [(e.name, e.bot) for _, e in sorted(joined.items()) if e.bot is not None]


def _events_before_the_deal(game: Game) -> Iterator[Event]:
    """The game's events up to its first deal, read a page at a time."""
    after = 0
    while True:
        page = core.logged_events(game, after=after, limit=JOINS_PAGE)
        for stored in page:
            if isinstance(stored.event, RoundDealt):
                return
            yield stored.event
        if len(page) < JOINS_PAGE:
            return
        after = page[-1].sequence


def _people(game: Game) -> list[Seat]:
    """The seats people still hold: those with a token (a guest's, or an account's seat
    hash). A bot's seat has none, nor has one whose player left."""
    return list(Seat.objects.filter(game=game, token_hash__isnull=False).order_by("seat"))


def _offers(old: Game, new: Game, credential: Credential | None) -> list[Letter]:
    """`rematch_offered` for each account seated in `old` (people and bot accounts; not the
    built-in bots, which no one reads for; not the caller, who knows)."""
    caller = credential.account_id if isinstance(credential, AccountCredential) else None
    rows = Seat.objects.filter(game=old, account__isnull=False).select_related("account")
    handles = {
        row.account.handle: None
        for row in rows.order_by("seat")
        if row.account is not None and not row.account.builtin and row.account_id != caller
    }
    payload = {"game": str(old.id), "next_game": str(new.id)}
    return [Letter(handle, REMATCH_OFFERED, payload) for handle in handles]


def _seated(
    new: Game, old: Game, seat: int, credential: Credential | None, created: bool
) -> Rematched:
    """The caller's seat in the rematch: the one it took already, else one taken now."""
    if isinstance(credential, AccountCredential):
        return _account_seated(new, credential, created)
    return _guest_seated(new, old, seat, created)


def _account_seated(new: Game, account: AccountCredential, created: bool) -> Rematched:
    taken = _account_seat(new, account)
    if taken is not None:
        return Rematched(new, taken, None, created)
    try:
        with transaction.atomic(using=_alias()):
            joined = core.join_game(new.id, account.handle, account=account)
    except AlreadySeated:  # a call of the same account's, at the same time
        taken = _account_seat(new, account)
        assert taken is not None
        return Rematched(new, taken, None, created)
    return Rematched(joined.game, joined.seat, None, created)


def _account_seat(new: Game, account: AccountCredential) -> int | None:
    seats = Seat.objects.filter(game=new, account_id=account.account_id)
    found: int | None = seats.values_list("seat", flat=True).first()
    return found


def _guest_seated(new: Game, old: Game, seat: int, created: bool) -> Rematched:
    """A guest's seat, found by the seat it held in `old` (its old token proved it): taken
    now with a new token, or the one an earlier call took given a new token (`_reseated`)."""
    again = _reseated(new, seat, created)
    if again is not None:
        return again
    name = Seat.objects.get(game=old, seat=seat).name
    try:
        with transaction.atomic(using=_alias()):
            joined = core.join_game(new.id, name, guest_of=seat)
            assert joined.token is not None  # a guest's seat has one
            row = Seat.objects.get(game=new, token_hash=hash_token(joined.token))
            RematchSeat.objects.create(game=new, previous_seat=seat, seat=joined.seat, seat_row=row)
    except IntegrityError:  # a call with the same old token, at the same time
        again = _reseated(new, seat, created)
        if again is None:
            raise
        return again
    return Rematched(joined.game, joined.seat, joined.token, created)


def _reseated(new: Game, previous_seat: int, created: bool) -> Rematched | None:
    """The seat an earlier call took for the guest of `previous_seat`, with a new token: the
    one that call answered stops working, so a retry whose answer was lost (no
    `Idempotency-Key`) still gets a token that acts. None if no call took one, or if the guest
    left it since (its row is gone: the link goes, and the guest is seated anew). A seat a bot
    plays now (left in a started game) is answered without a token: none is given back."""
    link = RematchSeat.objects.filter(game=new, previous_seat=previous_seat).first()
    if link is None:
        return None
    held = Seat.objects.filter(pk=link.seat_row_id, game=new, seat=link.seat)
    if not held.exists():
        link.delete()
        return None
    token = new_token()
    rotated = held.filter(bot__isnull=True, token_hash__isnull=False)
    if rotated.update(token_hash=hash_token(token)) != 1:
        return Rematched(new, link.seat, None, created)
    return Rematched(new, link.seat, token, created)

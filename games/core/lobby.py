"""The lobby's use cases: create a game, join, leave, rotate a seat's token, list games."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q

from accounts.credentials import AccountCredential
from accounts.errors import AccountRequired
from accounts.services import builtin_account_id
from engine import (
    EMPTY,
    Cancel,
    GameState,
    Join,
    Leave,
    Options,
    act,
    replay,
)
from engine import (
    create_game as engine_create_game,
)
from games.core import bots, clock, holds
from games.core.append import all_or_nothing, append_events, optimistic
from games.core.errors import (
    AccountSeatToken,
    Forbidden,
    InvalidRequest,
    InvalidToken,
)
from games.core.reading import game_and_seat, game_uuid, get_game, refuse_if_played_by_bot
from games.core.resources import with_links
from games.core.states import game_state, shuffler_of
from games.core.tokens import Credential, hash_token, new_token
from games.models import ENDED, Game, Seat, SeatHold, Status

SEED_BITS = 63


def create_game(
    *,
    seats: int,
    options: dict[str, Any] | None,
    seed: int | None,
    listed: bool = True,
    reserved: Sequence[str] = (),
    created_by: AccountCredential | None = None,
    rematch_of: Game | None = None,
    rated: bool = False,
) -> Game:
    """A new game waiting for players: `listed` in every lobby or only its players', with a
    seat held for each `reserved` handle (which needs an account, `created_by`, to free them),
    the rematch of a finished game when `rematch_of` (409 once it has one: the caller reads
    that one); `rated` (or `options` saying so, as a rematch's do): accounts only, the result
    counting for their ratings (R14)."""
    rules = Options(**{**(options or {}), **({"rated": True} if rated else {})})
    events = engine_create_game(seats, rules)  # validates seats and options (R2, R12)
    seeded = seed is not None  # the creator knows the seed, so every card: told to joiners
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    holders = _reserved(seats, reserved, created_by)

    def write() -> Game:
        game = Game.objects.create(
            seats=seats,
            options=rules.to_data(),
            seed=seed,
            seeded=seeded,
            listed=listed,
            created_by_id=None if created_by is None else created_by.account_id,
            rematch_of=rematch_of,
        )
        append_events(game, EMPTY, events, replay(events))
        holds.hold_seats(game, holders)
        return game

    return optimistic(lambda _: all_or_nothing(write))


def _reserved(
    seats: int, handles: Sequence[str], created_by: AccountCredential | None
) -> list[int]:
    """The accounts `handles` name: an account's game only (its token with `play`), and no
    more than its seats."""
    if not handles:
        return []
    if created_by is None:
        raise AccountRequired()
    created_by.require("play")
    if len({handle.lower() for handle in handles}) > seats:
        raise InvalidRequest(
            "More seats reserved than the game has.",
            errors={"reserved": [f"Ensure this field has no more than {seats} elements."]},
        )
    return holds.reserved_accounts(handles)


@dataclass(frozen=True)
class Joined:
    """A seat taken: a guest's, with its token (shown once), an account's (`account`, its
    handle) or a bot's (`bot`), with none."""

    game: Game
    seat: int
    name: str
    token: str | None
    state: GameState
    bot: str | None = None
    account: str | None = None


def join_game(
    game_id: object,
    name: str | None,
    bot: str | None = None,
    account: AccountCredential | None = None,
    *,
    guest_of: int | None = None,
) -> Joined:
    """Take the next open seat for a guest (a seat token, shown once), for an account (its
    handle as name; its tokens act for the seat, one seat per game: 409 `already_seated`), or
    for a bot playing strategy `bot` (R13), whose system account the seat names. A bot's
    `name` None: its default (`bots.default_name`), distinct from the game's other names.

    Seats held for someone (`holds`) are left to them: a joiner who holds none gets 409
    `seat_reserved` when every open seat is held. `guest_of`: the seat a guest held in the
    game this one is the rematch of (the caller checked its old token), whose hold it uses."""
    seated = _Seated.of(name, bot, account)
    holder = holds.Holder(None if bot else seated.account_id, guest_of)

    def attempt(_: int) -> Joined:
        game = get_game(game_id)
        before = game_state(game)
        name = seated.seat_name(bot, before.names)
        join = Join(name, bot, seated.handle)
        events, after = act(before, None, join, shuffler_of(game))
        hold = holds.hold_for(game, holder, before.names.count(None))
        seat = events[0].seat  # type: ignore[union-attr]
        token = new_token() if seated.guest else None

        def write() -> None:  # the seat's row with its events: both or neither
            append_events(game, before, events, after)
            if hold is not None:
                hold.delete()
            Seat.objects.create(
                game=game,
                seat=seat,
                name=name,
                token_hash=seated.held_by(game.id, token),
                bot=bot,
                account_id=seated.account_id,
            )

        all_or_nothing(write)
        return Joined(game, seat, name, token, after, bot, seated.handle)

    return optimistic(attempt, game_uuid(game_id))


@dataclass(frozen=True)
class _Seated:
    """Who takes a seat: a guest, an account (`handle`, `account_id`), or a bot (a built-in
    one's system account)."""

    name: str | None  # None: a bot's default, chosen once the game's names are read
    handle: str | None
    account_id: int | None
    credential: AccountCredential | None

    @classmethod
    def of(cls, name: str | None, bot: str | None, account: AccountCredential | None) -> _Seated:
        if bot is not None:
            system = builtin_account_id(bot)
            return cls(name, None if system is None else bot, system, None)
        if account is not None:
            account.require("play")
            return cls(account.handle, account.handle, account.account_id, account)
        if name is None:
            raise InvalidRequest("A guest's seat needs a name.", errors={"name": ["Required."]})
        return cls(name, None, None, None)

    def seat_name(self, bot: str | None, names: Sequence[str | None]) -> str:
        """The seat's name: the one given, else (a bot's) its default among the game's
        `names`, read in the same attempt as the join, so two bots joining at once still
        get distinct names (the second attempt reads the first's)."""
        if self.name is not None:
            return self.name
        assert bot is not None  # `of` let through no nameless person
        return bots.default_name(bot, names)

    @property
    def guest(self) -> bool:
        return self.account_id is None and self.handle is None and self.credential is None

    def held_by(self, game_id: uuid.UUID, token: str | None) -> str | None:
        """What the seat's row holds: the guest's token's hash, the account's seat hash, or
        nothing (a bot's)."""
        if self.credential is not None:
            return self.credential.seat_hash(game_id)
        return None if token is None else hash_token(token)


def own_seat(
    game_id: object, seat: int, credential: Credential | None, *, for_write: bool = False
) -> Game:
    """The game, if `credential` is `seat`'s token in it: 401 for a token of no seat of it,
    403 for another seat's."""
    game, own = game_and_seat(game_id, credential, required=True, for_write=for_write)
    if own != seat:
        raise Forbidden("A seat token may only rotate its own token or leave its own seat.")
    return game


@dataclass(frozen=True)
class LeftSeat:
    game: Game
    state: GameState


def leave_seat(game_id: object, seat: int, credential: Credential | None) -> LeftSeat:
    """Give `seat` up, authorised by its token (R13): in a waiting game the seat is open again,
    in a started one a bot (`bots.REPLACEMENT`) plays it to the end; either way the token
    stops acting at once. A finished game refuses (409 `game_finished`), and so does a seat a
    bot already plays (409 `seat_played_by_bot`)."""

    def attempt(_: int) -> LeftSeat:
        game = own_seat(game_id, seat, credential, for_write=True)
        assert credential is not None
        before = game_state(game)
        refuse_if_played_by_bot(before, seat)
        events, after = act(before, seat, Leave(bots.REPLACEMENT))
        held = credential.seat_hash(game.id)
        append_events(game, before, events, after, seat_token=(seat, held))
        return LeftSeat(game, after)

    return optimistic(attempt, game_uuid(game_id))


@dataclass(frozen=True)
class RotatedToken:
    seat: int
    name: str
    token: str


def rotate_token(game_id: object, seat: int, credential: Credential | None) -> RotatedToken:
    """Replace `seat`'s token by a new one, authorised by its current token (401 for a token of
    no seat of this game, 403 for another seat's). The old token stops working at once.

    Tokens are not part of the game's log: no event is appended and the version stays. The
    token is swapped only if it is still the one presented, so of two concurrent rotations
    with the same token one wins and the other is refused (401).
    """
    if isinstance(credential, AccountCredential):
        raise AccountSeatToken()
    game = own_seat(game_id, seat, credential)
    assert credential is not None
    token = new_token()
    rows = Seat.objects.filter(game=game, seat=seat, token_hash=credential.token_hash)
    name = rows.values_list("name", flat=True).first()
    if name is None or rows.update(token_hash=hash_token(token)) != 1:
        raise InvalidToken()
    return RotatedToken(seat, name, token)


def cancel_game(game_id: object, reason: str) -> GameState:
    """Call a game still waiting for players off, for `reason` (R13; a challenge declined,
    canceled or expired): its seats' players are done with it, its holds go with it."""

    def attempt(_: int) -> GameState:
        game = get_game(game_id)
        before = game_state(game)
        events, after = act(before, None, Cancel(reason))

        def write() -> None:
            append_events(game, before, events, after)
            SeatHold.objects.filter(game=game).delete()

        all_or_nothing(write)
        return after

    return optimistic(attempt, game_uuid(game_id))


def free_reserved_seat(game_id: object, handle: str, account: AccountCredential) -> Game:
    """The creator frees the seat it reserved for `handle` (403 for anyone else, or for a
    token without the scope `play`)."""
    account.require("play")
    game = get_game(game_id)
    holds.free_hold(game, handle, account.account_id)
    return game


def listed_games(query: dict[str, Any], viewer: int | None = None) -> Any:
    """The games a lobby's validated `query` selects (`status`, `seats`, `open_seats`,
    `seeded`; stale games only with `stale`), in its `ordering` (the id breaks ties), their
    seats fetched with them: the API's list and the web lobby show the same games. Unlisted
    games are left out but for the account `viewer` seated in them (or holding a seat)."""
    games = with_links(Game.objects.filter(visible_to(viewer)))
    if not query.get("stale"):
        games = games.exclude(~Q(status__in=ENDED), updated_at__lt=stale_before())
    if "status" in query:
        games = games.filter(status=query["status"])
    if "seats" in query:
        games = games.filter(seats=query["seats"])
    if "open_seats" in query:  # seats to take: a waiting game's (a canceled one keeps its own)
        open_seats = F("players_joined") + query["open_seats"]
        games = games.filter(status=Status.WAITING, seats__gte=open_seats)
    if "seeded" in query:
        games = games.filter(seeded=query["seeded"])
    ordering = query["ordering"]
    return games.order_by(ordering, "-id" if ordering.startswith("-") else "id")


def visible_to(viewer: int | None) -> Q:
    """The games the account `viewer` (None: anyone) may find in a list: the listed ones, and
    the unlisted ones it sits in, holds a seat in or created (their link is the invitation)."""
    if viewer is None:
        return Q(listed=True)
    mine = Q(seat_rows__account_id=viewer) | Q(holds__account_id=viewer) | Q(created_by=viewer)
    mine_ids = Game.objects.filter(mine).values("id")
    return Q(listed=True) | Q(id__in=mine_ids)


def stale_before() -> datetime:
    """An unfinished game whose last event is older than this is stale: no one moves it (a
    seat taken by a client that never came back keeps a game without a clock waiting)."""
    return clock.now() - timedelta(seconds=settings.LOBBY_STALE_AFTER_SECONDS)


def is_stale(game: Game) -> bool:
    return not game.ended and game.updated_at < stale_before()

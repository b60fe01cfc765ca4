"""Reading the ratings (R14): leaderboards, an account's rating and its history, and what a
rated game's view shows per seat. The HTTP rooms and the pages read through these.

A rated game's view is a hot path (every action answers one, every stream renders one): what
it shows of the ratings is remembered per game in this process once known, since none of it
changes afterwards (the ratings the seats entered with are fixed at the deal, a game's change
once it is rated: the rows are append-only). A casual game never reaches this module."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from django.db.models import QuerySet

from accounts.handles import handle_key
from accounts.models import Account
from engine import GameState
from engine.state import CANCELED, FINISHED, WAITING
from games import core
from games.models import Game, GameEvent
from ratings import ladder
from ratings.models import RatedGame, Rating, RatingChange
from ratings.services import rating_data, rating_of
from ratings.skill import DEFAULT, ESTABLISHED_GAMES, Skill, predict_win


def leaderboard(kind: str, *, provisional: bool = False) -> QuerySet[Rating]:
    """The ratings of `kind` ("person" or "bot", built-in bots included), best ordinal first;
    established ones only (ESTABLISHED_GAMES rated games) unless `provisional`."""
    ratings = Rating.objects.filter(account__kind=kind, account__deleted_at__isnull=True)
    if not provisional:
        ratings = ratings.filter(games__gte=ESTABLISHED_GAMES)
    return ratings.select_related("account").order_by("-ordinal", "account__handle_key")


def leaderboard_entry(rank: int, rating: Rating) -> dict[str, Any]:
    """One line of a leaderboard, as the API and the page show it."""
    account = rating.account
    return {
        "rank": rank,
        "handle": account.handle,
        "kind": account.kind,
        "builtin": account.builtin,
        **rating_of(rating),
        "last_played": rating.last_played,
    }


def account_rating(account: Account | int) -> dict[str, Any]:
    """An account's rating now (OpenSkill's default before its first rated game); `account`
    or its id (a token's credential knows the id only)."""
    account_id = account if isinstance(account, int) else account.pk
    return rating_of(Rating.objects.filter(account_id=account_id).first())


def handle_rating(handle: str) -> dict[str, Any]:
    """The rating of the account with this handle (any case), as `account_rating`: the
    caller has found the account already (its 404)."""
    return rating_of(Rating.objects.filter(account__handle_key=handle_key(handle)).first())


def history_changes(account: Account) -> QuerySet[RatingChange]:
    """The account's rating changes, one per rated game, oldest first: pages of them are its
    history (`history_point`)."""
    changes = RatingChange.objects.filter(account=account).order_by("rated_game")
    return changes.select_related("game").only(*HISTORY_FIELDS)


#: What a history point reads of a change and its game.
HISTORY_FIELDS = (
    "game__listed", "at", "rank", "seats", "mu_after", "sigma_after", "game_id", "account_id",
    "rated_game_id",
)  # fmt: skip


def history_point(change: RatingChange) -> dict[str, Any]:
    """One point of a rating history: the game (null for a private one: its id is its
    invitation, which a public history must not hand out), when it was rated, the rank among
    how many seats, and the rating after it."""
    return {
        "game": change.game_id if change.game.listed else None,
        "at": change.at,
        "rank": change.rank,
        "seats": change.seats,
        "mu": change.mu_after,
        "sigma": change.sigma_after,
        "ordinal": Skill(change.mu_after, change.sigma_after).ordinal,
    }


def rating_history(account: Account) -> list[dict[str, Any]]:
    """One point per rated game the account played, oldest first (`history_point`)."""
    return [history_point(change) for change in history_changes(account)]


@dataclass(frozen=True)
class SeatRating:
    """What a rated game's view shows of a seat: the rating its account entered the game with
    (its rating when the game was dealt), its predicted chance of winning then, and once the
    game is rated, its change."""

    seat: int
    handle: str
    entered: dict[str, Any]
    predicted_win: float
    change: dict[str, Any] | None


def seat_ratings(game: Game, state: GameState | None = None) -> list[SeatRating] | None:
    """Each seat's rating in a rated game that has been dealt (None for a casual game, or one
    still waiting for players). `state`: the state the view shows (the game's now unless
    given: a replay's shows no change before its last event)."""
    if not game.options.get("rated"):
        return None
    if state is None:
        state = core.game_state(game)
    if state.phase in (WAITING, CANCELED):
        return None
    entered = _entered(game, state)
    changes = _changes(game) if state.phase == FINISHED else {}
    return [
        SeatRating(seat, handle, entered.ratings[seat], entered.chances[seat], changes.get(seat))
        for seat, handle in enumerate(entered.handles)
    ]


def view_ratings(game: Game, state: GameState) -> list[dict[str, Any]] | None:
    """`seat_ratings` as plain data: the `ratings` of the game's views (installed in core's
    `resources` by this app's `ready`, since core may not import the ratings). Its ratings
    are this process's remembered ones, shared: read them, never change them."""
    seats = seat_ratings(game, state)
    if seats is None:
        return None
    return [  # not `asdict`, whose deep copies would cost every view
        {
            "seat": seat.seat,
            "handle": seat.handle,
            "entered": seat.entered,
            "predicted_win": seat.predicted_win,
            "change": seat.change,
        }
        for seat in seats
    ]


K = TypeVar("K")
V = TypeVar("V")


class _Memory(Generic[K, V]):
    """This process's memory of the last `size` games' values (the hub's reader threads
    read views too: a lock around each step)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: OrderedDict[K, V] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self.lock:
            value = self.values.get(key)
            if value is not None:
                self.values.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self.lock:
            self.values[key] = value
            self.values.move_to_end(key)
            while len(self.values) > self.size:
                self.values.popitem(last=False)


@dataclass(frozen=True)
class _Entered:
    """The seats' handles, the ratings they entered with and their chances then."""

    handles: tuple[str, ...]
    ratings: tuple[dict[str, Any], ...]
    chances: tuple[float, ...]


#: How many games' ratings this process remembers (a few hundred bytes each).
REMEMBERED_GAMES = 4096
_ENTERED: _Memory[object, _Entered] = _Memory(REMEMBERED_GAMES)
_CHANGES: _Memory[object, dict[int, dict[str, Any]]] = _Memory(REMEMBERED_GAMES)


def _entered(game: Game, state: GameState) -> _Entered:
    """What the seats entered the game with: read once, at the first view after the deal."""
    found = _ENTERED.get(game.id)
    if found is None:
        handles = tuple(handle or "" for handle in state.accounts)
        skills = _ratings_at(handles, _dealt_at(game))
        chances = predict_win([skill for skill, _ in skills])
        ratings = tuple(rating_data(*skill) for skill in skills)
        found = _Entered(handles, ratings, tuple(chances))
        _ENTERED.put(game.id, found)
    return found


def _changes(game: Game) -> dict[int, dict[str, Any]]:
    """A finished game's changes by seat, once it is rated (empty until then)."""
    found = _CHANGES.get(game.id)
    if found is None:
        found = {c.seat: _change(c) for c in RatingChange.objects.filter(game=game)}
        if found:
            _CHANGES.put(game.id, found)
    return found


def _dealt_at(game: Game) -> datetime:
    """When the game's first round was dealt (its ratings then are what its seats entered
    with): an early event of its log, found by the log's index."""
    dealt = GameEvent.objects.filter(game=game, type="RoundDealt").order_by("sequence")
    at: datetime | None = dealt.values_list("created_at", flat=True).first()
    return game.updated_at if at is None else at


def _ratings_at(handles: tuple[str, ...], moment: datetime) -> list[tuple[Skill, int]]:
    """Each account's rating and rated games as they stood at `moment`: its rating now (one
    query for every seat), unless it was rated again since."""
    keys = [handle_key(handle) for handle in handles]
    now = {
        rating.account.handle_key: rating
        for rating in Rating.objects.filter(account__handle_key__in=keys).select_related("account")
    }
    return [_rating_at(now.get(key), moment) for key in keys]


def _rating_at(rating: Rating | None, moment: datetime) -> tuple[Skill, int]:
    """The rating now if its account was last rated before `moment` (the usual case, no query
    more), else its last change before `moment` and its games less those rated since."""
    if rating is None:
        return DEFAULT, 0
    if rating.last_played is None or rating.last_played < moment:
        return Skill(rating.mu, rating.sigma), rating.games
    changes = RatingChange.objects.filter(account_id=rating.account_id)
    last = changes.filter(at__lt=moment).order_by("-rated_game").first()
    if last is None:
        return DEFAULT, 0
    since = changes.filter(at__gte=moment).count()
    return Skill(last.mu_after, last.sigma_after), rating.games - since


def _change(change: RatingChange) -> dict[str, Any]:
    before = Skill(change.mu_before, change.sigma_before)
    after = Skill(change.mu_after, change.sigma_after)
    return {
        "rank": change.rank,
        "mu": after.mu - before.mu,
        "sigma": after.sigma - before.sigma,
        "ordinal": after.ordinal - before.ordinal,
        "after": {"mu": after.mu, "sigma": after.sigma, "ordinal": after.ordinal},
    }


def ladder_table(seats: int) -> list[dict[str, Any]]:
    """The bot ladder's table for games of `seats` seats, best first: each laddered bot's
    `handle`, `kind`, `builtin`, its `rating` (a rating dict, as `rating_of` gives it), the
    duplicate `sets` it played, its `mean_score` per deal across them and the 95% `interval`
    of that mean (low, high), bootstrapped over the sets: the API's table, one source."""
    entries: list[dict[str, Any]] = ladder.table(seats)["entries"]
    return entries


def ratings_settled(game: Game) -> bool:
    """Whether a finished rated game has been rated: its seats' changes are final (they come
    after its last event, so a page that shows the game by its version asks this too)."""
    return bool(game.options.get("rated")) and RatedGame.objects.filter(game=game).exists()


def ordinals(account_ids: list[int]) -> dict[int, float]:
    """The accounts' ordinals now, in one query (OpenSkill's default before a first rated
    game): what the matcher's rating window compares."""
    found = dict(
        Rating.objects.filter(account_id__in=account_ids).values_list("account_id", "ordinal")
    )
    return {account_id: found.get(account_id, DEFAULT.ordinal) for account_id in account_ids}

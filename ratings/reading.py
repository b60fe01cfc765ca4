"""Reading the ratings (R14): leaderboards, an account's rating and its history, and what a
rated game's view shows per seat. The HTTP rooms and the pages read through these."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from accounts.models import Account
from games import core
from games.models import Game
from ratings import ladder
from ratings.models import Rating, RatingChange
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


def account_rating(account: Account) -> dict[str, Any]:
    """An account's rating now (OpenSkill's default before its first rated game)."""
    return rating_of(Rating.objects.filter(account=account).first())


def rating_history(account: Account) -> list[dict[str, Any]]:
    """One point per rated game the account played, oldest first: the game, when it was
    rated, the rank among how many seats, and the rating after it."""
    changes = RatingChange.objects.filter(account=account).order_by("rated_game")
    return [
        {
            "game": change.game_id,
            "at": change.at,
            "rank": change.rank,
            "seats": change.seats,
            "mu": change.mu_after,
            "sigma": change.sigma_after,
            "ordinal": Skill(change.mu_after, change.sigma_after).ordinal,
        }
        for change in changes
    ]


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


def seat_ratings(game: Game) -> list[SeatRating] | None:
    """Each seat's rating in a rated game that has been dealt (None for a casual game, or one
    still waiting for players)."""
    if not game.options.get("rated") or game.status in ("waiting", "canceled"):
        return None
    handles = list(core.game_state(game).accounts)
    dealt = _dealt_at(game)
    entered = [_rating_at(handle, dealt) for handle in handles]
    chances = predict_win([skill for skill, _ in entered])
    changes = {c.seat: c for c in RatingChange.objects.filter(game=game)}
    return [
        SeatRating(
            seat,
            handle or "",
            rating_data(*entered[seat]),
            chances[seat],
            _change(changes.get(seat)),
        )
        for seat, handle in enumerate(handles)
    ]


def _dealt_at(game: Game) -> datetime:
    """When the game's first round was dealt (its ratings then are what its seats entered
    with)."""
    for stored in core.logged_events(game):
        if stored.type == "RoundDealt":
            return stored.at
    return game.updated_at


def _rating_at(handle: str | None, moment: datetime) -> tuple[Skill, int]:
    """An account's rating and rated games as they stood at `moment`."""
    changes = RatingChange.objects.filter(account__handle=handle, at__lt=moment)
    last = changes.order_by("-rated_game").first()
    if last is None:
        return DEFAULT, 0
    return Skill(last.mu_after, last.sigma_after), changes.count()


def _change(change: RatingChange | None) -> dict[str, Any] | None:
    if change is None:
        return None
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

"""The ratings' pages (R14): the leaderboards (`/leaderboard`), a player's profile with its
rating history (`/players/{handle}`), the bot ladder's table (`/ladder`), and what a rated
table shows of each seat's rating. They read through `ratings.reading`, as the API does."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from accounts.errors import PlayerNotFound
from accounts.models import Account
from accounts.services import find_player
from games.models import Game
from games.web.charts import CHART_POINTS, bar, bar_scale, history_chart, percent, signed
from games.web.limits import rate_limited
from ratings import reading
from ratings.skill import DEFAULT, ESTABLISHED_GAMES

#: Leaderboard lines per page.
PER_PAGE = 50
#: The leaderboards, by `?kind=`, with their headings.
KINDS = {"person": "People", "bot": "Bots"}
#: The ladder's tables, by `?seats=`.
LADDER_SEATS = range(2, 9)
#: The rated games a profile lists, the newest first.
RECENT_GAMES = 10


def _page_number(request: HttpRequest) -> int:
    text = request.GET.get("page", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 7 else 1


@require_GET
@rate_limited
@cache_control(private=True, no_cache=True)
def leaderboard(request: HttpRequest) -> HttpResponse:
    """People's or bots' ratings (`?kind=`), best ordinal first, each with its mu ± 2·sigma
    bar; established ratings only unless `?provisional=true`."""
    kind = request.GET.get("kind", "person")
    if kind not in KINDS:
        kind = "person"
    provisional = request.GET.get("provisional") == "true"
    paginator = Paginator(reading.leaderboard(kind, provisional=provisional), PER_PAGE)
    page = paginator.get_page(_page_number(request))
    first = (page.number - 1) * PER_PAGE + 1
    entries = [reading.leaderboard_entry(first + i, r) for i, r in enumerate(page.object_list)]
    scale = bar_scale(entries)
    context = {
        "kind": kind,
        "kinds": KINDS,
        "heading": KINDS[kind],
        "provisional": provisional,
        "established_games": ESTABLISHED_GAMES,
        "entries": [{**entry, "bar": bar(entry, scale)} for entry in entries],
        "page": page,
    }
    return render(request, "games/leaderboard.html", context)


@require_GET
@rate_limited
@cache_control(private=True, no_cache=True)
def player(request: HttpRequest, handle: str) -> HttpResponse:
    """A player's profile: their rating now, its history as a chart (and as a table), and
    their latest rated games."""
    try:
        account = find_player(handle)
    except PlayerNotFound:
        return render(request, "games/no_player.html", {"handle": handle}, status=404)
    rating = reading.account_rating(account)
    history = _with_changes(reading.rating_history(account))
    context = {
        "account": account,
        "rating": {**rating, "bar": bar(rating, bar_scale([rating]))},
        "established_games": ESTABLISHED_GAMES,
        "chart": history_chart(history, account.handle),
        "history": history[-CHART_POINTS:],  # the points the chart draws
        "recent": history[::-1][:RECENT_GAMES],
        "owner": _owner(account),
    }
    return render(request, "games/player.html", context)


def _with_changes(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each point with its number and the ordinal's change since the point before (since the
    default rating for the first)."""
    before = DEFAULT.ordinal
    points = []
    for number, point in enumerate(history, start=1):
        points.append({**point, "number": number, "change": signed(point["ordinal"] - before)})
        before = point["ordinal"]
    return points


def _owner(account: Account) -> str:
    """Who a bot account belongs to ("" for a person, or a built-in bot: the service's)."""
    return account.owner.handle if account.owner is not None else ""


@require_GET
@rate_limited
@cache_control(private=True, no_cache=True)
def ladder(request: HttpRequest) -> HttpResponse:
    """The bot ladder's table for games of `?seats=` seats (2 when unreadable): rating, sets
    played in duplicate, mean score per deal and its 95% interval."""
    text = request.GET.get("seats", "2")
    seats = int(text) if text.isascii() and text.isdigit() and len(text) < 3 else 2
    seats = seats if seats in LADDER_SEATS else 2
    entries = reading.ladder_table(seats)
    context = {
        "seats": seats,
        "choices": list(LADDER_SEATS),
        "entries": [{**entry, "rank": rank} for rank, entry in enumerate(entries, start=1)],
    }
    return render(request, "games/ladder.html", context)


def seat_ratings(game: Game) -> dict[int, dict[str, Any]]:
    """What a rated table shows of each seat, by seat: the rating it entered with (its
    ordinal, provisional or not), its predicted chance of winning, and once rated its change
    (empty for a casual game, or one still waiting for players)."""
    return {
        seat.seat: {
            "ordinal": f"{seat.entered['ordinal']:.1f}",
            "provisional": seat.entered["provisional"],
            "chance": percent(seat.predicted_win),
            "change": None if seat.change is None else signed(seat.change["ordinal"]),
        }
        for seat in reading.seat_ratings(game) or ()
    }

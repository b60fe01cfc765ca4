"""The bot ladder: bot accounts that opt in meet in rated games dealt in duplicate sets.

A set is one deal (one seed) played once per rotation of its lineup, so each bot plays every
seat of the same cards and the luck of the deal cancels out: bot `i` of the lineup sits at
seat `(i + r) % n` of the set's game `r`. The service deals sets (the job
`tasks.start_ladder_games`, queued by the workers' sweep) to the laddered bots that are
present (their account stream open, or their events polled: `seen`), filling the seats too few
of them take with the built-in bots (distinct: a rated game seats an account once).

Bounds, per bot: one unfinished set at a time, `LADDER_SETS_PER_HOUR` sets begun in any hour.
The job deals under a lock (`LadderLock`), so the bounds hold whatever the number of workers.
The ladder's table (`table`) reports each bot's mean score per deal across its complete sets,
with a 95% interval bootstrapped over the sets (`engine.tournament.bootstrap_mean`).
"""

from __future__ import annotations

import random
import secrets
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F, Max, Prefetch, Q, QuerySet

from accounts.credentials import AccountCredential
from accounts.handles import builtin_handles
from accounts.models import Account, Kind
from accounts.services import acting_for, builtin_account_id
from engine.options import MAX_SEATS, MIN_SEATS
from engine.tournament import bootstrap_mean
from games import core
from games.core import clock
from games.core.errors import ServiceError
from games.core.resources import iso_time
from games.models import Game, Status
from ratings import locks
from ratings.models import DuplicateGame, DuplicateSet, LadderEntry, LadderLock, Rating, SetPlayer
from ratings.services import rating_of

#: The turn clock of every ladder game: a bot that goes away times out, and after
#: `max_timeouts` turns in a row a built-in bot plays its seat on, so its set still completes.
LADDER_TURN_SECONDS = 10
#: The rules of every ladder game: the defaults (R12), with the ladder's clock, and its
#: built-in bots at once (R15): its bot accounts' seats would count as persons' otherwise.
LADDER_OPTIONS: dict[str, Any] = {"turn_seconds": LADDER_TURN_SECONDS, "bot_pace_ms": 0}
#: Sets a bot may begin in any hour (`LADDER_SETS_PER_HOUR` sets of n games each).
LADDER_SETS_PER_HOUR = 6
#: The seat counts a bot plays when it names none.
DEFAULT_SEATS = (2,)
#: The bits of a set's seed (as the games' own secret seeds).
SEED_BITS = 63


class BotAccountRequired(ServiceError):
    """Only a bot account climbs the ladder (a person's account plays rated games otherwise)."""

    code = "bot_account_required"

    def __init__(self) -> None:
        super().__init__("Only a bot account may join the ladder.")


# Opting in and out, and presence.


def join_ladder(
    account: AccountCredential, seats: Sequence[int] = DEFAULT_SEATS
) -> tuple[LadderEntry, bool]:
    """Put the bot account on the ladder for `seats` (each 2..8; the entry's seat counts are
    replaced if it is on already, its `joined_at` kept); answers the entry and whether it is
    new. 403 `bot_account_required` for a person's account."""
    account.require("play")
    if account.kind != Kind.BOT:
        raise BotAccountRequired()
    counts = sorted(set(seats))
    assert counts and all(MIN_SEATS <= n <= MAX_SEATS for n in counts), "validated by the caller"
    entry, created = LadderEntry.objects.update_or_create(
        account_id=account.account_id,
        defaults={"seats": counts},
        create_defaults={"seats": counts, "joined_at": clock.now()},
    )
    return entry, created


def leave_ladder(account: AccountCredential) -> None:
    """Take the bot off the ladder (nothing if it is not on it). Its sets under way are played
    to their end: their games are rated games like any."""
    account.require("play")
    LadderEntry.objects.filter(account_id=account.account_id).delete()


def entry_data(entry: LadderEntry) -> dict[str, Any]:
    """A ladder entry as the API shows it."""
    return {"seats": entry.seats, "joined_at": iso_time(entry.joined_at)}


def seen(account_id: int) -> int:
    """A sign of the account's presence (its account stream is open, it polls its events): a
    laddered bot may be dealt sets for `presence_window()` from now. Called for every account:
    one indexed read, and an UPDATE only for a laddered bot (on SQLite any UPDATE waits for the
    one write lock). Answers the entries moved on (0 or 1)."""
    mine = LadderEntry.objects.filter(account_id=account_id)
    if not mine.exists():
        return 0
    return mine.update(last_seen=clock.now())


def presence_window() -> timedelta:
    """How long a sign of presence lasts: as long as a seek's (`SEEK_IDLE_SECONDS`), which an
    open stream renews well within."""
    return timedelta(seconds=settings.SEEK_IDLE_SECONDS)


# Dealing sets (the job).


def eligible(now: datetime) -> QuerySet[LadderEntry]:
    """The laddered bots that may be dealt a set at `now`: present, of a live bot account,
    with no unfinished set and fewer than `LADDER_SETS_PER_HOUR` sets begun in the last hour;
    those whose last set is oldest first (never dealt first of all), then by joining."""
    busy = SetPlayer.objects.filter(set__in=incomplete_sets())
    recent = Count(
        "account__duplicate_sets",
        filter=Q(account__duplicate_sets__set__created_at__gt=now - timedelta(hours=1)),
    )
    entries = LadderEntry.objects.filter(
        last_seen__gt=now - presence_window(),
        account__kind=Kind.BOT,
        account__builtin=False,
        account__deleted_at__isnull=True,
    ).exclude(account_id__in=busy.values("account_id"))
    entries = entries.annotate(
        recent=recent,
        played=Count("account__duplicate_sets"),
        last_set=Max("account__duplicate_sets__set__created_at"),
    ).filter(recent__lt=LADDER_SETS_PER_HOUR)
    order = (F("last_set").asc(nulls_first=True), "joined_at", "account_id")
    return entries.select_related("account").order_by(*order)


def incomplete_sets() -> QuerySet[DuplicateSet]:
    """Sets with a rotation still to deal or still being played."""
    finished = Count("games", filter=Q(games__game__status=Status.FINISHED))
    counted = DuplicateSet.objects.annotate(dealt=Count("games"), finished=finished)
    return counted.filter(Q(dealt__lt=F("seats")) | Q(finished__lt=F("dealt")))


def continuable_sets() -> QuerySet[DuplicateSet]:
    """Sets whose dealt rotations have all finished and that have one more to deal."""
    finished = Count("games", filter=Q(games__game__status=Status.FINISHED))
    counted = DuplicateSet.objects.annotate(dealt=Count("games"), finished=finished)
    return counted.filter(dealt__lt=F("seats"), finished=F("dealt"))


def continue_sets() -> int:
    """Deal the next rotation of every set whose dealt ones have finished (the caller holds the
    ladder's lock). One rotation at a time: the set's games share a seed, so two played at
    once would show each bot, in one game, the cards it cannot see in the other. Answers the
    games dealt."""
    dealt = 0
    for duplicate in continuable_sets():
        lineup = [
            p.account for p in duplicate.players.select_related("account").order_by("position")
        ]
        _deal_rotation(duplicate, lineup, duplicate.dealt)
        dealt += 1
    return dealt


def start_sets() -> list[DuplicateSet]:
    """Deal the next rotation of the sets that wait for it, and a set to every group of
    eligible bots that makes one, in one transaction under the ladder's lock (so once,
    whatever the number of workers). Answers the new sets dealt."""
    with transaction.atomic():
        locks.hold(LadderLock)
        continue_sets()
        now = clock.now()
        waiting = list(eligible(now))
        dealt = []
        while waiting:
            first = waiting.pop(0)
            plan = _plan(first, waiting)
            if plan is None:
                continue
            seats, bots = plan
            waiting = [entry for entry in waiting if entry not in bots]
            dealt.append(deal([first.account, *(entry.account for entry in bots)], seats, now))
        return dealt


def _plan(first: LadderEntry, others: list[LadderEntry]) -> tuple[int, list[LadderEntry]] | None:
    """The seat count and the other laddered bots of `first`'s next set: its seat counts in
    turn (by the sets it has played), among those the bots waiting and the built-ins can fill
    (at most one seat per built-in bot); None when none can be."""
    builtins = len(builtin_handles())
    feasible = [n for n in first.seats if 1 + sum(n in e.seats for e in others) + builtins >= n]
    if not feasible:
        return None
    seats = feasible[getattr(first, "played", 0) % len(feasible)]
    return seats, [entry for entry in others if seats in entry.seats][: seats - 1]


def deal(accounts: Sequence[Account], seats: int, now: datetime) -> DuplicateSet:
    """A duplicate set of `seats` games for `accounts` (fewer than `seats`: built-in bots fill
    the lineup, drawn with the set's seed), the lineup shuffled by the seed too, and its first
    rotation dealt (`continue_sets` deals each next one once the last has finished)."""
    seed = secrets.randbits(SEED_BITS)
    rng = random.Random(seed)
    names = [n for n in builtin_handles() if n not in {a.handle_key for a in accounts}]
    fill = rng.sample(names, seats - len(accounts))
    lineup = [*accounts, *(Account.objects.get(pk=builtin_account_id(n)) for n in fill)]
    rng.shuffle(lineup)
    duplicate = DuplicateSet.objects.create(seats=seats, seed=seed, created_at=now)
    SetPlayer.objects.bulk_create(
        SetPlayer(set=duplicate, account=account, position=i) for i, account in enumerate(lineup)
    )
    _deal_rotation(duplicate, lineup, 0)
    return duplicate


def _deal_rotation(duplicate: DuplicateSet, lineup: Sequence[Account], rotation: int) -> None:
    """The set's game of `rotation`: rated, unlisted (its deal is its set's: one watched would
    tell the next), with the ladder's clock and the set's seed, its seats taken in turn by the
    lineup rotated by `rotation` (the last seat taken deals, as in any game)."""
    seats = duplicate.seats
    game = core.create_game(
        seats=seats, options=LADDER_OPTIONS, seed=duplicate.seed, rated=True, listed=False
    )
    DuplicateGame.objects.create(set=duplicate, game=game, rotation=rotation)
    for seat in range(seats):
        _seat(game, seat, lineup[(seat - rotation) % seats])


def _seat(game: Game, seat: int, account: Account) -> None:
    """Seat a bot in `seat` (a new game's seats are taken in order): a built-in by its strategy
    (the service plays it), a bot account by its account, as it would join itself (its tokens
    act for the seat)."""
    if account.builtin:
        joined = core.join_game(game.id, account.handle, account.handle)
    else:
        joined = core.join_game(game.id, account.handle, account=acting_for(account.id))
    if joined.seat != seat:
        raise RuntimeError(f"{account.handle} took seat {joined.seat} of {game.id}, not {seat}")


def sweep() -> int:
    """Queue the dealing job if a laddered bot may be dealt a set now (present, within its
    bounds, and with enough bots for one of its seat counts): the workers' sweep calls it.
    Answers how many may."""
    from ratings import tasks

    waiting = list(eligible(clock.now()))
    ready = sum(_plan(e, [o for o in waiting if o != e]) is not None for e in waiting)
    ready += continuable_sets().count()
    if ready:
        tasks.start_ladder_games.enqueue()
    return ready


# Summaries.


def with_duplicate_sets(summaries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Games' summaries with their `duplicate_set` (the set's id, null for a game of none):
    one query for the page, and none when no game of it is rated (every ladder game is)."""
    rated = [s["id"] for s in summaries if s["options"].get("rated")]
    found: dict[str, int] = {}
    if rated:
        links = DuplicateGame.objects.filter(game_id__in=rated).values_list("game_id", "set_id")
        found = {str(game): duplicate for game, duplicate in links}
    for summary in summaries:
        summary["duplicate_set"] = found.get(summary["id"])
    return summaries


# The table.


@dataclass(frozen=True)
class Standing:
    """A bot's line of the ladder: its scores per deal (one per complete set, each its mean
    final total over the set's games), and its rating."""

    account: Account
    rating: Rating | None
    scores: tuple[float, ...]


def complete_sets(seats: int) -> QuerySet[DuplicateSet]:
    """The sets of `seats` seats whose every game is finished, with their games and lineup."""
    finished = Count("games", filter=Q(games__game__status=Status.FINISHED))
    sets = DuplicateSet.objects.filter(seats=seats).annotate(finished=finished)
    totals = Prefetch("games__game", queryset=Game.objects.only("id", "totals"))
    return sets.filter(finished=seats).prefetch_related("players", "games", totals)


def set_scores(duplicate: DuplicateSet) -> dict[int, float]:
    """Each bot's score in a complete set (by account id): its mean final total over the set's
    games, the bot at position `i` holding seat `(i + r) % n` of rotation `r`."""
    n = duplicate.seats
    games = list(duplicate.games.all())
    return {
        player.account_id: sum(g.game.totals[(player.position + g.rotation) % n] for g in games)
        / len(games)
        for player in duplicate.players.all()
    }


def standings(seats: int) -> list[Standing]:
    """The ladder of `seats` seats: every bot with a complete set there, and every laddered
    bot that plays that many seats, best rating (ordinal) first."""
    scores: dict[int, list[float]] = defaultdict(list)
    for duplicate in complete_sets(seats):
        for account_id, score in set_scores(duplicate).items():
            scores[account_id].append(score)
    laddered = [
        e.account_id
        for e in LadderEntry.objects.filter(account__deleted_at__isnull=True)
        if seats in e.seats
    ]
    accounts = Account.objects.filter(pk__in={*scores, *laddered}, deleted_at__isnull=True)
    ratings = {r.account_id: r for r in Rating.objects.filter(account__in=accounts)}
    lines = [Standing(a, ratings.get(a.pk), tuple(scores.get(a.pk, ()))) for a in accounts]
    return sorted(lines, key=lambda s: (-rating_of(s.rating)["ordinal"], s.account.handle_key))


def standing_data(seats: int, standing: Standing) -> dict[str, Any]:
    """A line of the ladder's table: the bot, its rating, its complete sets, its mean score per
    deal and the 95% interval of that mean, bootstrapped over its sets (seeded by the seat
    count and the bot, so the same sets give the same interval); null without a set."""
    account, scores = standing.account, standing.scores
    mean = sum(scores) / len(scores) if scores else None
    interval = (
        bootstrap_mean(scores, seed=f"ladder/{seats}/{account.handle_key}") if scores else None
    )
    return {
        "handle": account.handle,
        "kind": account.kind,
        "builtin": account.builtin,
        "rating": rating_of(standing.rating),
        "sets": len(scores),
        "mean_score": mean,
        "interval": None if interval is None else list(interval),
    }


def table(seats: int) -> dict[str, Any]:
    """The ladder's table for `seats` seats, as the API shows it."""
    return {"seats": seats, "entries": [standing_data(seats, s) for s in standings(seats)]}

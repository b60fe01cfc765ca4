"""The matcher of quick play: groups compatible searching seeks and starts their games.

Compatible seeks have the same clock (`turn_seconds`, None for none) and the same `rated`, and
seat ranges that overlap. Oldest seeks first: the oldest searching seek gathers the next
compatible ones, each that keeps a seat count common to the group, until the group has as many
seekers as the largest seat count common to them (the smallest of their maxima). The group
then starts a game of that many seats at once; else, once its oldest seek has waited
`SEEK_SMALLEST_AFTER_SECONDS`, with the seekers it has if they reach the group's common
minimum (the largest of their minima). A group that is not ready waits, and the next oldest
seek gathers a group of its own. Bots fill a game only for seekers who want them: once the
oldest seek's `bots_after` has passed, it gathers a group of the seekers whose `bots_after`
has passed too, and starts it with bots (`BOT_STRATEGY`) in the empty seats up to that
group's common minimum; a seeker without `bots_after` (or whose wait is not over) keeps
waiting for people.

Rated seeks (R14) are matched with rated seeks only, near their rating first: a group's
seekers' ordinals (`mu - 3 sigma`, `ratings.reading.ordinals`) span at most the rating
window of its oldest seeker, `RATING_WINDOW` points at once, `RATING_WINDOW_STEP` more for each
`RATING_WINDOW_STEP_SECONDS` it has waited, and without bound once it has waited
`RATING_WINDOW_OPEN_AFTER_SECONDS` (docs/CLIENTS.md, "Rated games"). The bots that fill a rated
game are built-in ones, each once (a rated game seats an account once): `RATED_BOTS` in order,
whatever their ratings; a rated group that would need more bots than there are waits.

Exactly once, on any number of workers: the matcher takes the searching seeks it considers
under a row lock, skipping those another matcher holds (`SKIP LOCKED` on PostgreSQL; SQLite's
write lock serializes the matchers), and a game, its seats, its seeks' rows and the letters
are written in one transaction: a seek is seated in one game, or in none.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import transaction

from accounts.inbox import Letter, deliver
from accounts.services import acting_for
from games import core
from games.core import clock
from games.models import Game
from play.models import Seek, SeekStatus
from play.seeks import lapse_seeks, live_seeks
from ratings.reading import ordinals

logger = logging.getLogger("play.matcher")

#: The strategy of the bots that fill a matched casual game's empty seats.
BOT_STRATEGY = "greedy"
#: The bots that fill a matched rated game's empty seats, in this order, each once (a rated
#: game seats an account once, and a built-in bot is its strategy's account).
RATED_BOTS = (BOT_STRATEGY, "statistician", "clearer", "rusher", "random")

#: The rating window of rated quick play: the ordinals of a rated game's seekers span at most
#: `RATING_WINDOW` points at once, `RATING_WINDOW_STEP` more per `RATING_WINDOW_STEP_SECONDS`
#: its oldest seeker has waited, and any span once it has waited
#: `RATING_WINDOW_OPEN_AFTER_SECONDS` (docs/CLIENTS.md, "Rated games").
RATING_WINDOW = 5.0
RATING_WINDOW_STEP = 5.0
RATING_WINDOW_STEP_SECONDS = 10
RATING_WINDOW_OPEN_AFTER_SECONDS = 60

#: Each seek's ordinal, by seek id: a rated pool's (None for a casual one, with no window).
Ordinals = Mapping[object, float] | None


@dataclass(frozen=True)
class Match:
    """A game to start: its seekers, oldest first (seated in that order), and its seats (the
    seats the seekers leave go to bots)."""

    seekers: tuple[Seek, ...]
    seats: int

    @property
    def bots(self) -> int:
        return self.seats - len(self.seekers)

    @property
    def rated(self) -> bool:
        return self.seekers[0].rated

    def bot_strategies(self) -> list[str]:
        """The strategies of the bots that fill its empty seats: `BOT_STRATEGY` in a casual
        game, `RATED_BOTS` (each once) in a rated one."""
        if self.rated:
            return list(RATED_BOTS[: self.bots])
        return [BOT_STRATEGY] * self.bots


@dataclass(frozen=True)
class SeatRange:
    """The seat counts every seeker of a group accepts: `low` to `high` (empty if low > high)."""

    low: int
    high: int

    @classmethod
    def of(cls, seeks: Sequence[Seek]) -> SeatRange:
        return cls(max(s.seats_min for s in seeks), min(s.seats_max for s in seeks))


def match() -> int:
    """Expire the lapsed seeks, then start the game of every group that is ready; answers the
    seeks acted on (expired or seated)."""
    lapsed = lapse_seeks()
    if not live_seeks(clock.now()).exists():  # the usual sweep: no lock taken for nothing
        return lapsed
    with transaction.atomic():
        now = clock.now()
        candidates = live_seeks(now).select_related("account")
        taken = list(candidates.select_for_update(skip_locked=True, of=("self",)))
        started = [m for m in plan(taken, now) if _started(m)]
    return lapsed + sum(len(m.seekers) for m in started)


def plan(seeks: Sequence[Seek], now: datetime) -> list[Match]:
    """The games to start at `now` from the searching `seeks` (oldest first)."""
    pools: dict[tuple[int | None, bool], list[Seek]] = {}
    for seek in seeks:  # never rated with casual: a pool per clock and `rated`
        pools.setdefault((seek.turn_seconds, seek.rated), []).append(seek)
    return [
        found
        for (_, rated), pool in pools.items()
        for found in _plan_pool(pool, now, _ordinals(pool) if rated else None)
    ]


def _ordinals(pool: list[Seek]) -> dict[object, float]:
    """Each seek's account's ordinal now (OpenSkill's default, 0, before its first rated
    game)."""
    by_account = ordinals([seek.account_id for seek in pool])
    return {seek.pk: by_account[seek.account_id] for seek in pool}


def rating_window(waited: timedelta) -> float:
    """The widest span of ordinals a rated group whose oldest seeker waited `waited` may
    have: `RATING_WINDOW`, widened by `RATING_WINDOW_STEP` per whole
    `RATING_WINDOW_STEP_SECONDS`, unbounded after `RATING_WINDOW_OPEN_AFTER_SECONDS`."""
    seconds = waited.total_seconds()
    if seconds >= RATING_WINDOW_OPEN_AFTER_SECONDS:
        return math.inf
    return RATING_WINDOW + RATING_WINDOW_STEP * (seconds // RATING_WINDOW_STEP_SECONDS)


def window_widenings() -> range:
    """The waits, in seconds, at which a rated seek's window widens (the matcher is queued
    then)."""
    step = RATING_WINDOW_STEP_SECONDS
    return range(step, RATING_WINDOW_OPEN_AFTER_SECONDS + 1, step)


def _plan_pool(pool: list[Seek], now: datetime, ordinals: Ordinals) -> list[Match]:
    """The games to start from one pool of seeks that share a clock and `rated`, oldest
    first; `ordinals`: a rated pool's ratings, which its groups keep within the window."""
    waiting, matches = list(pool), []
    while waiting:
        found = _ready(waiting, now, ordinals)
        if found is None:  # its oldest waits; the next oldest gathers a group of its own
            waiting.pop(0)
            continue
        matches.append(found)
        grouped = {seek.pk for seek in found.seekers}
        waiting = [seek for seek in waiting if seek.pk not in grouped]
    return matches


def _ready(waiting: list[Seek], now: datetime, ordinals: Ordinals) -> Match | None:
    """The game the oldest of `waiting` starts now, or None while it waits: with the group it
    gathers if that is ready without bots, else, once its own `bots_after` has passed, with
    the seekers whose `bots_after` has passed too, and bots (in a rated game, no more than
    there are `RATED_BOTS`)."""
    group = _gather(waiting, now, ordinals)
    seats = _seats_without_bots(group, now)
    if seats is not None:
        return Match(tuple(group), seats)
    if not _bots_due(waiting[0], now):
        return None
    willing = _gather([seek for seek in waiting if _bots_due(seek, now)], now, ordinals)
    found = Match(tuple(willing), max(len(willing), SeatRange.of(willing).low))
    if found.rated and found.bots > len(RATED_BOTS):
        return None
    return found


def _gather(waiting: list[Seek], now: datetime, ordinals: Ordinals) -> list[Seek]:
    """The oldest of `waiting` and the next ones that fit it (in a rated pool, within its
    rating window), until the group is full (as many seekers as the largest seat count common
    to them)."""
    group = [waiting[0]]
    window = None if ordinals is None else rating_window(now - waiting[0].created_at)
    for seek in waiting[1:]:
        if len(group) == SeatRange.of(group).high:
            break
        if _fits(group, seek) and _near(group, seek, ordinals, window):
            group.append(seek)
    return group


def _near(group: list[Seek], seek: Seek, ordinals: Ordinals, window: float | None) -> bool:
    """Whether `seek` joins a rated `group` with their ordinals spanning `window` at most
    (always, in a casual pool)."""
    if ordinals is None or window is None:
        return True
    spread = [ordinals[member.pk] for member in (*group, seek)]
    return max(spread) - min(spread) <= window


def _fits(group: list[Seek], seek: Seek) -> bool:
    """Whether `seek` joins `group` with a seat count still common to them all, one for each."""
    common = SeatRange.of([*group, seek])
    return common.low <= common.high and len(group) + 1 <= common.high


def _seats_without_bots(group: list[Seek], now: datetime) -> int | None:
    """The seats of the game `group` starts now with its seekers alone (full, or as many as
    it has after the wait), or None while it waits."""
    common, seekers = SeatRange.of(group), len(group)
    if seekers == common.high:
        return seekers
    waited = now - group[0].created_at
    smallest_after = timedelta(seconds=settings.SEEK_SMALLEST_AFTER_SECONDS)
    if seekers >= common.low and waited >= smallest_after:
        return seekers
    return None


def _bots_due(seek: Seek, now: datetime) -> bool:
    """Whether `seek` has waited its `bots_after` (never, without one)."""
    if seek.bots_after is None:
        return False
    return now - seek.created_at >= timedelta(seconds=seek.bots_after)


def _started(found: Match) -> bool:
    """Start `found`'s game, all of it or nothing (a savepoint), again if another writer took
    a letter's number: False, logged, if it failed (its seeks stay searching, for the next
    run)."""
    try:
        core.retry_on_conflict(partial(_start, found))
    except Exception:
        logger.exception("a match of %d seeks failed", len(found.seekers))
        return False
    return True


def _start(found: Match) -> None:
    """In one transaction, a listed game with a secret seed and the seekers' clock; each
    seeker told (`seek_matched`) then seated by its account, oldest first, then the bots (the
    last seat taken deals, as for any full game); rated if its seekers' seeks are."""
    first = found.seekers[0]
    options = None if first.turn_seconds is None else {"turn_seconds": first.turn_seconds}
    with transaction.atomic():
        game = core.create_game(seats=found.seats, options=options, seed=None, rated=found.rated)
        deliver([_letter(seek, game, seat) for seat, seek in enumerate(found.seekers)])
        for seat, seek in enumerate(found.seekers):
            _seat(seek, game, seat)
        for strategy in found.bot_strategies():
            core.join_game(game.id, None, strategy)


def _letter(seek: Seek, game: Game, seat: int) -> Letter:
    payload = {"seek": str(seek.id), "game": str(game.id), "seat": seat}
    return Letter(seek.account.handle, "seek_matched", payload)


def _seat(seek: Seek, game: Game, seat: int) -> None:
    """Seat `seek`'s account in `seat` (a new game's seats are taken in order), as the account
    itself would join, and mark the seek matched."""
    joined = core.join_game(game.id, seek.account.handle, account=acting_for(seek.account_id))
    if joined.seat != seat:
        raise RuntimeError(f"seek {seek.id} took seat {joined.seat}, not {seat}")
    seek.status, seek.game, seek.seat = SeekStatus.MATCHED, game, seat
    seek.save(update_fields=["status", "game", "seat"])

"""Rating finished rated games (R14), one at a time and each once, and reading the ratings.

A game is rated by the job `tasks.rate_finished_games`, queued in the transaction of the
append that finished it: under the ratings' lock, it takes the finished rated games not rated
yet in the order they finished and rates each in a transaction of its own: its append-only
rows, the accounts' current ratings, and a `rating_changed` letter to each account.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from accounts.handles import handle_key
from accounts.inbox import Letter, deliver
from accounts.models import Account
from accounts.services import builtin_account_id
from engine import Event, GameState, event_from_data
from engine.ranking import final_ranks, handed_over
from games import core
from games.core import clock
from games.models import Game, GameEvent, Status
from ratings import locks
from ratings.models import RatedGame, Rating, RatingChange, RatingsLock
from ratings.skill import DEFAULT, ESTABLISHED_GAMES, Skill, rate

logger = logging.getLogger("ratings")

#: Games one rating transaction rates at most: a backlog (a worker down for a while, many games
#: finishing at once) costs one commit per batch, and the lock is never held for long.
RATE_BATCH = 50


def rate_pending() -> int:
    """Rate the finished rated games not rated yet, up to `RATE_BATCH` in each transaction.
    Answers how many this call rated (another worker may have rated the rest)."""
    rated = 0
    while batch := _rate_batch():
        rated += batch
    return rated


def _rate_batch() -> int:
    with transaction.atomic():
        locks.hold(RatingsLock)
        return sum(_rate_one(game) for game in pending_games()[:RATE_BATCH])


#: Tries of one game whose letters collided with another writer's (an inbox's next number).
LETTER_TRIES = 3


def _rate_one(game: Game) -> int:
    """Rate `game` in a savepoint of the batch: a collision of its letters with another
    writer's is tried again, and a game that cannot be rated is logged and left (pending) so
    that it never holds the others back. Answers 1 if it was rated."""
    for _ in range(LETTER_TRIES):
        try:
            with transaction.atomic():
                rate_game(game)
            return 1
        except IntegrityError:  # an inbox's next number, taken meanwhile: read it again
            continue
        except Exception:
            logger.exception("rating game %s failed: left for the next run", game.pk)
            return 0
    return 0


def pending_games() -> QuerySet[Game]:
    """Finished rated games not rated yet, in the order they finished."""
    finished = Game.objects.filter(status=Status.FINISHED, options__rated=True)
    return finished.filter(rating__isnull=True).order_by("updated_at", "id")


@dataclass(frozen=True)
class Outcome:
    """What a finished rated game tells the ratings: each seat's account and rank."""

    accounts: list[Account]
    ranks: tuple[int, ...]


def outcome_of(game: Game) -> Outcome:
    """The seats' accounts and ranks, from the game's log alone (as `rerate` reads it)."""
    state = core.game_state(game)
    return Outcome(_accounts(state), final_ranks(state, handed_over(_handovers(game))))


#: The events that hand a seat to a bot (R13): all of the log a game's ranks need beyond its
#: final state.
HANDOVERS = ("SeatLeft", "SeatAbandoned")


def _handovers(game: Game) -> list[Event]:
    """The game's handovers, read from its log by type (reading the whole log cost more than
    the rest of a game's rating, `bench_ratings` found)."""
    rows = GameEvent.objects.filter(game=game, type__in=HANDOVERS).order_by("sequence")
    return [
        event_from_data(row.type, row.payload, row.schema_version)
        for row in rows.only("type", "payload", "schema_version")
    ]


def _accounts(state: GameState) -> list[Account]:
    handles = [handle for handle in state.accounts if handle is not None]
    assert len(handles) == state.seats, "a rated game seats accounts only"
    by_key = {
        a.handle_key: a for a in Account.objects.filter(handle_key__in=map(handle_key, handles))
    }
    for handle in handles:  # a built-in bot's system account, made on its first game
        if handle_key(handle) not in by_key:
            builtin_account_id(handle)
            by_key[handle_key(handle)] = Account.objects.get(handle_key=handle_key(handle))
    return [by_key[handle_key(handle)] for handle in handles]


def rate_game(game: Game) -> list[RatingChange]:
    """Rate `game` now (the caller holds the ratings' lock): one `model.rate` for its seats."""
    outcome = outcome_of(game)
    ratings = _current(outcome.accounts)
    after = rate([Skill(r.mu, r.sigma) for r in ratings], outcome.ranks)
    now = clock.now()
    rated_game = RatedGame.objects.create(game=game, rated_at=now)
    changes = [
        _change(rated_game, seat, outcome, before, skill, now)
        for seat, (before, skill) in enumerate(zip(ratings, after, strict=True))
    ]
    RatingChange.objects.bulk_create(changes)
    for rating, skill in zip(ratings, after, strict=True):
        _move(rating, skill, now)
    deliver(_letters(game, changes, ratings))
    return changes


def _current(accounts: list[Account]) -> list[Rating]:
    """The accounts' ratings now, in their order: a row made for each one's first game."""
    found = {r.account_id: r for r in Rating.objects.filter(account__in=accounts)}
    first = [Rating(account=a) for a in accounts if a.pk not in found]
    Rating.objects.bulk_create(first)
    found.update((r.account_id, r) for r in first)
    return [found[account.pk] for account in accounts]


def _change(
    rated_game: RatedGame, seat: int, outcome: Outcome, before: Rating, after: Skill, at: datetime
) -> RatingChange:
    return RatingChange(
        rated_game=rated_game,
        game_id=rated_game.game_id,
        account=outcome.accounts[seat],
        seat=seat,
        seats=len(outcome.ranks),
        rank=outcome.ranks[seat],
        mu_before=before.mu,
        sigma_before=before.sigma,
        mu_after=after.mu,
        sigma_after=after.sigma,
        at=at,
    )


def _move(rating: Rating, skill: Skill, at: datetime) -> None:
    """The account's rating after the game: one UPDATE (`bulk_update`'s CASE per column cost
    more than the rest of a game's rating, `bench_ratings` found)."""
    rating.mu, rating.sigma, rating.ordinal = skill.mu, skill.sigma, skill.ordinal
    rating.games += 1
    rating.last_played = at
    Rating.objects.filter(pk=rating.pk).update(
        mu=rating.mu,
        sigma=rating.sigma,
        ordinal=rating.ordinal,
        games=rating.games,
        last_played=at,
    )


def _letters(
    game: Game, changes: Sequence[RatingChange], ratings: Sequence[Rating]
) -> list[Letter]:
    """`rating_changed` to each account that reads an inbox (the built-in bots do not)."""
    return [
        Letter(
            change.account.handle,
            "rating_changed",
            {
                "game": str(game.id),
                "rank": change.rank,
                "seats": change.seats,
                "before": rating_data(
                    Skill(change.mu_before, change.sigma_before), rating.games - 1
                ),
                "rating": rating_of(rating),
            },
        )
        for change, rating in zip(changes, ratings, strict=True)
        if not change.account.builtin
    ]


def rating_data(skill: Skill, games: int) -> dict[str, float | int | bool]:
    """A rating as the API shows it: OpenSkill's mu and sigma, the ordinal mu - 3·sigma the
    leaderboards sort by, the rated games, and whether it is still provisional."""
    return {
        "mu": skill.mu,
        "sigma": skill.sigma,
        "ordinal": skill.ordinal,
        "games": games,
        "provisional": games < ESTABLISHED_GAMES,
    }


def rating_of(rating: Rating | None) -> dict[str, float | int | bool]:
    """An account's rating now (the default before its first rated game)."""
    if rating is None:
        return rating_data(DEFAULT, 0)
    return rating_data(Skill(rating.mu, rating.sigma), rating.games)


def sweep() -> int:
    """Queue the rating job if a finished rated game waits for it (a job that failed, or a
    worker killed mid-job): the workers' sweep calls it. Answers the games waiting."""
    from ratings import tasks

    waiting = pending_games().count()
    if waiting:
        tasks.rate_finished_games.enqueue()
    return waiting


@dataclass
class Rerated:
    """What `rerate` found: the games and rows it recomputed, and every difference from what
    is stored (none: the stored history is exactly what the logs give)."""

    games: int = 0
    rows: int = 0
    differences: list[str] = field(default_factory=list)


def rerate() -> Rerated:
    """Recompute every rating from the rated games' logs, in the order they were rated, and
    compare each row (and each account's current rating) with what is stored."""
    found = Rerated()
    skills: dict[int, tuple[Skill, int]] = {}
    for rated_game in RatedGame.objects.select_related("game").order_by("id"):
        outcome = outcome_of(rated_game.game)
        stored = {c.seat: c for c in rated_game.changes.all()}
        before = [skills.get(a.pk, (DEFAULT, 0)) for a in outcome.accounts]
        after = rate([skill for skill, _ in before], outcome.ranks)
        for seat, account in enumerate(outcome.accounts):
            expected = (account.pk, outcome.ranks[seat], *_numbers(before[seat][0], after[seat]))
            found.differences += _compare(rated_game, seat, expected, stored.get(seat))
            skills[account.pk] = (after[seat], before[seat][1] + 1)
        found.games, found.rows = found.games + 1, found.rows + len(outcome.accounts)
    found.differences += _compare_current(skills)
    return found


def _numbers(before: Skill, after: Skill) -> tuple[float, float, float, float]:
    return before.mu, before.sigma, after.mu, after.sigma


def _compare(
    rated_game: RatedGame, seat: int, expected: tuple[object, ...], row: RatingChange | None
) -> list[str]:
    stored = None if row is None else (row.account_id, row.rank, *_stored_numbers(row))
    if stored == expected:
        return []
    return [f"game {rated_game.game_id} seat {seat}: stored {stored}, recomputed {expected}"]


def _stored_numbers(row: RatingChange) -> tuple[float, float, float, float]:
    return row.mu_before, row.sigma_before, row.mu_after, row.sigma_after


def _compare_current(skills: dict[int, tuple[Skill, int]]) -> list[str]:
    differences = []
    for rating in Rating.objects.all():
        skill, games = skills.get(rating.account_id, (DEFAULT, 0))
        if (rating.mu, rating.sigma, rating.games) != (skill.mu, skill.sigma, games):
            differences.append(f"account {rating.account_id}: current rating differs")
    return differences

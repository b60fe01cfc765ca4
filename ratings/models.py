"""The ratings' tables: an append-only row per rated seat of each rated game (the history, from
which `manage.py rerate` checks everything), the games rated in their order, and each
account's current rating (a projection of its rows, kept in the same transaction)."""

from __future__ import annotations

from django.db import models

from ratings.skill import DEFAULT


class RatedGame(models.Model):
    """A finished rated game, once rated: its row's id is the order the games were rated in,
    the order `rerate` replays them in; the unique game makes the rating happen once."""

    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="rating")
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]


class RatingChange(models.Model):
    """One account's rating before and after one rated game (append-only)."""

    rated_game = models.ForeignKey(RatedGame, on_delete=models.PROTECT, related_name="changes")
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, related_name="+")
    account = models.ForeignKey(
        "accounts.Account", on_delete=models.PROTECT, related_name="rating_changes"
    )
    seat = models.PositiveSmallIntegerField()
    seats = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["rated_game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "account"], name="one_change_per_game")
        ]
        indexes = [models.Index(fields=["account", "rated_game"], name="changes_of_account")]


class Rating(models.Model):
    """An account's rating now: its last change's `after`, and how many rated games it has."""

    account = models.OneToOneField(
        "accounts.Account", on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField(default=DEFAULT.mu)
    sigma = models.FloatField(default=DEFAULT.sigma)
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True)
    # mu - 3·sigma, stored so that a leaderboard is one indexed query.
    ordinal = models.FloatField(default=DEFAULT.ordinal, db_index=True)


class RatingsLock(models.Model):
    """One row, updated first by every rating transaction: the ratings are applied one game
    at a time, in one order, whatever the number of workers (a row lock on PostgreSQL, the
    write lock on SQLite)."""

    runs = models.PositiveBigIntegerField(default=0)

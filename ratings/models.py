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


class LadderEntry(models.Model):
    """A bot account on the ladder (its own choice, `POST /api/v1/account/ladder`): the seat
    counts it plays, and when its account was last seen present (its account stream open, or
    a long poll of its events): only a present bot is dealt ladder games."""

    account = models.OneToOneField(
        "accounts.Account", on_delete=models.CASCADE, primary_key=True, related_name="ladder"
    )
    seats = models.JSONField()  # the seat counts, ascending, each 2..8
    joined_at = models.DateTimeField()
    last_seen = models.DateTimeField(null=True, db_index=True)


class DuplicateSet(models.Model):
    """One deal of the ladder played once per rotation of its seats (`DuplicateGame`): the
    same seed, the same bots (`SetPlayer`, in their lineup's order), each at every seat."""

    seats = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["id"]


class SetPlayer(models.Model):
    """A bot of a duplicate set: at `position` of its lineup, so at seat
    `(position + rotation) % seats` of the set's game of that rotation."""

    set = models.ForeignKey(DuplicateSet, on_delete=models.CASCADE, related_name="players")
    account = models.ForeignKey(
        "accounts.Account", on_delete=models.PROTECT, related_name="duplicate_sets"
    )
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["set", "position"]
        constraints = [
            models.UniqueConstraint(fields=["set", "position"], name="one_bot_per_position"),
            models.UniqueConstraint(fields=["set", "account"], name="one_position_per_bot"),
        ]


class DuplicateGame(models.Model):
    """A game of a duplicate set: its rotation of the lineup (a table of the ratings', so the
    games' own table knows nothing of the ladder)."""

    set = models.ForeignKey(DuplicateSet, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="+")
    rotation = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["set", "rotation"]
        constraints = [
            models.UniqueConstraint(fields=["set", "rotation"], name="one_game_per_rotation")
        ]


class LadderLock(models.Model):
    """One row, updated first by every run of the ladder's job: the sets are dealt by one
    worker at a time, so a bot's bounds hold whatever the number of workers."""

    runs = models.PositiveBigIntegerField(default=0)

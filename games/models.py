"""Storage: each game is an append-only log of engine events.

`Game` holds what the log cannot (the hidden seed) and summary columns derived from the log
(status, version, round...), kept for listing and for the version check of every write, and
rebuildable from it. `GameEvent` rows are only ever inserted: updating or deleting one raises
`AppendOnlyError` (the service's hand-written append, games.store, only ever INSERTs them).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import models

from engine import state as engine_state


class AppendOnlyError(Exception):
    """Events are facts: they are never changed or removed."""


class Status(models.TextChoices):
    """A stored game's status: the engine's phases, but for `round_ended`, which no stored
    game is ever in (it only lasts between two events of one action)."""

    WAITING = engine_state.WAITING
    SETUP = engine_state.SETUP
    PLAYING = engine_state.PLAYING
    FINISHED = engine_state.FINISHED
    CANCELED = engine_state.CANCELED


#: The statuses after which a game never moves again: no stream waits, no one acts.
ENDED: tuple[str, ...] = (Status.FINISHED, Status.CANCELED)


class Game(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)  # the last event's time (every append)
    seats = models.PositiveSmallIntegerField()
    options = models.JSONField()
    # The seed of every shuffle: hidden, since it would reveal every card.
    seed = models.BigIntegerField()
    # Whether the creator chose the seed (and so may know every card): shown to everyone, the
    # seed never. An imported game draws a new secret seed, so it is not seeded.
    seeded = models.BooleanField(default=False)
    # Summary of the log, derived from it: every append moves it on with the events
    # (`services.append_events`); `manage.py verify_games` checks version and status.
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    version = models.PositiveIntegerField(default=0)
    round = models.PositiveSmallIntegerField(default=0)
    current_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    players_joined = models.PositiveSmallIntegerField(default=0)
    # Each seat's total so far, by seat, and the winning seats once finished (null before):
    # the lobby shows them without replaying.
    totals = models.JSONField(default=list)
    winners = models.JSONField(null=True, blank=True)
    # The service's own moves (R13), derived from the log and its times: when the persons to
    # act run out of time (null: no clock, or only bots to act), and whether a bot is to act.
    # The worker's sweep finds the games it owes a move by them (games.services.sweep).
    turn_deadline = models.DateTimeField(null=True, blank=True)
    bots_to_move = models.BooleanField(default=False)
    # A cache of the replayed state (engine.snapshot, as JSON text), used only when
    # `snapshot_version` equals `version`; disposable, rebuilt from the log whenever it is
    # missing or stale. Text, not a JSON column: it is rewritten by every action and never
    # queried, so PostgreSQL need not parse it into jsonb on every write (docs/PERFORMANCE.md).
    snapshot = models.TextField(null=True, blank=True, editable=False)
    snapshot_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # Who may find the game: a listed game is in every lobby; an unlisted one only in its
    # players' (its unguessable id is the invitation). Not a rule of the game: not in its log.
    listed = models.BooleanField(default=True)
    # The account that created the game, when one did (it may free the seats it reserved).
    created_by = models.ForeignKey(
        "accounts.Account",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_games",
    )
    # The finished game this one is the rematch of: one rematch per game (the unique link
    # makes `POST /rematch` idempotent across the seats), chains followed through it.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="rematch"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"])]

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    def __str__(self) -> str:
        return f"Game {self.id} ({self.status}, v{self.version})"


class Seat(models.Model):
    """A joined player: its name and the hash of its bearer token (the token is never stored).

    A bot's seat has no token, and names its strategy (`bot`); so does a seat whose player
    left a started game (its token is gone) or timed out too often (its token still reads).
    An account's seat (`account`) has no seat token either: `token_hash` then holds what the
    account's tokens stand for in this game (`AccountCredential.seat_hash`), never a SHA-256.
    A built-in bot's seat names its system account."""

    # No index of its own: the unique (game, seat) index serves lookups by game.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seat_rows", db_index=False
    )
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True, null=True, blank=True)
    bot = models.CharField(max_length=40, null=True, blank=True)
    account = models.ForeignKey(
        "accounts.Account", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="unique_game_seat")]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat})"


class SeatHold(models.Model):
    """A seat of a waiting game kept for one person, who alone may take it until the hold is
    freed, expires (`expires_at`; null: while the game waits) or is used: an account's (a
    reserved handle, a challenge's invitee, a rematch's player), or a guest's who held seat
    `guest_seat` of the game this one is the rematch of (its old seat token proves it).
    Others may join only while more seats are open than are held (409 `seat_reserved`)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="holds", db_index=False)
    account = models.ForeignKey(
        "accounts.Account", null=True, blank=True, on_delete=models.CASCADE, related_name="holds"
    )
    guest_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "account"], name="unique_hold_account"),
            models.UniqueConstraint(fields=["game", "guest_seat"], name="unique_hold_guest"),
            models.CheckConstraint(
                condition=models.Q(account__isnull=False, guest_seat__isnull=True)
                | models.Q(account__isnull=True, guest_seat__isnull=False),
                name="hold_for_one_person",
            ),
        ]

    def __str__(self) -> str:
        who = f"account {self.account_id}" if self.account_id else f"guest {self.guest_seat}"
        return f"seat held for {who}"


class GameEventQuerySet(models.QuerySet["GameEvent"]):
    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("game events cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("game events cannot be deleted")

    def bulk_create(
        self,
        objs: Iterable[GameEvent],
        batch_size: int | None = None,
        ignore_conflicts: bool = False,
        update_conflicts: bool = False,
        update_fields: Sequence[str] | None = None,
        unique_fields: Sequence[str] | None = None,
    ) -> list[GameEvent]:
        """Insert only: an upsert (`update_conflicts`) would overwrite stored events."""
        if update_conflicts:
            raise AppendOnlyError("game events cannot be updated")
        return super().bulk_create(
            objs,
            batch_size=batch_size,
            ignore_conflicts=ignore_conflicts,
            update_fields=update_fields,
            unique_fields=unique_fields,
        )


class GameEvent(models.Model):
    """One engine event of one game, at its place in the log (1, 2, 3... without gaps)."""

    # No index of its own: the unique (game, sequence) index serves lookups by game.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    sequence = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    payload = models.JSONField()
    schema_version = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = GameEventQuerySet.as_manager()

    class Meta:
        ordering = ["game", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="unique_game_sequence")
        ]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.type}"

    def save(self, **kwargs: Any) -> None:
        """Insert only. A new instance is always INSERTed: without `force_insert`, Django
        would UPDATE the stored row when the instance carries an existing primary key."""
        if (
            not self._state.adding
            or kwargs.get("force_update")
            or kwargs.get("update_fields") is not None
        ):
            raise AppendOnlyError("game events cannot be updated")
        super().save(**{**kwargs, "force_insert": True})

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("game events cannot be deleted")


class IdempotentResponse(models.Model):
    """The first answer to a POST sent with an `Idempotency-Key`, replayed on retries.

    A key belongs to a `scope`: a seat of a game for that seat's requests (its actions, its
    token rotation), a client address for the requests without a token (create, import, join).
    `body` is the answer as it was rendered, byte for byte, except for seat tokens, which are
    never stored: they are cut out of it, and `token_slots` says where they were (`[offset,
    seat, hash of the token the last answer gave]`), so that a replay can put a new one there.
    """

    # No index of its own: the unique (scope, key) index serves the lookups. None: an answer
    # about no game (a seek, `POST /api/v1/seeks`, in its account's scope).
    game = models.ForeignKey(
        Game,
        null=True,
        on_delete=models.CASCADE,
        related_name="idempotent_responses",
        db_index=False,
    )
    scope = models.CharField(max_length=120)
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.TextField()
    version = models.PositiveIntegerField()
    token_slots = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)  # the last answer's (a replay's new tokens)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="unique_idempotency_scope_key")
        ]


class GameCheckpoint(models.Model):
    """The replayed state of a game at one version (engine.snapshot as JSON text), kept every
    `REPLAY_CHECKPOINT_EVERY` events so that a replay (`?at=`) folds a few events from the
    nearest one instead of the whole log. A disposable cache, like `Game.snapshot`: one that is
    missing or of another format is rebuilt from the log."""

    # No index of its own: the unique (game, version) index serves lookups by game.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="checkpoints", db_index=False
    )
    version = models.PositiveIntegerField()
    state = models.TextField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="unique_game_checkpoint")
        ]

    def __str__(self) -> str:
        return f"checkpoint v{self.version}"

"""What people do to play together, beside the games' logs: challenges and their invitations,
seeks for quick play, and each game's chat (a log of its own, never the game's).

Each status vocabulary is one table (`TextChoices`) from which the API's enums and filters
derive.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.db import models

from games.core import clock
from games.models import AppendOnlyError


def service_now() -> datetime:
    """The service's clock (`games.core.clock.now`), as every time of play's that is compared
    with it is set (a challenge's age and expiry, a chat's burst window, a seek's wait): looked
    up at each call, so that a test that moves the clock moves these times too."""
    return clock.now()


class ChallengeStatus(models.TextChoices):
    """A challenge is `pending` until every invitee accepted (`accepted`: the game deals) or
    one declined, the challenger canceled or it expired (its game is then canceled)."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELED = "canceled"
    EXPIRED = "expired"


class Answer(models.TextChoices):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"


class DeclineReason(models.TextChoices):
    """Why an invitee declined (lichess's set): shown to the challenger."""

    GENERIC = "generic", "I'm not accepting challenges at the moment."
    LATER = "later", "This is not the right time for me, please ask again later."
    TOO_FAST = "too_fast", "This turn clock is too fast for me."
    TOO_SLOW = "too_slow", "This turn clock is too slow for me."
    RATED = "rated", "Please send me a rated challenge instead."
    CASUAL = "casual", "Please send me a casual challenge instead."
    NO_BOT = "no_bot", "I'm not accepting challenges from bots."
    ONLY_BOT = "only_bot", "I'm only accepting challenges from bots."


class Challenge(models.Model):
    """An account invites others to a game it created for them: their seats are held until
    they answer or the challenge expires."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="challenge")
    challenger = models.ForeignKey(
        "accounts.Account", on_delete=models.CASCADE, related_name="challenges_sent"
    )
    status = models.CharField(
        max_length=16, choices=ChallengeStatus.choices, default=ChallengeStatus.PENDING
    )
    created_at = models.DateTimeField(default=service_now, editable=False)
    expires_at = models.DateTimeField()
    # The strategies of the bots seated with the challenger, as the challenge asked for them
    # (the game's seats may later name other bots: a seat left is played by one).
    bots = models.JSONField(default=list)
    # Whether its game is rated (R14), as the challenger asked.
    rated = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "expires_at"])]

    def __str__(self) -> str:
        return f"Challenge {self.id} ({self.status})"


class Invitation(models.Model):
    """One invitee of a challenge and its answer (`reason`: why it declined)."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invitations")
    account = models.ForeignKey(
        "accounts.Account", on_delete=models.CASCADE, related_name="invitations"
    )
    answer = models.CharField(max_length=16, choices=Answer.choices, default=Answer.PENDING)
    reason = models.CharField(max_length=16, choices=DeclineReason.choices, null=True, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["challenge", "id"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "account"], name="unique_invitee")
        ]


class SeekStatus(models.TextChoices):
    """A seek is `searching` until the matcher seats it (`matched`), its account deletes it
    (`canceled`) or it lapses (`expired`)."""

    SEARCHING = "searching"
    MATCHED = "matched"
    CANCELED = "canceled"
    EXPIRED = "expired"


class Seek(models.Model):
    """An account asks for a game of `seats_min` to `seats_max` seats, with that clock: the
    matcher seats it with compatible seekers (and bots after `bots_after` seconds)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    account = models.ForeignKey("accounts.Account", on_delete=models.CASCADE, related_name="seeks")
    seats_min = models.PositiveSmallIntegerField()
    seats_max = models.PositiveSmallIntegerField()
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    rated = models.BooleanField(default=False)
    bots_after = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=SeekStatus.choices, default=SeekStatus.SEARCHING
    )
    # By the service's clock, as every time the matcher compares.
    created_at = models.DateTimeField(default=service_now)
    # The last sign of its account's presence (its account stream, a read of the seek).
    seen_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="seeks"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["status", "created_at"])]
        constraints = [
            # One searching seek per account (`play.seeks`); its index also serves the account
            # stream's presence update.
            models.UniqueConstraint(
                fields=["account"],
                condition=models.Q(status="searching"),
                name="one_searching_seek_per_account",
            )
        ]

    def __str__(self) -> str:
        return f"Seek {self.id} ({self.status})"


class Room(models.TextChoices):
    """The players' room is read by the seats (by everyone once the game is over); the
    spectators' by everyone."""

    PLAYERS = "players"
    SPECTATORS = "spectators"


class ChatMessageQuerySet(models.QuerySet["ChatMessage"]):
    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("chat messages cannot be updated")


class ChatMessage(models.Model):
    """One message of a game's chat, at its place in the chat's own log (1, 2, 3... per
    game): only ever inserted, like the game's events, but never part of the game's log."""

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="chat", db_index=False
    )
    sequence = models.PositiveIntegerField()
    room = models.CharField(max_length=16, choices=Room.choices)
    name = models.CharField(max_length=64)
    account = models.ForeignKey(
        "accounts.Account",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chat_messages",
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.CharField(max_length=280)
    created_at = models.DateTimeField(default=service_now, editable=False)

    objects = ChatMessageQuerySet.as_manager()

    class Meta:
        ordering = ["game", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="unique_chat_sequence")
        ]

    def save(self, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("chat messages cannot be updated")
        super().save(**{**kwargs, "force_insert": True})


class ChatMute(models.Model):
    """A room a seat of a game chose not to read (nor write in): kept by the service, so the
    mute follows the player across devices. It belongs to the seat, not to whoever holds it."""

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="chat_mutes", db_index=False
    )
    seat = models.PositiveSmallIntegerField()
    room = models.CharField(max_length=16, choices=Room.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat", "room"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "room"], name="unique_chat_mute")
        ]


class RematchSeat(models.Model):
    """The seat a guest took in a rematch (`seat` of `game`, its row `seat_row`), by the seat
    it held in the game before (`previous_seat`): a guest is known only by its old seat token,
    so a second call with it gives that seat a new token rather than seating it again.
    Accounts need none: their seats name them."""

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="rematch_seats", db_index=False
    )
    previous_seat = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    # The seat's row as the guest took it: gone (or another's) once the guest left a waiting
    # rematch, whose seat then opened to anyone. No constraint: core deletes seats' rows
    # knowing nothing of this one.
    seat_row = models.ForeignKey(
        "games.Seat",
        null=True,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        db_index=False,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "previous_seat"], name="unique_rematch_previous_seat"
            )
        ]

    def __str__(self) -> str:
        return f"seat {self.seat}, seat {self.previous_seat} before"

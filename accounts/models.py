"""Accounts, their personal tokens (stored as hashes only) and their inboxes.

An account is never removed: deleting it removes its tokens, its password (its `User`) and its
profile, and keeps the row as a tombstone (`deleted_at`), so that its handle is never reused
and the games' logs, which keep the name each seat played under, stay unambiguous.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Kind(models.TextChoices):
    PERSON = "person"
    BOT = "bot"


class Account(models.Model):
    handle = models.CharField(max_length=20)
    # The handle in lower case: handles are unique whatever their case.
    handle_key = models.CharField(max_length=20, unique=True)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    # A person's login (password and sessions: django.contrib.auth); a bot has none.
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="account",
    )
    # The person who created a bot account with their token.
    owner = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="bots"
    )
    # One of the service's own strategies (`random`, `greedy`...), which the service plays.
    builtin = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.handle


class PersonalToken(models.Model):
    """A bearer token of an account (`skyjo_pat_...`): its SHA-256 only, and its first
    characters so that a person can tell their tokens apart."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="tokens")
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=14)
    description = models.CharField(max_length=100, blank=True, default="")
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    # Written at most once a minute (accounts.credentials), never once per request.
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.prefix}... ({self.account})"


class InboxEntry(models.Model):
    """One entry of an account's inbox, at its place (1, 2, 3... without gaps): what the
    account stream sends, written in the transaction of the append that causes it."""

    account = models.ForeignKey(
        Account, on_delete=models.CASCADE, related_name="inbox", db_index=False
    )
    sequence = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["account", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["account", "sequence"], name="unique_inbox_sequence")
        ]

    def __str__(self) -> str:
        return f"{self.account_id} #{self.sequence} {self.type}"

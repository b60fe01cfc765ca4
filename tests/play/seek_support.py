"""Helpers of the seeks' tests: accounts (as credentials) and their seeks, made through the
use cases."""

from __future__ import annotations

from accounts import services
from accounts.credentials import AccountCredential
from play import SeekRequest, create_seek
from play.models import Seek


def account(handle: str) -> AccountCredential:
    """A new bot account (no password), as its tokens' credential with every scope."""
    return services.session_credential(services.sign_up(handle, "bot", None).account)


def seek(
    credential: AccountCredential,
    low: int = 2,
    high: int = 2,
    *,
    turn_seconds: int | None = None,
    bots_after: int | None = None,
    rated: bool = False,
) -> Seek:
    return create_seek(credential, SeekRequest(low, high, turn_seconds, bots_after, rated))


def fresh(seek: Seek) -> Seek:
    return Seek.objects.get(pk=seek.pk)

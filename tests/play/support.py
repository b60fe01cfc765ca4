"""Helpers of the challenges' tests: accounts with tokens of chosen scopes, challenges made
through the API, and the letters an account's inbox holds."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from accounts import services
from accounts.models import InboxEntry
from tests.api.support import bearer

CHALLENGES = "/api/v1/challenges"


def account(handle: str, scopes: list[str] | None = None) -> str:
    """A new bot account's personal token: every scope, or `scopes`."""
    signed = services.sign_up(handle, "bot", None)
    if scopes is None:
        return signed.token.token
    credential = services.session_credential(signed.account)
    return services.create_token(credential, "narrow", scopes).token


def challenge(
    api: APIClient, token: str, players: list[str], seats: int = 2, **extra: Any
) -> dict[str, Any]:
    """A challenge made through the API (201): its body."""
    answer = api.post(
        CHALLENGES, {"players": players, "seats": seats, **extra}, format="json", **bearer(token)
    )
    assert answer.status_code == 201, answer.content
    body: dict[str, Any] = answer.json()
    return body


def answer(api: APIClient, token: str, challenge_id: str, verb: str, **body: Any) -> Any:
    """POST `.../accept`, `.../decline` or `.../cancel`: the response."""
    url = f"{CHALLENGES}/{challenge_id}/{verb}"
    return api.post(url, body or None, format="json", **bearer(token))


def letters(handle: str, *kinds: str) -> list[tuple[str, dict[str, Any]]]:
    """The account's inbox entries (of `kinds`, else all), oldest first: (type, payload)."""
    rows = InboxEntry.objects.filter(account__handle=handle).order_by("sequence")
    if kinds:
        rows = rows.filter(type__in=kinds)
    return [(row.type, row.payload) for row in rows]

"""Helpers of the chat's tests: write and read a game's chat over HTTP, accounts' tokens."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tests.api.support import GAMES, bearer
from tests.play.support import account


def chat_url(game_id: str) -> str:
    return f"{GAMES}/{game_id}/chat"


def mute_url(game_id: str, room: str) -> str:
    return f"{GAMES}/{game_id}/chat/mutes/{room}"


def personal_token(handle: str, *scopes: str) -> str:
    """A new person's personal token: every scope, or only `scopes`."""
    return account(handle, list(scopes) or None, kind="person")


def say(
    api: APIClient, game_id: str, token: str | None, room: str, text: str, **headers: str
) -> Any:
    """POST a message; the response."""
    auth = bearer(token) if token else {}
    body = {"room": room, "text": text}
    return api.post(chat_url(game_id), body, format="json", **auth, **headers)


def said(api: APIClient, game_id: str, token: str | None, room: str, text: str) -> dict[str, Any]:
    """POST a message that must be written; the message."""
    response = say(api, game_id, token, room, text)
    assert response.status_code == 201, response.content
    message: dict[str, Any] = response.json()
    return message


def read(api: APIClient, game_id: str, token: str | None = None, **query: Any) -> Any:
    """GET the chat; the response."""
    auth = bearer(token) if token else {}
    return api.get(chat_url(game_id), query, **auth)


def texts(api: APIClient, game_id: str, token: str | None = None, **query: Any) -> list[str]:
    """The texts the caller reads, oldest first."""
    response = read(api, game_id, token, **query)
    assert response.status_code == 200, response.content
    return [message["text"] for message in response.json()["messages"]]

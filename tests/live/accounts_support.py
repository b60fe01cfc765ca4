"""Accounts in the live servers' database, made and revoked through `manage.py shell` (the
tests reach the servers over HTTP only), and an account stream read as an EventSource does."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import connect_sse

from loadtest.server import ROOT

from .conftest import Database, _environment
from .support import GAMES, bearer

ACCOUNT_STREAM = "/api/v1/account/stream"
ACCOUNT_EVENTS = "/api/v1/account/events"


def shell(database: Database, code: str) -> str:
    """`manage.py shell -c code` against the servers' database: what it printed."""
    command = [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code]
    env = _environment(database)
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def sign_up(database: Database, handle: str, scopes: list[str] | None = None) -> str:
    """A new bot account's token (with `scopes`, else all of them)."""
    code = (
        "from accounts import services\n"
        f"made = services.sign_up({handle!r}, 'bot', None)\n"
        "token = made.token.token\n"
    )
    if scopes is not None:
        code += (
            "from accounts.models import PersonalToken\n"
            f"PersonalToken.objects.filter(account__handle={handle!r}).update(scopes={scopes!r})\n"
        )
    return shell(database, code + "print(token)")


def revoke(database: Database, token: str) -> None:
    """Every token of `token`'s account deleted (revoked)."""
    shell(
        database,
        "from accounts.credentials import hash_personal_token\n"
        "from accounts.models import PersonalToken\n"
        f"PersonalToken.objects.filter(token_hash=hash_personal_token({token!r})).delete()",
    )


def seat_account(client: httpx.Client, token: str, seats: int = 2, seed: int = 1) -> str:
    """A game of `seats` guests (their tokens unused) with the account in seat 0: its id;
    not started until its last seat is taken."""
    body = {"seats": seats, "seed": seed, "options": {"end_score": 1}}
    game_id: str = client.post(GAMES, json=body).json()["id"]
    joined = client.post(f"{GAMES}/{game_id}/players", json={}, headers=bearer(token))
    assert joined.status_code == 201, joined.text
    return game_id


@dataclass
class Frame:
    id: int | None
    event: str
    data: dict[str, Any]


def read_stream(
    url: str, token: str, resume: int | None = None, count: int | None = None, **params: Any
) -> list[Frame]:
    """One connection's frames (after `resume` as `Last-Event-ID`; `params` the query),
    until it ends or `count` entries came."""
    headers = bearer(token) | ({} if resume is None else {"Last-Event-ID": str(resume)})
    frames: list[Frame] = []
    with (
        httpx.Client(base_url=url, timeout=30) as client,
        connect_sse(client, "GET", ACCOUNT_STREAM, headers=headers, params=params) as source,
    ):
        assert source.response.status_code == 200, source.response.read()
        for sse in source.iter_sse():
            if not sse.data:
                continue  # `retry:` alone
            frames.append(Frame(int(sse.id) if sse.id else None, sse.event, json.loads(sse.data)))
            if count is not None and len([f for f in frames if f.id]) >= count:
                break
    return frames

"""Helpers of the playing-together tests: accounts with tokens of chosen scopes, challenges
made through the API, the letters an account's inbox holds, and games of guests, accounts and
bots played to their end over HTTP (one round: end score 1), the bots' jobs run as a worker
runs them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.test import APIClient

from accounts import services
from accounts.models import InboxEntry
from engine import GreedyPlayer
from tests.api.bots_support import run_jobs, seat_bot
from tests.api.support import (
    GAMES,
    act,
    bearer,
    create_game,
    get_view,
    join,
    seat_to_act,
    view_from_data,
)

CHALLENGES = "/api/v1/challenges"


def account(handle: str, scopes: list[str] | None = None, kind: str = "bot") -> str:
    """A new account's personal token: every scope, or `scopes`. A bot's by default (no
    password to hash; its seats are an account's like a person's)."""
    signed = services.sign_up(handle, kind, None if kind == "bot" else "a long passphrase")
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


BOT = "bot:"
REMATCH = GAMES + "/{}/rematch"


def is_personal(credential: str) -> bool:
    return credential.startswith("skyjo_pat_")


def seated_game(
    api: APIClient, seats: Sequence[str], **options: Any
) -> tuple[str, list[str | None]]:
    """A game whose seats are taken in order by `seats`: `bot:<strategy>` a bot, a personal
    token its account, anything else a guest of that name. Answers its id and each seat's
    credential (a guest's seat token, an account's personal token, None for a bot)."""
    game_id = create_game(api, len(seats), **{"end_score": 1, **options})["id"]
    credentials: list[str | None] = []
    for spec in seats:
        if spec.startswith(BOT):
            seat_bot(api, game_id, spec.removeprefix(BOT))
            credentials.append(None)
        elif is_personal(spec):
            answer = api.post(f"{GAMES}/{game_id}/players", {}, format="json", **bearer(spec))
            assert answer.status_code == 201, answer.content
            credentials.append(spec)
        else:
            credentials.append(join(api, game_id, spec)["token"])
    return game_id, credentials


def play_to_the_end(api: APIClient, game_id: str, credentials: Sequence[str | None]) -> None:
    """The people's seats play greedily over HTTP, the bots' jobs run after each move."""
    player = GreedyPlayer()
    run_jobs()
    while (spectator := get_view(api, game_id))["status"] != "finished":
        views = [
            {"legal_actions": []} if token is None else get_view(api, game_id, token)
            for token in credentials
        ]
        seat = seat_to_act(spectator, views)
        token = credentials[seat]
        assert token is not None, "a bot's move was left undone"
        act(api, game_id, token, player.choose(view_from_data(views[seat])))
        run_jobs()


def finished(api: APIClient, seats: Sequence[str], **options: Any) -> tuple[str, list[str | None]]:
    """`seated_game`, played to its end."""
    game_id, credentials = seated_game(api, seats, **options)
    play_to_the_end(api, game_id, credentials)
    return game_id, credentials


def rematch(api: APIClient, game_id: str, token: str | None, **headers: Any) -> Any:
    """POST the rematch of `game_id` with `token` (none: a spectator's call)."""
    auth = {} if token is None else bearer(token)
    return api.post(REMATCH.format(game_id), **auth, **headers)

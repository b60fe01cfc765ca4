"""The seats a browser holds: each seat's token in the server-side session (Django's, in the
database), so the token never reaches the page or its scripts; the browser holds only the
session's id, in an HttpOnly, SameSite cookie. A player who reloads or comes back later is
still seated, for as long as the session lasts.

A logged-in person's seats are their account's (`accounts.services.session_credential`): the
session holds no token for them, so the same person finds them from any browser.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.credentials import AccountCredential
from accounts.services import account_of_user, session_credential
from games import core
from games.core.tokens import Credential, SeatCredential
from games.models import ENDED

SESSION_KEY = "seat_tokens"
#: Finished games a person's pages list after the unfinished ones, the most recent first.
FINISHED_SHOWN = 10
#: Seats one session remembers, the most recent kept: a session is not an archive.
MAX_SEATS_HELD = 100


def held_credential(request: HttpRequest, game_id: str) -> Credential | None:
    """What the page acts with in the game: the token of the seat this browser holds in it,
    else a logged-in person's account (seated in the game or not: the game says), else None."""
    token = request.session.get(SESSION_KEY, {}).get(game_id)
    return SeatCredential(token) if token is not None else person_credential(request)


def person_credential(request: HttpRequest) -> AccountCredential | None:
    """The logged-in person's account credential (None for a guest), found once a request
    per user (a signup logs its person in halfway through its request)."""
    user = getattr(request, "user", None)
    key = getattr(user, "pk", None)
    kept = getattr(request, "_person_credential", None)
    if kept is None or kept[0] != key:
        account = account_of_user(user)
        kept = (key, None if account is None else session_credential(account))
        request._person_credential = kept
    found: AccountCredential | None = kept[1]
    return found


def games_of(person: AccountCredential) -> list[dict[str, Any]]:
    """A person's games as "my games" lists them through the API (`core.my_games`: those
    under way first, where it is their turn first), the ended ones (finished, or canceled)
    cut to the last few."""
    entries = core.my_games(person, None)
    unfinished = [entry for entry in entries if entry["status"] not in ENDED]
    ended = [entry for entry in entries if entry["status"] in ENDED]
    return unfinished + ended[:FINISHED_SHOWN]


def kept_seats(request: HttpRequest) -> dict[str, str]:
    """The seat tokens the session holds, to put back after a login or logout flushes it: the
    seats a guest took belong to the browser, whoever logs in or out of it."""
    return dict(request.session.get(SESSION_KEY, {}))


def restore_seats(request: HttpRequest, held: dict[str, str]) -> None:
    if held:
        request.session[SESSION_KEY] = held


def held_games(request: HttpRequest) -> set[str]:
    """The ids of the games this browser holds a seat in."""
    return set(request.session.get(SESSION_KEY, {}))


def hold_seat(request: HttpRequest, game_id: str, token: str) -> None:
    """Keep the seat's token, under a new session key: a session id planted in the browser
    beforehand (session fixation) must not come to hold a seat whose token it never saw."""
    request.session.cycle_key()
    held = dict(request.session.get(SESSION_KEY, {}))
    held.pop(game_id, None)
    held[game_id] = token  # the newest last
    request.session[SESSION_KEY] = dict(list(held.items())[-MAX_SEATS_HELD:])


def drop_seat(request: HttpRequest, game_id: str) -> None:
    """Forget a seat whose token stopped working (rotated through the API, say)."""
    held = dict(request.session.get(SESSION_KEY, {}))
    if held.pop(game_id, None) is not None:
        request.session[SESSION_KEY] = held

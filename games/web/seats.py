"""The seats a browser holds: each seat's token in the server-side session (Django's, in the
database), so the token never reaches the page or its scripts; the browser holds only the
session's id, in an HttpOnly, SameSite cookie. A player who reloads or comes back later is
still seated, for as long as the session lasts.
"""

from __future__ import annotations

from django.http import HttpRequest

from games.core.tokens import SeatCredential

SESSION_KEY = "seat_tokens"
#: Seats one session remembers, the most recent kept: a session is not an archive.
MAX_SEATS_HELD = 100


def held_credential(request: HttpRequest, game_id: str) -> SeatCredential | None:
    """The token of the seat this browser holds in the game, if any."""
    token = request.session.get(SESSION_KEY, {}).get(game_id)
    return None if token is None else SeatCredential(token)


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

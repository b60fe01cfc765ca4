"""What the table page says of a game's links: a waiting game's invite link, a finished
game's rematch (its link, who has taken a seat in it, and the button that takes the viewer's),
and the tag by which the page knows it shows them as they are."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from games import core
from games.models import Game, Status
from games.web.seats import held_games, person_credential


def invite_url(request: HttpRequest, game: Game) -> str:
    """The table's own address, absolute: the invitation to a (private) game."""
    return request.build_absolute_uri(reverse("web:table", args=[game.id]))


def page_tag(game: Game, rematch: Game | None, *, rated: bool = False) -> str:
    """What the table shows of the game, as the `since` its partial is asked with: its
    version, and for a finished game what no event of its own tells: whether it has been
    `rated` (its seats' rating changes), and the seats taken in its rematch."""
    tag = f"{game.version}-rated" if rated else str(game.version)
    if rematch is None:
        return tag
    return f"{tag}-{rematch.id}-{rematch.players_joined}"


def rematch_context(
    request: HttpRequest, game: Game, seat: int | None, rematch: Game | None
) -> dict[str, Any] | None:
    """The finished table's rematch panel: its game, its players so far, and whether the
    viewer (a player of this game) may take a seat in it with the button; None for a game
    finished, or one without a rematch shown to a spectator."""
    if game.status != Status.FINISHED or (rematch is None and seat is None):
        return None
    seated = [] if rematch is None else [n for n in core.game_state(rematch).names if n]
    mine = rematch is not None and _seated_in(request, rematch)
    return {
        "game": None if rematch is None else str(rematch.id),
        "seated": seated,
        "mine": mine,
        "button": seat is not None and not mine,
    }


def _seated_in(request: HttpRequest, rematch: Game) -> bool:
    """Whether this browser holds a seat in the rematch: a guest's token kept for it, or the
    logged-in person's account seated in it."""
    if str(rematch.id) in held_games(request):
        return True
    person = person_credential(request)
    accounts = core.game_state(rematch).accounts
    return person is not None and person.handle in accounts

"""The lobby's "Play now": a logged-in person seeks a game through quick play's use cases
(`play`), the same as `POST /api/v1/seeks`, and waits on the seek's page ("Searching…", with
"Cancel") until the matcher seats them, then the page opens the table; a guest plays a game
against a bot at once.

A person's seek is of 2 to 4 seats, no clock, bots after `PLAY_NOW_BOTS_AFTER_SECONDS` (so a
person alone still plays). The seek's page re-reads itself every 2 seconds (htmx): each read is
a sign of the person's presence, which keeps the seek alive, and once it is matched the page
goes to the table. A guest's game is 2 seats, the guest (named `GUEST_NAME`) and a `greedy`
bot, the guest's seat token kept in the browser's session as the create form does.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

import play
from accounts.credentials import AccountCredential
from games import core
from games.api.throttling import BotSeatThrottle, GameCreationThrottle, limits_on
from games.web.limits import rate_limited
from games.web.seats import hold_seat, person_credential
from play.errors import AlreadySeeking, SeekAlreadyMatched, SeekNotFound
from play.models import Seek, SeekStatus

#: What a person's "Play now" asks for: the seats, and no clock.
SEATS = (2, 4)
#: A guest's game: its seats, the bot that fills the others, and the guest's name at the table.
GUEST_SEATS = 2
GUEST_BOT = "greedy"
GUEST_NAME = "Guest"
#: Seconds between two reads of a seek's page while it searches.
POLL_SECONDS = 2


@require_POST
@rate_limited
def play_now(request: HttpRequest) -> HttpResponse:
    """A person seeks a game (or finds the seek they have); a guest's game starts at once."""
    person = person_credential(request)
    if person is None:
        return _guest_game(request)
    wanted = play.SeekRequest(*SEATS, bots_after=settings.PLAY_NOW_BOTS_AFTER_SECONDS)
    try:
        seek = play.create_seek(person, wanted)
    except AlreadySeeking as searching:
        return redirect("web:seek", seek_id=searching.extra["seek"])
    return redirect("web:seek", seek_id=seek.id)


def _guest_game(request: HttpRequest) -> HttpResponse:
    """A game of the guest and a bot, dealt at once, through the API's use cases and limits."""
    if not _may_start(request):
        messages.error(request, "Too many games created from your address: wait a while.")
        return redirect("web:lobby")
    with transaction.atomic():  # the game with its seats, or nothing
        game = core.create_game(seats=GUEST_SEATS, options=None, seed=None)
        joined = core.join_game(game.id, GUEST_NAME)
        for _ in range(GUEST_SEATS - 1):
            core.join_game(game.id, None, GUEST_BOT)
    assert joined.token is not None  # a guest's seat has its token
    hold_seat(request, str(game.id), joined.token)
    return redirect("web:table", game_id=game.id)


def _may_start(request: HttpRequest) -> bool:
    """The API's limits on games created and bot seats taken per address hold here too."""
    if not limits_on():
        return True
    bots_allowed = BotSeatThrottle().take_seats(request, GUEST_SEATS - 1) is None
    return GameCreationThrottle().allow_request(request, None) and bots_allowed


@require_GET
@rate_limited
@cache_control(private=True, no_cache=True)
def seek_page(request: HttpRequest, seek_id: str) -> HttpResponse:
    """The person's seek while it searches (re-read every few seconds), or how it ended; a
    matched seek is its table."""
    found = _person_seek(request, seek_id)
    if isinstance(found, HttpResponse):
        return found
    _, seek = found
    if seek.status == SeekStatus.MATCHED:
        return redirect("web:table", game_id=seek.game_id)
    return render(request, "games/seek.html", _context(seek))


@require_GET
@rate_limited
@cache_control(private=True, no_cache=True)
def seek_status(request: HttpRequest, seek_id: str) -> HttpResponse:
    """The seek's region alone, for htmx to swap in; once matched, htmx goes to the table."""
    found = _person_seek(request, seek_id)
    if isinstance(found, HttpResponse):
        return HttpResponseClientRedirect(found["Location"])
    _, seek = found
    if seek.status == SeekStatus.MATCHED:
        return HttpResponseClientRedirect(reverse("web:table", args=[seek.game_id]))
    return render(request, "games/_seek.html", _context(seek))


@require_POST
@rate_limited
def cancel_seek(request: HttpRequest, seek_id: str) -> HttpResponse:
    """Stop searching; a seek matched meanwhile is a seat: its table."""
    found = _person_seek(request, seek_id)
    if isinstance(found, HttpResponse):
        return found
    person, seek = found
    try:
        play.withdraw_seek(person, seek.id)
    except SeekAlreadyMatched:
        messages.info(request, "A table was found for you already.")
        return redirect("web:table", game_id=play.read_seek(person, seek.id).game_id)
    messages.info(request, "You stopped searching.")
    return redirect("web:lobby")


def _person_seek(
    request: HttpRequest, seek_id: str
) -> tuple[AccountCredential, Seek] | HttpResponse:
    """The logged-in person and their seek (read: a sign of presence), or where to go
    instead: the login page for a guest, the lobby for a seek that is not theirs."""
    person = person_credential(request)
    if person is None:
        back = urlencode({"next": reverse("web:seek", args=[seek_id])})
        return redirect(f"{reverse('web:login')}?{back}")
    try:
        return person, play.read_seek(person, seek_id)
    except SeekNotFound:
        messages.error(request, "You have no such search for a game.")
        return redirect("web:lobby")


def lobby_context() -> dict[str, object]:
    """What the lobby's "Play now" says it does."""
    return {
        "seats": SEATS,
        "bots_after": settings.PLAY_NOW_BOTS_AFTER_SECONDS,
        "guest_name": GUEST_NAME,
        "guest_bot": GUEST_BOT,
    }


def _context(seek: Seek) -> dict[str, object]:
    return {
        "seek": seek,
        "searching": seek.status == SeekStatus.SEARCHING,
        "poll_seconds": POLL_SECONDS,
    }

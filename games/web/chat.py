"""The table's chat panel's requests (the panel itself: `chat_panel`): its poll, a message
sent, a room muted or unmuted, each through the API's use cases (`play`).

New messages come without a reload: the panel's poller re-reads the rooms when the game's
stream sends a `chat` frame (the spectators' room: the page's stream is a spectator's) and
every `CHAT_POLL_SECONDS`, answered 204 while nothing changed, else with the rooms' lists
alone (out of band), so a message being typed is never lost; with the whole panel when the
rooms themselves changed (the game ended: the players' room opens to everyone).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

import play
from accounts.errors import Refusal
from games.web.chat_panel import chat_context
from games.web.limits import rate_limited
from games.web.views import Viewer, chat_credential, game_page, viewer
from play.errors import ChatRoomForbidden


@require_GET
@game_page
@rate_limited
@cache_control(private=True, no_cache=True)
def chat_poll(request: HttpRequest, game_id: str) -> HttpResponse:
    """The rooms' lists if a message came since `?after=` (204 if none); the whole panel if
    the rooms changed since (`?ended=`: the game ended meanwhile)."""
    seen = viewer(request, game_id)
    chat = chat_context(seen.game, seen.seat, chat_credential(request, seen))
    ended = "1" if chat["ended"] else "0"
    if request.GET.get("ended") != ended:
        return render(request, "games/_chat.html", {"chat": chat, "oob": True})
    if request.GET.get("after") == str(chat["last"]):
        return HttpResponse(status=204)
    return render(request, "games/_chat_poll.html", {"chat": chat})


@require_POST
@game_page
@rate_limited
def chat_send(request: HttpRequest, game_id: str) -> HttpResponse:
    """Write the form's `text` in its `room` through the API's use case; the panel again
    (a refusal said in it, the text kept), or without htmx the table."""
    seen = viewer(request, game_id)
    room, text = request.POST.get("room", ""), request.POST.get("text", "")
    error = ""
    try:
        if room not in play.ROOMS:
            raise ChatRoomForbidden("There is no such room.")
        play.post_message(play.writer(seen.game.id, chat_credential(request, seen)), room, text)
    except Refusal as refused:
        error = _words(refused)
    return _answer(request, seen, error, {room: text} if error else {})


@require_POST
@game_page
@rate_limited
def chat_mute(request: HttpRequest, game_id: str) -> HttpResponse:
    """Mute (`muted=true`) or unmute the form's `room` for the browser's seat."""
    seen = viewer(request, game_id)
    room, error = request.POST.get("room", ""), ""
    try:
        if room not in play.ROOMS:
            raise ChatRoomForbidden("There is no such room.")
        if request.POST.get("muted") == "true":
            play.mute_room(seen.game.id, seen.credential, room)
        else:
            play.unmute_room(seen.game.id, seen.credential, room)
    except Refusal as refused:
        error = _words(refused)
    return _answer(request, seen, error)


def _words(refused: Refusal) -> str:
    """A refusal as the panel says it."""
    wait = refused.extra.get("retry_after")
    if wait is not None:
        return f"Too many messages: wait {wait} seconds, then send it again."
    return refused.detail


def _answer(
    request: HttpRequest, seen: Viewer, error: str, drafts: dict[str, str] | None = None
) -> HttpResponse:
    """htmx: the panel (with `error` and the refused text; 200, which htmx swaps in); else
    back to the table, the error said there."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("web:table", game_id=seen.game.id)
    context = {
        "chat": chat_context(seen.game, seen.seat, chat_credential(request, seen), error, drafts)
    }
    return render(request, "games/_chat.html", context)

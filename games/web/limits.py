"""The API's rate limits on the pages: the same throttles, counting in the same windows, per
client address and per the seat the session holds, so a browser (or a script posing as one)
gets no more from the pages than from the API. A refusal is a page of its own (429, with
Retry-After), saying how long to wait and linking back.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from rest_framework.views import APIView

from games.api.throttling import CountingThrottle
from games.core import game_uuid
from games.core.tokens import Credential
from games.web.seats import held_credential

View = Callable[..., HttpResponse]


def rate_limited(view: View) -> View:
    """Count the request against every limit of the API (its throttle classes: off where the
    API's are off) before the page answers it."""

    @wraps(view)
    def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        game_id = kwargs.get("game_id")
        wait = refusal(request, _held(request, game_id))
        if wait is not None:
            return throttled_page(request, wait, game_id)
        return view(request, *args, **kwargs)

    return limited


def _held(request: HttpRequest, game_id: str | None) -> Credential | None:
    """The seat this browser holds in the page's game (None on the lobby's pages)."""
    return None if game_id is None else held_credential(request, str(game_uuid(game_id)))


def refusal(request: HttpRequest, credential: Credential | None) -> float | None:
    """Seconds to wait if a limit refuses the request, else None; each limit counts it, as
    the API's do."""
    waits = [
        throttle.wait()
        for throttle in page_throttles()
        if not throttle.allow_key(throttle.page_key(request, credential))
    ]
    return max((wait for wait in waits if wait is not None), default=None)


def page_throttles() -> list[CountingThrottle]:
    """The API's throttles that can count page requests too."""
    classes = APIView.throttle_classes
    return [klass() for klass in classes if issubclass(klass, CountingThrottle)]


def throttled_page(request: HttpRequest, wait: float, game_id: str | None) -> HttpResponse:
    """429, in words: how long to wait, and a link back to the game's table or the lobby."""
    seconds = math.ceil(wait)
    back = reverse("web:table", args=[game_id]) if game_id else reverse("web:lobby")
    words = "the table" if game_id else "the lobby"
    context = {"retry_after": seconds, "back": back, "back_words": words}
    response = render(request, "games/throttled.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response

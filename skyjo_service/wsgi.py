"""WSGI entry point.

With REQUESTS_AT_ONCE set (`make serve` sets it to THREADS), at most that many requests per
process run the application at once (games.api.gate); the others wait their turn without
taking the interpreter's lock. The worker's pool also has a thread for every open stream or
waiting long poll (LIVE_MAX_STREAMS of them together, games.live): a stream runs the
application only to start (its frames are written outside it, see
games.streams), and a long poll steps out of its turn while it waits, so the requests that do
work take turns as they would with THREADS threads.
"""

import os
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application

from games.live import gate

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_service.settings")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def in_turns(app: WSGIApp, turns: gate.Turns) -> WSGIApp:
    """`app`, run by a thread holding one of `turns`."""

    def app_in_turn(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        with turns.turn():
            return app(environ, start_response)

    return app_in_turn


application: WSGIApp = get_wsgi_application()
if at_once := int(os.environ.get("REQUESTS_AT_ONCE") or 0):
    gate.TURNS = gate.Turns(at_once)
    application = in_turns(application, gate.TURNS)

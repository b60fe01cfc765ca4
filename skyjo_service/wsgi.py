"""WSGI entry point.

With REQUESTS_AT_ONCE set (`make serve` sets it to THREADS), at most that many requests per
process run the application at once; the others wait their turn without taking the
interpreter's lock. The worker's pool also has a thread for every open stream, and a stream
runs the application only to start (its frames are written outside it, see games.streams), so
the gate leaves streams free while the requests that do work take turns as they would with
THREADS threads (more at once only share the same CPU, with more switching between them).
"""

import os
import threading
from collections.abc import Callable, Iterable
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_service.settings")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def gated(app: WSGIApp, at_once: int) -> WSGIApp:
    """`app`, run by at most `at_once` threads at a time (the rest wait on a semaphore)."""
    gate = threading.BoundedSemaphore(at_once)

    def gated_app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        with gate:
            return app(environ, start_response)

    return gated_app


application: WSGIApp = get_wsgi_application()
if at_once := int(os.environ.get("REQUESTS_AT_ONCE") or 0):
    application = gated(application, at_once)

"""`manage.py stream_tier [ADDR:PORT]`: the stream tier, an ASGI server (uvicorn, one event
loop) whose game streams are coroutines (`games.live.astreams`), beside the API's servers.

`make run` and `make serve` start one; more, on other ports or hosts, scale the streams on
their own (docs/SCALING.md). It holds up to `--max-streams` streams (`STREAM_TIER_MAX_STREAMS`,
default 20,000). On SIGTERM or SIGINT it first ends its streams (their clients reconnect with
`Last-Event-ID`, to another tier process), then stops.
"""

from __future__ import annotations

import os
import resource
import threading
from typing import Any

import uvicorn
from django.core.management.base import BaseCommand, CommandParser

from games.live.fanout import hub

#: Sockets the process may hold beyond its streams (database, listener, kept-alive clients).
_SPARE_FILES = 1000


class DrainingServer(uvicorn.Server):
    """uvicorn's server, ending the streams first when asked to stop: a stream never ends by
    itself soon, and uvicorn would wait for it before stopping."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        threading.Thread(target=hub.drain, name="skyjo-live-drain").start()
        super().handle_exit(sig, frame)


class Command(BaseCommand):
    help = "Serve the game streams as coroutines (ASGI, uvicorn) on ADDR:PORT."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8001")
        parser.add_argument(
            "--max-streams",
            type=int,
            default=int(os.environ.get("STREAM_TIER_MAX_STREAMS") or 20000),
            help="streams held at once; more are refused with 503 too_many_streams",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        host, _, port = options["addrport"].rpartition(":")
        hub.capacity = options["max_streams"]
        _raise_open_files_limit(options["max_streams"] + _SPARE_FILES)
        config = uvicorn.Config(
            "skyjo_service.asgi:stream_tier",
            host=host or "127.0.0.1",
            port=int(port),
            loop="uvloop",
            http="httptools",
            lifespan="off",
            access_log=False,
            timeout_graceful_shutdown=5,
            backlog=4096,
        )
        DrainingServer(config).run()


def _raise_open_files_limit(wanted: int) -> None:
    """Each stream is an open socket: a soft limit of 1024 (a common default) would refuse
    connections long before the streams run out."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))

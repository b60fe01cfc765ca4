"""The stream tier's server: `python -m skyjo_service.stream_tier [ADDR:PORT] [--max-streams N]`.

An ASGI server (uvicorn, one event loop) serving `skyjo_service.asgi.stream_tier`, whose game
streams are coroutines (`games.live.astreams`), beside the API's WSGI servers: `make run` and
`make serve` start one; more, on other ports or hosts, scale the streams on their own
(docs/SCALING.md). As skyjo_service/gunicorn.conf.py does for the API's workers, it sets what
the process needs before Django reads its settings:

- on PostgreSQL a pool of `DB_POOL_SIZE` connections (default: its reader and fan-out threads
  and two more), so that a read borrows one instead of connecting (CONN_MAX_AGE 60 without);
- a limit of open files above its streams (`--max-streams`, `STREAM_TIER_MAX_STREAMS`, default
  20,000; one past it is refused with 503 `too_many_streams`).

On SIGTERM or SIGINT it ends its streams first (their clients reconnect with `Last-Event-ID`,
to another tier process), then stops.
"""

from __future__ import annotations

import argparse
import os
import resource
import threading
from typing import Any

import uvicorn

#: Sockets the process may hold beyond its streams (database, listener, kept-alive clients).
_SPARE_FILES = 1000


def main(argv: list[str] | None = None) -> None:
    options = _parser().parse_args(argv)
    host, _, port = options.addrport.rpartition(":")
    _prepare_environment()
    _raise_open_files_limit(options.max_streams + _SPARE_FILES)
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
    config.load()  # Django set up: the hub can be told its places
    from games.live.fanout import hub

    hub.capacity = options.max_streams
    DrainingServer(config).run()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m skyjo_service.stream_tier")
    parser.add_argument("addrport", nargs="?", default="127.0.0.1:8001")
    parser.add_argument(
        "--max-streams",
        type=int,
        default=int(os.environ.get("STREAM_TIER_MAX_STREAMS") or 20000),
        help="streams held at once; more are refused with 503 too_many_streams",
    )
    return parser


def _prepare_environment() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_service.settings")
    readers = int(os.environ.get("LIVE_READERS") or 2)
    fanout = int(os.environ.get("LIVE_FANOUT_THREADS") or 2)
    os.environ.setdefault("DB_POOL_SIZE", str(readers + fanout + 2))  # PostgreSQL only
    os.environ.setdefault("CONN_MAX_AGE", "60")  # without a pool (SQLite)


def _raise_open_files_limit(wanted: int) -> None:
    """Each stream is an open socket: a soft limit of 1024 (a common default) would refuse
    connections long before the streams run out."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


class DrainingServer(uvicorn.Server):
    """uvicorn's server, ending the streams first when asked to stop: a stream never ends by
    itself soon, and uvicorn would wait for it before stopping."""

    def handle_exit(self, sig: int, frame: Any) -> None:
        from games.live.fanout import hub

        threading.Thread(target=hub.drain, name="skyjo-live-drain").start()
        super().handle_exit(sig, frame)


if __name__ == "__main__":
    main()

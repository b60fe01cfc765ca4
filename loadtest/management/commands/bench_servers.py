"""`manage.py bench_servers`: several arrangements of the production server side by side.

On these shared machines the speed drifts by tens of percent within minutes, so arrangements
measured one after the other cannot be told apart. This starts one gunicorn server per named
arrangement (all at once, on the same PostgreSQL database of its own), gives each `--games`
clients that play games as fast as they can (`bench_load`'s game clients), and lets one
server's clients work at a time, in slices alternated over `--rounds` rounds (A B C, C B A...).
It prints each arrangement's actions per second, the CPU an action cost its server and
PostgreSQL, and its errors (`--json`: one object). No streams: `bench_stream` measures those.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from loadtest.management.commands.bench_load import (
    DEFAULT_POSTGRES_URL,
    bench_database,
    client_pool,
    empty_tables,
    game_client,
    run_slice,
    summarise,
)
from loadtest.server import run_manage, running_server, server_environment

#: Arrangement: (gunicorn threads per worker, extra environment). Two workers each.
ARRANGEMENTS: dict[str, tuple[int, dict[str, str]]] = {
    # Before streams: 8 threads, a connection kept by each (CONN_MAX_AGE=60).
    "threads8": (8, {"DB_POOL_SIZE": "0", "REQUESTS_AT_ONCE": "0"}),
    # Room for 1,000 streams per worker, connections still kept per thread (up to one per
    # client: with 32 clients, run it beside one other arrangement at most, or the servers
    # together pass PostgreSQL's 100 connections).
    "threads1008": (1008, {"DB_POOL_SIZE": "0", "REQUESTS_AT_ONCE": "0"}),
    # The same with a pool of 12 connections per worker.
    "threads1008-pool": (1008, {"DB_POOL_SIZE": "12", "REQUESTS_AT_ONCE": "0"}),
    # And a gate of 8 requests at once: what `make serve` runs.
    "threads1008-pool-gate": (1008, {"DB_POOL_SIZE": "12", "REQUESTS_AT_ONCE": "8"}),
}


class Command(BaseCommand):
    help = "Compare server arrangements side by side (actions/s, alternated slices)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "arrangements", nargs="*", help=f"of {', '.join(ARRANGEMENTS)} (default: 2)"
        )
        parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_URL)
        parser.add_argument("--games", type=int, default=32, help="clients per server")
        parser.add_argument("--rounds", type=int, default=6)
        parser.add_argument("--slice-seconds", type=float, default=4.0)
        parser.add_argument("--warmup", type=float, default=1.0)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        names = options["arrangements"] or ["threads8", "threads1008-pool-gate"]
        unknown = set(names) - set(ARRANGEMENTS)
        if unknown:
            raise CommandError(f"unknown arrangements: {', '.join(sorted(unknown))}")
        with ExitStack() as stack:
            url = stack.enter_context(bench_database("postgres", options["postgres_url"]))
            run_manage(server_environment(url), "migrate", "--noinput")
            empty_tables(url)
            pools = {}
            for name in names:
                threads, extra = ARRANGEMENTS[name]
                env = server_environment(url, CONN_MAX_AGE="60", **extra)
                server = stack.enter_context(running_server(env, threads=threads))
                pool = stack.enter_context(client_pool(server, options["games"], game_client))
                pools[name] = (server, pool)
            for index in range(options["rounds"]):
                for name in names if index % 2 == 0 else names[::-1]:
                    server, pool = pools[name]
                    seconds = options["slice_seconds"]
                    run_slice(pool, server, options["warmup"], seconds, postgres=True)
        result = {name: _figures(summarise(pool)) for name, (_, pool) in pools.items()}
        if options["json"]:
            self.stdout.write(json.dumps(result))
        else:
            for name, figures in result.items():
                self.stdout.write(f"{name:24} {json.dumps(figures)}")
        errors = sum(figures["errors"] for figures in result.values())
        if errors:
            raise CommandError(f"{errors} errors")


def _figures(summary: dict[str, Any]) -> dict[str, Any]:
    keys = ("per_s", "cpu_ms", "p99_ms", "other_cpu_share", "errors", "first_errors")
    return {key: summary[key] for key in keys}

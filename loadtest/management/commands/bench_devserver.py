"""`manage.py bench_devserver`: what a kept-alive connection costs on the development server.

`make run` serves with Django's development server. It writes a response's headers and body
in separate packets; on a kept-alive connection (httpx, requests' sessions, browsers) Nagle's
algorithm then holds the body until the client's delayed ACK, about 40 ms a request, unless
the server sets TCP_NODELAY (games.apps does). This starts `manage.py runserver` as `make run`
does, twice on a throwaway SQLite file (with TCP_NODELAY, and without it:
DEVSERVER_TCP_NODELAY=off), and times the same GET over one kept-alive httpx connection.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from django.core.management.base import BaseCommand, CommandParser

from loadtest.server import ROOT, free_port, wait_until_ready

PATH = "/api/v1/games?limit=5"
MANAGE = [sys.executable, str(ROOT / "manage.py")]


def _median_ms(client: httpx.Client, requests: int) -> float:
    timings = []
    for _ in range(requests):
        started = time.perf_counter()
        assert client.get(PATH).status_code == 200
        timings.append((time.perf_counter() - started) * 1000)
    return statistics.median(timings)


def kept_alive_median_ms(env: dict[str, str], requests: int) -> float:
    """The median GET over one kept-alive connection to `manage.py runserver` in `env`."""
    port = free_port()
    command = [*MANAGE, "runserver", "--noreload", f"127.0.0.1:{port}"]
    quiet = subprocess.DEVNULL
    server = subprocess.Popen(command, env=env, cwd=ROOT, stdout=quiet, stderr=quiet)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_ready(base, server, timeout=30)
        with httpx.Client(base_url=base) as client:
            return _median_ms(client, requests)
    finally:
        server.terminate()
        server.wait(timeout=10)


class Command(BaseCommand):
    help = "Time kept-alive GETs against the development server with and without TCP_NODELAY."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--requests", type=int, default=200, help="Timed GETs per server.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args: Any, **options: Any) -> None:
        with tempfile.TemporaryDirectory() as folder:
            env = {**os.environ, "DATABASE_URL": f"sqlite:///{Path(folder) / 'db.sqlite3'}"}
            env["DEBUG"] = "true"
            subprocess.run([*MANAGE, "migrate", "-v", "0"], env=env, check=True, cwd=ROOT)
            nodelay = kept_alive_median_ms(env, options["requests"])
            nagle = kept_alive_median_ms(
                {**env, "DEVSERVER_TCP_NODELAY": "off"}, options["requests"]
            )
        figures = {"nodelay_ms": nodelay, "nagle_ms": nagle, "ratio": nodelay / nagle}
        if options["json"]:
            self.stdout.write(json.dumps(figures))
            return
        self.stdout.write(
            f"development server, median of {options['requests']} kept-alive GETs: "
            f"TCP_NODELAY {nodelay:.2f} ms, Nagle {nagle:.2f} ms, ratio {figures['ratio']:.3f}"
        )

"""`manage.py run`: the development server and a worker, together (`make run`), and with
`--stream-tier ADDR:PORT` the stream tier beside them (`skyjo_service.stream_tier`).

The worker (`manage.py worker`) and the tier run in processes of their own, started here and
stopped when the server stops: one command, one Ctrl-C. The server's autoreloader restarts
only the server; the worker reloads itself on code changes (DEBUG), the tier does not.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from contextlib import suppress
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV

#: Seconds the worker is given to finish its job when the server stops.
WORKER_STOP_SECONDS = 10


class Command(BaseCommand):
    help = "Serve on ADDRPORT (runserver) with a worker beside it; Ctrl-C stops both."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--noreload",
            action="store_false",
            dest="use_reloader",
            help="Serve without the autoreloader (the browser tests: code edited meanwhile "
            "does not restart the server under them).",
        )
        parser.add_argument(
            "--stream-tier",
            metavar="ADDR:PORT",
            help="Start the stream tier there too (name it to clients with STREAM_BASE_URL).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":  # the reloader's server process
            call_command("runserver", options["addrport"])  # the reloader's: it reloads
            return
        helpers = [_start(str(settings.BASE_DIR / "manage.py"), "worker")]
        if options["stream_tier"]:
            helpers.append(_start("-m", "skyjo_service.stream_tier", options["stream_tier"]))
        try:
            call_command("runserver", options["addrport"], use_reloader=options["use_reloader"])
        finally:
            for helper in helpers:
                _stop(helper)


def _start(*arguments: str) -> subprocess.Popen[bytes]:
    """A Python process beside the server, in a group of its own (its children stop with
    it)."""
    command = [sys.executable, *arguments]
    return subprocess.Popen(command, cwd=settings.BASE_DIR, start_new_session=True)


def _stop(worker: subprocess.Popen[bytes]) -> None:
    """Ask a helper's processes to stop (the worker after its job), then insist."""
    _signal_group(worker, signal.SIGTERM)
    try:
        worker.wait(WORKER_STOP_SECONDS)
    except subprocess.TimeoutExpired:
        _signal_group(worker, signal.SIGKILL)
        worker.wait()


def _signal_group(worker: subprocess.Popen[bytes], signum: int) -> None:
    with suppress(ProcessLookupError):  # gone already
        os.killpg(worker.pid, signum)

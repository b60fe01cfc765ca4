"""`manage.py worker`: runs the service's own moves (R13), bots' and timed-out turns.

django-tasks-db's worker (`db_worker`), with the service's defaults (the queue looked at every
`SKYJO_WORKER_INTERVAL` seconds, so a bot moves within about that of its turn) and a sweep:
when it starts and every `SKYJO_SWEEP_SECONDS`, it queues a job for every game owed a move
that no job will make (a worker killed mid-job, a failed job, a deadline that passed while no
worker ran). Run as many as you like, on any hosts that reach the database: they share the
queue, each job claimed by one (`SKIP LOCKED` on PostgreSQL).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from django.conf import settings
from django.core.management.base import CommandParser
from django.db import close_old_connections, connections
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands.db_worker import Command as DatabaseWorkerCommand
from django_tasks_db.management.commands.db_worker import Worker

from games import core
from play.sweep import sweep as play_sweep
from ratings.ladder import sweep as ladder_sweep
from ratings.services import sweep as ratings_sweep

logger = logging.getLogger("games.worker")

#: Seconds a worker keeps a database connection unless `CONN_MAX_AGE` says otherwise.
KEPT_CONNECTIONS = 60


class SweepingWorker(Worker):
    """The database worker, with the sweep beside it in a thread of its own."""

    def run(self) -> None:
        if self.batch:  # the jobs due now, then exit: what is owed is queued first
            core.sweep(0.0)
            play_sweep()
            ratings_sweep()
            ladder_sweep()
        else:
            threading.Thread(target=_sweep_forever, name="skyjo-sweep", daemon=True).start()
        super().run()


def _sweep_forever() -> None:
    """Sweep with no grace at once (what came due while no worker ran), then periodically."""
    grace = 0.0
    while True:
        _logged("sweep: queued jobs for %d games", partial(core.sweep, grace))
        _logged("sweep: %d challenges and seeks acted on", play_sweep)
        _logged("sweep: %d finished rated games to rate", ratings_sweep)
        _logged("sweep: %d laddered bots to deal sets to", ladder_sweep)
        close_old_connections()
        grace = settings.SKYJO_SWEEP_GRACE
        time.sleep(settings.SKYJO_SWEEP_SECONDS)


def _logged(found: str, sweep: Callable[[], int]) -> None:
    """One sweep, its count logged; a failure is logged and left to the next sweep (a
    database down now may be up then), and never stops the other sweeps."""
    try:
        done = sweep()
        if done:
            logger.info(found, done)
    except Exception:
        logger.warning("sweep failed", exc_info=True)


def _keep_connections() -> None:
    """A worker looks at the queue every `SKYJO_WORKER_INTERVAL` and closes its connections
    between looks unless they are kept: it keeps them for `KEPT_CONNECTIONS` seconds, as
    `make serve`'s threads do without a pool, unless `CONN_MAX_AGE` is set (on PostgreSQL
    every connection forks a server process: seven a second otherwise). A pool (`DB_POOL_SIZE`)
    keeps them already, and wants `CONN_MAX_AGE` 0."""
    if "CONN_MAX_AGE" in os.environ:
        return
    for alias in connections:
        database = connections.settings[alias]
        if "pool" not in database.get("OPTIONS", {}):
            database["CONN_MAX_AGE"] = KEPT_CONNECTIONS


class Command(DatabaseWorkerCommand):
    help = "Run the bots' moves and the turns' timeouts (a django-tasks database worker)."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.set_defaults(interval=settings.SKYJO_WORKER_INTERVAL, queue_name="default")

    def configure_logging(self, verbosity: int) -> None:
        """Failures at the default verbosity; each job at 2; more at 3."""
        super().configure_logging(max(0, verbosity - 1))
        level = {0: logging.CRITICAL, 1: logging.WARNING, 2: logging.INFO}.get(verbosity)
        for name in ("django_tasks", "django_tasks_db", "games.worker", "play"):
            logging.getLogger(name).setLevel(level or logging.DEBUG)
        if not logger.hasHandlers():
            logger.addHandler(logging.StreamHandler(self.stdout))

    def handle(self, *args: Any, **options: Any) -> None:
        self.configure_logging(options["verbosity"])
        _keep_connections()
        worker = SweepingWorker(
            queue_names=options["queue_name"].split(","),
            interval=options["interval"],
            batch=options["batch"],
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
            excluded_queue_names=[],
        )
        if options["reload"] and not options["batch"]:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # the reloader's child only
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()

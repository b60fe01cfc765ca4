"""The process's turns at the application: at most REQUESTS_AT_ONCE requests run it at once.

Under `make serve` a worker has a thread per open stream besides its THREADS, and any of them
may serve a request; without a limit a burst would run hundreds at once on a few cores, which
only adds switching between them. skyjo_service/wsgi.py takes a turn for each request; a
request that waits for news (a long poll, a stream) steps out of its turn meanwhile
(`games.live.Hub.wait_beyond`), so waiting never keeps other requests out. No Django here: the
WSGI entry point imports it before Django is set up.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Turns:
    """A semaphore of `at_once` turns (0: unlimited) that knows which threads hold one."""

    def __init__(self, at_once: int) -> None:
        self.at_once = at_once
        self._turns = threading.BoundedSemaphore(max(at_once, 1))
        self._held = threading.local()

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold a turn while the block runs (waiting for one first)."""
        if not self.at_once:
            yield
            return
        self._take()
        try:
            yield
        finally:
            self._give_back()

    @contextmanager
    def stepped_out(self) -> Iterator[None]:
        """Give this thread's turn (if it holds one) to another while the block waits, and
        take one again afterwards."""
        if not getattr(self._held, "turn", False):
            yield
            return
        self._give_back()
        try:
            yield
        finally:
            self._take()

    def _take(self) -> None:
        self._turns.acquire()
        self._held.turn = True

    def _give_back(self) -> None:
        self._held.turn = False
        self._turns.release()


#: This process's turns (set by skyjo_service/wsgi.py from REQUESTS_AT_ONCE; unlimited
#: elsewhere: the development server, tests).
TURNS = Turns(0)

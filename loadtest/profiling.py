"""Where a server's time goes, request kind by request kind: `bench_load --profile DIR`.

With SKYJO_PROFILE_DIR set (and BENCH_ENDPOINTS on, as on the servers the benchmarks start),
`ProfileMiddleware` runs first in the stack and profiles each request with cProfile in its own
thread, adding it to that thread's profile of its kind of request (`action`, `view`, `bare`,
`other`); each thread writes its profiles to DIR every second or so
(`<kind>-<pid>-<thread>.prof`, its count of requests beside them in `.count`).
`python -m loadtest.profiling DIR` merges the threads' files and prints the top entries of
each kind, by cumulative and by own time, in milliseconds per request: the profile that
docs/PERFORMANCE.md records. It counts each thread's CPU time (`time.thread_time`), not the
waits for the database or the interpreter's lock; cProfile slows what it measures (each call
costs more), so read the shares, not the absolute figures.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.http import HttpRequest, HttpResponse

ROOT = Path(__file__).resolve().parent.parent
#: Seconds between two writes of a worker's profiles.
DUMP_EVERY = 1.0


def request_kind(request: HttpRequest) -> str:
    """What `bench_load` sends: a turn action, a seat's view of its game, the bare insert."""
    path = request.path
    if path.startswith("/bench/"):
        return "bare"
    if path.startswith("/api/v1/games/"):
        if request.method == "POST" and "/actions" in path:
            return "action"
        if request.method == "GET" and path.count("/") == 4:
            return "view"
    return "other"


class _Profiles:
    """One process's profilers: one per (thread, kind), each enabled only while its thread
    serves a request of that kind (cProfile profiles the thread that enables it), and written
    by that thread alone, between two requests (a profiler is never read while it runs)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.local = threading.local()

    def profiler(self, kind: str) -> cProfile.Profile:
        """This thread's profiler of `kind`."""
        mine: dict[str, _Profile] = self.local.__dict__.setdefault("profiles", {})
        if kind not in mine:
            mine[kind] = _Profile()
        return mine[kind].profiler

    def served(self, kind: str) -> None:
        """Count the request; write this thread's profile of `kind` (and its count of
        requests) once a second."""
        profile = self.local.profiles[kind]
        profile.requests += 1
        if time.monotonic() - profile.dumped < DUMP_EVERY:
            return
        profile.dumped = time.monotonic()
        name = f"{kind}-{os.getpid()}-{threading.get_ident()}"
        profile.profiler.dump_stats(self.folder / f"{name}.prof")
        (self.folder / f"{name}.count").write_text(str(profile.requests))


@dataclass
class _Profile:
    """One thread's profile of one kind of request."""

    # The thread's CPU time, not the wall clock: with 8 threads a wall clock would count the
    # waits for the interpreter's lock and the database as the code's.
    profiler: cProfile.Profile = field(default_factory=lambda: cProfile.Profile(time.thread_time))
    requests: int = 0
    dumped: float = field(default_factory=time.monotonic)


class ProfileMiddleware:
    """Profiles every request into its kind's profile (see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        folder = Path(os.environ["SKYJO_PROFILE_DIR"])
        folder.mkdir(parents=True, exist_ok=True)
        self.profiles = _Profiles(folder)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        kind = request_kind(request)
        profiler = self.profiles.profiler(kind)
        profiler.enable()
        try:
            return self.get_response(request)
        finally:
            profiler.disable()
            self.profiles.served(kind)


def report(folder: Path, kinds: tuple[str, ...] = ("action", "bare"), top: int = 20) -> str:
    """The workers' profiles merged, each kind's `top` entries by cumulative and by own time,
    in ms per request of that kind."""
    lines = []
    for kind in kinds:
        files = sorted(folder.glob(f"{kind}-*.prof"))
        requests = sum(int(path.with_suffix(".count").read_text()) for path in files)
        if not requests:
            continue
        stats = pstats.Stats(str(files[0]))
        for path in files[1:]:
            stats.add(str(path))
        for order, column in (("cumulative", 3), ("tottime", 2)):
            lines.append(f"{kind}: {requests} requests, top {top} by {order} (ms per request)")
            lines.append(f"{'own':>8} {'cumul':>8} {'calls':>7}  function")
            table = stats.stats  # type: ignore[attr-defined]
            rows = sorted(table.items(), key=lambda item: item[1][column], reverse=True)
            for (filename, line, name), (_, calls, own, cumulative, _) in rows[:top]:
                where = _short(filename)
                lines.append(
                    f"{own / requests * 1000:8.3f} {cumulative / requests * 1000:8.3f} "
                    f"{calls / requests:7.1f}  {where}:{line}({name})"
                )
            lines.append("")
    return "\n".join(lines)


def _short(filename: str) -> str:
    for marker in ("site-packages/", f"{ROOT}/", "/lib/python3"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


if __name__ == "__main__":
    kinds = tuple(sys.argv[2:]) or ("action", "bare")
    print(report(Path(sys.argv[1]), kinds))

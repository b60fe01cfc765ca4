"""Start and stop the production server (gunicorn, as `make serve` runs it) on loopback.

Used by `manage.py bench_load` and by the multi-process tests (tests/production): the server is
a real separate process with its own database connections, configured from the environment
like a deployment.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

import httpx

ROOT = Path(__file__).resolve().parent.parent

#: Worker classes `bench_load` can compare. `gthread` is what `make serve` runs.
WORKER_CLASSES = {
    "gthread": ("gthread", "skyjo_service.wsgi:application"),
    "uvicorn": ("uvicorn_worker.UvicornWorker", "skyjo_service.asgi:application"),
    "gevent": ("gevent", "skyjo_service.wsgi:application"),  # needs the gevent package
}
DEFAULT_WORKER_CLASS = "gthread"
#: As skyjo_service/gunicorn.conf.py: one worker per CPU, 8 threads each.
DEFAULT_WORKERS = os.cpu_count() or 2
DEFAULT_THREADS = 8


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def server_environment(database_url: str, **extra: str) -> dict[str, str]:
    """A production environment (DEBUG off) for a server on loopback: no HTTPS redirect, no
    rate limits nor limit of streams per address, the benchmark's bare endpoint mounted."""
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_SSL_REDIRECT": "false",
        "THROTTLING": "off",
        "LIVE_MAX_STREAMS_PER_ADDRESS": "0",  # every benchmark client is on loopback
        "BENCH_ENDPOINTS": "on",
        "DATABASE_URL": database_url,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("STREAM_BIND", None)  # a stream tier is started apart (`running_stream_tier`)
    env.update(extra)
    return env


def database_url(vendor: str, settings_dict: Mapping[str, Any]) -> str:
    """A DATABASE_URL (dj-database-url) for the database Django is connected to, for the
    processes a benchmark starts on it (SQLite: its file; PostgreSQL)."""
    if vendor == "sqlite":
        return f"sqlite:///{settings_dict['NAME']}"
    user = quote(settings_dict.get("USER") or "")
    password = settings_dict.get("PASSWORD") or ""
    credentials = f"{user}:{quote(password)}" if password else user
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{credentials}@{host}:{port}/{settings_dict['NAME']}"


def gunicorn_command(
    port: int,
    *,
    workers: int = DEFAULT_WORKERS,
    threads: int | None = DEFAULT_THREADS,
    worker_class: str = DEFAULT_WORKER_CLASS,
) -> list[str]:
    """The command line of `make serve` (skyjo_service/gunicorn.conf.py), bound to `port`;
    `threads` None leaves the threads to the configuration (THREADS + LIVE_MAX_STREAMS)."""
    klass, app = WORKER_CLASSES[worker_class]
    threading = [] if threads is None else ["--threads", str(threads)]
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        str(ROOT / "skyjo_service" / "gunicorn.conf.py"),
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        *threading,
        "--worker-class",
        klass,
        "--no-control-socket",  # several servers may run at once (tests, benchmarks)
        app,
    ]


def run_manage(env: Mapping[str, str], *args: str, timeout: float = 300) -> None:
    """`manage.py <args>` in a subprocess with `env` (another database than ours)."""
    command = [sys.executable, str(ROOT / "manage.py"), *args]
    result = subprocess.run(
        command, env=dict(env), cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")


@dataclass(frozen=True)
class RunningServer:
    url: str
    pid: int  # the server's process (gunicorn's master: its workers are its children)


@contextmanager
def running_server(
    env: Mapping[str, str],
    *,
    port: int | None = None,
    workers: int = DEFAULT_WORKERS,
    threads: int | None = DEFAULT_THREADS,
    worker_class: str = DEFAULT_WORKER_CLASS,
    log: IO[str] | None = None,
    ready_timeout: float = 30,
) -> Iterator[RunningServer]:
    """Run gunicorn until the block ends; yields it (base URL, pid) once it answers."""
    port = port or free_port()
    command = gunicorn_command(port, workers=workers, threads=threads, worker_class=worker_class)
    with _running(command, port, env, log, ready_timeout) as server:
        yield server


@contextmanager
def running_stream_tier(
    env: Mapping[str, str],
    *,
    port: int | None = None,
    log: IO[str] | None = None,
    ready_timeout: float = 30,
) -> Iterator[RunningServer]:
    """Run a stream tier process (`python -m skyjo_service.stream_tier`, as `make serve`
    starts it) until the block ends; yields it once it answers."""
    port = port or free_port()
    command = [sys.executable, "-m", "skyjo_service.stream_tier", f"127.0.0.1:{port}"]
    with _running(command, port, env, log, ready_timeout) as server:
        yield server


@contextmanager
def _running(
    command: list[str],
    port: int,
    env: Mapping[str, str],
    log: IO[str] | None,
    ready_timeout: float,
) -> Iterator[RunningServer]:
    """Run a server's `command` (listening on `port`) in a process group of its own until the
    block ends, stopped gracefully; yields it once it answers."""
    process = subprocess.Popen(
        command,
        env=dict(env),
        cwd=ROOT,
        stdout=log or subprocess.DEVNULL,
        stderr=log or subprocess.DEVNULL,
        start_new_session=True,
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(base_url, process, ready_timeout)
        yield RunningServer(base_url, process.pid)
    finally:
        stop(process)


def wait_until_ready(base_url: str, process: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            if httpx.get(f"{base_url}/api/v1/rules", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server at {base_url} did not answer within {timeout} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (gunicorn's graceful stop), then SIGKILL to its process group if it lingers."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


# CPU accounting (Linux /proc): where the machine's time goes during a benchmark phase.

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def process_tree(pid: int) -> Iterator[int]:
    """`pid` and its descendants (Linux /proc; nothing without it)."""
    pending = [pid]
    while pending:
        current = pending.pop()
        yield current
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                pending.extend(int(child) for child in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by `pid` and its children; 0 without /proc."""
    total = 0.0
    for current in process_tree(pid):
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / _TICKS
        except (OSError, IndexError, ValueError):
            continue
    return total


def process_tree_rss(pid: int) -> float:
    """Resident memory (MiB) of `pid` and its children, added up; 0 without /proc."""
    total_kib = 0
    for current in process_tree(pid):
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kib += int(line.split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total_kib / 1024


def processes_cpu(name: str) -> float:
    """CPU seconds used so far by the processes called `name` (e.g. postgres), those that have
    ended included (a parent counts its waited-for children: PostgreSQL's backends)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            head, _, rest = stat.read_text().rpartition(")")
            if head.partition("(")[2] != name:
                continue
            fields = rest.split()
            total += sum(int(value) for value in fields[11:15]) / _TICKS
        except (OSError, IndexError, ValueError):
            continue
    return total


def machine_cpu() -> float:
    """CPU seconds all CPUs spent busy so far (not idle, not waiting on I/O); 0 without /proc."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (values + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / _TICKS

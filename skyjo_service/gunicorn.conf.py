"""gunicorn settings for `make serve` (and for the servers `manage.py bench_load` and
`bench_stream` start).

Threaded WSGI workers (`gthread`): each worker process serves THREADS ordinary requests at once
and holds up to LIVE_MAX_STREAMS live streams and waiting long polls besides, together
(`GET /games/{id}/stream`, `/events?wait=`: each occupies a thread while it is open, waiting
without CPU and without a database connection), so its pool has THREADS + LIVE_MAX_STREAMS
threads; one past the cap is refused (503), so the THREADS stay free for actions.
docs/PERFORMANCE.md's `bench_stream` section compares this with gevent and uvicorn workers.

Database connections: any thread of the pool may serve an API request, and a thread keeps its
connection (CONN_MAX_AGE) while idle, so a thousand threads could hold a thousand connections.
On PostgreSQL each worker therefore borrows from a pool of DB_POOL_SIZE connections
(psycopg_pool through Django, CONN_MAX_AGE 0: a request gives its connection back when it ends);
see skyjo_service/settings.py.

Environment: WORKERS (processes; default one per CPU: the work is CPU-bound Python, threads
cover the waits on the database), THREADS (ordinary requests per worker, default 8),
LIVE_MAX_STREAMS (streams and long polls per worker, default 1000), BIND (default
127.0.0.1:8000), CONN_MAX_AGE (seconds a connection is kept when there is no pool, default 60
here), TIMEOUT (seconds before a stuck worker is replaced, default 30), STREAM_BIND (where the
master starts the stream tier beside its workers, `skyjo_service.stream_tier`, and stops it
when it stops; unset: none). Command-line options win over this file.
"""

import os
import resource
import signal
import subprocess
import sys
import threading
from typing import Any

wsgi_app = "skyjo_service.wsgi:application"
worker_class = "gthread"
workers = int(os.environ.get("WORKERS") or os.cpu_count() or 2)
#: Ordinary requests at once per worker; the threads of streams and long polls come on top.
ordinary_threads = int(os.environ.get("THREADS") or 8)
live_max_streams = int(os.environ.get("LIVE_MAX_STREAMS") or 1000)  # as skyjo_service/settings.py
threads = ordinary_threads + live_max_streams
# Connections a worker accepts: its threads' and, beyond them, kept-alive idle ones.
worker_connections = threads + 1000
bind = [os.environ.get("BIND") or "127.0.0.1:8000"]
timeout = int(os.environ.get("TIMEOUT") or 30)
graceful_timeout = 20
keepalive = 5  # seconds an idle keep-alive connection is held open (behind a load balancer)
accesslog = None  # the load balancer logs requests; errors still go to stderr
errorlog = "-"

# Without a pool (SQLite, or DB_POOL_SIZE=0), each thread keeps its connection; Django replaces
# one older than this, or one that failed.
os.environ.setdefault("CONN_MAX_AGE", "60")
# On PostgreSQL, the connections a worker's requests, stream starts and live readers
# (LIVE_READERS, 2) and its poll of watched games borrow from (its LISTEN connection is apart):
# so a server opens at most WORKERS x (DB_POOL_SIZE + 1) connections, whatever its threads.
os.environ.setdefault("DB_POOL_SIZE", str(ordinary_threads + 4))
# Requests running the application at once, per worker (skyjo_service/wsgi.py): THREADS, as
# before streams came; waiting streams take no turn.
os.environ.setdefault("REQUESTS_AT_ONCE", str(ordinary_threads))

# Requests refused by gunicorn itself: a request line over 4094 bytes (414), a header over 8190
# bytes or more than 100 headers (431), gunicorn's defaults, stated here as docs/OPERATIONS.md does.
# Answered as problem documents (games.api.server_errors), not gunicorn's HTML pages.
limit_request_line = 4094
limit_request_field_size = 8190
limit_request_fields = 100


def _raise_open_files_limit() -> None:
    """Each stream and kept-alive client is an open socket: a soft limit of 1024 (a common
    default) would refuse connections long before the threads run out."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = workers * worker_connections + 1000
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


_raise_open_files_limit()


def post_worker_init(worker: Any) -> None:
    """In each worker, once the application (and so Django) is loaded."""
    from games.api.server_errors import install_in_gunicorn

    install_in_gunicorn()
    _end_streams_when_stopping()


def _end_streams_when_stopping() -> None:
    """On SIGTERM, SIGINT or SIGQUIT the worker first ends its open streams (games.live's
    `hub.drain()`), then stops as gunicorn would: a stream holds its thread, and gunicorn waits
    up to graceful_timeout for busy threads, so a deploy would otherwise wait that long and then
    cut the streams. Clients reconnect at once with Last-Event-ID (to another worker)."""
    from games.live.fanout import hub

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT):
        previous = signal.getsignal(signum)

        def handler(number: int, frame: Any, previous: Any = previous) -> None:
            # In a thread: the handler runs between two bytecodes of the main thread.
            threading.Thread(target=hub.drain, name="skyjo-live-drain").start()
            if callable(previous):
                previous(number, frame)

        signal.signal(signum, handler)


#: The stream tier this master started (`on_starting`), if STREAM_BIND asked for one.
_stream_tier: list[subprocess.Popen[bytes]] = []


def on_starting(server: Any) -> None:
    """Start the stream tier beside the API's workers when STREAM_BIND names its address
    (`make serve`): one command serves both tiers, and stops both."""
    bind = os.environ.get("STREAM_BIND")
    if bind:
        command = [sys.executable, "-m", "skyjo_service.stream_tier", bind]
        _stream_tier.append(subprocess.Popen(command, start_new_session=True))


def on_exit(server: Any) -> None:
    """Stop the stream tier (it ends its streams first; their clients reconnect)."""
    for tier in _stream_tier:
        tier.terminate()
        try:
            tier.wait(timeout=15)
        except subprocess.TimeoutExpired:
            tier.kill()

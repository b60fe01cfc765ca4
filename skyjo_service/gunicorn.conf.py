"""gunicorn settings for `make serve` (and for the servers `manage.py bench_load` starts).

Threaded WSGI workers (`gthread`): each worker process serves THREADS requests at once, and each
thread keeps its database connection open between requests (CONN_MAX_AGE). docs/PERFORMANCE.md's
benchmark compares them with uvicorn's ASGI workers, which run Django's synchronous views one at
a time per worker and, since Django must not keep connections across ASGI requests, open a new
database connection for every request.

Environment: WORKERS (processes; default one per CPU: the work is CPU-bound Python, threads
cover the waits on the database), THREADS (per worker, default 8), BIND (default
127.0.0.1:8000), CONN_MAX_AGE (seconds a connection is kept, default 60 here), TIMEOUT (seconds
before a stuck worker is replaced, default 30). Command-line options win over this file.
"""

import os
from typing import Any

wsgi_app = "skyjo_service.wsgi:application"
worker_class = "gthread"
workers = int(os.environ.get("WORKERS") or os.cpu_count() or 2)
threads = int(os.environ.get("THREADS") or 8)
bind = [os.environ.get("BIND") or "127.0.0.1:8000"]
timeout = int(os.environ.get("TIMEOUT") or 30)
graceful_timeout = 20
keepalive = 5  # seconds an idle keep-alive connection is held open (behind a load balancer)
accesslog = None  # the load balancer logs requests; errors still go to stderr
errorlog = "-"

# Each thread keeps its connection; Django replaces one older than this, or one that failed.
os.environ.setdefault("CONN_MAX_AGE", "60")

# Requests refused by gunicorn itself: a request line over 4094 bytes (414), a header over 8190
# bytes or more than 100 headers (431), gunicorn's defaults, stated here as docs/OPERATIONS.md does.
# Answered as problem documents (games.api.server_errors), not gunicorn's HTML pages.
limit_request_line = 4094
limit_request_field_size = 8190
limit_request_fields = 100


def post_worker_init(worker: Any) -> None:
    """In each worker, once the application (and so Django) is loaded."""
    from games.api.server_errors import install_in_gunicorn

    install_in_gunicorn()

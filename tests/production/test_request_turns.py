"""Under `make serve`'s configuration a worker runs at most THREADS requests at once
(REQUESTS_AT_ONCE, skyjo_service/wsgi.py), while it holds many more threads for streams; long
polls waiting for news give their turns back, so they never keep an action waiting."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from loadtest.server import (
    ROOT,
    free_port,
    gunicorn_command,
    run_manage,
    server_environment,
    stop,
    wait_until_ready,
)

pytestmark = pytest.mark.server


def test_waiting_long_polls_leave_the_turns_to_other_requests(tmp_path: Path) -> None:
    env = server_environment(
        f"sqlite:///{tmp_path / 'db.sqlite3'}", THREADS="2", LIVE_MAX_STREAMS="6"
    )
    run_manage(env, "migrate", "--noinput")
    port = free_port()
    server = subprocess.Popen(
        gunicorn_command(port, workers=1, threads=None),
        env=env,
        cwd=ROOT,
        stdout=sys.stderr,
        stderr=sys.stderr,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        wait_until_ready(base.removesuffix("/api/v1"), server, timeout=30)
        game = httpx.post(f"{base}/games", json={"seats": 2}).json()
        polls = [
            threading.Thread(
                target=httpx.get,
                args=(f"{base}/games/{game['id']}/events?after=1&wait=5",),
                kwargs={"timeout": 30},
            )
            for _ in range(4)  # twice the turns
        ]
        for poll in polls:
            poll.start()
        time.sleep(1.0)  # every long poll is waiting now
        started = time.monotonic()
        joined = httpx.post(f"{base}/games/{game['id']}/players", json={"name": "A"}, timeout=30)
        answered_in = time.monotonic() - started
        for poll in polls:
            poll.join(30)
    finally:
        stop(server)
    assert joined.status_code == 201, joined.text
    assert answered_in < 2, f"the join waited {answered_in:.1f} s for a turn"

"""A stopping server ends its streams at once (skyjo_service/gunicorn.conf.py chains the
workers' SIGTERM to `games.live.hub.drain()`): a stream holds its thread, and gunicorn would
otherwise wait `graceful_timeout` (20 s) for it and then cut it. The client resumes with
Last-Event-ID elsewhere."""

from __future__ import annotations

import signal
import subprocess
import sys
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


def test_sigterm_ends_open_streams_promptly(tmp_path: Path) -> None:
    env = server_environment(f"sqlite:///{tmp_path / 'db.sqlite3'}", LIVE_MAX_STREAMS="4")
    run_manage(env, "migrate", "--noinput")
    port = free_port()
    command = gunicorn_command(port, workers=1, threads=None)
    server = subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=sys.stderr, stderr=sys.stderr, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(base, server, timeout=30)
        game = httpx.post(f"{base}/api/v1/games", json={"seats": 2}).json()["id"]
        with httpx.stream("GET", f"{base}/api/v1/games/{game}/stream", timeout=30) as stream:
            lines = stream.iter_lines()
            assert next(lines).startswith("retry:")
            while not next(lines).startswith("event: view"):
                pass
            stopped = time.monotonic()
            server.send_signal(signal.SIGTERM)
            rest = list(lines)  # returns when the server ends the stream
            ended = time.monotonic() - stopped
        server.wait(timeout=15)
        exited = time.monotonic() - stopped
    finally:
        stop(server)
    assert "event: view" not in rest  # nothing new: it simply ended
    assert ended < 5, f"the stream ended {ended:.1f} s after SIGTERM"
    assert exited < 10, f"the server exited {exited:.1f} s after SIGTERM"

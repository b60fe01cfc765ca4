"""`manage.py bench_devserver` runs as documented (docs/PERFORMANCE.md) and prints its figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.server


def test_bench_devserver_prints_both_medians_and_their_ratio() -> None:
    command = [sys.executable, "manage.py", "bench_devserver", "--requests", "5", "--json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["nodelay_ms"] > 0 and figures["nagle_ms"] > 0
    assert figures["ratio"] == pytest.approx(figures["nodelay_ms"] / figures["nagle_ms"])


def test_the_development_server_sets_tcp_nodelay() -> None:
    """What removes the stall: set once the app registry is ready, in any process."""
    from django.core.servers.basehttp import WSGIRequestHandler

    assert WSGIRequestHandler.disable_nagle_algorithm is True

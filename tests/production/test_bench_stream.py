"""`manage.py bench_stream` runs end to end as a command, in a process of its own as an
operator runs it: a smoke test (20 streams over 2 games, SQLite), not a timed assertion; the
figures are docs/PERFORMANCE.md's, from full runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from loadtest.server import ROOT

KEYS = {
    "streams",
    "games",
    "frames_expected",
    "frames_delivered",
    "duplicates",
    "out_of_order",
    "p50_ms",
    "p99_ms",
    "errors",
    "server_rss_mb",
    "server_cpu_percent",
    "actions_per_s",
    "actions_ratio",
    "bare_ratio",
}

pytestmark = pytest.mark.server


def test_bench_stream_delivers_every_frame_once() -> None:
    command = [
        sys.executable,
        str(ROOT / "manage.py"),
        "bench_stream",
        *("--db", "sqlite", "--streams", "20", "--games", "2", "--seconds", "2"),
        *("--think-ms", "100", "--clients", "2", "--rounds", "1", "--slice-seconds", "0.5"),
        *("--warmup", "0.2", "--workers", "1", "--max-streams", "40", "--json"),
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result.keys() >= KEYS, result
    assert result["streams"] == 20 and result["streams_open_min"] == 20, result
    assert result["errors"] == 0, result
    # Every stream saw its game's whole log, each event once and in order, across the
    # closings and reopenings (Last-Event-ID) of the saturated slices.
    assert result["frames_expected"] > 20 * 5, result  # played beyond the deal
    assert result["frames_delivered"] == result["frames_expected"], result
    assert result["duplicates"] == 0 and result["out_of_order"] == 0, result
    assert result["paced_frames"] > 0 and 0 <= result["p50_ms"] <= result["p99_ms"], result
    assert result["actions_per_s"] > 0 and result["server_rss_mb"] > 0, result

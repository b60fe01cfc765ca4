"""`manage.py bench_ratings` runs end to end as a command, in a process of its own as an
operator runs it: a smoke test with tiny numbers (on the configured kind of database), not a
timed assertion; the figures are docs/PERFORMANCE.md's, from full runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from loadtest.server import ROOT

KEYS = {
    "db",
    "model",
    "full_path",
    "updates_per_s",
    "full_path_updates_per_s",
    "full_path_meets_target",
    "latency",
    "rating_changed_p50_ms",
    "rating_changed_p99_ms",
    "exactly_once",
    "targets_met",
}
RATES = {"games", "seconds", "games_per_s", "seat_updates_per_s"}

pytestmark = pytest.mark.server


def test_bench_ratings_rates_games_and_times_rating_changed() -> None:
    command = [
        sys.executable,
        str(ROOT / "manage.py"),
        "bench_ratings",
        *("--games", "3", "--pool", "2", "--rounds", "2", "--model-games", "50", "--json"),
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout)
    assert result.keys() >= KEYS, result
    for part in ("model", "full_path"):
        assert result[part].keys() == {"2", "8"}, result
        for seats, figures in result[part].items():
            assert figures.keys() >= RATES, figures
            assert figures["seat_updates_per_s"] == pytest.approx(
                figures["games_per_s"] * int(seats), rel=0.01
            )
    assert result["full_path"]["8"]["games"] == 2 and len(result["full_path"]["8"]["rounds"]) == 2
    latency = result["latency"]
    assert latency["games"] == latency["frames"] == 3 and latency["missing"] == 0, latency
    assert 0 < latency["p50_ms"] <= latency["p99_ms"] == result["rating_changed_p99_ms"]
    assert result["exactly_once"] is True

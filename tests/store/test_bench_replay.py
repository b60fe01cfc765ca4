"""Smoke test of `manage.py bench_replay`: it runs end to end on tiny sizes, prints its JSON and
leaves no database behind. Not a timing assertion (that is the benchmark's own job)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[2]


def test_bench_replay_runs_and_prints_its_figures(tmp_path: Path) -> None:
    configured = tmp_path / "configured.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{configured}",
        # Rate limits that the run would exceed at once: the command turns throttling off.
        "THROTTLING": "on",
        "THROTTLE_ADDRESS_RATE": "2/min",
        "THROTTLE_SEAT_RATE": "2/min",
        "THROTTLE_GAME_CREATE_RATE": "1/hour",
    }
    args = ["--short", "12", "--long", "80", "--reads", "3", "--acts", "3", "--warmup", "1"]
    args += ["--deep", "150", "--replay-reads", "2"]
    process = subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "bench_replay",
            *args,
            "--max-ratio",
            "1000",
            "--max-at-ratio",
            "1000",
            "--json",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 0, stderr
    result = json.loads(stdout)
    for key in ("view_ratio", "act_ratio", "cold_view_ratio", "at_ratio", "replay_at_ratio"):
        assert isinstance(result[key], float) and result[key] > 0
    for key in ("view_ms", "act_ms", "cold_view_ms"):
        for size, count in (("short", 3), ("long", 3)):
            timings = result[key][size]
            assert timings["median"] > 0 and timings["mean"] > 0
            assert len(timings["samples"]) == count and min(timings["samples"]) > 0
    for key, count in (("deep_view_ms", 3), ("at_view_ms", 3), ("replay_at_view_ms", 2)):
        assert len(result[key]["samples"]) == count and result[key]["median"] > 0
    assert 12 <= result["short_events"] < 80 <= result["long_events"]
    assert result["deep_events"] >= 150 and result["checkpoint_every"] == 100
    assert result["reads"] == result["acts"] == 3
    # The configured database was never touched, and the throwaway one is gone.
    assert not configured.exists()
    assert not list(ROOT.glob(f".test-db-{process.pid}.sqlite3*"))


def test_bench_replay_fails_when_a_ratio_is_over_the_limit(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    args = ["--short", "12", "--long", "40", "--reads", "1", "--acts", "1", "--warmup", "0"]
    args += ["--deep", "60", "--replay-reads", "1"]
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_replay", *args, "--max-ratio", "0.001"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "view_ratio" in done.stdout and "act_ratio" in done.stdout
    assert "above 0.001" in done.stderr


def test_bench_replay_fails_when_a_replay_costs_more_than_the_limit(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    args = ["--short", "12", "--long", "40", "--reads", "2", "--acts", "1", "--warmup", "0"]
    args += ["--deep", "60", "--replay-reads", "1", "--max-ratio", "1000"]
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_replay", *args, "--max-at-ratio", "0.001"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "at_ratio" in done.stdout and "ok" in done.stdout  # the other ratios held
    assert "at_ratio above 0.001" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--short", "50", "--long", "20"],
        ["--short", "0"],
        ["--reads", "0"],
        ["--replay-reads", "0"],
        ["--deep", "1"],
    ],
)
def test_bench_replay_refuses_nonsense_sizes(args: list[str]) -> None:
    """Checked before any database is made (so this runs in-process, without one)."""
    with pytest.raises(CommandError):
        call_command("bench_replay", *args)

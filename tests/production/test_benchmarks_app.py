"""The benchmarks' app (`loadtest`) stays out of production: `make serve`'s settings neither
install it nor migrate its table, while development and the servers that `bench_load` starts
(`BENCH_ENDPOINTS=on`) have it, with every benchmark command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ("bench_load", "bench_replay", "bench_devserver", "bench_ratings")


def manage(tmp_path: Path, *args: str, **env: str) -> str:
    """`manage.py <args>`'s output under production settings (DEBUG off), changed by `env`."""
    inherited = {name: value for name, value in os.environ.items() if name != "BENCH_ENDPOINTS"}
    environment = {
        **inherited,
        "DEBUG": "false",
        "SECRET_KEY": "x" * 50,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        **env,
    }
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_production_server_migrates_no_benchmark_table(tmp_path: Path) -> None:
    plan = manage(tmp_path, "migrate", "--plan")
    assert "games." in plan and "loadtest." not in plan
    commands = manage(tmp_path, "help", "--commands").split()
    assert not set(BENCHMARKS) & set(commands)


@pytest.mark.parametrize("env", [{"BENCH_ENDPOINTS": "on"}, {"DEBUG": "true"}])
def test_where_benchmarks_run_their_app_and_commands_are_installed(
    tmp_path: Path, env: dict[str, str]
) -> None:
    assert "loadtest.0001_initial" in manage(tmp_path, "migrate", "--plan", **env)
    assert set(BENCHMARKS) <= set(manage(tmp_path, "help", "--commands", **env).split())

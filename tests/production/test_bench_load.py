"""`manage.py bench_load` runs end to end: a smoke test (2 games, 2 seconds, SQLite), not a timed
assertion; the figures are docs/PERFORMANCE.md's, from full runs."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command

KEYS = {"actions_per_s", "bare_per_s", "ratio", "p50_ms", "p95_ms", "p99_ms", "errors"}


def test_bench_load_smoke() -> None:
    out = StringIO()
    call_command(
        "bench_load",
        "--db=sqlite",
        "--games=2",
        "--seconds=2",
        "--warmup=0.5",
        "--think-ms=100",
        "--workers=1",
        "--json",
        stdout=out,
    )
    result = json.loads(out.getvalue())
    assert result.keys() >= KEYS, result
    assert result["errors"] == 0, result
    assert result["actions_per_s"] > 0 and result["bare_per_s"] > 0
    assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["p99_ms"]
    assert result["paced_actions_per_s"] < result["actions_per_s"]  # players thinking 0.1 s

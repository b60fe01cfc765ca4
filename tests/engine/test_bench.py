"""A smoke test of the benchmark: it runs and reports every figure (no timing is asserted)."""

from __future__ import annotations

import json

import pytest

from engine import bench
from engine.events import Event, FinalTurnsBegan, RoundEnded, TurnPassed


def test_bench_json_has_the_target_figures(capsys: pytest.CaptureFixture[str]) -> None:
    status = bench.main(["--seconds", "0.01", "--games", "1", "--repeat", "1", "--json"])
    assert status == 0
    results = json.loads(capsys.readouterr().out)
    for key in ("random_4_turns_per_s", "replay_events_per_s", "greedy_4_replay_ms"):
        assert isinstance(results[key], int | float) and results[key] > 0, key
    for player in ("random", "greedy"):
        for seats in (2, 4, 8):
            for figure in ("games", "turns", "actions", "events"):
                assert results[f"{player}_{seats}_{figure}_per_s"] > 0
    assert results["replay_events"] > 0


def test_bench_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--seconds", "0.01", "--games", "1", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "turns/s" in out and "replay" in out


def test_count_turns_counts_passes_and_round_ends() -> None:
    ended = RoundEnded(1, 0, ((0,) * 12,) * 2, (0, 0), (0, 0), False, (0, 0))
    log: list[Event] = [TurnPassed(0, 1), FinalTurnsBegan(1), TurnPassed(1, 0), ended]
    assert bench.count_turns(log) == 3

"""The workers' sweep of playing together: each step on its own, so one that fails (a bug, a
database hiccup) never keeps the others from running."""

from __future__ import annotations

import pytest

from play import sweep


def test_a_failing_step_is_logged_and_the_others_still_run(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    ran: list[str] = []

    def broken() -> int:
        ran.append("broken")
        raise RuntimeError("the database went away")

    def fine() -> int:
        ran.append("fine")
        return 2

    monkeypatch.setattr(sweep, "SWEEP_STEPS", [broken, fine])
    assert sweep.sweep() == 2
    assert ran == ["broken", "fine"]
    assert "broken failed" in caplog.text

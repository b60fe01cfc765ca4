"""`bench_load --profile`: the server's requests profiled by kind (loadtest.profiling)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from loadtest import profiling


@pytest.mark.parametrize(
    ("method", "path", "kind"),
    [
        ("post", "/api/v1/games/1f0e/actions/reveal", "action"),
        ("post", "/api/v1/games/1f0e/actions", "action"),
        ("get", "/api/v1/games/1f0e", "view"),
        ("post", "/bench/insert", "bare"),
        ("get", "/api/v1/games/1f0e/events", "other"),
        ("post", "/api/v1/games", "other"),
    ],
)
def test_requests_are_told_apart_as_bench_load_sends_them(
    method: str, path: str, kind: str
) -> None:
    request = getattr(RequestFactory(), method)(path)
    assert profiling.request_kind(request) == kind


def test_a_profiled_request_is_written_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKYJO_PROFILE_DIR", str(tmp_path))
    monkeypatch.setattr(profiling, "DUMP_EVERY", 0.0)

    def answer(request: HttpRequest) -> HttpResponse:
        return HttpResponse(str(sum(range(1000))))

    middleware = profiling.ProfileMiddleware(answer)
    for _ in range(3):
        response = middleware(RequestFactory().post("/api/v1/games/1f0e/actions/reveal"))
        assert response.content == b"499500"
    assert [path.suffix for path in sorted(tmp_path.iterdir())] == [".count", ".prof"]
    printed = profiling.report(tmp_path, ("action",), top=5)
    assert printed.startswith("action: 3 requests, top 5 by cumulative (ms per request)")
    assert "answer" in printed

"""A browser over its limit sees a page that says so, under the pages' strict policy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import serve_site

#: Requests a minute from one address on this test's own server.
LIMIT = 5


@pytest.fixture(scope="module")
def strict_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own, with a limit a few page loads reach (the shared one's is the
    development's, far above what a test sends)."""
    yield from serve_site(tmp_path_factory, THROTTLE_ADDRESS_RATE=f"{LIMIT}/min")


def test_a_browser_over_the_limit_gets_a_page_saying_how_long_to_wait(
    browser: Any, strict_site: str
) -> None:
    """The page renders with its stylesheet, no script error and none of the policy's
    refusals (Chromium logs each failed load as a console error: those are checked by their
    answers instead, the pages' own 429s alone)."""
    context = browser.new_context(base_url=strict_site)
    page = context.new_page()
    errors: list[str] = []
    failed: list[tuple[int, str]] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda r: failed.append((r.status, r.url)) if r.status >= 400 else None)
    try:
        statuses = [page.goto("/").status for _ in range(LIMIT + 1)]
        assert statuses == [200] * (LIMIT - 1) + [429] * 2, statuses  # the readiness check: 1
        assert page.get_by_role("heading", name="Too many requests").is_visible()
        assert "Wait" in page.locator("main").inner_text()
        back = page.get_by_role("link", name="Back to the lobby")
        assert back.get_attribute("href") == "/"
        assert page.locator("link[rel=stylesheet]").evaluate("l => l.sheet !== null")
    finally:
        context.close()
    unexpected = [e for e in errors if not e.startswith("Failed to load resource")]
    assert not unexpected, unexpected
    assert {(status, url.removeprefix(strict_site)) for status, url in failed} == {(429, "/")}

"""A browser over its limit sees a page that says so, under the pages' strict policy."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import serve_site
from .support import FACE_DOWN, api_join, button, my_cards, status, wait_until

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
        sheets = page.locator("link[rel=stylesheet]")  # skyjo's, follow's and the lobby's
        assert sheets.evaluate_all("ls => ls.length > 0 && ls.every(l => l.sheet !== null)")
    finally:
        context.close()
    unexpected = [e for e in errors if not e.startswith("Failed to load resource")]
    assert not unexpected, unexpected
    assert {(status, url.removeprefix(strict_site)) for status, url in failed} == {(429, "/")}


def test_a_move_refused_by_the_limits_says_so_on_the_table(new_page: Any, site: str) -> None:
    """htmx swaps no 429 in: without a word the click would seem lost. (The refusal is
    stubbed here: the shared server's limits are the development's.)"""
    page = new_page()
    page.goto("/")
    form = page.get_by_role("region", name="New game")
    form.get_by_label("Your name").fill("Ada")
    button(form, "Create game").click()
    page.wait_for_url("**/games/*")
    api_join(site, page.url.rsplit("/", 1)[1], "Bob")
    wait_until(lambda: status(page) == "setup", message="the deal, live")
    refused = {"status": 429, "headers": {"Retry-After": "7"}, "body": "Too many requests"}
    page.route("**/act", lambda route: route.fulfill(**refused))
    my_cards(page, "Ada").get_by_role("button", name=FACE_DOWN).first.click()
    alert = page.locator("#table .error[role=alert]")
    alert.wait_for()
    assert alert.inner_text() == "Too many requests: wait 7 seconds, then try again."

"""The lobby's "Play now" in Chromium, on a site of its own whose quick play waits little
(a group starts smaller after 1 s, bots after 2 s): a guest on a phone plays a bot at once;
two people who click it are seated together; one alone cancels, then plays the bots. Controls
by role and accessible name ("Quick play", "Play now", "Searching…", "Cancel"), no console
error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import is_policy_violation, serve_site
from .support import button, my_cards
from .test_accounts_browser import sign_up, with_console_errors

#: Quick play's waits on this site: short, for the test's sake.
QUICK = {"SEEK_SMALLEST_AFTER_SECONDS": "1", "PLAY_NOW_BOTS_AFTER_SECONDS": "2"}


@pytest.fixture(scope="module")
def quick_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from serve_site(tmp_path_factory, **QUICK)


@pytest.fixture
def open_page(browser: Any, quick_site: str) -> Iterator[Any]:
    """Pages on `quick_site`, each in a context of its own (another person), failing the test
    if the page's Content-Security-Policy refused anything."""
    contexts: list[Any] = []
    violations: list[str] = []

    def new(width: int = 1000, height: int = 800) -> Any:
        context = browser.new_context(
            base_url=quick_site, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: violations.append(m.text) if is_policy_violation(m) else None)
        return page

    yield new
    for context in contexts:
        context.close()
    assert not violations, violations


def play_now(page: Any) -> None:
    page.goto("/")
    button(page.get_by_role("region", name="Quick play"), "Play now").click()


def test_a_guest_on_a_phone_plays_a_bot_at_once(open_page: Any) -> None:
    guest = open_page(width=390, height=844)
    errors = with_console_errors(guest)
    guest.goto("/")
    quick = guest.get_by_role("region", name="Quick play")
    assert quick.get_by_text("as Guest").is_visible()
    assert guest.evaluate("document.documentElement.scrollWidth") <= 390
    button(quick, "Play now").click()
    guest.wait_for_url("**/games/*")
    assert my_cards(guest, "Guest").count() == 1
    assert guest.get_by_role("region", name="Greedy bot").count() == 1
    assert guest.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors


def test_two_people_who_play_now_are_seated_together(open_page: Any) -> None:
    ada, bob = open_page(), open_page(width=390, height=844)
    errors = with_console_errors(ada) + with_console_errors(bob)
    sign_up(ada, "Ada")
    sign_up(bob, "Bob")
    play_now(ada)
    ada.get_by_role("heading", name="Searching…").wait_for()
    assert button(ada, "Cancel").is_visible()
    assert ada.get_by_role("status").get_by_text("table of 2 to 4").is_visible()
    play_now(bob)
    ada.wait_for_url("**/games/*")  # the page's next re-read, once the matcher seated them
    bob.wait_for_url("**/games/*")
    assert ada.url == bob.url
    assert my_cards(ada, "Ada").count() == 1 and my_cards(bob, "Bob").count() == 1
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors


def test_one_alone_cancels_then_plays_the_bots(open_page: Any) -> None:
    eve = open_page()
    errors = with_console_errors(eve)
    sign_up(eve, "Eve")
    play_now(eve)
    button(eve, "Cancel").click()
    eve.wait_for_url("**/")
    assert eve.get_by_role("alert").get_by_text("You stopped searching.").is_visible()
    play_now(eve)
    eve.get_by_role("heading", name="Searching…").wait_for()
    eve.wait_for_url("**/games/*")  # 2 s on, a bot takes the other seat
    assert my_cards(eve, "Eve").count() == 1
    assert eve.get_by_role("region", name="Greedy bot").count() == 1
    assert not errors, errors

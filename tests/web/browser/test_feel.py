"""Issue 25, the table's feel in Chromium: no console error over a whole game against a bot,
the screen reader's announcement of each move, a click never lost to a re-read, a hovered card
keeping its value, the "your turn" sound, tab title and icon, and the clocks on the seats."""

from __future__ import annotations

import re
from typing import Any

from .support import (
    FACE_DOWN,
    MOVE_DONE,
    api_join,
    api_play,
    button,
    my_cards,
    status,
    version,
    wait_until,
)
from .test_bots_clocks import MAX_MOVES, create_from_lobby, my_move

#: The hover colour of the page's other buttons, which once hid a card's value.
BUTTON_HOVER = "rgb(240, 237, 228)"
#: A card's back (`.back`).
BACK = "rgb(74, 59, 140)"
#: Whole re-reads of the table, one every 25 ms, each a full answer (no `since`: never a 204).
REREADS = """id => { window.rereads = window.setInterval(() => htmx.ajax('GET',
  `/games/${id}/table`, {source: '#table', target: '#table'}), 25); }"""
SETTLES = """() => { window.settles = 0;
  document.addEventListener('htmx:afterSettle', () => { window.settles += 1; }); }"""
COLOURS = "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
FOCUSED = "() => document.activeElement.getAttribute('aria-label')"


def announced(page: Any) -> str:
    return str(page.locator("#announce").inner_text()).strip()


def test_a_whole_game_against_a_bot_says_each_move_with_no_console_error(new_page: Any) -> None:
    """Played to the end by clicking: each time the bot has moved, the screen reader's live
    region says what the table's last-action line says; the page logs no error all along,
    nor when the game's stream ends after the game (the fixture fails on any console error)."""
    page = new_page()
    create_from_lobby(page, "Ada", **{"Seat 2": "Bot: greedy"})
    page.evaluate(
        "() => { window.streamEnds = 0;"
        " document.addEventListener('htmx:sseError', () => { window.streamEnds += 1; }); }"
    )
    page.evaluate(SETTLES)  # the page as loaded announces nothing: what comes next, it does
    said = 0
    for turn in range(MAX_MOVES):
        wait_until(
            lambda: status(page) == "finished" or page.locator("#table form button").count(),
            message="my move, or the end, after the bot's",
        )
        if status(page) == "finished":
            break
        last = page.locator(".last-action")
        swapped = page.evaluate("() => window.settles > 0")
        if swapped and last.count() and not re.search(r"^\W*(Last:)?\s*You\b", last.inner_text()):
            assert announced(page) and announced(page) in last.inner_text()  # the bot's move
            said += 1
        my_move(page, turn)
    else:
        raise AssertionError(f"no end after {MAX_MOVES} moves")
    assert said >= 1, "no bot's move seen announced"
    assert announced(page) and announced(page) in page.locator(".last-action").inner_text()
    # The stream ends after the game's last event and the browser reconnects: no error logged.
    page.wait_for_function("() => window.streamEnds > 0", timeout=15_000)


def test_a_click_is_not_lost_to_rereads_and_a_hovered_card_keeps_its_value(
    new_page: Any, site: str
) -> None:
    """The table re-read every 25 ms (whole answers, swapped in): each press held 150 ms on a
    control still lands (the move is made), the focused card keeps the focus through the
    re-reads, and a playable card under the pointer keeps its colours (face up: its value
    readable; face down: its back)."""
    page = new_page()
    game_id = create_from_lobby(page, "Ada")
    bob = api_join(site, game_id, "Bob")
    wait_until(lambda: status(page) == "setup", message="the deal")
    page.evaluate(SETTLES)
    page.evaluate(REREADS, game_id)
    first = my_cards(page, "Ada").get_by_role("button", name="Column 1, row 1: face down")
    first.focus()
    page.wait_for_function("() => window.settles >= 5")
    assert page.evaluate(FOCUSED) == "Column 1, row 1: face down"
    for name in ("Column 1, row 1: face down", "Column 4, row 3: face down"):
        before = version(page)
        my_cards(page, "Ada").get_by_role("button", name=name).click(delay=150)
        page.wait_for_function(MOVE_DONE, arg=before)
    api_play(site, game_id, [bob], until=lambda view: view["current_seat"] == 0)
    wait_until(lambda: button(page, "Draw").count(), message="Ada's turn")
    before = version(page)
    button(page, "Draw").click(delay=150)
    page.wait_for_function(MOVE_DONE, arg=before)
    wait_until(lambda: button(page, "Discard").count(), message="the drawn card held")
    page.evaluate("() => window.clearInterval(window.rereads)")

    up = my_cards(page, "Ada").get_by_role("button", name=re.compile(r"^Column 1, row 1: -?\d+$"))
    up.hover()
    colour, background = up.evaluate(COLOURS)
    assert colour != background and background != BUTTON_HOVER, (colour, background)
    down = my_cards(page, "Ada").get_by_role("button", name=FACE_DOWN).first
    down.hover()
    assert down.evaluate(COLOURS)[1] == BACK

    # The last move's classes (table.py's cells) move the cards, unless motion is reduced.
    moved = "(e, c) => { e.classList.add(c); return getComputedStyle(e).animationName; }"
    kinds = ("card-placed", "card-turned", "column-removed", "card-discarded")
    for at, kind in enumerate(kinds, start=4):
        names = page.locator(".mine .grid .card").nth(at).evaluate(moved, kind)
        assert names == f"{kind}, last-move", names  # its motion, then follow.css's glow
    page.emulate_media(reduced_motion="reduce")
    assert page.locator(".mine .grid .card").nth(8).evaluate(moved, "card-placed") == "none"


def test_your_turn_is_heard_and_shown_in_the_tab(new_page: Any, site: str) -> None:
    """The Sound toggle: off at first, remembered once on; a beep when the table becomes the
    viewer's turn, none on load. In the background on their turn, the tab's title starts with
    "Your turn · " and its icon changes, both restored once the page is seen again."""
    page = new_page()
    game_id = create_from_lobby(page, "Ada")
    bob = api_join(site, game_id, "Bob")
    sound = page.get_by_role("button", name="Sound")
    assert sound.get_attribute("aria-pressed") == "false"
    sound.click()
    assert sound.get_attribute("aria-pressed") == "true"
    page.reload()
    wait_until(lambda: status(page) == "setup", message="the deal")
    assert page.get_by_role("button", name="Sound").get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => window.skyjoBeeps || 0") == 0  # Ada's setup: not on load

    hide = "h => { Object.defineProperty(document, 'hidden', {value: h, configurable: true});"
    hide += " document.dispatchEvent(new Event('visibilitychange')); }"
    icon = page.locator("link[rel=icon]")
    page.evaluate(hide, True)
    assert page.title().startswith("Your turn · Skyjo")
    assert icon.get_attribute("href").endswith("favicon-turn.svg")
    page.evaluate(hide, False)
    assert not page.title().startswith("Your turn")
    assert icon.get_attribute("href").endswith("favicon.svg")

    for _ in range(2):
        before = version(page)
        my_cards(page, "Ada").get_by_role("button", name=FACE_DOWN).first.click()
        page.wait_for_function(MOVE_DONE, arg=before)
    wait_until(lambda: page.locator("#table").get_attribute("data-your-turn") == "false")
    page.evaluate(hide, True)
    assert not page.title().startswith("Your turn")  # Bob's setup: not Ada's turn
    api_play(site, game_id, [bob], until=lambda view: view["current_seat"] == 0)
    wait_until(lambda: button(page, "Draw").count(), message="Ada's turn")
    page.wait_for_function("() => window.skyjoBeeps === 1")
    assert page.title().startswith("Your turn · ")


def test_the_clock_is_on_the_seat_whose_turn_it_is(new_page: Any, site: str) -> None:
    """A 5-second clock (1.5 s in the tests): the seat to play shows its countdown, in its
    warning style in the last seconds, and every seat its timeouts in a row of the limit."""
    page = new_page(width=390, height=844)
    game_id = create_from_lobby(page, "Ada", **{"Turn clock (seconds)": "5"})
    api_join(site, game_id, "Bob")
    wait_until(lambda: status(page) == "playing", 10, "the reveals timed out, play started")
    seat = page.locator(".player.current")
    timer = seat.get_by_role("timer")
    wait_until(lambda: timer.count() == 1, 5, "a countdown on the seat to play")
    assert re.fullmatch(r"Time left: \d+!? s", timer.inner_text()), timer.inner_text()
    for name in ("Ada (you)", "Bob"):
        line = page.get_by_role("region", name=name).get_by_text(re.compile(r"^Timeouts: "))
        assert re.fullmatch(r"Timeouts: \d of 3", line.inner_text())
    low = page.locator(".player .countdown.low")
    wait_until(lambda: low.count(), 5, "the warning style in the last seconds")
    assert low.first.evaluate("e => getComputedStyle(e).fontWeight") == "800"

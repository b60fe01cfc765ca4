"""Keyboard only: a whole turn with Tab and Enter. The focus follows the turn: after a move,
it goes to the next control the seat has (the control it was on is gone)."""

from __future__ import annotations

import re
from typing import Any

from .support import (
    MOVE_DONE,
    api_join,
    api_play,
    api_view,
    button,
    my_cards,
    status,
    version,
    wait_until,
)

MAX_TABS = 80
FOCUSED_NAME = "e => e.getAttribute('aria-label') || e.textContent.trim()"


def focused(page: Any) -> str:
    return str(page.evaluate(f"({FOCUSED_NAME})(document.activeElement)"))


def tab_to(page: Any, name: Any) -> None:
    """Press Tab until the focused control's accessible name is `name` (or matches it)."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        now = focused(page)
        if (now == name) if isinstance(name, str) else name.search(now):
            return
    raise AssertionError(f"no control named {name!r} within {MAX_TABS} tabs")


def enter(page: Any) -> None:
    """Press Enter on the focused control and wait for the table's next version."""
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function(MOVE_DONE, arg=before)


def test_one_whole_turn_with_tab_and_enter(new_page: Any, site: str) -> None:
    page = new_page()
    page.goto("/")
    form = page.get_by_role("region", name="New game")
    form.get_by_label("Your name").fill("Ada")
    button(form, "Create game").click()
    page.wait_for_url("**/games/*")
    game_id = page.url.rsplit("/", 1)[1]
    bob = api_join(site, game_id, "Bob")
    wait_until(lambda: status(page) == "setup", message="the deal, live")

    for _ in range(2):  # the setup reveals, by keyboard too
        tab_to(page, re.compile(r"face down$"))
        enter(page)
    api_play(site, game_id, [bob])  # Bob's reveals, and his turn if he starts
    wait_until(lambda: button(page, "Draw").count(), message="Ada's turn, live")

    tab_to(page, "Draw")
    enter(page)
    wait_until(lambda: focused(page) == "Discard", 2, "focus on the next control, no Tab")
    enter(page)
    wait_until(lambda: re.search(r"face down$", focused(page)), 2, "focus on a card to turn")
    page.keyboard.press("Tab")  # the grid's next face-down card
    chosen = focused(page)
    assert re.fullmatch(r"Column \d, row \d: face down", chosen), chosen
    enter(page)

    column, row = (int(n) - 1 for n in re.findall(r"\d", chosen))
    ada = api_view(site, game_id)["players"][0]
    assert ada["grid"][column][row]["state"] == "face_up"
    assert not my_cards(page, "Ada").get_by_role("button").count()
    assert api_view(site, game_id)["current_seat"] in (1, None)  # Bob's turn (or round over)
    last = page.locator(".last-action").inner_text()
    assert re.search(r"You drew the -?\d+, discarded it and turned up the -?\d+ at", last)


OUTLINE = "e => [getComputedStyle(e).outlineStyle, parseFloat(getComputedStyle(e).outlineWidth)]"


def test_arrow_keys_move_within_your_grid_and_enter_plays(new_page: Any, site: str) -> None:
    """In the setup every card of Ada's grid is a button: the arrows move the focus as the
    grid is laid out (3 rows of 4 columns), the focus always visible; Enter turns the card;
    the arrows then pass over the cards she may no longer play, and stop at the grid's edge."""
    page = new_page()
    page.goto("/")
    form = page.get_by_role("region", name="New game")
    form.get_by_label("Your name").fill("Ada")
    button(form, "Create game").click()
    page.wait_for_url("**/games/*")
    api_join(site, page.url.rsplit("/", 1)[1], "Bob")
    wait_until(lambda: status(page) == "setup", message="the deal, live")

    tab_to(page, "Column 1, row 1: face down")
    for key, name in (
        ("ArrowRight", "Column 2, row 1: face down"),
        ("ArrowDown", "Column 2, row 2: face down"),
        ("ArrowDown", "Column 2, row 3: face down"),
        ("ArrowDown", "Column 2, row 3: face down"),  # the edge: the focus stays
        ("ArrowLeft", "Column 1, row 3: face down"),
        ("ArrowUp", "Column 1, row 2: face down"),
        ("ArrowUp", "Column 1, row 1: face down"),
    ):
        page.keyboard.press(key)
        assert focused(page) == name, (key, focused(page))
        style, width = page.evaluate(f"({OUTLINE})(document.activeElement)")
        assert style != "none" and width >= 2, (style, width)
    enter(page)
    assert (
        not my_cards(page, "Ada").get_by_role("button", name="Column 1, row 1: face down").count()
    )
    wait_until(lambda: focused(page) == "Column 2, row 1: face down", 2, "focus on the next card")
    page.keyboard.press("ArrowLeft")  # Column 1, row 1 is face up now: not a button
    assert focused(page) == "Column 2, row 1: face down"
    page.keyboard.press("ArrowRight")
    assert focused(page) == "Column 3, row 1: face down"

"""Issue 25 on a phone (390x844): on your turn your own grid and the piles are on the screen,
the person scrolling nothing (the page itself scrolls as far as needed when the turn comes;
opponents are drawn compact above), in a game of 2 seats and one of 4, against bots."""

from __future__ import annotations

from typing import Any

import pytest

from .support import CELL_NAME, button, click_and_wait, my_cards, status, wait_until
from .test_bots_clocks import create_from_lobby

PHONE = {"width": 390, "height": 844}
BOTS = {2: {"Seat 2": "Bot: greedy"}, 4: {f"Seat {n}": "Bot: greedy" for n in (2, 3, 4)}}


def create(page: Any, seats: int) -> None:
    create_from_lobby(page, "Ada", Seats=str(seats), **BOTS[seats])


def on_screen(page: Any, control: Any) -> bool:
    box = control.bounding_box()
    return bool(
        box
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= PHONE["width"]
        and box["y"] + box["height"] <= PHONE["height"]
    )


@pytest.mark.parametrize("seats", [2, 4])
def test_on_a_phone_your_grid_and_the_piles_are_on_screen_on_your_turn(
    new_page: Any, seats: int
) -> None:
    page = new_page(**PHONE)
    create(page, seats)
    wait_until(lambda: status(page) == "setup", message="the deal: the bots are seated")
    for _ in range(2):
        click_and_wait(page, my_cards(page, "Ada").get_by_role("button").first)
    wait_until(lambda: button(page, "Draw").count(), message="Ada's turn, after the bots'")
    page.reload()  # as a person finds it: at the top of the page, their turn come
    button(page, "Draw").wait_for()
    cells = (
        my_cards(page, "Ada")
        .get_by_role("button")
        .or_(my_cards(page, "Ada").get_by_role("img", name=CELL_NAME))
    )
    assert cells.count() == 12
    controls = [button(page, "Draw"), button(page, "Take discard"), *cells.all()]
    assert all(on_screen(page, control) for control in controls), [
        (control.get_attribute("aria-label") or control.inner_text(), control.bounding_box())
        for control in controls
        if not on_screen(page, control)
    ]
    others = page.locator(".others .player")
    assert others.count() == seats - 1
    assert all(on_screen(page, seat) for seat in others.all()) or seats > 4

"""Two browsers create, join and play a 2-seat game to its end by clicking only; a third
watches. Controls are found by their accessible names, the page's contract: "Create game",
"Join", "Draw", "Take discard", "Discard", and the cells "Column 2, row 1: 7"."""

from __future__ import annotations

import re
from typing import Any

from .support import (
    CELL_NAME,
    FACE_DOWN,
    button,
    click_and_wait,
    my_cards,
    status,
    version,
    wait_until,
)

#: Turns before the test gives up: a round of two seats revealing a card a turn closes in
#: about 20; an end score of 1 ends the game after the first round with a positive total.
MAX_MOVES = 400
ROUND_RESULTS = re.compile(r"^Round \d+ results$")


def create_game(page: Any, name: str) -> str:
    """Create a 2-seat game with an end score of 1 from the lobby, seated as `name`."""
    page.goto("/")
    form = page.get_by_role("region", name="New game")
    form.get_by_label("Seats").fill("2")
    form.get_by_text("More options").click()  # the rules, clock and seats fold there
    form.get_by_label("End score").fill("1")
    form.get_by_label("Your name").fill(name)
    button(form, "Create game").click()
    page.wait_for_url("**/games/*")
    return str(page.url.rsplit("/", 1)[1])


def join_game(page: Any, game_id: str, name: str) -> None:
    page.goto("/")
    entry = page.locator(f'li[aria-labelledby="game-{game_id}"]')
    entry.get_by_label("Your name").fill(name)
    button(entry, "Join").click()
    page.wait_for_url(f"**/games/{game_id}")


def first_face_down(page: Any, name: str) -> Any:
    """The first of the viewer's cells that is a button and still face down (else the first
    button: a placement on a face-up card)."""
    cells = my_cards(page, name).get_by_role("button")
    down = my_cards(page, name).get_by_role("button", name=FACE_DOWN)
    return down.first if down.count() else cells.first


def play_turn(page: Any, name: str, turn: int) -> None:
    """One whole turn by clicking, going through every kind of move over three turns: take
    the discard and place it; draw, discard it and turn a card; draw and place it."""
    if turn % 3 == 0:
        click_and_wait(page, button(page, "Take discard"))
        click_and_wait(page, first_face_down(page, name))
    elif turn % 3 == 1:
        click_and_wait(page, button(page, "Draw"))
        click_and_wait(page, button(page, "Discard"))
        click_and_wait(page, first_face_down(page, name))
    else:
        click_and_wait(page, button(page, "Draw"))
        click_and_wait(page, first_face_down(page, name))


def next_to_move(seated: dict[str, Any]) -> tuple[str, Any] | None:
    """The (name, page) that has a move now, waiting for the pages to update live; None once
    the game is over on every page."""

    def found() -> Any:
        if all(status(page) == "finished" for page in seated.values()):
            return ("", None)
        for name, page in seated.items():
            if page.locator("#table form button").count():
                return (name, page)
        return None

    name, page = wait_until(found, message="a page to offer a move")
    return None if page is None else (name, page)


def test_two_browsers_play_a_game_to_its_end_by_clicking(new_page: Any) -> None:
    ada, bob = new_page(), new_page()
    game_id = create_game(ada, "Ada")
    ada.reload()  # the seat is the session's: a reload keeps it
    assert my_cards(ada, "Ada").is_visible()
    assert "Waiting for players: 1 of 2 seats open." in ada.locator("h1").inner_text()
    join_game(bob, game_id, "Bob")
    seated = {"Ada": ada, "Bob": bob}
    turns = {"Ada": 0, "Bob": 0}
    pictured = False
    for _ in range(MAX_MOVES):
        mover = next_to_move(seated)
        if mover is None:
            break
        name, page = mover
        if status(page) == "setup":
            click_and_wait(page, my_cards(page, name).get_by_role("button").first)
            continue
        if not pictured and turns[name] >= 2:
            pictured = picture_mid_game(new_page, game_id, name, page)
        else:
            play_turn(page, name, turns[name])
        turns[name] += 1
    else:
        raise AssertionError(f"no end after {MAX_MOVES} moves")
    assert pictured and min(turns.values()) >= 3
    for name, page in seated.items():
        standings = page.get_by_role("region", name="Final standings")
        assert standings.get_by_text("winner").count() >= 1
        assert page.get_by_role("region", name=ROUND_RESULTS).is_visible()
        assert not page.locator("#table form button").count(), f"{name} still has controls"


def picture_mid_game(new_page: Any, game_id: str, name: str, page: Any) -> bool:
    """The table mid-game: the seat holding a drawn card, and a spectator,
    who sees the same table without a single control and with the drawn card hidden."""
    click_and_wait(page, button(page, "Draw"))
    assert page.get_by_role("img", name=re.compile(r"^Held card: -?\d+$")).is_visible()
    spectator = new_page()
    spectator.goto(f"/games/{game_id}")
    assert version(spectator) == version(page)
    assert spectator.get_by_role("img", name="Held card: hidden").is_visible()
    assert not spectator.locator("#table button").count()
    assert not spectator.get_by_role("button", name="Join").count()  # the game is full
    cells = spectator.get_by_role("img", name=CELL_NAME)
    assert cells.count() == 24
    click_and_wait(page, button(page, "Discard"))  # finish the turn as play_turn would
    click_and_wait(page, first_face_down(page, name))
    return True

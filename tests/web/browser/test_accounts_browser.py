"""An account in Chromium: sign up, log in, take a seat, play, then log in from a second
browser (another context: its own cookies), find the game and act in it. Controls by role
and accessible name: "Handle", "Password", "Sign up", "Log in", "My games", "Your games"."""

from __future__ import annotations

from typing import Any

from .support import FACE_DOWN, button, click_and_wait, my_cards, wait_until
from .test_play import join_game, play_turn

PASSWORD = "a long 9 horse battery"


def with_console_errors(page: Any) -> list[str]:
    """The page's console errors, collected as they come (none is allowed)."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def sign_up(page: Any, handle: str) -> None:
    page.goto("/signup")
    form = page.get_by_role("region", name="A new account")
    form.get_by_label("Handle").fill(handle)
    form.get_by_label("Password", exact=True).fill(PASSWORD)
    form.get_by_label("Password again").fill(PASSWORD)
    button(form, "Sign up").click()
    page.get_by_role("heading", name=handle, level=1).wait_for()


def log_in(page: Any, handle: str) -> None:
    page.goto("/login")
    form = page.get_by_role("region", name="Your account")
    form.get_by_label("Handle").fill(handle)
    form.get_by_label("Password").fill(PASSWORD)
    button(form, "Log in").click()
    page.wait_for_url("**/account")


def reveal_two(page: Any, name: str) -> None:
    for _ in range(2):
        click_and_wait(page, my_cards(page, name).get_by_role("button", name=FACE_DOWN).first)


def test_an_account_plays_from_two_browsers(new_page: Any) -> None:
    ada = new_page(width=390, height=844)  # a phone
    errors = with_console_errors(ada)
    sign_up(ada, "Ada")
    assert ada.get_by_text("shown this once").is_visible()
    assert button(ada, "Copy").is_visible()
    assert ada.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll

    ada.goto("/")
    form = ada.get_by_role("region", name="New game")
    form.get_by_label("Seats").fill("2")
    form.get_by_text("More options").click()  # the rules, clock and seats fold there
    form.get_by_label("End score").fill("1")
    assert form.get_by_label("Your name").input_value() == "Ada"
    button(form, "Create game").click()
    ada.wait_for_url("**/games/*")
    game_id = ada.url.rsplit("/", 1)[1]

    guest = new_page()
    join_game(guest, game_id, "Bob")
    ada.reload()
    reveal_two(ada, "Ada")  # the account's seat plays its moves
    reveal_two(guest, "Bob")

    again = new_page()  # Ada from another browser: no seat token in its session
    again_errors = with_console_errors(again)
    log_in(again, "Ada")
    mine = again.get_by_role("region", name="My games")
    mine.get_by_role("link").first.click()
    again.wait_for_url(f"**/games/{game_id}")
    assert my_cards(again, "Ada").count() == 1
    wait_until(lambda: button(again, "Draw").count() or button(guest, "Draw").count())
    if button(guest, "Draw").count():  # Bob's turn first: he plays it, then Ada hers
        play_turn(guest, "Bob", 0)
        again.reload()
    wait_until(lambda: button(again, "Draw").is_visible(), message="Ada's turn")
    play_turn(again, "Ada", 2)

    again.goto("/")
    yours = again.get_by_role("region", name="Your games")
    assert yours.locator(f'li[aria-labelledby="yours-{game_id}"]').count() == 1
    button(again, "Log out").click()
    again.get_by_role("link", name="Log in").wait_for()
    assert not errors and not again_errors, errors + again_errors

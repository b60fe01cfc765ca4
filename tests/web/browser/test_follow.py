"""Issue 25, following the game, in the browser: the move log tells a bot's move with its
card and position; a round's results stay above the next round until dismissed; "Leave seat"
asks to confirm, and is gone once the game is over; timeouts and the bot that took a seat
over are said in the log."""

from __future__ import annotations

import re
from typing import Any

from .support import button, click_and_wait, my_cards, status, wait_until
from .test_bots_clocks import create_from_lobby
from .test_play import first_face_down

MAX_MOVES = 300
PHONE = {"width": 390, "height": 844}
#: A bot's whole turn in the log: its card and where it went.
BOT_MOVE = re.compile(
    r"Greedy bot (drew|took) the -?\d+.* at column [1-4], row [1-3], replacing the -?\d+\."
)


def create(page: Any, end_score: int, **choices: str) -> None:
    """A 2-seat game against the greedy bot, created from the lobby, seated as Ada."""
    seats = {"End score": str(end_score), "Seat 2": "Bot: greedy", **choices}
    create_from_lobby(page, "Ada", **seats)


def my_move(page: Any) -> None:
    """One move of Ada's: a setup reveal, a draw, or the held card placed on a face-down one."""
    if status(page) == "setup":
        click_and_wait(page, my_cards(page, "Ada").get_by_role("button").first)
    elif button(page, "Draw").count():
        click_and_wait(page, button(page, "Draw"))
    else:
        click_and_wait(page, first_face_down(page, "Ada"))


def results(page: Any) -> Any:
    return page.get_by_role("region", name="Round 1 results")


def test_the_log_the_held_round_results_and_leaving_on_a_phone(new_page: Any) -> None:
    page = new_page(**PHONE)
    create(page, end_score=500)
    moves = page.get_by_role("region", name="Moves")
    for _ in range(MAX_MOVES):
        wait_until(
            lambda: results(page).count() or page.locator("#table form button").count(),
            message="Ada's move, or the round's end",
        )
        if results(page).count():
            break
        my_move(page)
    else:
        raise AssertionError(f"no round's end after {MAX_MOVES} moves")
    # The log: the bot's moves with their cards and places, grouped by round, newest first.
    assert moves.get_by_text(BOT_MOVE).count()
    assert moves.get_by_role("heading", name="Round 2").is_visible()
    assert moves.get_by_text(re.compile(r"Round 1 is over: ")).count()

    # The round's results stay above the next round (in its setup) until dismissed.
    assert results(page).is_visible()
    assert results(page).get_by_role("group", name="Ada (you): final cards").is_visible()
    my_move(page)  # a setup reveal: the table re-read, the results still there
    assert results(page).is_visible()
    button(page, "Continue to the next round").click()
    assert not results(page).is_visible()
    my_move(page)  # the next re-read does not bring them back
    assert not results(page).is_visible()
    assert page.locator(".card-turned").count()  # the reveal, marked on the grid

    # Leaving asks first: "Cancel" keeps the seat, "Yes, leave my seat" gives it to a bot.
    assert page.get_by_text("A bot plays your seat to the end.").is_visible()
    button(page, "Leave seat").click()
    page.get_by_role("heading", name="Leave your seat?").wait_for()
    page.get_by_role("link", name="Cancel").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    assert my_cards(page, "Ada").is_visible()
    button(page, "Leave seat").click()
    button(page, "Yes, leave my seat").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    assert page.get_by_text("You left your seat.").is_visible()
    assert not button(page, "Leave seat").count()
    log = page.get_by_role("region", name="Moves")
    wait_until(lambda: log.get_by_text("Ada left: the greedy bot plays the seat now.").count())
    wait_until(
        lambda: log.get_by_text(re.compile(r"^Ada's bot \(greedy\) (drew|took)")).count(),
        message="the bot's moves for Ada, said as the bot's",
    )


def test_timeouts_and_a_takeover_are_said_and_leave_is_gone_at_the_end(new_page: Any) -> None:
    """A 5-second clock (1.5 s in the tests): Ada lets it run out; the log says each timeout,
    then the bot that takes her seat over and its moves; once the game is over, no "Leave
    seat", and the final standings beside the score sheet."""
    page = new_page()
    create(page, end_score=1, **{"Turn clock (seconds)": "5"})
    log = page.get_by_role("region", name="Moves")
    wait_until(
        lambda: log.get_by_text(
            re.compile(r"^You ran out of time: the service played for you and ")
        ).count(),
        20,
        "a timeout in the log",
    )
    wait_until(
        lambda: log.get_by_text(re.compile(r"^You ran out of time once too often")).count(),
        30,
        "the takeover in the log",
    )
    wait_until(lambda: status(page) == "finished", 60, "the game's end, bots alone")
    assert log.get_by_text(re.compile(r"^The greedy bot playing for you (drew|took)")).count()
    assert not log.get_by_text(re.compile(r"^You (drew|took the)")).count()  # never the viewer's
    assert not button(page, "Leave seat").count()
    assert page.get_by_role("region", name="Final standings").is_visible()
    assert page.get_by_text("Score sheet").is_visible()

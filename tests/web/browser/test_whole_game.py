"""Issue 25's "done when", in Chromium: a person plays a whole game against two bots, and from
the page alone (its move log) can say after each of their turns what each bot did, card
included; every round's result is shown, and stays until dismissed."""

from __future__ import annotations

import re
from typing import Any

from .support import button, status, wait_until
from .test_bots_clocks import MAX_MOVES, create_from_lobby, my_move

#: The bots at the table, by the names the page gives them.
BOTS = ("Greedy bot", "Random bot")
#: A bot's turn in the log: its name, a verb, and a card said by its value.
BOT_TURN = re.compile(r"^(?P<who>Greedy bot|Random bot) (drew|took) the -?\d+\b")


def current_round(page: Any) -> tuple[int, list[str]]:
    """The move log's round shown open, and its entries, newest first."""
    heading = page.get_by_role("region", name="Moves").locator("h3").first
    number = int(re.sub(r"\D", "", heading.inner_text()))
    entries = page.locator(f'ol[aria-labelledby="moves-round-{number}"] > li').all_inner_texts()
    return number, entries


def bots_since_my_turn(entries: list[str]) -> list[str] | None:
    """Who of the bots the log shows playing a turn since the viewer's last one (None when the
    viewer has not played a turn this round yet)."""
    newer: list[str] = []
    for entry in entries:
        if re.match(r"^You (drew|took)\b", entry):
            return newer
        if found := BOT_TURN.match(entry):
            newer.append(found["who"])
    return None


def dismiss_result(page: Any, number: int) -> None:
    """The round's result is there, above the new round, until "Continue" is pressed."""
    result = page.get_by_role("region", name=f"Round {number} results")
    result.wait_for()
    assert result.get_by_role("row").count() == 1 + len(BOTS) + 1  # a header, each seat
    button(result, "Continue to the next round").click()
    result.wait_for(state="hidden")


def test_a_person_follows_every_bot_turn_and_every_round_from_the_page(new_page: Any) -> None:
    page = new_page()
    seats = {"Seats": "3", "End score": "60", "Seat 2": "Bot: greedy", "Seat 3": "Bot: random"}
    create_from_lobby(page, "Ada", **seats)
    checked, results = 0, set()
    shown_round = 1
    for turn in range(MAX_MOVES * 2):
        wait_until(
            lambda: status(page) == "finished" or page.locator("#table form button").count(),
            message="my move, or the end",
        )
        if status(page) == "finished":
            break
        number, entries = current_round(page)
        if number != shown_round:  # the action that ended a round dealt the next at once
            dismiss_result(page, shown_round)
            results.add(shown_round)
            shown_round = number
        if status(page) == "playing" and button(page, "Draw").count():
            bots = bots_since_my_turn(entries)
            if bots is not None:
                assert sorted(set(bots)) == sorted(BOTS), entries[:6]
                checked += 1
        my_move(page, turn)
    else:
        raise AssertionError("no end")
    last = page.get_by_role("region", name=f"Round {shown_round} results")
    last.wait_for()  # the game's end shows its last round with the standings and the sheet
    results.add(shown_round)
    assert page.get_by_role("region", name="Final standings").is_visible()
    sheet_rounds = page.locator("details.scores tbody tr").count()
    assert results == set(range(1, sheet_rounds + 1)), (results, sheet_rounds)
    assert checked >= 5, checked

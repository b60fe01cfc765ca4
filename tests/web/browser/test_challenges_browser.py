"""Challenges in Chromium, two people in two browser contexts (their own cookies), one of them
on a phone: one challenges from the lobby's form, the other accepts from the lobby and lands
on the dealt table; then a challenge declined with a reason, whose table says it was called
off. Controls by role and accessible name: "Challenge players", "Challenges", "Accept",
"Decline", "Reason", "Cancel challenge"."""

from __future__ import annotations

from typing import Any

from .support import button, my_cards, status, wait_until
from .test_accounts_browser import sign_up, with_console_errors


def challenge(page: Any, handle: str) -> str:
    """Challenge `handle` from the lobby's form (2 seats, end score 1): the game's id."""
    page.goto("/")
    form = page.get_by_role("region", name="New game")
    form.get_by_label("Seats").fill("2")
    form.get_by_text("More options").click()  # the rules, clock and seats fold there
    form.get_by_label("End score").fill("1")
    form.get_by_label("Challenge players").fill(handle)
    button(form, "Create game").click()
    page.wait_for_url("**/games/*")
    return str(page.url.rsplit("/", 1)[1])


def invitation(page: Any, challenger: str) -> Any:
    """The lobby's entry of `challenger`'s challenge to the page's person."""
    page.goto("/")
    challenges = page.get_by_role("region", name="Challenges")
    return challenges.get_by_role("listitem").filter(
        has=page.get_by_role("heading", name=f"{challenger} challenges you")
    )


def test_one_challenges_the_other_accepts_and_the_table_deals(new_page: Any) -> None:
    chloe = new_page()
    dmitri = new_page(width=390, height=844)  # a phone
    errors = with_console_errors(chloe) + with_console_errors(dmitri)
    sign_up(chloe, "Chloe")
    sign_up(dmitri, "Dmitri")

    game_id = challenge(chloe, "Dmitri")
    assert (
        "Waiting for players: 1 of 2 seats open."
        in chloe.get_by_role("heading", level=1).inner_text()
    )

    entry = invitation(dmitri, "Chloe")
    assert entry.get_by_text("2 seats").is_visible()
    assert dmitri.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    button(entry, "Accept").click()
    dmitri.wait_for_url(f"**/games/{game_id}")
    assert my_cards(dmitri, "Dmitri").count() == 1
    assert status(dmitri) == "setup"
    wait_until(lambda: status(chloe) == "setup", message="the challenger's table deals")
    assert my_cards(chloe, "Chloe").count() == 1
    chloe.goto("/")
    assert chloe.get_by_role("region", name="Challenges").count() == 0  # answered: gone
    assert not errors, errors


def test_a_declined_challenge_s_table_says_it_was_called_off(new_page: Any) -> None:
    erin = new_page(width=390, height=844)  # a phone
    farid = new_page()
    errors = with_console_errors(erin) + with_console_errors(farid)
    sign_up(erin, "Erin")
    sign_up(farid, "Farid")

    game_id = challenge(farid, "Erin")
    farid.goto("/")
    mine = farid.get_by_role("region", name="Challenges")
    assert mine.get_by_role("heading", name="You challenge Erin").is_visible()
    assert button(mine, "Cancel challenge").is_visible()

    entry = invitation(erin, "Farid")
    entry.get_by_label("Reason").select_option(label="This turn clock is too fast for me.")
    button(entry, "Decline").click()
    erin.wait_for_url("**/")
    assert erin.get_by_role("alert").inner_text() == "You declined Farid's challenge."

    farid.goto(f"/games/{game_id}")
    headline = farid.get_by_role("heading", level=1).inner_text()
    assert headline == "This game was called off: an invitee declined the challenge."
    assert status(farid) == "canceled"
    assert button(farid, "Leave seat").count() == 0
    assert not errors, errors

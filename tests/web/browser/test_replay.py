"""The replay page steps through a game's versions (`?at=`): links, a slider, play and pause,
the event of each step in words; a finished game shows every card, one in play does not."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .support import (
    CELL_NAME,
    api_create,
    api_join,
    api_play,
    api_view,
    button,
    wait_until,
)
from .test_accounts_browser import with_console_errors

SHOWN = re.compile(r": (-?\d+(, face down)?|removed)$")


def step_of(page: Any) -> int:
    return int(page.locator("#replay").get_attribute("data-at"))


def every_card_shown(page: Any) -> list[str]:
    names = [
        cell.get_attribute("aria-label") for cell in page.get_by_role("img", name=CELL_NAME).all()
    ]
    assert names, "no card on the page"
    return [name for name in names if not SHOWN.search(name)]


@pytest.fixture(scope="module")
def finished_game(site: str) -> tuple[str, int]:
    """A 2-seat game played to its end through the API (its id and last version)."""
    game_id = api_create(site, end_score=1, seed=16)
    tokens = [api_join(site, game_id, "Ada"), api_join(site, game_id, "Bob")]
    api_play(site, game_id, tokens)
    view = api_view(site, game_id)
    assert view["status"] == "finished"
    return game_id, view["version"]


def test_the_replay_steps_through_a_finished_game_showing_every_card(
    new_page: Any, finished_game: tuple[str, int]
) -> None:
    game_id, last = finished_game
    page = new_page()
    page.goto(f"/games/{game_id}/replay")
    assert step_of(page) == 1
    assert "A game for 2 players is created" in page.locator(".step").inner_text()
    page.get_by_role("link", name="Next").click()
    wait_until(lambda: step_of(page) == 2, message="step 2")
    assert page.url.endswith("?at=2")
    assert page.locator(".step").inner_text() == "Ada took seat 1."

    middle = last // 2
    page.get_by_role("slider", name="Step").fill(str(middle))
    wait_until(lambda: step_of(page) == middle, message=f"the slider's step {middle}")
    assert every_card_shown(page) == []
    assert page.get_by_role("heading", name=f"Replay: step {middle} of {last}").is_visible()

    page.get_by_role("link", name="Last").click()
    wait_until(lambda: step_of(page) == last, message="the last step")
    assert page.locator(".step").inner_text().startswith("The game is over:")
    assert every_card_shown(page) == []
    assert page.get_by_role("region", name="Final standings").is_visible()
    page.get_by_role("link", name="Previous").click()
    wait_until(lambda: step_of(page) == last - 1, message="a step back")
    page.go_back()  # the steps are in the browser's history
    wait_until(lambda: step_of(page) == last, message="back in history")


def test_play_steps_forward_until_paused(new_page: Any, finished_game: tuple[str, int]) -> None:
    game_id, _ = finished_game
    page = new_page()
    page.goto(f"/games/{game_id}/replay?at=3")
    button(page, "Play").click()
    wait_until(lambda: step_of(page) >= 5, message="playing forward")
    button(page, "Pause").click()
    paused_at = step_of(page)
    page.wait_for_timeout(1500)
    assert step_of(page) in (paused_at, paused_at + 1)  # a step already asked for may land
    assert button(page, "Play").is_visible()


def test_a_game_in_play_is_replayed_without_its_hidden_cards(new_page: Any, site: str) -> None:
    game_id = api_create(site)
    tokens = [api_join(site, game_id, "Ada"), api_join(site, game_id, "Bob")]
    api_play(site, game_id, tokens, until=lambda view: view["status"] == "playing")
    page = new_page()
    page.goto(f"/games/{game_id}/replay?at={api_view(site, game_id)['version']}")
    hidden = page.get_by_role("img", name=re.compile(r"face down$"))
    assert hidden.count() == 24 - 4  # each seat's two setup reveals only
    assert not page.locator("#replay .board button").count()  # no move offered


def test_the_address_follows_the_replay_so_a_copied_link_opens_its_step(
    new_page: Any, finished_game: tuple[str, int]
) -> None:
    """Defect 7: "Go" left the address as it was. Each click is a step of the history (Back
    returns to the step before); Play's steps replace the address instead of piling up."""
    game_id, last = finished_game
    page = new_page()
    errors = with_console_errors(page)
    page.goto(f"/games/{game_id}/replay")
    chosen = last // 3
    page.locator("#replay-at").evaluate("(slider, at) => { slider.value = at; }", str(chosen))
    button(page, "Go").click()
    wait_until(lambda: step_of(page) == chosen, message=f"step {chosen} after Go")
    wait_until(lambda: page.url.endswith(f"?at={chosen}"), 5, f"the address of step {chosen}")

    copied = new_page()
    copied.goto(page.url)
    assert step_of(copied) == chosen
    assert copied.get_by_role("heading", name=f"Replay: step {chosen} of {last}").is_visible()

    page.go_back()
    wait_until(lambda: step_of(page) == 1, message="back to the first step")

    page.goto(f"/games/{game_id}/replay?at=3")
    entries = page.evaluate("history.length")
    button(page, "Play").click()
    wait_until(lambda: step_of(page) >= 6, message="playing forward")
    button(page, "Pause").click()
    wait_until(lambda: page.url.endswith(f"?at={step_of(page)}"), 5, "the address of the step")
    assert page.evaluate("history.length") == entries  # replaced, not pushed
    assert not errors, errors

"""The README's and docs' pictures (docs/img), taken on a site of their own from seeded games
with fixed names, in the same order each run: the same pages give the same pictures, and
`save_screenshot` writes a file only when its picture changed. Each test also checks what
its picture is meant to show. (The ratings' pictures come from test_ratings_browser.py, whose
site of its own plays seeded games of the built-in bots.)"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import is_policy_violation, serve_site
from .support import (
    FACE_DOWN,
    api_create,
    api_join,
    api_play,
    api_view,
    button,
    caught_up,
    click_and_wait,
    my_cards,
    save_screenshot,
    status,
)
from .test_accounts_browser import sign_up
from .test_challenges_browser import challenge, invitation
from .test_chat_browser import say, shows
from .test_play import join_game, play_turn

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def pictured(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A site of its own: its lobby lists this module's games alone, the same each run."""
    yield from serve_site(tmp_path_factory)


@pytest.fixture
def open_page(browser: Any, pictured: str) -> Iterator[Any]:
    """Pages on `pictured`, each in a context of its own (its own cookies), failing the test
    if the page's Content-Security-Policy refused anything."""
    contexts: list[Any] = []
    violations: list[str] = []

    def new(width: int = 1000, height: int = 800) -> Any:
        context = browser.new_context(
            base_url=pictured, viewport={"width": width, "height": height}, device_scale_factor=1
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: violations.append(m.text) if is_policy_violation(m) else None)
        return page

    yield new
    for context in contexts:
        context.close()
    assert not violations, violations


def test_a_seat_holding_a_drawn_card_and_a_spectator(open_page: Any, pictured: str) -> None:
    """Ada (this page) against Bob (the API's greedy player), two turns in: she draws."""
    game_id = api_create(pictured, seed=11)
    bob = [api_join(pictured, game_id, "Bob")]
    ada = open_page()
    join_game(ada, game_id, "Ada")
    api_play(pictured, game_id, bob)
    caught_up(ada, pictured, game_id)
    for _ in range(2):
        click_and_wait(ada, my_cards(ada, "Ada").get_by_role("button", name=FACE_DOWN).first)
    for turn in range(2):
        api_play(pictured, game_id, bob)
        caught_up(ada, pictured, game_id)
        play_turn(ada, "Ada", turn + 1)  # draw then discard, then draw and place
    api_play(pictured, game_id, bob)
    caught_up(ada, pictured, game_id)
    click_and_wait(ada, button(ada, "Draw"))
    assert ada.get_by_role("img", name=re.compile(r"^Held card: -?\d+$")).is_visible()
    save_screenshot(ada, "table-player")
    spectator = open_page()
    spectator.goto(f"/games/{game_id}")
    assert spectator.get_by_role("img", name="Held card: hidden").is_visible()
    assert not spectator.locator("#table button").count()
    save_screenshot(spectator, "table-spectator")


def test_a_finished_game_and_its_replay(open_page: Any, pictured: str) -> None:
    game_id = api_create(pictured, end_score=1, seed=16)
    api_play(pictured, game_id, [api_join(pictured, game_id, n) for n in ("Ada", "Bob")])
    last = int(api_view(pictured, game_id)["version"])
    page = open_page()
    page.goto(f"/games/{game_id}")
    assert status(page) == "finished"
    assert page.get_by_role("region", name="Final standings").get_by_text("winner").count()
    save_screenshot(page, "round-result")
    page.goto(f"/games/{game_id}/replay?at={last // 2}")
    assert page.get_by_role("heading", name=f"Replay: step {last // 2} of {last}").is_visible()
    save_screenshot(page, "replay")


def test_a_table_s_chat_on_a_phone(open_page: Any, pictured: str) -> None:
    game_id = api_create(pictured, seed=12)
    ada, bob = open_page(), open_page(**PHONE)
    join_game(ada, game_id, "Ada")
    join_game(bob, game_id, "Bob")
    say(ada, "Players", "Hello Bob, good luck")
    say(bob, "Spectators", "Hi watchers")
    caught_up(bob, pictured, game_id)
    assert shows(bob, "Players", "Hello Bob, good luck")
    save_screenshot(bob, "table-chat")


def test_the_lobby_and_a_challenge_on_a_phone(open_page: Any, pictured: str) -> None:
    """The lobby after the games above, one more waiting for players; then a challenge."""
    waiting = api_create(pictured, seats=3, seed=13)
    api_join(pictured, waiting, "Cy")
    page = open_page(height=900)
    page.goto("/")
    entry = page.locator(f'li[aria-labelledby="game-{waiting}"]')
    assert "3 seats, 2 open" in entry.inner_text()
    save_screenshot(page, "lobby")
    chloe, dmitri = open_page(), open_page(**PHONE)
    sign_up(chloe, "Chloe")
    sign_up(dmitri, "Dmitri")
    challenge(chloe, "Dmitri")
    assert button(invitation(dmitri, "Chloe"), "Accept").is_visible()
    save_screenshot(dmitri, "challenge-incoming")


def test_a_round_s_result_held_above_the_next_with_the_move_log(
    open_page: Any, pictured: str
) -> None:
    """Round 1 just over (its last action dealt round 2): a spectator's table holds the
    round's result above the new round, the move log beside the board."""
    game_id = api_create(pictured, seed=14)
    tokens = [api_join(pictured, game_id, name) for name in ("Ada", "Bob")]
    api_play(pictured, game_id, tokens, until=lambda view: view["round"] == 2)
    page = open_page(width=1280, height=1000)
    page.goto(f"/games/{game_id}")
    assert page.get_by_role("region", name="Round 1 results").is_visible()
    log = page.get_by_role("region", name="Moves")
    assert log.get_by_text(re.compile(r"Round 1 is over: Ada -?\d+")).count() == 1
    save_screenshot(page, "round-held")

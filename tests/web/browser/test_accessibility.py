"""axe-core (through `axe-playwright-python`, pinned in requirements-dev.txt) over the pages a
person meets: the lobby, a table seated and playing on their turn, a replay mid-game, a
finished game's table, the leaderboard, a profile, the ladder, and the log-in and sign-up
forms; at a desktop's width and a phone's. Any violation whose impact is serious or critical
fails the test, named by its rule, its elements and its help page; the lesser ones (minor,
moderate) are printed, not failed, so that they are seen without holding a release.

One browser page per viewport walks every page: starting chromium's pages is the slow part."""

from __future__ import annotations

import re
from typing import Any

import pytest

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
)
from .test_play import join_game
from .test_rematch_browser import Console

#: A face-up card's accessible name: "Column 2, row 1: -1".
FACE_UP = re.compile(r": -?\d+$")
#: Impacts that fail the check (axe's scale: minor, moderate, serious, critical).
FAILING = {"serious", "critical"}
VIEWPORTS = {"desktop": {"width": 1000, "height": 800}, "phone": {"width": 390, "height": 844}}
#: The pages without a game of their own: what every visitor can open.
PLAIN_PAGES = ["/leaderboard", "/players/greedy", "/ladder", "/login", "/signup"]


@pytest.fixture(scope="module")
def axe() -> Any:
    """axe-core's runner (its script injected into each page as it is checked)."""
    sync_playwright = pytest.importorskip(
        "axe_playwright_python.sync_playwright",
        reason="the accessibility check needs axe-playwright-python (requirements-dev.txt)",
    )
    return sync_playwright.Axe()


@pytest.fixture(scope="module")
def finished_game(site: str) -> tuple[str, int]:
    """A seeded 2-seat game played to its end through the API: its id and last version."""
    game_id = api_create(site, end_score=1, seed=25)
    api_play(site, game_id, [api_join(site, game_id, "Ada"), api_join(site, game_id, "Bob")])
    view = api_view(site, game_id)
    assert view["status"] == "finished"
    return game_id, int(view["version"])


def violations(axe: Any, page: Any, what: str) -> tuple[list[str], list[str]]:
    """axe's findings on the page as it is now (`what`), in words: (serious or critical, the
    others)."""
    found: list[dict[str, Any]] = axe.run(page).response["violations"]
    failing: list[str] = []
    lesser: list[str] = []
    for rule in found:
        targets = "; ".join(" ".join(node["target"]) for node in rule["nodes"])
        line = f"{what} [{rule['impact']}] {rule['id']}: {targets} ({rule['helpUrl']})"
        (failing if rule["impact"] in FAILING else lesser).append(line)
    return failing, lesser


def waiting_game(site: str) -> tuple[str, list[str]]:
    """A seeded 2-seat game with Bob seated through the API: its id and Bob's token."""
    game_id = api_create(site, seed=7)
    return game_id, [api_join(site, game_id, "Bob")]


def play_to_my_turn(page: Any, site: str, game_id: str, bob: list[str]) -> None:
    """The game that the page joined as Ada (Bob playing through the API), set up and brought
    to Ada's turn."""
    api_play(site, game_id, bob)  # Bob's two setup reveals
    caught_up(page, site, game_id)
    for _ in range(2):
        click_and_wait(page, my_cards(page, "Ada").get_by_role("button", name=FACE_DOWN).first)
    api_play(site, game_id, bob)  # Bob's turn, if he starts
    caught_up(page, site, game_id)
    button(page, "Draw").wait_for()


@pytest.mark.parametrize("size", VIEWPORTS.values(), ids=VIEWPORTS.keys())
def test_axe_finds_no_serious_violation(
    new_page: Any, site: str, axe: Any, finished_game: tuple[str, int], size: dict[str, int]
) -> None:
    game_id, last = finished_game
    page = new_page(**size)
    console = Console(page)  # a finished game's stream closes after its last frame
    failing: list[str] = []
    lesser: list[str] = []

    def check(what: str) -> None:
        serious, others = violations(axe, page, f"{what} ({page.url})")
        failing.extend(serious)
        lesser.extend(others)

    waiting, bob = waiting_game(site)
    page.goto("/")
    check("the lobby, a game waiting and one finished")
    join_game(page, waiting, "Ada")
    play_to_my_turn(page, site, waiting, bob)
    check("a seat's table on its turn")
    click_and_wait(page, button(page, "Draw"))
    check("a seat's table holding a drawn card")
    for cell, kind in ((FACE_UP, "face-up"), (FACE_DOWN, "face-down")):
        my_cards(page, "Ada").get_by_role("button", name=cell).first.hover()
        check(f"the pointer on a playable {kind} card")  # its value must stay readable
    page.goto(f"/games/{game_id}/replay?at={last // 2}")
    page.get_by_role("heading", name=f"Replay: step {last // 2} of {last}").wait_for()
    check("a replay mid-game")
    page.goto(f"/games/{game_id}")
    page.get_by_role("region", name="Final standings").wait_for()
    check("a finished game's table")
    for path in PLAIN_PAGES:
        page.goto(path)
        check(path)
    print("\n".join(["Lesser findings (not failed):", *lesser]))
    assert not failing, "axe: serious or critical violations:\n" + "\n".join(failing)
    assert console.unexpected() == []

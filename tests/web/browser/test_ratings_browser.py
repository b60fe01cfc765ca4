"""The ratings' pages in Chromium, on a site of its own whose rated games are made by
`manage.py shell` in its database (the API takes no `rated` yet) and played and rated by its
worker: the bots' leaderboard with a provisional "?" and its bar, a profile's chart named and
described for screen readers, a rated table's ratings and win chances; at a desktop's width and
a phone's, by role and accessible name, no console error."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from loadtest.server import ROOT

from .conftest import is_policy_violation, serve_site
from .support import save_screenshot, wait_until
from .test_accounts_browser import with_console_errors
from .test_rematch_browser import Console

#: Rated games of built-in bots, made in the site's database; prints their ids.
RATED_GAMES = """
from games import core
for seed in SEEDS:
    game = core.create_game(seats=2, options={"end_score": 1}, seed=seed, rated=True)
    for strategy in ("greedy", "statistician"):
        core.join_game(game.id, strategy, strategy)
    print(game.id)
"""
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def rated_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    """A site whose worker has played and rated three games of greedy and statistician, the
    third dealt once the first two were rated: its address and the games' ids."""
    database = f"sqlite:///{tmp_path_factory.mktemp('rated') / 'db.sqlite3'}"
    for site in serve_site(tmp_path_factory, DATABASE_URL=database):
        games = _rated_games(database, [0, 1])
        _wait_rated(site, 2)
        games += _rated_games(database, [2])
        _wait_rated(site, 3)
        yield site, games


def _rated_games(database: str, seeds: list[int]) -> list[str]:
    """Rated games of greedy and statistician dealt with `seeds` in the site's database (its
    worker plays them): their ids."""
    made = subprocess.run(
        [
            sys.executable,
            str(ROOT / "manage.py"),
            "shell",
            "-c",
            RATED_GAMES.replace("SEEDS", repr(seeds)),
        ],
        env={**os.environ, "DATABASE_URL": database, "LOG_LEVEL": "CRITICAL"},
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return made.stdout.split()


def _wait_rated(site: str, games: int) -> None:
    """Until greedy's profile charts `games` rated games."""

    def rated() -> bool:
        html = httpx.get(f"{site}/players/greedy", timeout=10).text
        return f"after each of {games} rated games" in html

    wait_until(rated, timeout=60, message=f"{games} games rated")


@pytest.fixture
def open_page(browser: Any, rated_site: tuple[str, list[str]]) -> Iterator[Any]:
    """Pages on `rated_site`, each in a context of its own, failing the test if the page's
    Content-Security-Policy refused anything."""
    contexts: list[Any] = []
    violations: list[str] = []

    def new(width: int = 1000, height: int = 800) -> Any:
        context = browser.new_context(
            base_url=rated_site[0], viewport={"width": width, "height": height}
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


def fits(page: Any) -> bool:
    """Nothing wider than the screen: no sideways scrolling on a phone."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("size", [{"width": 1000, "height": 800}, PHONE], ids=["desktop", "phone"])
def test_the_bots_leaderboard_shows_provisional_ratings_with_their_bars(
    open_page: Any, size: dict[str, int]
) -> None:
    page = open_page(**size)
    errors = with_console_errors(page)
    page.goto("/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Leaderboard").click()
    page.get_by_role("heading", name="Leaderboard", level=1).wait_for()
    assert page.get_by_text("No established rating yet").is_visible()
    page.get_by_role("navigation", name="Leaderboards").get_by_role("link", name="Bots").click()
    page.get_by_role("link", name="Show provisional").click()
    board = page.get_by_role("region", name="Bots, provisional ratings included")
    row = board.get_by_role("row").filter(has=page.get_by_role("link", name="greedy"))
    assert row.get_by_text("?", exact=True).is_visible()
    assert "(provisional)" in row.inner_text()  # the "?" in words, for screen readers
    bar = row.get_by_role("img", name=re.compile(r"^Skill \d+\.\d, likely between"))
    assert bar.is_visible() and bar.bounding_box()["width"] > 20
    assert fits(page)
    if size != PHONE:
        save_screenshot(page, "leaderboard")
    row.get_by_role("link", name="greedy").click()
    page.get_by_role("heading", name="greedy", level=1).wait_for()
    assert errors == []


def test_a_profile_charts_its_history_for_screen_readers(open_page: Any) -> None:
    page = open_page()
    errors = with_console_errors(page)
    page.goto("/players/greedy")
    chart = page.get_by_role("img", name="Rating history of greedy")
    assert chart.is_visible()
    description = chart.get_attribute("aria-describedby")
    assert description is not None
    words = page.locator(f"#{description}").text_content()
    assert words.startswith("Skill (mu) after each of 3 rated games")
    page.get_by_text("The history as a table").click()
    points = page.get_by_role("table", name="Rating after each rated game")
    assert points.get_by_role("row").count() == 4  # its head and a row per game
    recent = page.get_by_role("region", name="Recent rated games")
    assert recent.get_by_role("link", name=re.compile(r"^Game 3: rank [12] of 2$")).is_visible()
    save_screenshot(page, "profile")
    phone = open_page(**PHONE)
    phone.goto("/players/greedy")
    assert phone.get_by_role("img", name="Rating history of greedy").is_visible()
    assert fits(phone)
    assert errors == []


def test_a_rated_table_shows_each_seats_rating_and_win_chance(
    open_page: Any, rated_site: tuple[str, list[str]]
) -> None:
    page = open_page(**PHONE)
    console = Console(page)  # a finished game's stream closes after its last frame
    page.goto(f"/games/{rated_site[1][-1]}")  # the third game: each bot entered it rated
    entered = []
    assert page.get_by_text("Rated", exact=True).is_visible()
    for name in ("greedy", "statistician"):
        seat = page.get_by_role("region", name=name)
        found = re.search(r"rating (-?\d+\.\d)\?", seat.inner_text())
        assert found is not None
        entered.append(found[1])
        assert re.search(r"\d+% to win", seat.inner_text())
        assert re.search(r"rating change [-+±]\d+\.\d", seat.inner_text())
    chances = [int(text.split("%")[0]) for text in page.locator(".win-chance").all_inner_texts()]
    assert 99 <= sum(chances) <= 101
    assert entered != ["0.0", "0.0"] and chances != [50, 50]  # two rated games each before
    assert fits(page)
    save_screenshot(page, "table-rated")
    page.goto("/")
    assert page.get_by_text("Rated", exact=True).first.is_visible()  # in the lobby's lists
    assert console.unexpected() == []

"""Helpers of the browser tests: pages found by role and accessible name (the page's contract),
and games prepared through the API (what the test is not about) with engine players."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx

from engine import GreedyPlayer, action_to_data
from engine.view import view_from_data

from .conftest import SCREENSHOTS

FACE_DOWN = re.compile(r"face down$")
#: A card's accessible name: "Column 2, row 1: 7", "...: face down", "...: removed".
CELL_NAME = re.compile(r"^Column [1-4], row [1-3]: (-?\d+(, face down)?|face down|removed)$")


def version(page: Any) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def status(page: Any) -> str:
    return str(page.locator("#table").get_attribute("data-status"))


#: The table shows a version after `v` and its move's request has answered: a live update may
#: show a newer version first, and the table drops a click while a move is out (its form is
#: kept through updates: issue 25).
MOVE_DONE = """v => Number(document.getElementById('table').dataset.version) > v
  && !document.querySelector('#table form.htmx-request')"""


def click_and_wait(page: Any, control: Any) -> None:
    """Click a move's button and wait for the table to show the game's next version."""
    before = version(page)
    control.click()
    page.wait_for_function(MOVE_DONE, arg=before)


def my_cards(page: Any, name: str) -> Any:
    """The viewer's own grid: the region named "<name> (you)"."""
    return page.get_by_role("region", name=f"{name} (you)")


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def wait_until(condition: Any, timeout: float = 15, message: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout} s: {message}")


# Through the API: games prepared for what a test is about.

_clients: dict[str, httpx.Client] = {}


def _api(site: str) -> httpx.Client:
    """One kept-alive client per server: a game prepared is hundreds of requests."""
    if site not in _clients:
        _clients[site] = httpx.Client(base_url=f"{site}/api/v1", timeout=30)
    return _clients[site]


def _answer(response: httpx.Response, expected: int = 200) -> dict[str, Any]:
    assert response.status_code == expected, response.text
    data: dict[str, Any] = response.json()
    return data


def api_create(site: str, seats: int = 2, end_score: int = 100, seed: int | None = None) -> str:
    body: dict[str, Any] = {"seats": seats, "options": {"end_score": end_score}}
    if seed is not None:
        body["seed"] = seed
    return str(_answer(_api(site).post("/games", json=body), 201)["id"])


def api_join(site: str, game_id: str, name: str) -> str:
    answer = _api(site).post(f"/games/{game_id}/players", json={"name": name})
    return str(_answer(answer, 201)["token"])


def api_view(site: str, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return _answer(_api(site).get(f"/games/{game_id}", headers=headers))


def api_play(site: str, game_id: str, tokens: list[str], *, until: Any = None) -> None:
    """Play the seats of `tokens` with the engine's greedy player until `until(view)` holds
    (a view of one of them), or none of them has a move left (it is another seat's turn,
    or the game is over)."""
    player = GreedyPlayer()
    views = {token: api_view(site, game_id, token) for token in tokens}
    while True:
        token = next((t for t in tokens if views[t]["legal_actions"]), None)
        if token is None or (until is not None and until(views[token])):
            return
        action = action_to_data(player.choose(view_from_data(views[token])))
        headers = {"Authorization": f"Bearer {token}"}
        path = f"/games/{game_id}/actions"
        views[token] = _answer(_api(site).post(path, json=action, headers=headers))
        for other in tokens:
            if other != token and not views[token]["legal_actions"]:
                views[other] = api_view(site, game_id, other)

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


def caught_up(page: Any, site: str, game_id: str) -> None:
    """Until the page shows the game's latest version (moves made through the API): a click
    on a table still being re-read could be counted against the version before it."""
    latest = api_view(site, game_id)["version"]
    wait_until(lambda: version(page) == latest, message=f"the table at version {latest}")


def my_cards(page: Any, name: str) -> Any:
    """The viewer's own grid: the region named "<name> (you)"."""
    return page.get_by_role("region", name=f"{name} (you)")


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


#: What each `<time>` shows in a picture: a date and an hour that do not move between runs
#: (a duration, "waited 3 min", shows 1 of its unit).
FIXED_TIMES = r"""() => {
  const shapes = [
    [/\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\b/, "1 Jan 2026, 12:00"],
    [/\b\d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2}\b/, "1 January 2026, 12:00"],
    [/\b\d{1,2} [A-Z][a-z]+ \d{4}\b/, "1 January 2026"],
    [/\b\d{2}:\d{2}(:\d{2})?\b/, "12:00"],
    [/\d+/g, "1"],
  ];
  for (const time of document.querySelectorAll("time")) {
    const shape = shapes.find(([pattern]) => time.textContent.search(pattern) >= 0);
    if (shape) time.textContent = time.textContent.replace(shape[0], shape[1]);
  }
}"""


def save_screenshot(page: Any, name: str) -> bool:
    """Write `docs/img/<name>.png` (the README's and docs' pictures), the whole page, only if
    it differs from the file there, so that a test run does not rewrite the pictures for
    nothing (Chromium encodes the same pixels to the same bytes, so bytes are compared).
    The same page must give the same picture: motion reduced and CSS animations finished,
    the caret hidden, the mouse moved away (no hover), and every `<time>` showing a fixed
    date (the page's own times change with each run; a page saying how long something took
    or waited must say it in a `<time>` to be pictured). The caller's page shows seeded games
    with fixed names. Whether the file was written."""
    page.emulate_media(reduced_motion="reduce")
    page.mouse.move(0, 0)
    page.evaluate(FIXED_TIMES)
    png = page.screenshot(full_page=True, animations="disabled", caret="hide")
    page.emulate_media(reduced_motion="no-preference")
    path = SCREENSHOTS / f"{name}.png"
    if path.is_file() and path.read_bytes() == png:
        return False
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
    return True


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

"""Issue 25, "bots at a person's pace" (R15), on a server at the service's default pace: a
person plays a bot, and the bot's actions come one at a time, no sooner than the pace apart,
the first of them no sooner than the pace after the person's. Measured on the times the
service recorded for its events, not on the test's clock; the page shows the person's move,
with the bot to play, before the bot's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest

from .conftest import serve_site
from .support import button, click_and_wait, my_cards, status, wait_until
from .test_bots_clocks import create_from_lobby
from .test_play import first_face_down

#: The service's default pace (`SKYJO_BOT_PACE_MS`), as in production (the other tests' servers
#: play their bots at once).
PACE_MS = 700
#: The person's turns to play: each followed by a bot's turn of two or three actions.
TURNS = 2
#: The table's headline while the bot is to play.
BOTS_TURN = re.compile(r"Greedy bot\b.*'s turn")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own, at the default pace (`new_page` opens its pages)."""
    yield from serve_site(tmp_path_factory, SKYJO_BOT_PACE_MS=str(PACE_MS))


def actions(site: str, game_id: str) -> list[tuple[datetime, int | None]]:
    """The game's appends as the service recorded them, from the deal on: (time, the seat of
    its first event: the acting seat of an action). An action's events share its time."""
    answer = httpx.get(f"{site}/api/v1/games/{game_id}/events", params={"limit": 500})
    assert answer.status_code == 200, answer.text
    appends: dict[str, list[dict[str, Any]]] = {}
    for event in answer.json()["events"]:
        appends.setdefault(event["at"], []).append(event)
    found = list(appends.values())
    dealt = next(i for i, events in enumerate(found) if "RoundDealt" in {e["type"] for e in events})
    return [
        (datetime.fromisoformat(events[0]["at"]), events[0]["data"].get("seat"))
        for events in found[dealt:]
    ]


def test_a_bot_plays_no_faster_than_the_pace(new_page: Any, site: str) -> None:
    """Ada (seat 0) and a greedy bot (seat 1), dealt as the bot takes its seat: from the deal
    on, every bot action comes at least the pace after the append before it (the deal, Ada's
    action or its own), and Ada sees her move with the bot to play."""
    page = new_page()
    game_id = create_from_lobby(page, "Ada", **{"Seat 2": "Bot: greedy"})
    for _ in range(2):  # Ada's setup reveals (the bot's come at the pace meanwhile)
        click_and_wait(page, my_cards(page, "Ada").get_by_role("button").first)
    for turn in range(TURNS):
        wait_until(lambda: page.locator("#table form button").count(), message="Ada's turn")
        assert status(page) == "playing"
        click_and_wait(page, button(page, "Take discard" if turn % 2 else "Draw"))
        click_and_wait(page, first_face_down(page, "Ada"))
        # Her move is on the page, with the bot to play: the bot's comes no sooner than 0.7 s
        # after it, and its turn takes two actions at least.
        headline = page.get_by_role("heading", level=1).inner_text()
        assert BOTS_TURN.search(headline), headline
        assert not page.locator("#table form button").count()
    wait_until(lambda: page.locator("#table form button").count(), message="the bot's turn")
    played = actions(site, game_id)
    bots = [i for i, (_, seat) in enumerate(played) if seat == 1 and i > 0]
    after_ada = [i for i in bots if played[i - 1][1] == 0]
    assert len(bots) >= 2 + 2 * TURNS and len(after_ada) >= TURNS, played
    gaps = [(played[i][0] - played[i - 1][0]).total_seconds() for i in bots]
    assert min(gaps) >= PACE_MS / 1000, gaps

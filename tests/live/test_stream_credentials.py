"""A seat's stream, and its long poll, show only what the credential may see when each frame is
sent: once the token is rotated, the seat left (then taken by someone else), or handed to a
bot after timeouts, the stream ends before it sends anything more, and a waiting long poll
answers 401 rather than the seat's cards.

The change is made through `main`, the stream and the poll are held by `other` (another
process: on PostgreSQL it hears of the change by a notification, on SQLite by its poll), and
the stream is read without reconnecting, so every frame it sent is checked.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from httpx_sse import connect_sse

from .conftest import Servers, Tiers
from .support import (
    GAMES,
    Connection,
    Table,
    act,
    bearer,
    engine_game,
    frames,
    get_view,
    join,
    start_game,
    stream_url,
)

pytestmark = pytest.mark.usefixtures("listening")

SEED = 41
#: Seconds for `other` to end a stream, or answer a poll, once the game has moved on.
BOUND = 10.0


class HeldStream(threading.Thread):
    """One stream connection read on a thread until the server ends it, never resumed."""

    def __init__(self, server: str, game_id: str, token: str) -> None:
        super().__init__(daemon=True)
        self.server, self.game_id, self.token = server, game_id, token
        self.connection = Connection(None)
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with (
                httpx.Client(base_url=self.server, timeout=30) as client,
                connect_sse(
                    client, "GET", stream_url(self.game_id), headers=bearer(self.token)
                ) as source,
            ):
                for _ in frames(source, self.connection):
                    pass
                self.connection.closed_by_server = True
        except BaseException as error:  # reported in the test's thread
            self.error = error

    def started(self) -> None:
        """Wait until the first view arrived (the stream runs, its binding is taken)."""
        deadline = time.monotonic() + BOUND
        while not self._views() and time.monotonic() < deadline and self.is_alive():
            time.sleep(0.02)
        assert self._views(), f"the stream sent no view: {self.error!r}"

    def ended(self) -> Connection:
        self.join(BOUND)
        assert not self.is_alive(), "the stream went on after its seat changed hands"
        assert self.error is None, self.error
        return self.connection

    def _views(self) -> list[Any]:
        return [frame for frame in self.connection.frames if frame.event == "view"]


def held(tiers: Tiers, table: Table, seat: int) -> HeldStream:
    stream = HeldStream(tiers.other, table.game_id, table.tokens[seat])
    stream.start()
    stream.started()
    return stream


def latest_version(connection: Connection) -> int:
    """The newest version any frame of `connection` showed."""
    shown = [frame.data["version"] for frame in connection.frames if frame.event == "view"]
    return max([*shown, *(frame.id or 0 for frame in connection.events())])


def assert_nothing_after(connection: Connection, version: int) -> None:
    """No frame of `connection` is past `version`, and none shows a drawn card's value."""
    assert latest_version(connection) <= version, [f.event for f in connection.frames]
    for frame in connection.frames:
        assert frame.data.get("held_card") is None or frame.data["version"] <= version
        assert frame.event != "CardDrawn" or frame.data["data"]["value"] is None


def version_of(client: httpx.Client, table: Table) -> int:
    version: int = get_view(client, table.game_id, None)["version"]
    return version


def rotate(client: httpx.Client, table: Table, seat: int) -> Table:
    """The table with `seat`'s token replaced by a new one."""
    path = f"{GAMES}/{table.game_id}/players/{seat}/token"
    rotated = client.post(path, headers=bearer(table.tokens[seat]))
    assert rotated.status_code == 200, rotated.text
    tokens = list(table.tokens)
    tokens[seat] = rotated.json()["token"]
    return Table(table.game_id, tokens)


def leave(client: httpx.Client, table: Table, seat: int) -> None:
    path = f"{GAMES}/{table.game_id}/players/{seat}/leave"
    left = client.post(path, headers=bearer(table.tokens[seat]))
    assert left.status_code == 200, left.text


def play_until_seat_draws(client: httpx.Client, table: Table, seat: int) -> None:
    """The greedy game's actions, up to and including `seat`'s first draw (its private card)."""
    actions, _ = engine_game(2, SEED)
    for actor, action in actions:
        act(client, table.game_id, table.tokens[actor], action)
        if actor == seat and action.kind == "draw":
            return
    raise AssertionError("the seat never drew")


@pytest.mark.parametrize("place", ["rotated", "left"])
@pytest.mark.usefixtures("tiers_listening")
def test_a_stream_ends_when_its_seat_changes_hands_in_a_started_game(
    tiers: Tiers, client: httpx.Client, place: str
) -> None:
    table = start_game(client, 2, seed=SEED)
    stream = held(tiers, table, 0)
    if place == "rotated":
        table = rotate(client, table, 0)
        changed = version_of(client, table)
        play_until_seat_draws(client, table, 0)
    else:
        changed = version_of(client, table)
        leave(client, table, 0)
        act(client, table.game_id, table.tokens[1], {"action": "reveal", "column": 0, "row": 0})
    assert_nothing_after(stream.ended(), changed)


@pytest.mark.usefixtures("tiers_listening")
def test_a_stream_of_a_seat_left_in_a_waiting_game_shows_nothing_of_its_next_holder(
    tiers: Tiers, client: httpx.Client
) -> None:
    created = client.post(GAMES, json={"seats": 2, "seed": SEED, "options": {"end_score": 1}})
    game_id = created.json()["id"]
    leaver = Table(game_id, [join(client, game_id, "Leaver")])
    stream = held(tiers, leaver, 0)
    changed = version_of(client, leaver)
    leave(client, leaver, 0)
    table = Table(game_id, [join(client, game_id, f"Player {seat}") for seat in range(2)])
    play_until_seat_draws(client, table, 0)  # the newcomer holds seat 0 and draws
    assert_nothing_after(stream.ended(), changed)


@pytest.mark.usefixtures("tiers_listening")
def test_a_stream_ends_when_its_seat_is_handed_to_a_bot(tiers: Tiers, client: httpx.Client) -> None:
    options = {"end_score": 1, "turn_seconds": 5, "max_timeouts": 1}
    created = client.post(GAMES, json={"seats": 2, "seed": SEED, "options": options})
    game_id = created.json()["id"]
    table = Table(game_id, [join(client, game_id, f"Player {seat}") for seat in range(2)])
    stream = held(tiers, table, 0)
    changed = version_of(client, table)
    for column in (0, 1):  # seat 1 reveals in time; seat 0 lets its setup run out
        act(client, game_id, table.tokens[1], {"action": "reveal", "column": column, "row": 0})
    deadline = time.monotonic() + 20
    while "SeatAbandoned" not in event_types(client, game_id):
        assert time.monotonic() < deadline, "seat 0 was never handed to a bot"
        time.sleep(0.5)
    connection = stream.ended()
    assert latest_version(connection) < changed + 3  # at most seat 1's reveals
    assert "SeatAbandoned" not in [frame.event for frame in connection.events()]


def event_types(client: httpx.Client, game_id: str) -> list[str]:
    events = client.get(f"{GAMES}/{game_id}/events", params={"limit": 1000}).json()["events"]
    return [event["type"] for event in events]


@pytest.mark.parametrize("change", ["rotate", "leave"])
def test_a_waiting_long_poll_answers_401_once_its_token_stands_for_no_seat(
    servers: Servers, client: httpx.Client, change: str
) -> None:
    table = start_game(client, 2, seed=SEED)
    after = version_of(client, table)
    answers: list[httpx.Response] = []
    poll = threading.Thread(target=long_poll, args=(servers, table, after, answers.append))
    poll.start()
    time.sleep(0.5)  # the poll waits
    if change == "rotate":
        rotate(client, table, 0)
    else:
        leave(client, table, 0)
    act(client, table.game_id, table.tokens[1], {"action": "reveal", "column": 0, "row": 0})
    poll.join(BOUND)
    assert answers, "the long poll did not answer"
    assert answers[0].status_code == 401, answers[0].text
    assert answers[0].json()["code"] == "invalid_token"


def long_poll(
    servers: Servers, table: Table, after: int, answer: Callable[[httpx.Response], None]
) -> None:
    with httpx.Client(base_url=servers.other.url, timeout=30) as other:
        path = f"{GAMES}/{table.game_id}/events"
        query = {"after": after, "wait": 20}
        answer(other.get(path, params=query, headers=bearer(table.tokens[0])))

"""A game's chat on its stream, against real servers: each viewer's stream carries the
messages of the rooms it may read as `chat` frames, in order and each once across the
reconnections the server forces and at every point a client resumes from (its frames' ids
`<event>:<chat>`, sent back as `Last-Event-ID` or `?after=`); a spectator's stream never
carries the players' room while the game is on, and no chat frame carries anything of a
seat's view; a message written through one server reaches a stream held by another."""

from __future__ import annotations

import itertools
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from httpx_sse import connect_sse

from games.live.chat_stream import parse_cursor

from .conftest import BOUND, Tiers
from .support import GAMES, act, bearer, engine_game, get_view, start_game, stream_url

#: What a chat frame's data holds: the message as `GET /chat` lists it, nothing more.
MESSAGE_KEYS = {"sequence", "room", "name", "account", "text", "at"}
Message = dict[str, Any]


@dataclass(frozen=True)
class Frame:
    event: str
    id: str | None
    data: Any


@dataclass(eq=False)  # a thread: hashed by identity
class ChatFollower(threading.Thread):
    """A viewer's stream read on a thread until `enough(chat frames)` or `seconds` pass,
    resuming as an EventSource does (`Last-Event-ID`: the last id received) whenever the
    server ends it; `chop`: it also closes the stream itself after each chat frame and resumes
    after that frame, alternately by `Last-Event-ID` and by `?after=`."""

    base_url: str
    game_id: str
    token: str | None
    enough: Callable[[list[Message]], bool]
    chop: bool = False
    seconds: float = 40
    frames: list[list[Frame]] = field(default_factory=list)
    error: BaseException | None = None

    def __post_init__(self) -> None:
        super().__init__(daemon=True)

    def chat(self) -> list[Message]:
        return [f.data for connection in self.frames for f in connection if f.event == "chat"]

    def run(self) -> None:
        deadline = time.monotonic() + self.seconds
        resume: str | None = None
        try:
            with httpx.Client(base_url=self.base_url, timeout=10) as client:
                while not self.enough(self.chat()):
                    assert time.monotonic() < deadline, f"not enough chat: {self.chat()}"
                    resume = self._read(client, resume)
        except BaseException as error:  # reported by `finish`, in the test's thread
            self.error = error

    def _read(self, client: httpx.Client, resume: str | None) -> str | None:
        """One connection; where to resume."""
        connection: list[Frame] = []
        self.frames.append(connection)
        headers, query = bearer(self.token), {}
        if resume is not None and self.chop and len(self.frames) % 2:
            query["after"] = resume
        elif resume is not None:
            headers["Last-Event-ID"] = resume
        url = stream_url(self.game_id)
        with connect_sse(client, "GET", url, headers=headers, params=query) as source:
            assert source.response.status_code == 200, source.response.read()
            for sse in source.iter_sse():
                if not sse.data:
                    continue
                named = sse.event not in ("view", "skipped")
                connection.append(Frame(sse.event, sse.id if named else None, json.loads(sse.data)))
                resume = sse.id if named else resume
                if sse.event == "chat" and (self.chop or self.enough(self.chat())):
                    return resume
        return resume

    def finish(self, timeout: float = 60) -> list[list[Frame]]:
        self.join(timeout)
        assert not self.is_alive(), "the follower is still reading"
        if self.error is not None:
            raise self.error
        return self.frames


def sign_up(client: httpx.Client) -> tuple[str, str]:
    """A new bot account over HTTP: its handle and token (every scope)."""
    handle = f"chat{secrets.token_hex(6)}"
    made = client.post("/api/v1/accounts", json={"handle": handle, "kind": "bot"})
    assert made.status_code == 201, made.text
    return handle, made.json()["token"]


def post(client: httpx.Client, game_id: str, token: str, room: str, text: str) -> Message:
    answer = client.post(
        f"{GAMES}/{game_id}/chat", json={"room": room, "text": text}, headers=bearer(token)
    )
    assert answer.status_code == 201, answer.text
    message: Message = answer.json()
    return message


def listed(client: httpx.Client, game_id: str, token: str | None) -> list[Message]:
    answer = client.get(f"{GAMES}/{game_id}/chat", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    messages: list[Message] = answer.json()["messages"]
    return messages


def sequences(messages: list[Message]) -> list[int]:
    return [message["sequence"] for message in messages]


def check_ids(connections: list[list[Frame]]) -> None:
    """Each connection's ids move on, events and chat each by themselves, and the chat part
    of a chat frame's id is its message's number."""
    for connection in connections:
        places = [(frame, parse_cursor(frame.id)) for frame in connection if frame.id]
        assert all(place is not None for _, place in places), places
        for (_, before), (_, after) in itertools.pairwise(places):
            assert before is not None and after is not None
            assert (after.events, after.chat) >= (before.events, before.chat)
        for frame, place in places:
            if frame.event == "chat":
                assert place is not None and place.chat == frame.data["sequence"]


def test_every_viewer_gets_its_rooms_once_and_in_order_across_reconnects(
    tiers: Tiers, client: httpx.Client
) -> None:
    """On `main` a stream lasts 3 s: the messages, written over several seconds between the
    game's moves, cross the reconnections; the chopping followers resume after every one."""
    actions, _ = engine_game(2, seed=21)
    table = start_game(client, 2, seed=21)
    _, eve = sign_up(client)
    ada, bob = table.tokens
    script = [
        (ada, "players", "good luck"),
        (eve, "spectators", "go go"),
        (bob, "players", "you too"),
        (ada, "spectators", "hi watchers"),
        (bob, "players", "<b>not bold</b>"),
        (eve, "spectators", "nice move"),
        (ada, "players", "thanks"),
        (eve, "spectators", "\u00e9t\u00e9 \U0001f600"),
    ]
    spectators_room = [number for number, (_, room, _) in enumerate(script, 1) if room != "players"]
    everything = list(range(1, len(script) + 1))

    def seat_done(chat: list[Message]) -> bool:
        return len(chat) >= len(script)

    def spectator_done(chat: list[Message]) -> bool:
        return len(chat) >= len(spectators_room)

    url = tiers.main
    followers = [
        ChatFollower(url, table.game_id, ada, seat_done),
        ChatFollower(url, table.game_id, None, spectator_done),
        ChatFollower(url, table.game_id, bob, seat_done, chop=True),
        ChatFollower(url, table.game_id, None, spectator_done, chop=True),
    ]
    for follower in followers:
        follower.start()
    moves = iter(actions)
    for sender, room, text in script:
        post(client, table.game_id, sender, room, text)
        seat, action = next(moves)
        act(client, table.game_id, table.tokens[seat], action)
        time.sleep(0.6)
    for follower in followers:
        follower.finish()
    seat_list, spectator_list = (
        listed(client, table.game_id, ada),
        listed(client, table.game_id, None),
    )
    assert sequences(seat_list) == everything
    assert sequences(spectator_list) == spectators_room
    for follower, expected in zip(followers, [seat_list, spectator_list] * 2, strict=True):
        assert follower.chat() == expected  # each once, in order, as the list shows them
        check_ids(follower.frames)
        if not follower.chop:
            assert len(follower.frames) >= 2, "the server never closed the stream"
        else:
            assert len(follower.frames) >= len(expected)
        events = [
            parse_cursor(frame.id).events  # type: ignore[union-attr]
            for connection in follower.frames
            for frame in connection
            if frame.id and frame.event != "chat"
        ]
        assert events == list(range(1, len(events) + 1))  # each event once too


def test_no_chat_frame_carries_a_view_nor_the_players_room_to_a_spectator(
    tiers: Tiers, client: httpx.Client
) -> None:
    """While a seat holds a card drawn from the deck (which only its own view shows), each
    viewer's chat frames are the very messages the list shows, the same bytes for all."""
    actions, _ = engine_game(2, seed=22)
    table = start_game(client, 2, seed=22)
    _, eve = sign_up(client)
    for seat, action in actions:
        act(client, table.game_id, table.tokens[seat], action)
        view = get_view(client, table.game_id, table.tokens[seat])
        if view["held_card"] is not None and view["held_card"]["source"] == "deck":
            holder = seat
            break
    else:
        pytest.fail("no card was drawn from the deck")
    secret = view["held_card"]["value"]
    post(client, table.game_id, table.tokens[holder], "players", f"I hold a {secret}? Guess.")
    post(client, table.game_id, eve, "spectators", "What does it hold?")
    post(client, table.game_id, table.tokens[1 - holder], "spectators", "Hello spectators")
    followers = [
        ChatFollower(tiers.main, table.game_id, token, lambda chat, n=n: len(chat) >= n)
        for token, n in ((table.tokens[holder], 3), (table.tokens[1 - holder], 3), (None, 2))
    ]
    for follower in followers:
        follower.start()
    shown = [follower.finish() for follower in followers]
    for connections in shown:
        for frame in (f for connection in connections for f in connection if f.event == "chat"):
            assert set(frame.data) == MESSAGE_KEYS
            assert "held_card" not in json.dumps(frame.data)
    spectator_chat = followers[2].chat()
    assert [message["room"] for message in spectator_chat] == ["spectators", "spectators"]
    seats_list = listed(client, table.game_id, table.tokens[0])
    assert followers[0].chat() == followers[1].chat() == seats_list
    assert listed(client, table.game_id, eve) == spectator_chat
    assert spectator_chat == [m for m in followers[0].chat() if m["room"] == "spectators"]


@pytest.mark.usefixtures("tiers_listening")
def test_a_message_through_one_server_reaches_a_stream_held_by_another(
    tiers: Tiers, client: httpx.Client
) -> None:
    """On PostgreSQL `other` polls every 30 s: only the notification delivers in time."""
    table = start_game(client, 2, seed=23)
    arrivals: dict[int, float] = {}
    count = 4

    def arrived(chat: list[Message]) -> bool:
        for message in chat:
            arrivals.setdefault(message["sequence"], time.monotonic())
        return len(chat) >= count

    follower = ChatFollower(tiers.other, table.game_id, table.tokens[0], arrived)
    follower.start()
    time.sleep(0.5)  # the stream is open (its first batch sent)
    delays = []
    for number in range(count):
        sent = post(client, table.game_id, table.tokens[number % 2], "players", f"m{number}")
        answered = time.monotonic()
        deadline = answered + 10
        while sent["sequence"] not in arrivals and time.monotonic() < deadline:
            time.sleep(0.01)
        delays.append(arrivals.get(sent["sequence"], deadline) - answered)
    follower.finish()
    shown = sorted(round(delay * 1000) for delay in delays)
    print(f"message to frame in another process: {shown} ms")
    assert max(delays) < BOUND, shown
    assert sequences(follower.chat()) == [1, 2, 3, 4]


def test_once_the_game_is_over_everyone_reads_the_players_room(
    tiers: Tiers, client: httpx.Client
) -> None:
    actions, _ = engine_game(2, seed=24)
    table = start_game(client, 2, seed=24)
    post(client, table.game_id, table.tokens[0], "players", "while we play")
    for seat, action in actions:
        act(client, table.game_id, table.tokens[seat], action)
    post(client, table.game_id, table.tokens[1], "players", "gg")
    with (
        httpx.Client(base_url=tiers.main, timeout=10) as reader,
        connect_sse(reader, "GET", stream_url(table.game_id)) as source,
    ):
        frames = [(sse.event, sse.id, sse.data) for sse in source.iter_sse() if sse.data]
    chat = [json.loads(data) for event, _, data in frames if event == "chat"]
    assert [message["text"] for message in chat] == ["while we play", "gg"]
    last_event = max(int(sse_id.split(":")[0]) for event, sse_id, _ in frames if event != "view")
    assert [sse_id for event, sse_id, _ in frames if event == "chat"] == [
        f"{last_event}:1",
        f"{last_event}:2",
    ]

"""The hub knows each watched game's chat beside its version: a new message wakes the game's
waiters, whether this process wrote it (`chat_written`), another told of it (PostgreSQL's
`CHAT_CHANNEL`), or the poll found it (SQLite's way across processes)."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from rest_framework.test import APIClient

import play
from games.live.chat_stream import Cursor, parse_cursor
from games.live.fanout import Hub, hub
from tests.api.chat_support import said
from tests.api.support import start_game


def quiet_hub() -> Hub:
    """A hub without its poller and listener threads: the test tells it everything."""
    quiet = Hub()
    quiet._started = True
    return quiet


def test_a_message_wakes_the_game_s_waiters_and_an_old_one_does_not() -> None:
    watcher, game = quiet_hub(), uuid.uuid4()
    with watcher.watching(game, 5):
        woke: list[bool] = []
        waiter = threading.Thread(target=lambda: woke.append(watcher.wait_for_news(game, 5, 0, 5)))
        started = time.monotonic()
        waiter.start()
        time.sleep(0.1)
        watcher.publish_chat(game, 1)
        waiter.join(2)
        assert woke == [True] and time.monotonic() - started < 1
        assert watcher.wait_for_news(game, 5, 1, 0.05) is False  # nothing past the cursor
        watcher.publish_chat(game, 1)  # no news
        assert watcher.known_chat(game) == 1 and watcher.known_version(game) == 5
        watcher.publish(game, 6)  # a move wakes them too
        assert watcher.wait_for_news(game, 5, 1, 0.05) is True
    assert watcher.known_chat(game) == 0  # no longer watched


def test_another_process_s_notification_is_heard() -> None:
    watcher, game = quiet_hub(), uuid.uuid4()
    with watcher.watching(game, 3):
        watcher._heard(f"{game} 4", play.CHAT_CHANNEL)
        assert (watcher.known_version(game), watcher.known_chat(game)) == (3, 4)
        watcher._heard("not a game 4", play.CHAT_CHANNEL)  # ignored, logged
        assert watcher.known_chat(game) == 4


@pytest.mark.django_db
def test_the_poll_finds_the_chat_of_the_watched_games(api: APIClient) -> None:
    game_id, tokens = start_game(api)
    said(api, game_id, tokens[0], "players", "one")
    said(api, game_id, tokens[1], "players", "two")
    watcher, game = quiet_hub(), uuid.UUID(game_id)
    with watcher.watching(game, 0):
        watcher._poll_once()
        assert watcher.known_chat(game) == 2


@pytest.mark.django_db
def test_a_message_written_here_wakes_this_process_s_streams(
    api: APIClient, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`chat_written`, connected in games.apps, publishes to this process's hub on commit."""
    game_id, tokens = start_game(api)
    game = uuid.UUID(game_id)
    monkeypatch.setattr(hub, "_start_once", lambda: None)  # no poll: the signal alone
    with hub.watching(game, 0):
        with django_capture_on_commit_callbacks(execute=False) as committed:
            message = said(api, game_id, tokens[0], "players", "hello")
        assert hub.known_chat(game) == 0  # not before the commit
        for callback in committed:
            callback()
        assert hub.known_chat(game) == message["sequence"] == 1


@pytest.mark.parametrize(
    ("text", "cursor"),
    [
        ("0", Cursor(0, 0)),
        ("17", Cursor(17, 0)),
        ("17:3", Cursor(17, 3)),
        (" 17:3\t", Cursor(17, 3)),
        ("2147483647:2147483647", Cursor(2**31 - 1, 2**31 - 1)),
        ("1.5", None),
        ("17:", None),
        (":3", None),
        ("-1", None),
        ("17:3:1", None),
        ("2147483648", None),
        ("1:2147483648", None),
        ("١٢", None),
    ],
)
def test_a_frame_s_id_reads_back_as_the_stream_s_place(text: str, cursor: Cursor | None) -> None:
    assert parse_cursor(text) == cursor
    if cursor is not None:
        assert parse_cursor(cursor.frame_id) == cursor
        assert cursor.frame_id == (str(cursor.events) if not cursor.chat else text.strip())

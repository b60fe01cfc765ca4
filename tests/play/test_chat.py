"""The chat's use cases, called directly: who reads which room, what a text may hold, the
numbering of concurrent writers (one log per game, no gap, no number twice), and the
announcement of a message once it commits (in this process, and to the others on PostgreSQL).
"""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest
from django.db import connection, connections, transaction
from rest_framework.test import APIClient

import play
from accounts.credentials import resolve
from games.core.errors import InvalidRequest
from games.core.tokens import SeatCredential
from play.errors import ChatLimitReached, ChatThrottled
from play.models import ChatMessage
from tests.api.chat_support import personal_token
from tests.api.support import start_game


@pytest.mark.parametrize(
    ("seat", "ended", "rooms"),
    [
        (0, False, ["players", "spectators"]),
        (3, True, ["players", "spectators"]),
        (None, False, ["spectators"]),
        (None, True, ["players", "spectators"]),
    ],
)
def test_who_reads_which_room(seat: int | None, ended: bool, rooms: list[str]) -> None:
    assert play.readable_rooms(seat, ended) == rooms


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("  hello  ", "hello"),
        ("\u00a0spaces of every kind\u3000", "spaces of every kind"),
        ("Cafe\u0301", "Café"),
        ("<script>alert(1)</script>", "<script>alert(1)</script>"),  # escaped where shown
        ("x" * 280, "x" * 280),
        (" " + "x" * 280 + "\n", "x" * 280),  # what is around is not counted
    ],
)
def test_a_text_is_normalized(text: str, kept: str) -> None:
    assert play.clean_text(text) == kept


@pytest.mark.parametrize(
    "text", ["", "   ", "x" * 281, "a\nb", "a\rb", "a\x00b", "a\x1bb", "a\u2066b\u2069", "\u2029"]
)
def test_a_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        play.clean_text(text)
    assert list(refused.value.extra["errors"]) == ["text"]


@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_number_the_game_s_chat_without_gap(api: APIClient) -> None:
    """Eight seats and two spectators' accounts write three messages each at once: every
    message is numbered, 1 to 30, each number once, and each sender's in its own order."""
    game_id, tokens = start_game(api, 8)
    credentials: list[Any] = [SeatCredential(token) for token in tokens]
    credentials += [resolve(personal_token(handle)) for handle in ("eve", "mallory")]
    authors = [play.writer(game_id, credential) for credential in credentials]
    barrier = threading.Barrier(len(authors))
    failures: list[BaseException] = []

    def talk(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            for number in range(3):
                play.post_message(authors[index], "spectators", f"{index}.{number}")
        except BaseException as error:
            failures.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=talk, args=(i,)) for i in range(len(authors))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    rows = list(ChatMessage.objects.filter(game_id=game_id).order_by("sequence"))
    assert [row.sequence for row in rows] == list(range(1, 31))
    for index in range(len(authors)):
        mine = [row.text for row in rows if row.text.startswith(f"{index}.")]
        assert mine == [f"{index}.{number}" for number in range(3)]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("limit", "refusal"),
    [("SKYJO_CHAT_BURST", ChatThrottled), ("SKYJO_CHAT_MAX_PER_GAME", ChatLimitReached)],
)
def test_a_sender_writing_at_once_cannot_pass_its_limits(
    api: APIClient, settings: Any, limit: str, refusal: type[Exception]
) -> None:
    """One seat sends eight messages at once, from eight connections: the game's chat lock
    is taken before its messages are counted, so the limit (3 here) lets three through and
    refuses the others, however they interleave (on PostgreSQL; SQLite's writers take
    turns)."""
    settings.SKYJO_CHAT_BURST, settings.SKYJO_CHAT_MAX_PER_GAME = 1000, 1000
    setattr(settings, limit, 3)
    game_id, tokens = start_game(api)
    author = play.writer(game_id, SeatCredential(tokens[0]))
    barrier = threading.Barrier(8)
    answers: list[Any] = [None] * 8

    def talk(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            answers[index] = play.post_message(author, "players", f"message {index}")
        except Exception as error:
            answers[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=talk, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    refused = [answer for answer in answers if isinstance(answer, Exception)]
    assert len(refused) == 5 and all(isinstance(error, refusal) for error in refused), answers
    assert ChatMessage.objects.filter(game_id=game_id).count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_message_is_announced_once_committed_and_never_when_rolled_back(
    api: APIClient,
) -> None:
    game_id, tokens = start_game(api)
    author = play.writer(game_id, SeatCredential(tokens[0]))
    heard: list[tuple[Any, int]] = []

    def listener(*, game_id: Any, sequence: int, **_: Any) -> None:
        heard.append((game_id, sequence))

    play.chat_written.connect(listener)
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            play.post_message(author, "players", "never said")
            assert heard == []  # not before the commit
            raise RuntimeError("the request failed after the message")
        assert heard == [] and not ChatMessage.objects.exists()
        play.post_message(author, "players", "said")
    finally:
        play.chat_written.disconnect(listener)
    assert [(str(game), sequence) for game, sequence in heard] == [(game_id, 1)]


@pytest.mark.django_db(transaction=True)
def test_postgresql_tells_the_other_processes(api: APIClient) -> None:
    """What a process listening on `CHAT_CHANNEL` hears: `<game> <sequence>`, once committed."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's notifications only (SQLite's other processes poll)")
    game_id, tokens = start_game(api)
    params = dict(connection.get_connection_params())
    for django_only in ("cursor_factory", "context", "prepare_threshold", "pool"):
        params.pop(django_only, None)
    with psycopg.connect(**params, autocommit=True) as listener:
        listener.execute(f"LISTEN {play.CHAT_CHANNEL}")
        author = play.writer(game_id, SeatCredential(tokens[1]))
        play.post_message(author, "spectators", "hello, other processes")
        heard = [(n.channel, n.payload) for n in listener.notifies(timeout=5, stop_after=1)]
    assert heard == [(play.CHAT_CHANNEL, f"{game_id} 1")]

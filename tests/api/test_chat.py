"""A game's chat over HTTP: who reads and writes each room, before and after the game's end;
every refusal (unknown game, no account, another's room, muted, too long, empty, control
characters, rate limited); mutes; idempotent writes; and a chat that leaves the game's log,
history and audit as they were."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Account
from games import core
from games.models import GameEvent
from tests.api.chat_support import (
    chat_url,
    mute_url,
    personal_token,
    read,
    said,
    say,
    texts,
)
from tests.api.support import (
    GAMES,
    assert_problem,
    bearer,
    create_game,
    finished_game,
    join,
    start_game,
)

pytestmark = pytest.mark.django_db

UNKNOWN = "00000000-0000-4000-8000-000000000000"


def account_token(handle: str, *scopes: str) -> str:
    """Another personal token of the account `handle`, holding only `scopes`."""
    account = Account.objects.get(handle=handle)
    return services.create_token(services.session_credential(account), "narrow", list(scopes)).token


def test_seats_talk_in_their_room_and_spectators_in_theirs(api: APIClient) -> None:
    game_id, (ada, bob) = start_game(api)
    eve = personal_token("eve")
    first = said(api, game_id, ada, "players", "Good luck!")
    said(api, game_id, bob, "players", "You too")
    said(api, game_id, eve, "spectators", "Go Bob")
    said(api, game_id, ada, "spectators", "Thanks for watching")
    assert first == {
        "sequence": 1,
        "room": "players",
        "name": "Player 0",
        "account": None,
        "text": "Good luck!",
        "at": first["at"],
    }
    everything = ["Good luck!", "You too", "Go Bob", "Thanks for watching"]
    assert texts(api, game_id, ada) == texts(api, game_id, bob) == everything
    assert texts(api, game_id, bob, room="players") == ["Good luck!", "You too"]
    # A spectator, with an account or without, reads the spectators' room alone.
    assert texts(api, game_id) == texts(api, game_id, eve) == ["Go Bob", "Thanks for watching"]
    messages = read(api, game_id).json()["messages"]
    assert [m["sequence"] for m in messages] == [3, 4]  # one numbering across both rooms
    assert messages[0]["name"] == "eve" and messages[0]["account"] == "eve"


def test_the_players_room_opens_to_everyone_once_the_game_is_finished(api: APIClient) -> None:
    game_id, tokens = start_game(api, seed=3, end_score=1)
    said(api, game_id, tokens[0], "players", "Hidden while we play")
    refused = read(api, game_id, room="players")
    assert "players" in assert_problem(refused, 403, "chat_room_forbidden")["detail"]
    game_id, tokens = finished_game(api)
    said(api, game_id, tokens[1], "players", "gg")
    assert texts(api, game_id, room="players") == ["gg"]
    assert texts(api, game_id) == ["gg"]
    assert_problem(say(api, game_id, personal_token("eve"), "players", "me too"), 403,
                   "chat_room_forbidden")  # fmt: skip


def test_the_players_room_opens_once_the_game_is_canceled(api: APIClient) -> None:
    game = create_game(api, 3)
    ada = join(api, game["id"], "Ada")["token"]
    said(api, game["id"], ada, "players", "Anyone?")
    assert_problem(read(api, game["id"], room="players"), 403, "chat_room_forbidden")
    core.cancel_game(game["id"], "canceled")
    assert texts(api, game["id"]) == ["Anyone?"]


def test_an_account_seated_writes_as_its_seat(api: APIClient) -> None:
    token = personal_token("ada")
    game = create_game(api, 2)["id"]
    seated = api.post(f"{GAMES}/{game}/players", {}, format="json", **bearer(token))
    assert seated.status_code == 201
    join(api, game, "Bob")
    message = said(api, game, token, "players", "Hello Bob")
    assert (message["name"], message["account"], message["room"]) == ("ada", "ada", "players")
    assert texts(api, game, token, room="players") == ["Hello Bob"]


def test_a_token_without_the_chat_s_scopes_reads_as_an_anonymous_spectator(
    api: APIClient,
) -> None:
    """A personal token with neither `chat:write` nor `play` reads what anyone reads (the
    spectators' room; the players' once the game is over), even its account's seat's game;
    it still may not write."""
    ada = personal_token("ada")
    narrow = account_token("ada", "account:read")
    game = create_game(api, 3)["id"]  # waiting, to be called off below
    seated = api.post(f"{GAMES}/{game}/players", {}, format="json", **bearer(ada))
    assert seated.status_code == 201
    bob = join(api, game, "Bob")["token"]
    said(api, game, bob, "players", "Seats only")
    said(api, game, bob, "spectators", "For everyone")
    assert texts(api, game, narrow) == ["For everyone"]
    answer = read(api, game, narrow).json()
    assert answer["muted"] == []
    assert_problem(read(api, game, narrow, room="players"), 403, "chat_room_forbidden")
    refused = assert_problem(say(api, game, narrow, "spectators", "hi"), 403, "missing_scope")
    assert refused["required_scope"] == "chat:write"
    core.cancel_game(game, "canceled")
    assert texts(api, game, narrow) == ["Seats only", "For everyone"]


def test_refusals_of_who_is_asking(api: APIClient) -> None:
    game_id, (ada, _) = start_game(api)
    assert_problem(say(api, UNKNOWN, ada, "players", "hi"), 404, "game_not_found")
    assert_problem(say(api, "not-a-game", None, "spectators", "hi"), 404, "game_not_found")
    assert_problem(read(api, UNKNOWN), 404, "game_not_found")
    guest = say(api, game_id, None, "spectators", "hi")
    assert "chat:write" in assert_problem(guest, 401, "account_token_required")["detail"]
    assert_problem(say(api, game_id, "x" * 43, "players", "hi"), 401, "invalid_token")
    other_game, (carol, _) = start_game(api)
    assert_problem(say(api, game_id, carol, "players", "wrong game"), 401, "invalid_token")
    eve = personal_token("eve")
    assert_problem(say(api, game_id, eve, "players", "let me in"), 403, "chat_room_forbidden")
    reader = personal_token("rita", "account:read")
    refused = assert_problem(say(api, game_id, reader, "spectators", "hi"), 403, "missing_scope")
    assert refused["required_scope"] == "chat:write"
    assert texts(api, game_id, ada) == [] and texts(api, other_game, carol) == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("x" * 281, "281 characters"),
        ("", "empty"),
        (" \t ", "only spaces"),
        ("line one\nline two", "a line break inside"),
        ("tab\there", "a tab inside"),
        ("bell\x07", "a control character"),
        ("abc\u202edef", "a direction override"),
        ("\u2028", "a line separator"),
    ],
)
def test_a_text_that_is_not_one_is_refused(api: APIClient, text: str, why: str) -> None:
    game_id, (ada, _) = start_game(api)
    refused = assert_problem(say(api, game_id, ada, "players", text), 400, "invalid_request")
    assert "text" in refused["errors"], why
    assert texts(api, game_id, ada) == []


def test_a_lone_surrogate_is_refused(api: APIClient) -> None:
    """JSON may escape one (`\\ud800`), which no UTF-8 text can hold: the body's parser
    refuses it before the chat sees it."""
    game_id, (ada, _) = start_game(api)
    body = '{"room": "players", "text": "a\\ud800b"}'
    sent = api.post(chat_url(game_id), body, content_type="application/json", **bearer(ada))
    assert_problem(sent, 400, "invalid_request")
    assert texts(api, game_id, ada) == []


def test_other_malformed_bodies_are_refused(api: APIClient) -> None:
    game_id, (ada, _) = start_game(api)
    for body in ({"room": "lobby", "text": "hi"}, {"text": "hi"}, {"room": "players", "text": 7},
                 {"room": "players", "text": "hi", "to": "bob"}):  # fmt: skip
        refused = api.post(chat_url(game_id), body, format="json", **bearer(ada))
        assert assert_problem(refused, 400, "invalid_request")["errors"], body
    assert_problem(read(api, game_id, ada, room="lobby"), 400, "invalid_request")
    assert_problem(read(api, game_id, ada, limit=501), 400, "invalid_request")


def test_a_text_is_kept_normalized(api: APIClient) -> None:
    game_id, (ada, _) = start_game(api)
    assert said(api, game_id, ada, "players", "  Cafe\u0301 \u00e0 deux  ")["text"] == "Café à deux"
    assert said(api, game_id, ada, "players", "é" * 280)["text"] == "é" * 280
    decomposed = "e\u0301" * 280  # 560 code points, 280 once composed
    assert said(api, game_id, ada, "players", decomposed)["text"] == "é" * 280
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467 <b>&amp;</b>"  # joiners are no controls
    assert said(api, game_id, ada, "players", family)["text"] == family


def test_a_seat_mutes_a_room_for_itself(api: APIClient) -> None:
    game_id, (ada, bob) = start_game(api)
    eve = personal_token("eve")
    said(api, game_id, eve, "spectators", "Boo")
    said(api, game_id, bob, "players", "Ignore them")
    assert api.put(mute_url(game_id, "spectators"), **bearer(ada)).status_code == 204
    assert api.put(mute_url(game_id, "spectators"), **bearer(ada)).status_code == 204  # again
    answer = read(api, game_id, ada).json()
    assert [m["text"] for m in answer["messages"]] == ["Ignore them"]
    assert answer["muted"] == ["spectators"]
    assert read(api, game_id, ada, room="spectators").json()["messages"] == []
    muted = assert_problem(say(api, game_id, ada, "spectators", "hey"), 409, "room_muted")
    assert muted["room"] == "spectators"
    # Bob's seat and the spectators read as before.
    assert texts(api, game_id, bob) == ["Boo", "Ignore them"]
    assert read(api, game_id, bob).json()["muted"] == []
    assert api.delete(mute_url(game_id, "spectators"), **bearer(ada)).status_code == 204
    assert api.delete(mute_url(game_id, "spectators"), **bearer(ada)).status_code == 204
    said(api, game_id, ada, "spectators", "hey")
    assert texts(api, game_id, ada) == ["Boo", "Ignore them", "hey"]


def test_only_a_seat_mutes(api: APIClient) -> None:
    game_id, (ada, _) = start_game(api)
    eve = personal_token("eve")
    assert_problem(api.put(mute_url(game_id, "spectators"), **bearer(eve)), 403,
                   "chat_room_forbidden")  # fmt: skip
    assert_problem(api.put(mute_url(game_id, "players")), 403, "chat_room_forbidden")
    assert_problem(api.put(mute_url(UNKNOWN, "players"), **bearer(ada)), 404, "game_not_found")
    assert_problem(api.put(mute_url(game_id, "lobby"), **bearer(ada)), 404, "not_found")
    assert_problem(api.post(mute_url(game_id, "players"), **bearer(ada)), 405,
                   "method_not_allowed")  # fmt: skip


def test_a_sender_is_rate_limited_per_game(api: APIClient, settings: Any) -> None:
    settings.SKYJO_CHAT_BURST, settings.SKYJO_CHAT_BURST_SECONDS = 3, 60
    game_id, (ada, bob) = start_game(api)
    other_game, (carol, _) = start_game(api)
    for number in range(3):
        said(api, game_id, ada, "players", f"message {number}")
    refused = say(api, game_id, ada, "spectators", "one more")
    body = assert_problem(refused, 429, "throttled")
    assert 1 <= int(refused["Retry-After"]) <= 60 and body["retry_after"] == int(
        refused["Retry-After"]
    )
    # Another sender of the game, and the same person elsewhere, are counted apart.
    said(api, game_id, bob, "players", "my turn to talk")
    said(api, other_game, carol, "players", "another table")
    assert len(texts(api, game_id, ada)) == 4


def test_a_sender_has_a_most_messages_per_game(api: APIClient, settings: Any) -> None:
    settings.SKYJO_CHAT_MAX_PER_GAME = 2
    game_id, (ada, bob) = start_game(api)
    eve = personal_token("eve")
    for sender in (ada, eve):
        said(api, game_id, sender, "spectators", "one")
        said(api, game_id, sender, "spectators", "two")
        refused = say(api, game_id, sender, "spectators", "three")
        assert "Retry-After" not in refused
        assert_problem(refused, 429, "chat_limit_reached")
    said(api, game_id, bob, "players", "still mine to say")


def test_a_write_is_idempotent_with_a_key(api: APIClient) -> None:
    game_id, (ada, _) = start_game(api)
    eve = personal_token("eve")
    for token, room in ((ada, "players"), (eve, "spectators")):
        first = say(api, game_id, token, room, "once", HTTP_IDEMPOTENCY_KEY="k1")
        again = say(api, game_id, token, room, "once", HTTP_IDEMPOTENCY_KEY="k1")
        assert first.status_code == again.status_code == 201
        assert again["Idempotent-Replayed"] == "true"
        assert again.content == first.content
        other = say(api, game_id, token, room, "twice", HTTP_IDEMPOTENCY_KEY="k1")
        assert_problem(other, 422, "idempotency_key_reused")
    assert texts(api, game_id, ada) == ["once", "once"]


def test_reads_page_after_a_sequence(api: APIClient) -> None:
    game_id, (ada, bob) = start_game(api)
    for number in range(4):
        said(api, game_id, (ada, bob)[number % 2], "players", f"m{number}")
    assert texts(api, game_id, ada, limit=2) == ["m0", "m1"]
    assert texts(api, game_id, ada, after=2, limit=1) == ["m2"]
    assert texts(api, game_id, ada, after=4) == []


def test_chat_leaves_the_game_s_log_history_and_audit_as_they_were(api: APIClient) -> None:
    game_id, tokens = finished_game(api)
    before = _game_record(api, game_id)
    events = GameEvent.objects.filter(game_id=game_id).count()
    said(api, game_id, tokens[0], "players", "gg")
    said(api, game_id, personal_token("eve"), "spectators", "well played")
    assert _game_record(api, game_id) == before
    assert GameEvent.objects.filter(game_id=game_id).count() == events
    out = StringIO()
    call_command("verify_games", game_id, stdout=out)  # raises if the game does not replay
    assert "1 games checked, 0 do not replay." in out.getvalue()


def _game_record(api: APIClient, game_id: str) -> tuple[Any, ...]:
    """The game's view, event feed and history, as anyone reads them."""
    view = api.get(f"{GAMES}/{game_id}")
    feed = api.get(f"{GAMES}/{game_id}/events", {"limit": 1000})
    history = api.get(f"{GAMES}/{game_id}/history")
    assert view.status_code == feed.status_code == history.status_code == 200
    return view.json(), view["ETag"], feed.json(), history.content

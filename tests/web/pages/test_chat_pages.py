"""The table's chat panel through Django's client: the rooms each viewer reads and writes in,
texts shown escaped, a refused message said with its text kept, a seat's mute (the
service's, the API's), and the panel's poll (204 while current, the rooms' lists out of band,
the whole panel once the rooms change)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import core
from tests.api.chat_support import mute_url, personal_token, said, texts
from tests.api.support import bearer
from tests.web.pages.test_accounts_pages import person
from tests.web.pages.test_pages import create, seated_pair
from tests.web.pages.test_pages import join as join_page

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def send(client: Client, game_id: str, room: str, text: str, **headers: Any) -> Any:
    return client.post(f"/games/{game_id}/chat/send", {"room": room, "text": text}, **headers)


def panel(client: Client, game_id: str) -> str:
    """The table page's chat panel."""
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    html = page.content.decode()
    return html[html.index('<section id="chat"') : html.index('<div id="announce"')]


def rooms(html: str) -> list[str]:
    return re.findall(r'<h3 id="chat-[a-z]+-heading">([^<]+)</h3>', html)


def forms(html: str) -> list[str]:
    """The rooms the panel has a writing form for."""
    return re.findall(r'class="chat-form".*?name="room" value="([a-z]+)"', html, re.S)


def test_each_viewer_sees_the_rooms_it_may_read_and_writes_where_it_may() -> None:
    ada, bob, game_id = seated_pair()
    assert send(ada, game_id, "players", "hello Bob").status_code == 302
    assert send(bob, game_id, "spectators", "hello watchers").status_code == 302
    for seat in (ada, bob):
        shown = panel(seat, game_id)
        assert rooms(shown) == ["Players&#x27; chat", "Spectators&#x27; chat"]
        assert forms(shown) == ["players", "spectators"]
        assert "hello Bob" in shown and "hello watchers" in shown
        assert shown.count('aria-pressed="false">Mute</button>') == 2
    guest = panel(Client(), game_id)
    assert rooms(guest) == ["Spectators&#x27; chat"] and forms(guest) == []
    assert "hello watchers" in guest and "hello Bob" not in guest
    assert f'href="/login?next=/games/{game_id}">Log in</a> to write here.' in guest
    assert "Mute" not in guest
    eve = person("Eve")
    spectator = panel(eve, game_id)
    assert rooms(spectator) == ["Spectators&#x27; chat"] and forms(spectator) == ["spectators"]
    assert send(eve, game_id, "spectators", "go Ada").status_code == 302
    refused = send(eve, game_id, "players", "let me in", follow=True)
    assert "Only the game&#x27;s seats write in the players&#x27; room." in refused.content.decode()
    assert texts(APIClient(), game_id) == ["hello watchers", "go Ada"]


def test_a_text_is_shown_escaped() -> None:
    ada, bob, game_id = seated_pair()
    attack = '<script>alert("chat")</script><img src=x onerror=alert(1)>'
    assert send(ada, game_id, "players", attack).status_code == 302
    shown = panel(bob, game_id)
    assert "<script>alert" not in shown and "<img src=x" not in shown
    assert "&lt;script&gt;alert(&quot;chat&quot;)&lt;/script&gt;&lt;img src=x" in shown


def test_with_htmx_a_message_answers_the_panel_and_a_refusal_keeps_the_text() -> None:
    ada, _, game_id = seated_pair()
    sent = send(ada, game_id, "players", "  first  ", **HTMX)
    assert sent.status_code == 200
    html = sent.content.decode()
    assert html.startswith('<section id="chat"') and "first</span>" in html
    too_long = "x" * 281
    refused = send(ada, game_id, "players", too_long, **HTMX).content.decode()
    assert 'role="alert">The text is not valid: Write 1 to 280 characters' in refused
    assert f'id="chat-text-players" name="text" value="{too_long}"' in refused
    assert 'id="chat-text-spectators" name="text" value=""' in refused


def test_a_guest_spectator_cannot_write() -> None:
    _, _, game_id = seated_pair()
    refused = send(Client(), game_id, "spectators", "hi", **HTMX).content.decode()
    assert "needs a seat&#x27;s token, or a personal token" in refused
    assert texts(APIClient(), game_id) == []


def test_too_many_messages_are_said_with_the_wait(settings: Any) -> None:
    settings.SKYJO_CHAT_BURST = 2
    ada, _, game_id = seated_pair()
    for number in range(2):
        send(ada, game_id, "players", f"m{number}", **HTMX)
    refused = send(ada, game_id, "players", "m2", **HTMX).content.decode()
    assert re.search(r"Too many messages: wait \d+ seconds, then send it again.", refused)


def test_a_seat_mutes_a_room_with_the_service() -> None:
    ada, bob, game_id = seated_pair()
    api = APIClient()
    said(api, game_id, personal_token("eve"), "spectators", "boo")
    muted = ada.post(f"/games/{game_id}/chat/mute", {"room": "spectators", "muted": "true"}, **HTMX)
    html = muted.content.decode()
    assert 'aria-pressed="true">Mute</button>' in html and "You muted this room" in html
    assert "boo" not in html and forms(html) == ["players"]
    # The service keeps it: the seat's API reads leave the room out too.
    token = ada.session["seat_tokens"][game_id]
    assert api.get(f"/api/v1/games/{game_id}/chat", **bearer(token)).json()["muted"] == [
        "spectators"
    ]
    assert "boo" in panel(bob, game_id)  # another seat's mute is its own
    ada.post(f"/games/{game_id}/chat/mute", {"room": "spectators", "muted": "false"})
    assert "boo" in panel(ada, game_id)
    assert api.delete(mute_url(game_id, "spectators"), **bearer(token)).status_code == 204
    refused = Client().post(f"/games/{game_id}/chat/mute", {"room": "players", "muted": "true"})
    assert refused.status_code == 302  # a spectator: said on the table, nothing muted


def test_the_poll_answers_204_while_current_then_the_lists_then_the_panel() -> None:
    ada, bob = Client(), Client()
    game_id = create(ada, seats=3)
    join_page(bob, game_id, "Bob")
    poll = f"/games/{game_id}/chat"
    assert ada.get(poll, {"after": 0, "ended": 0}, **HTMX).status_code == 204
    send(bob, game_id, "players", "news")
    lists = ada.get(poll, {"after": 0, "ended": 0}, **HTMX).content.decode()
    assert '<ol id="chat-log-players" class="chat-log" hx-swap-oob="true">' in lists
    assert '<ol id="chat-log-spectators" class="chat-log" hx-swap-oob="true">' in lists
    assert "news" in lists and "chat-form" not in lists
    assert "after=1&amp;ended=0" in lists  # the poller moves on, out of band too
    assert ada.get(poll, {"after": 1, "ended": 0}, **HTMX).status_code == 204
    # A spectator's poll once the game is canceled: the players' room appears.
    core.cancel_game(game_id, "canceled")
    whole = Client().get(poll, {"after": 1, "ended": 0}, **HTMX).content.decode()
    assert whole.startswith('<section id="chat" class="panel chat" aria-labelledby="chat-heading" '
                            'hx-swap-oob="true">')  # fmt: skip
    assert rooms(whole) == ["Players&#x27; chat", "Spectators&#x27; chat"] and "news" in whole


def test_a_logged_in_seat_writes_as_its_account() -> None:
    ada = person("Ada")
    game_id = create(ada, seats=3)
    join_page(Client(), game_id, "Bob")
    send(ada, game_id, "players", "from my account")
    message = APIClient().get(f"/api/v1/games/{game_id}/chat", **bearer(personal_token("ref")))
    assert message.status_code == 200 and message.json()["messages"] == []  # not the players'
    core.cancel_game(game_id, "canceled")
    listed = APIClient().get(f"/api/v1/games/{game_id}/chat").json()["messages"]
    assert [(m["name"], m["account"], m["text"]) for m in listed] == [
        ("Ada", "Ada", "from my account")
    ]

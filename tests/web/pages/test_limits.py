"""The pages under the API's rate limits (Django's test client): per client address and per
the seat the session holds, refused with a page of their own; a new session key when a seat
is stored; the pages' security and caching headers."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import Game

from .test_pages import create, join, move, seated_pair

pytestmark = pytest.mark.django_db


def assert_friendly_429(answer: Any, back: str) -> None:
    """A page, not a bare status: how long to wait, and a link back."""
    assert answer.status_code == 429
    assert answer["Content-Type"].startswith("text/html")
    assert 1 <= int(answer["Retry-After"]) <= 60
    page = answer.content.decode()
    assert "Too many requests" in page
    assert f"Wait {answer['Retry-After']} second" in page
    assert f'href="{back}"' in page


def test_the_lobby_is_limited_per_address(rates: dict[str, str]) -> None:
    rates["address"] = "3/min"
    browser = Client()
    assert [browser.get("/").status_code for _ in range(3)] == [200] * 3
    assert_friendly_429(browser.get("/"), back="/")
    assert Client(REMOTE_ADDR="10.9.8.7").get("/").status_code == 200  # another address


def test_pages_and_the_api_share_one_count_per_address(rates: dict[str, str]) -> None:
    rates["address"] = "4/min"
    browser = Client()
    for _ in range(2):
        assert browser.get("/").status_code == 200
        assert browser.get("/api/v1/games").status_code == 200
    assert browser.get("/api/v1/games").status_code == 429
    assert browser.get("/").status_code == 429


def test_join_and_leave_posts_stop_appending_at_the_limit(rates: dict[str, str]) -> None:
    """Refused posts change nothing: no seat taken or given up, no event appended."""
    ada = Client()
    game_id = create(ada)
    rates["address"] = "4/min"
    cache.clear()
    bob = Client()
    assert join(bob, game_id, "Bob").status_code == 302
    leave = f"/games/{game_id}/leave"
    assert bob.post(leave, {"confirm": "yes"}).status_code == 302  # confirmed (issue 25)
    assert join(bob, game_id, "Bob").status_code == 302
    assert bob.post(leave, {"confirm": "yes"}).status_code == 302
    version = Game.objects.get(pk=game_id).version
    assert_friendly_429(join(bob, game_id, "Bob"), back=f"/games/{game_id}")
    assert_friendly_429(bob.post(leave, {"confirm": "yes"}), back=f"/games/{game_id}")
    assert Game.objects.get(pk=game_id).version == version


def test_a_seat_is_limited_whatever_the_address(rates: dict[str, str]) -> None:
    """The session's seat counts under the seat token, as the API counts its bearer: a
    browser's moves from many addresses still meet the seat's limit."""
    ada, _, game_id = seated_pair()
    rates["seat"] = "2/min"
    cache.clear()
    assert move(ada, game_id, "reveal:0:0", REMOTE_ADDR="10.0.0.1").status_code == 302
    assert ada.get(f"/games/{game_id}", REMOTE_ADDR="10.0.0.2").status_code == 200
    refused = move(ada, game_id, "reveal:1:0", REMOTE_ADDR="10.0.0.3")
    assert_friendly_429(refused, back=f"/games/{game_id}")
    assert Client().get(f"/games/{game_id}").status_code == 200  # a spectator is not held back


def test_the_session_key_changes_when_a_seat_is_stored() -> None:
    """A session id planted beforehand (fixation) never comes to hold the seat."""
    ada, bob = Client(), Client()
    game_id = create(ada)
    assert bob.get(f"/games/{game_id}").status_code == 200
    bob.session.save()  # a session before joining, as an attacker could have planted it
    before = bob.cookies["sessionid"].value
    assert join(bob, game_id, "Bob").status_code == 302
    after = bob.cookies["sessionid"].value
    assert after != before
    assert "Bob (you)" in bob.get(f"/games/{game_id}").content.decode()
    planted = Client()
    planted.cookies["sessionid"] = before
    assert "Bob (you)" not in planted.get(f"/games/{game_id}").content.decode()


STRICT = {
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
}


def policy(answer: Any) -> set[str]:
    return {part.strip() for part in answer["Content-Security-Policy"].split(";")}


def test_every_page_has_a_strict_content_security_policy() -> None:
    ada, _, game_id = seated_pair()
    for path in ("/", f"/games/{game_id}", f"/games/{game_id}/replay", "/games/nope"):
        answer = ada.get(path)
        assert policy(answer) >= STRICT, (path, answer["Content-Security-Policy"])
        assert "unsafe-inline" not in answer["Content-Security-Policy"]
        assert "unsafe-eval" not in answer["Content-Security-Policy"]


def test_the_pages_hold_no_inline_script_or_style() -> None:
    """What the policy would refuse: an inline <script>, a <style> block, a style attribute;
    htmx is told not to add its indicator's <style>."""
    ada, _, game_id = seated_pair()
    for path in ("/", f"/games/{game_id}", f"/games/{game_id}/replay"):
        page = ada.get(path).content.decode()
        assert "<style" not in page and " style=" not in page, path
        scripts = page.count("<script")
        assert scripts == page.count("<script src="), path
        assert '"includeIndicatorStyles": false' in page


def test_the_lobby_and_the_replay_are_private_to_the_browser() -> None:
    """Both show what this session's seats may see: no shared cache may keep them."""
    ada, _, game_id = seated_pair()
    for path in ("/", f"/games/{game_id}/replay", f"/games/{game_id}"):
        cache_control = {part.strip() for part in ada.get(path)["Cache-Control"].split(",")}
        assert "private" in cache_control, path

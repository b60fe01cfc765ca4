"""The accounts' pages without a browser: signing up, logging in and out (throttled by axes),
`/account` (games and tokens), and seats that belong to the logged-in person's account."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import services
from accounts.credentials import resolve
from accounts.models import PersonalToken
from games.models import Game
from games.web.seats import SESSION_KEY
from tests.api.support import bearer, game_url
from tests.web.pages.test_pages import create, join, move

pytestmark = pytest.mark.django_db

PASSWORD = "a long 9 horse battery"
WRONG = "Wrong handle or password."
TOKEN = re.compile(r"skyjo_pat_[A-Za-z0-9_-]{43}")


def sign_up(client: Client, handle: str = "Ada", password: str = PASSWORD) -> Any:
    data = {"handle": handle, "password": password, "password_again": password}
    return client.post("/signup", data)


def log_in(client: Client, handle: str = "Ada", password: str = PASSWORD, **extra: Any) -> Any:
    return client.post("/login", {"username": handle, "password": password}, **extra)


def person(handle: str = "Ada") -> Client:
    services.sign_up(handle, "person", PASSWORD)
    client = Client()
    assert log_in(client, handle).status_code == 302
    return client


def test_signup_logs_the_person_in_and_shows_the_first_token_once() -> None:
    client = Client()
    answer = sign_up(client)
    page = answer.content.decode()
    assert answer.status_code == 200 and "<h1>Ada</h1>" in page
    token = TOKEN.search(page)
    assert token is not None and resolve(token.group()) is not None
    assert "_auth_user_id" in client.session
    assert token.group() not in client.get("/account").content.decode()  # shown once


def test_signup_refuses_a_taken_handle_in_any_case_and_a_weak_password() -> None:
    services.sign_up("Ada", "person", PASSWORD)
    taken = sign_up(Client(), "ADA")
    assert taken.status_code == 400 and "is taken" in taken.content.decode()
    weak = sign_up(Client(), "Bob", "12345678")
    assert weak.status_code == 400 and "too common" in weak.content.decode()
    bad = sign_up(Client(), "9lives")
    assert bad.status_code == 400 and "starting with a letter" in bad.content.decode()
    differ = Client().post(
        "/signup", {"handle": "Cy", "password": PASSWORD, "password_again": PASSWORD + "x"}
    )
    assert differ.status_code == 400


def test_login_by_handle_in_any_case_rotates_the_session_key_and_keeps_guest_seats() -> None:
    services.sign_up("Ada", "person", PASSWORD)
    client = Client()
    game_id = create(client, "Guest")  # a guest's seat, held in the session
    before = client.cookies["sessionid"].value
    answer = log_in(client, "aDa")
    assert answer.status_code == 302 and answer["Location"] == "/account"
    assert client.cookies["sessionid"].value != before
    assert game_id in client.session[SESSION_KEY]
    assert "Ada" in client.get("/account").content.decode()


def test_a_wrong_password_and_a_bot_are_refused_alike() -> None:
    services.sign_up("Ada", "person", PASSWORD)
    services.sign_up("Robo", "bot", None)
    for handle, password in (("Ada", "wrong password 1"), ("Robo", PASSWORD), ("Nobody", "x")):
        answer = log_in(Client(), handle, password)
        assert answer.status_code == 200 and WRONG in answer.content.decode()
        assert "Retry-After" not in answer


def test_a_locked_out_handle_answers_like_a_wrong_password_with_retry_after(
    settings: Any,
) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    services.sign_up("Ada", "person", PASSWORD)
    for attempt in range(3):  # each from another address: the handle's count locks it
        log_in(Client(), "ada", "wrong", REMOTE_ADDR=f"10.0.0.{attempt}")
    locked = log_in(Client(), "Ada", PASSWORD, REMOTE_ADDR="10.0.0.9")  # the right password
    assert locked.status_code == 200 and WRONG in locked.content.decode()
    assert int(locked["Retry-After"]) == 15 * 60
    assert "_auth_user_id" not in locked.client.session  # type: ignore[attr-defined]
    other = log_in(Client(), "Bob", "wrong", REMOTE_ADDR="10.0.0.9")
    assert "Retry-After" not in other  # another handle from that address is not locked


def test_an_address_is_locked_out_whatever_handles_it_tries(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    services.sign_up("Ada", "person", PASSWORD)
    for handle in ("one", "two", "three"):
        log_in(Client(), handle, "wrong", REMOTE_ADDR="10.0.1.1")
    assert "Retry-After" in log_in(Client(), "Ada", PASSWORD, REMOTE_ADDR="10.0.1.1")
    assert log_in(Client(), "Ada", PASSWORD, REMOTE_ADDR="10.0.1.2").status_code == 302


def test_logout_forgets_the_person_and_keeps_the_browsers_guest_seats() -> None:
    services.sign_up("Ada", "person", PASSWORD)
    client = Client()
    game_id = create(client, "Guest")
    assert log_in(client).status_code == 302
    assert client.get("/logout").status_code == 405  # a POST only
    answer = client.post("/logout")
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert "_auth_user_id" not in client.session
    assert game_id in client.session[SESSION_KEY]
    assert client.get("/account")["Location"].startswith("/login")


def test_the_account_page_lists_games_your_turn_first_and_tokens() -> None:
    ada, bob = person("Ada"), person("Bob")
    playing = create(ada, "x")
    assert join(bob, playing, "y").status_code == 302
    for client in (ada, bob):
        move(client, playing, "reveal:0:0")
        move(client, playing, "reveal:1:0")
    turn = [ada, bob][Game.objects.get(pk=playing).current_seat or 0]
    waiting = create(turn, "x", seats=3)  # the most recently active, yet listed after
    page = turn.get("/account").content.decode()
    assert page.index(playing) < page.index("Your turn") < page.index(waiting)
    assert "first token" in page and "Revoke" in page
    assert "skyjo_pat_" in page and not TOKEN.search(page)  # the prefix, never the secret


def test_a_token_created_is_shown_once_and_revoked() -> None:
    ada = person()
    made = ada.post("/account/tokens", {"description": "my bot", "scopes": ["play"]})
    token = TOKEN.search(made.content.decode())
    assert made.status_code == 200 and token is not None
    assert made["Cache-Control"].startswith("max-age=0")
    row = PersonalToken.objects.get(description="my bot")
    assert row.scopes == ["play"]
    assert token.group() not in ada.get("/account").content.decode()
    assert ada.post("/account/tokens", {"description": "none"}).status_code == 400
    assert ada.post(f"/account/tokens/{row.id}/revoke").status_code == 302
    assert resolve(token.group()) is None
    assert (
        "no such token"
        in ada.post(f"/account/tokens/{row.id}/revoke", follow=True).content.decode()
    )


def test_a_logged_in_seat_is_the_accounts_from_any_browser() -> None:
    ada = person()
    game_id = create(ada, "whatever")
    assert SESSION_KEY not in ada.session or game_id not in ada.session[SESSION_KEY]
    other = Client()
    assert log_in(other).status_code == 302  # the same person, another browser
    page = other.get(f"/games/{game_id}").content.decode()
    assert "Ada (you)" in page
    assert (
        "already hold a seat"
        in other.post(f"/games/{game_id}/join", {}, follow=True).content.decode()
    )
    guest = Client()
    assert join(guest, game_id, "Guest").status_code == 302
    assert move(other, game_id, "reveal:0:0").status_code == 302
    view = APIClient().get(game_url(game_id)).json()
    assert view["players"][0]["account"] == "Ada"
    guest_token = guest.session[SESSION_KEY][game_id]
    seen = APIClient().get(game_url(game_id), **bearer(guest_token)).json()
    assert seen["players"][0]["grid"][0][0]["state"] == "face_up"


def test_the_lobby_shows_your_games_above_the_rest() -> None:
    ada = person()
    game_id = create(ada, "x")
    page = ada.get("/").content.decode()
    assert "Your games" in page and page.index("Your games") < page.index("Waiting for players")
    assert page.index(game_id) < page.index("Waiting for players")
    assert "Join as Ada" not in page.split("Waiting for players")[1].split(game_id)[1][:400]
    assert "Your games" not in Client().get("/").content.decode()

"""The web pages without a browser (Django's test client): they go through the API's use
cases, keep a browser's seat token in the server-side session, check CSRF on every POST, and
leave the API cookie-free. (tests/web/browser drives them in a real browser.)"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from engine import GreedyPlayer, view
from games import core
from games.api.throttling import GameCreationThrottle, PageBotSeatThrottle
from games.core.tokens import SeatCredential
from games.models import Game
from games.web.forms import parse_move
from games.web.seats import SESSION_KEY
from games.web.table import card_colour
from games.web.words import idle_words
from tests.api.bots_support import Clock, run_jobs
from tests.api.support import bearer, game_url

pytestmark = pytest.mark.django_db

TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")


def create(client: Client, name: str = "Ada", **fields: Any) -> str:
    """Create a 2-seat game from the lobby's form, seated as `name`; its id."""
    data = {"seats": 2, "end_score": 100, "closer_penalty": "on", "name": name, **fields}
    answer = client.post("/games/new", data)
    assert answer.status_code == 302, answer.content
    return str(answer["Location"].rsplit("/", 1)[1])


def join(client: Client, game_id: str, name: str) -> Any:
    return client.post(f"/games/{game_id}/join", {"name": name})


def seated_pair() -> tuple[Client, Client, str]:
    ada, bob = Client(), Client()
    game_id = create(ada)
    assert join(bob, game_id, "Bob").status_code == 302
    return ada, bob, game_id


def move(client: Client, game_id: str, value: str, **headers: Any) -> Any:
    return client.post(f"/games/{game_id}/act", {"move": value}, **headers)


def test_joining_keeps_the_token_in_the_session_never_in_the_page() -> None:
    ada, _, game_id = seated_pair()
    token = ada.session[SESSION_KEY][game_id]
    assert TOKEN_SHAPE.fullmatch(token)
    game, seat = core.game_and_seat(game_id, SeatCredential(token), required=True)
    assert seat == 0 and game.players_joined == 2
    page = ada.get(f"/games/{game_id}")
    assert page.status_code == 200 and token not in page.content.decode()
    assert "Ada (you)" in page.content.decode()
    cookie = ada.cookies["sessionid"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


def test_a_page_move_is_the_api_action() -> None:
    """The page acts through `core.perform_action`: the API's seat view shows the move."""
    ada, bob, game_id = seated_pair()
    for client in (ada, bob):
        assert move(client, game_id, "reveal:0:0").status_code == 302
        partial = move(client, game_id, "reveal:1:0", HTTP_HX_REQUEST="true")
        assert partial.status_code == 200
        assert partial.content.decode().startswith('<div id="table"')
    token = ada.session[SESSION_KEY][game_id]
    view = APIClient().get(game_url(game_id), **bearer(token)).json()
    assert view["status"] == "playing"
    assert [view["players"][0]["grid"][c][0]["state"] for c in (0, 1)] == ["face_up"] * 2
    value = view["players"][0]["grid"][1][0]["value"]
    page = ada.get(f"/games/{game_id}").content.decode()
    assert f'aria-label="Column 2, row 1: {value}"' in page  # 1-based: the API's (1, 0)


def test_a_refused_move_says_why_and_changes_nothing() -> None:
    ada, _, game_id = seated_pair()
    before = Game.objects.get(pk=game_id).version
    answer = move(ada, game_id, "draw", HTTP_HX_REQUEST="true")
    assert 'role="alert"' in answer.content.decode()
    assert Game.objects.get(pk=game_id).version == before
    assert "not a move" in move(ada, game_id, "fly:1:2", HTTP_HX_REQUEST="true").content.decode()
    spectator = move(Client(), game_id, "draw", HTTP_HX_REQUEST="true").content.decode()
    assert "You hold no seat at this table." in spectator


def test_every_page_post_needs_the_csrf_token() -> None:
    browser = Client(enforce_csrf_checks=True)
    assert browser.post("/games/new", {"seats": 2, "end_score": 100}).status_code == 403
    lobby = browser.get("/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', lobby)
    assert token is not None
    fields = {"seats": 2, "end_score": 100, "name": "Ada", "csrfmiddlewaretoken": token[1]}
    created = browser.post("/games/new", fields)
    assert created.status_code == 302
    game_id = created["Location"].rsplit("/", 1)[1]
    assert browser.post(f"/games/{game_id}/act", {"move": "draw"}).status_code == 403
    assert browser.post(f"/games/{game_id}/join", {"name": "Bob"}).status_code == 403


def test_the_api_stays_cookie_free() -> None:
    """The API sets no cookie, and a browser's session does not make it a seat there."""
    ada, _, game_id = seated_pair()
    for answer in (
        ada.get(f"/api/v1/games/{game_id}"),
        ada.get("/api/v1/games"),
        ada.post("/api/v1/games", {"seats": 2}, content_type="application/json"),
    ):
        assert answer.status_code in (200, 201) and not answer.cookies, answer.cookies
    assert ada.get(f"/api/v1/games/{game_id}").json()["you"] is None
    refused = ada.post(
        f"/api/v1/games/{game_id}/actions", {"action": "draw"}, content_type="application/json"
    )
    assert refused.status_code == 401


def test_the_partial_answers_204_while_the_page_is_current() -> None:
    ada, _, game_id = seated_pair()
    version = Game.objects.get(pk=game_id).version
    assert ada.get(f"/games/{game_id}/table?since={version}").status_code == 204
    newer = ada.get(f"/games/{game_id}/table?since={version - 1}")
    assert newer.status_code == 200 and f'data-version="{version}"' in newer.content.decode()


def test_a_seat_whose_token_was_rotated_watches() -> None:
    ada, _, game_id = seated_pair()
    token = ada.session[SESSION_KEY][game_id]
    rotated = APIClient().post(f"/api/v1/games/{game_id}/players/0/token", **bearer(token))
    assert rotated.status_code == 200
    page = ada.get(f"/games/{game_id}").content.decode()
    assert "Ada (you)" not in page
    assert game_id not in ada.session[SESSION_KEY]


def test_one_browser_one_seat_per_game() -> None:
    ada = Client()
    game_id = create(ada)
    answer = join(ada, game_id, "Ada again")
    assert answer.status_code == 302
    assert "already hold a seat" in ada.get(f"/games/{game_id}").content.decode()
    assert Game.objects.get(pk=game_id).players_joined == 1


def test_a_bad_form_is_answered_with_its_errors() -> None:
    answer = Client().post("/games/new", {"seats": 9, "end_score": 0, "name": " "})
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "less than or equal to 8" in text and "greater than or equal to 1" in text
    assert "printable characters" in text
    assert not Game.objects.exists()


def test_game_creation_from_the_page_is_limited_like_the_api(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(GameCreationThrottle, "THROTTLE_RATES", {"game_create": "1/hour"})
    client = Client()
    create(client, name="")
    assert client.post("/games/new", {"seats": 2, "end_score": 100}).status_code == 429
    assert Game.objects.count() == 1


def test_bot_seats_from_the_page_are_limited_like_the_api(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(PageBotSeatThrottle, "THROTTLE_RATES", {"bot_seat": "3/hour"})
    form = {"seats": 2, "end_score": 100, "seat_1": "greedy", "seat_2": "greedy"}
    assert Client().post("/games/new", form).status_code == 302
    assert Client().post("/games/new", form).status_code == 429  # 2 more: 4 of 3
    assert Game.objects.count() == 1


def test_unknown_games_are_html_404s() -> None:
    for path in ("/games/nope", "/games/00000000-0000-0000-0000-000000000000/replay"):
        answer = Client().get(path)
        assert answer.status_code == 404 and b"No such game" in answer.content


def test_the_replay_clamps_its_step() -> None:
    _, _, game_id = seated_pair()
    version = Game.objects.get(pk=game_id).version
    for at, shown in (("0", 1), ("x", 1), ("999", version), ("2", 2)):
        page = Client().get(f"/games/{game_id}/replay?at={at}").content.decode()
        assert f'data-at="{shown}"' in page, at


def test_move_values_are_read_by_the_api_serializer() -> None:
    assert parse_move("replace:3:2") == {"action": "replace", "column": 3, "row": 2}
    assert parse_move("take_discard") == {"action": "take_discard"}
    for bad in ("replace:4:0", "replace:1", "draw:1:1", "reveal:-1:0", "reveal:\u0661:0", ""):
        assert parse_move(bad) is None, bad


def test_card_colours_follow_the_printed_deck() -> None:
    colours = {value: card_colour(value) for value in range(-2, 13)}
    assert colours[-2] == colours[-1] == "dark-blue" and colours[0] == "light-blue"
    assert {colours[v] for v in range(1, 5)} == {"green"}
    assert {colours[v] for v in range(5, 9)} == {"yellow"}
    assert {colours[v] for v in range(9, 13)} == {"red"}


def play_to_the_end(game_id: str, tokens: list[str]) -> None:
    """The engine's greedy player for every seat, through the use case the pages call."""
    player = GreedyPlayer()
    credentials = [SeatCredential(token) for token in tokens]
    while True:
        game = Game.objects.get(pk=game_id)
        views = [view(core.game_state(game), seat) for seat in range(len(tokens))]
        seat = next((s for s, seen in enumerate(views) if seen.legal_actions), None)
        if seat is None:
            return
        action = player.choose(views[seat])
        core.perform_action(game_id, credentials[seat], action)  # type: ignore[arg-type]


def test_every_version_of_a_game_renders_for_a_seat_and_a_spectator() -> None:
    """The replay at each step (the `round_ended` between two events of one action included)
    and the finished table, for a seat and for a spectator."""
    ada, bob = Client(), Client()
    game_id = create(ada, end_score=1)
    join(bob, game_id, "Bob")
    play_to_the_end(game_id, [client.session[SESSION_KEY][game_id] for client in (ada, bob)])
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    headlines = set()
    for at in range(1, game.version + 1):
        for client in (ada, Client()):
            page = client.get(f"/games/{game_id}/replay?at={at}").content.decode()
            headlines.add(re.findall(r'<p class="headline-sub">([^<.]*)', page)[0])
    assert "Round 1 is over" in headlines
    final = ada.get(f"/games/{game_id}").content.decode()
    assert "Final standings" in final and re.search(r"Round \d+ results", final)


def test_the_lobby_page_leaves_out_a_game_no_one_moves_and_its_table_says_so() -> None:
    """The web lobby listed games no one would ever move again; it now leaves them out like
    the API's lobby, and a stale game's table, still reachable by its link, says why."""
    ada = Client()
    idle, moving = create(ada, "Ada"), create(ada, "Bea")
    Game.objects.filter(pk=idle).update(updated_at=timezone.now() - timedelta(hours=3))
    lobby = ada.get("/").content.decode()
    assert moving in lobby and idle not in lobby
    table = ada.get(f"/games/{idle}").content.decode()
    assert "No one has moved in this game for 3 hours." in table
    assert "No one has moved" not in ada.get(f"/games/{moving}").content.decode()


def test_idle_times_are_said_in_their_largest_unit() -> None:
    assert [idle_words(s) for s in (30, 60, 150, 3600, 7260, 86400, 3 * 86400)] == [
        "less than a minute",
        "1 minute",
        "2 minutes",
        "1 hour",
        "2 hours",
        "1 day",
        "3 days",
    ]


def test_a_seat_a_bot_took_over_offers_no_leave(monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser whose seat went to a bot after its timeouts was offered "Leave seat", and
    leaving logged a second handover; now the page offers none and a post changes nothing."""
    clock = Clock(monkeypatch)
    options = {"turn_seconds": 30, "max_timeouts": 1}
    game_id = str(core.create_game(seats=2, options=options, seed=None).id)
    ada, bob = Client(), Client()
    assert join(ada, game_id, "Ada").status_code == join(bob, game_id, "Bob").status_code == 302
    assert "Leave seat" in ada.get(f"/games/{game_id}").content.decode()
    for column in (0, 1):
        move(bob, game_id, f"reveal:{column}:0")
    clock.advance(31)
    run_jobs()  # Ada's setup ran out: a bot plays her seat
    assert "Leave seat" not in ada.get(f"/games/{game_id}").content.decode()
    version = Game.objects.get(pk=game_id).version
    ada.post(f"/games/{game_id}/leave", {"confirm": "yes"})
    assert Game.objects.get(pk=game_id).version == version

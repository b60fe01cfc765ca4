"""The pages' private games and rematches (Django's test client): the lobby's "Private game"
keeps a game out of every public list, its table shows its invite link; a finished table's
Rematch button takes the browser's seat in the rematch (a guest's new token in the session),
and the finished table then links to the rematch and says who sits in it."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game
from games.web.seats import SESSION_KEY
from tests.play.support import play_to_the_end

from .test_accounts_pages import person
from .test_pages import create, join

pytestmark = pytest.mark.django_db


#: The Rematch button: it posts the page's rematch form (outside the table, whose forms are
#: its moves).
REMATCH_BUTTON = 'form="rematch-form"'


def page(client: Client, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, answer.content
    return str(answer.content.decode())


def finished_pair() -> tuple[Client, Client, str]:
    """Two guests who played a one-round game from the pages' lobby to its end."""
    ada, bob = Client(), Client()
    game_id = create(ada, end_score=1)
    assert join(bob, game_id, "Bob").status_code == 302
    tokens = [client.session[SESSION_KEY][game_id] for client in (ada, bob)]
    play_to_the_end(APIClient(), game_id, tokens)
    return ada, bob, game_id


def rematch(client: Client, game_id: str) -> Any:
    return client.post(f"/games/{game_id}/rematch")


def test_a_private_game_is_kept_out_of_the_lobby_and_shows_its_invite_link() -> None:
    ada = Client()
    game_id = create(ada, private="on")
    assert Game.objects.get(pk=game_id).listed is False
    table = page(ada, f"/games/{game_id}")
    assert f"http://testserver/games/{game_id}" in table
    assert "Copy invite link" in table and "A private game" in table
    for client in (ada, Client()):
        assert game_id not in page(client, "/")
    public = create(Client())
    assert public in page(Client(), "/")
    assert "Copy invite link" in page(Client(), f"/games/{public}")  # any waiting game's
    assert "A private game" not in page(Client(), f"/games/{public}")


def test_a_person_finds_their_private_game_in_their_games() -> None:
    ada = person("Ada")
    game_id = create(ada, name="", private="on")
    game = Game.objects.get(pk=game_id)
    assert game.listed is False and game.created_by.handle == "Ada"  # type: ignore[union-attr]
    assert game_id not in page(Client(), "/")
    assert game_id in page(ada, "/")  # its creator's lobby lists it, as the API does
    assert game_id not in page(person("Eve"), "/")
    join(ada, game_id, "")  # seated as Ada
    lobby = page(ada, "/")
    assert "Your games" in lobby and game_id in lobby


def test_the_invite_link_goes_once_the_game_starts() -> None:
    ada = Client()
    game_id = create(ada)
    join(Client(), game_id, "Bob")
    assert "Copy invite link" not in page(ada, f"/games/{game_id}")


def test_rematch_from_the_finished_table() -> None:
    ada, bob, old = finished_pair()
    finished = page(ada, f"/games/{old}")
    assert REMATCH_BUTTON in finished and f'action="/games/{old}/rematch"' in finished
    assert REMATCH_BUTTON not in page(Client(), f"/games/{old}")  # a spectator
    answer = rematch(ada, old)
    assert answer.status_code == 302
    new = answer["Location"].rsplit("/", 1)[1]
    assert Game.objects.get(pk=new).rematch_of_id is not None
    assert new in ada.session[SESSION_KEY] and old in ada.session[SESSION_KEY]
    assert "Ada (you)" in page(ada, f"/games/{new}")

    seen_by_bob = page(bob, f"/games/{old}")
    assert f'href="/games/{new}"' in seen_by_bob and "Seated in it: Ada." in seen_by_bob
    assert REMATCH_BUTTON in seen_by_bob  # his seat is still to take
    assert rematch(bob, old)["Location"] == f"/games/{new}"
    assert "Bob (you)" in page(bob, f"/games/{new}")
    seen_by_ada = page(ada, f"/games/{old}")
    assert "go to your seat in it" in seen_by_ada and "Seated in it: Ada, Bob." in seen_by_ada
    assert REMATCH_BUTTON not in seen_by_ada  # seated: a link, no button
    spectator = page(Client(), f"/games/{old}")
    assert "open the rematch" in spectator and "Seated in it: Ada, Bob." in spectator


def test_a_spectator_s_rematch_is_refused_with_words() -> None:
    _, _, old = finished_pair()
    watcher = Client()
    answer = rematch(watcher, old)
    assert answer.status_code == 302 and answer["Location"] == f"/games/{old}"
    assert "Only the game&#x27;s players" in page(watcher, f"/games/{old}")
    assert not Game.objects.filter(rematch_of_id=old).exists()


def test_a_refused_rematch_says_why() -> None:
    ada = Client()
    game_id = create(ada)
    answer = rematch(ada, game_id)
    assert answer["Location"] == f"/games/{game_id}"
    assert "not over yet" in page(ada, f"/games/{game_id}")


def test_the_finished_table_re_reads_itself_when_its_rematch_changes() -> None:
    ada, bob, old = finished_pair()
    game = Game.objects.get(pk=old)
    partial = f"/games/{old}/table?since={game.version}"
    assert ada.get(partial).status_code == 204
    rematch(ada, old)
    new = Game.objects.get(rematch_of_id=old)
    assert ada.get(partial).status_code == 200  # the rematch appeared
    tag = f"{game.version}-{new.id}-1"
    assert ada.get(f"/games/{old}/table?since={tag}").status_code == 204
    rematch(bob, old)
    assert ada.get(f"/games/{old}/table?since={tag}").status_code == 200  # Bob sat
    assert f"since={game.version}-{new.id}-2" in page(ada, f"/games/{old}")


def rematch_look_ups(client: Client, path: str) -> int:
    """The queries a page's request makes for a game's rematch (by the unique `rematch_of`)."""
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return sum('"rematch_of_id" =' in query["sql"] for query in captured.captured_queries)


def test_a_table_looks_its_rematch_up_once_per_render() -> None:
    ada, _, old = finished_pair()
    assert rematch_look_ups(ada, f"/games/{old}") == 1
    rematch(ada, old)
    assert rematch_look_ups(ada, f"/games/{old}") == 1
    assert rematch_look_ups(Client(), f"/games/{old}") == 1  # a spectator's
    assert rematch_look_ups(ada, f"/games/{old}/table?since=0") == 1

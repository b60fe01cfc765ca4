"""The rematch's use case (`play.rematch`): first calls racing end with one game and every
caller seated once; the bots of a table are those that joined it; nothing half made."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections
from rest_framework.test import APIClient

import play
from engine.errors import GameFull
from games import core
from games.core.errors import InvalidToken
from games.core.tokens import SeatCredential
from games.models import Game, Seat, SeatHold
from play.models import RematchSeat
from play.rematches import joined_bots
from tests.api.bots_support import leave, seat_bot
from tests.api.support import GAMES, create_game, finished_game, join

from .support import play_to_the_end


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run `calls` in threads released together; their answers (or what they raised)."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            answers[index] = calls[index]()
        except Exception as error:
            answers[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def acts(game: Game, token: str | None) -> bool:
    """Whether `token` is a seat's token of `game`."""
    try:
        core.game_and_seat(game.id, SeatCredential(str(token)), required=True)
    except InvalidToken:
        return False
    return True


@pytest.mark.django_db(transaction=True)
def test_first_calls_racing_make_one_game(api: APIClient) -> None:
    old, tokens = finished_game(api, 4)
    answers = at_once([lambda t=token: play.rematch(old, SeatCredential(t)) for token in tokens])
    assert all(isinstance(answer, play.Rematched) for answer in answers), answers
    assert len({answer.game.id for answer in answers}) == 1
    assert sum(answer.created for answer in answers) == 1
    assert sorted(answer.seat for answer in answers) == [0, 1, 2, 3]
    assert Game.objects.filter(rematch_of_id=old).count() == 1
    new = Game.objects.get(rematch_of_id=old)
    assert new.status == "setup" and not SeatHold.objects.filter(game=new).exists()


@pytest.mark.django_db(transaction=True)
def test_one_guest_calling_twice_at_once_takes_one_seat(api: APIClient) -> None:
    old, (ada, _) = finished_game(api, 2)
    answers = at_once([lambda: play.rematch(old, SeatCredential(ada))] * 2)
    assert all(isinstance(answer, play.Rematched) for answer in answers), answers
    assert {answer.seat for answer in answers} == {0}
    new = Game.objects.get(rematch_of_id=old)
    # One seated the guest, the other gave that seat a new token: only the last one acts.
    assert all(answer.token is not None for answer in answers)
    assert [acts(new, answer.token) for answer in answers].count(True) == 1
    assert Seat.objects.filter(game=new).count() == 1
    assert RematchSeat.objects.get(game=new).seat == 0


@pytest.mark.django_db
def test_a_refused_seat_leaves_the_rematch_as_it_was(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, (ada, bob) = finished_game(api, 2)
    first = play.rematch(old, SeatCredential(ada))
    SeatHold.objects.filter(game=first.game).delete()  # Bob's seat, kept no more...
    join(api, str(first.game.id), "Eve")  # ...is taken
    with pytest.raises(GameFull):
        play.rematch(old, SeatCredential(bob))
    assert not RematchSeat.objects.filter(game=first.game, previous_seat=1).exists()
    assert Game.objects.filter(rematch_of_id=old).count() == 1


@pytest.mark.django_db
def test_a_failed_creation_leaves_nothing(api: APIClient, monkeypatch: pytest.MonkeyPatch) -> None:
    old, (ada, _) = finished_game(api, 2)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the inbox is down")

    monkeypatch.setattr("play.rematches.deliver", broken)
    with pytest.raises(RuntimeError):
        play.rematch(old, SeatCredential(ada))
    assert not Game.objects.filter(rematch_of_id=old).exists()
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_the_bots_of_a_table_are_those_that_joined_it(api: APIClient) -> None:
    game_id = create_game(api, 4, end_score=1)["id"]
    cyd = join(api, game_id, "Cyd")["token"]
    leave(api, game_id, 0, cyd)  # a seat left while waiting: open again
    seat_bot(api, game_id, "random")  # seat 0: a bot
    ada = join(api, game_id, "Ada")["token"]  # seat 1
    bob = join(api, game_id, "Bob")["token"]  # seat 2
    seat_bot(api, game_id, "greedy", name="Grace")  # seat 3: dealt
    leave(api, game_id, 2, bob)  # Bob's seat: a bot plays it now, no bot of the table
    game = Game.objects.get(pk=game_id)
    assert joined_bots(game) == [("Random bot", "random"), ("Grace", "greedy")]
    play_to_the_end(api, game_id, [None, ada, None, None])
    new = play.rematch(game_id, SeatCredential(ada)).game
    view = core.game_state(Game.objects.get(pk=new.id))
    assert list(view.bots) == ["random", "greedy", None, None]
    assert list(view.names) == ["Random bot", "Grace", "Ada", None]


@pytest.mark.django_db
def test_a_long_waiting_room_is_read_a_page_at_a_time(api: APIClient) -> None:
    game_id = create_game(api, 2, end_score=1)["id"]
    for _ in range(30):  # 60 events before the deal: more than a page
        token = join(api, game_id, "Cyd")["token"]
        leave(api, game_id, 0, token)
    seat_bot(api, game_id, "greedy")
    join(api, game_id, "Ada")
    assert joined_bots(Game.objects.get(pk=game_id)) == [("Greedy bot", "greedy")]
    assert api.get(f"{GAMES}/{game_id}").json()["status"] == "setup"

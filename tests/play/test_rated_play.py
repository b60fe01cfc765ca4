"""Rated play (R14): a rated challenge's game is rated (its bots built-in accounts, each once,
its open seats refused to guests), and the matcher never mixes rated and casual seeks and
seats rated seekers within the rating window of `play.matcher`, which widens with the wait
(docs/CLIENTS.md, "Rated games"). Jobs run in this process as a worker runs them, time moved
with the service's clock."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from accounts.credentials import AccountCredential
from accounts.models import Account
from games.models import Game, Seat
from play.matcher import (
    RATED_BOTS,
    RATING_WINDOW,
    RATING_WINDOW_OPEN_AFTER_SECONDS,
    RATING_WINDOW_STEP,
    RATING_WINDOW_STEP_SECONDS,
    rating_window,
)
from play.models import Seek, SeekStatus
from ratings.models import Rating
from ratings.skill import Skill
from tests.api.bots_support import Clock, run_jobs
from tests.api.support import GAMES, assert_problem, bearer, get_view
from tests.play.support import CHALLENGES, account, answer, challenge

from .seek_support import account as seeker
from .seek_support import fresh, seek

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def rated_at(credential: AccountCredential, ordinal: float) -> AccountCredential:
    """The account, its rating set so that its ordinal is `ordinal` (sigma 5, settled)."""
    skill = Skill(ordinal + 15.0, 5.0)
    Rating.objects.update_or_create(
        account_id=credential.account_id,
        defaults={"mu": skill.mu, "sigma": skill.sigma, "games": 20, "ordinal": skill.ordinal},
    )
    return credential


def in_turn(clock: Clock, made: Seek) -> Seek:
    """`made`, the clock then moved on a millisecond: the next seek is younger."""
    clock.advance(0.001)
    return made


def wait(clock: Clock, seconds: int, *seekers: AccountCredential) -> None:
    """Move the clock on by `seconds`, the seekers' streams open meanwhile (seen every 10 s),
    then run the jobs that came due."""
    for _ in range(seconds // 10):
        clock.advance(10)
        for credential in seekers:
            Seek.objects.filter(account_id=credential.account_id).update(seen_at=clock.now)
    run_jobs()


def game_of(found: Seek) -> Game:
    matched = fresh(found)
    assert matched.status == SeekStatus.MATCHED and matched.game is not None
    return matched.game


def searching(*seeks: Seek) -> bool:
    return all(fresh(s).status == SeekStatus.SEARCHING for s in seeks)


def seated(game: Game) -> list[str]:
    rows = Seat.objects.filter(game=game).select_related("account").order_by("seat")
    return [row.account.handle for row in rows if row.account is not None]


# The window


def test_the_window_widens_with_the_wait_then_opens() -> None:
    assert rating_window(timedelta(0)) == RATING_WINDOW == 5
    assert rating_window(timedelta(seconds=9.9)) == RATING_WINDOW
    assert rating_window(timedelta(seconds=RATING_WINDOW_STEP_SECONDS)) == 10
    assert RATING_WINDOW_STEP == 5 and RATING_WINDOW_STEP_SECONDS == 10
    assert rating_window(timedelta(seconds=59)) == 30
    assert rating_window(timedelta(seconds=RATING_WINDOW_OPEN_AFTER_SECONDS)) == math.inf


# Seeks


def test_two_rated_seekers_near_in_rating_play_a_rated_game_at_once(clock: Clock) -> None:
    ada, bob = rated_at(seeker("ada"), 10), rated_at(seeker("bob"), 14)
    first, second = in_turn(clock, seek(ada, rated=True)), seek(bob, rated=True)
    run_jobs()
    game = game_of(first)
    assert game_of(second) == game
    assert game.options["rated"] is True and not game.seeded
    assert seated(game) == ["ada", "bob"]


def test_seekers_far_apart_wait_until_the_window_reaches_them(clock: Clock) -> None:
    ada, bob = rated_at(seeker("ada"), 0), rated_at(seeker("bob"), 12)  # 12 points apart
    first, second = in_turn(clock, seek(ada, rated=True)), seek(bob, rated=True)
    run_jobs()
    assert searching(first, second)  # window 5
    wait(clock, 10, ada, bob)
    assert searching(first, second)  # window 10
    wait(clock, 10, ada, bob)  # window 15
    assert game_of(first) == game_of(second)


def test_seekers_at_the_ends_of_the_ladder_meet_once_the_window_opens(clock: Clock) -> None:
    ada, bob = rated_at(seeker("ada"), -10), rated_at(seeker("bob"), 40)
    first, second = in_turn(clock, seek(ada, rated=True)), seek(bob, rated=True)
    wait(clock, 50, ada, bob)
    assert searching(first, second)  # window 30
    wait(clock, 10, ada, bob)  # a minute: no bound
    assert game_of(first) == game_of(second)


def test_the_oldest_seeker_is_matched_with_the_nearest_first(clock: Clock) -> None:
    ada, far, near = rated_at(seeker("ada"), 20), rated_at(seeker("far"), 0), seeker("near")
    rated_at(near, 22)
    oldest = in_turn(clock, seek(ada, rated=True))
    waiting = in_turn(clock, seek(far, rated=True))
    close = seek(near, rated=True)
    run_jobs()
    assert game_of(oldest) == game_of(close)
    assert searching(waiting)


def test_rated_and_casual_seekers_are_never_matched(clock: Clock) -> None:
    ada, bob = seeker("ada"), seeker("bob")  # the same rating: the default
    rated, casual = in_turn(clock, seek(ada, rated=True)), seek(bob)
    run_jobs()
    wait(clock, 60, ada, bob)
    wait(clock, 20, ada, bob)  # every window open, the group's smallest game allowed
    assert searching(rated, casual)


def test_bots_fill_a_rated_game_as_built_in_accounts_each_once(clock: Clock) -> None:
    ada = seeker("ada")
    mine = seek(ada, 4, 4, bots_after=0, rated=True)
    run_jobs()
    game = game_of(mine)
    assert game.options["rated"] is True
    assert seated(game) == ["ada", *RATED_BOTS[:3]]
    builtin = Account.objects.filter(handle__in=RATED_BOTS[:3], builtin=True)
    assert builtin.count() == 3


def test_a_casual_seek_is_filled_with_greedy_bots_as_before(clock: Clock) -> None:
    mine = seek(seeker("ada"), 3, 3, bots_after=0)
    run_jobs()
    game = game_of(mine)
    assert "rated" not in game.options
    assert seated(game) == ["ada", "greedy", "greedy"]


def test_a_rated_seek_needing_more_bots_than_there_are_waits(clock: Clock) -> None:
    mine = seek(seeker("ada"), 8, 8, bots_after=0, rated=True)  # 7 bots: 5 built-in ones
    run_jobs()
    assert searching(mine)


# Challenges


def test_a_rated_challenge_makes_a_rated_game_of_accounts(api: APIClient) -> None:
    ada, bob = account("ada"), account("bob")
    made = challenge(api, ada, ["bob"], seats=5, bots=["greedy", "clearer"], rated=True)
    assert made["rated"] is True
    view = get_view(api, made["game"])
    assert view["rated"] is True and view["options"]["rated"] is True
    assert [(p["account"], p["bot"]) for p in view["players"][:3]] == [
        ("ada", None),
        ("greedy", "greedy"),
        ("clearer", "clearer"),
    ]
    guest = api.post(f"{GAMES}/{made['game']}/players", {"name": "Eve"}, format="json")
    assert_problem(guest, 409, "account_required")  # an open seat: accounts only
    accepted = answer(api, bob, made["id"], "accept")
    assert accepted.status_code == 200, accepted.content
    assert get_view(api, made["game"])["open_seats"] == 1
    cyd = api.post(f"{GAMES}/{made['game']}/players", {}, format="json", **bearer(account("cyd")))
    assert cyd.status_code == 201, cyd.content
    assert get_view(api, made["game"])["status"] == "setup"  # full: dealt


def test_a_rated_challenge_names_each_bot_once(api: APIClient) -> None:
    ada = account("ada")
    account("bob")
    body = {"players": ["bob"], "seats": 4, "bots": ["greedy", "greedy"], "rated": True}
    refused = assert_problem(api.post(CHALLENGES, body, format="json", **bearer(ada)), 400,
                             "invalid_request")  # fmt: skip
    assert refused["errors"]["bots"]
    assert not Game.objects.exists()
    casual = {**body, "rated": False}  # a casual game seats a bot as often as asked
    assert api.post(CHALLENGES, casual, format="json", **bearer(ada)).status_code == 201

"""`GET /api/v1/leaderboard` (R14): people's or bots' ratings, best ordinal first, established
ones only unless asked, paged as the lobby is, every parameter checked, public."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ratings.models import Rating
from ratings.skill import ESTABLISHED_GAMES

from .bots_support import run_jobs, seat_bot
from .ratings_support import LEADERBOARD, bots_game, person, rated_game, seat_account, valid
from .support import GAMES, assert_problem, bearer

pytestmark = pytest.mark.django_db


@pytest.fixture
def boards() -> None:
    """greedy and random established (10 rated games each), rusher and clearer provisional."""
    for seed in range(ESTABLISHED_GAMES):
        bots_game("greedy", "random", seed=seed)
    bots_game("rusher", "clearer", seed=99)


def ordinals(entries: list[dict[str, object]]) -> list[object]:
    return [entry["ordinal"] for entry in entries]


@pytest.mark.usefixtures("boards")
def test_the_bots_board_lists_established_ratings_best_ordinal_first(api: APIClient) -> None:
    response = api.get(LEADERBOARD, {"kind": "bot"})
    board = valid("Leaderboard", response)
    assert "private" not in response.get("Cache-Control", "")  # shared caches may keep it
    entries = board["entries"]
    assert board["count"] == 2 and board["next"] is None and board["previous"] is None
    assert {e["handle"] for e in entries} == {"greedy", "random"}
    assert ordinals(entries) == sorted(ordinals(entries), reverse=True)
    assert [e["rank"] for e in entries] == [1, 2]
    for entry in entries:
        rating = Rating.objects.get(account__handle=entry["handle"])
        assert (entry["mu"], entry["sigma"], entry["ordinal"]) == (
            rating.mu,
            rating.sigma,
            rating.ordinal,
        )
        assert entry["games"] == ESTABLISHED_GAMES and entry["provisional"] is False
        assert entry["kind"] == "bot" and entry["builtin"] is True
        assert entry["last_played"] is not None


@pytest.mark.usefixtures("boards")
def test_provisional_ratings_are_listed_when_asked_for(api: APIClient) -> None:
    board = valid("Leaderboard", api.get(LEADERBOARD, {"kind": "bot", "provisional": "true"}))
    entries = board["entries"]
    assert board["count"] == 4
    assert {e["handle"] for e in entries} == {"greedy", "random", "rusher", "clearer"}
    assert ordinals(entries) == sorted(ordinals(entries), reverse=True)
    provisional = {e["handle"] for e in entries if e["provisional"]}
    assert provisional == {"rusher", "clearer"}
    assert all(e["games"] == 1 for e in entries if e["provisional"])
    refused = api.get(LEADERBOARD, {"kind": "bot", "provisional": "false"}).json()
    assert refused["count"] == 2


@pytest.mark.usefixtures("boards")
def test_pages_rank_across_them(api: APIClient) -> None:
    whole = api.get(LEADERBOARD, {"kind": "bot", "provisional": "true"}).json()["entries"]
    page = valid(
        "Leaderboard",
        api.get(LEADERBOARD, {"kind": "bot", "provisional": "true", "limit": 2, "offset": 1}),
    )
    assert page["count"] == 4
    assert [e["handle"] for e in page["entries"]] == [e["handle"] for e in whole[1:3]]
    assert [e["rank"] for e in page["entries"]] == [2, 3]
    assert "offset=3" in page["next"] and "limit=2" in page["next"]
    assert page["previous"] is not None
    beyond = api.get(LEADERBOARD, {"kind": "bot", "provisional": "true", "offset": 10}).json()
    assert beyond["entries"] == [] and beyond["count"] == 4


def test_the_people_s_board_is_the_default_and_holds_no_bot(api: APIClient) -> None:
    """A person rated once (they left a rated game against greedy: ranked last) is on the
    people's board, provisional; greedy is only on the bots'."""
    token = person("ada")
    game = rated_game(2)
    seat_account(api, game, token)
    seat_bot(api, str(game), "greedy")
    left = api.post(f"{GAMES}/{game}/players/0/leave", **bearer(token))
    assert left.status_code == 200, left.content
    run_jobs()
    assert valid("Leaderboard", api.get(LEADERBOARD))["entries"] == []  # provisional
    board = valid("Leaderboard", api.get(LEADERBOARD, {"provisional": "true"}))
    assert [(e["handle"], e["kind"], e["builtin"]) for e in board["entries"]] == [
        ("ada", "person", False)
    ]
    assert board["entries"][0]["provisional"] is True and board["entries"][0]["games"] == 1
    bots = api.get(LEADERBOARD, {"kind": "bot", "provisional": "true"}).json()["entries"]
    assert [e["handle"] for e in bots] == ["greedy"]


def test_an_empty_board(api: APIClient) -> None:
    board = valid("Leaderboard", api.get(LEADERBOARD, {"kind": "bot"}))
    assert board == {"count": 0, "next": None, "previous": None, "entries": []}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"kind": "robot"}, "kind"),
        ({"kind": ""}, "kind"),
        ({"kind": "BOT"}, "kind"),
        ({"provisional": "yes"}, "provisional"),
        ({"provisional": "1"}, "provisional"),
        ({"limit": "0"}, "limit"),
        ({"limit": "101"}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"offset": "-1"}, "offset"),
    ],
)
def test_a_bad_parameter_is_400_naming_it(
    api: APIClient, query: dict[str, str], field: str
) -> None:
    problem = assert_problem(api.get(LEADERBOARD, query), 400, "invalid_request")
    assert list(problem["errors"]) == [field]

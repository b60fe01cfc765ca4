"""Ratings in the answers (R14): a player's and an account's `rating`, a player's history, a
rated game's views (a seat's, a spectator's, a replay's, an action's answer, the stream's)
with each seat's rating at the deal, its predicted chance and, once rated, its change; the
account stream's `rating_changed`; and casual games as they were, at no cost more."""

from __future__ import annotations

import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.live.streams import batch_for, read_log
from games.models import Game
from ratings.models import Rating, RatingChange
from ratings.services import rating_data, rating_of
from ratings.skill import DEFAULT

from .bots_support import run_jobs, seat_bot
from .ratings_support import PLAYERS, bots_game, person, rated_game, seat_account, valid
from .support import GAMES, action_url, assert_problem, bearer

pytestmark = pytest.mark.django_db

UNRATED = rating_data(DEFAULT, 0)


def ratings_queries(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if "ratings_" in q["sql"]]


# Profiles and histories


def test_a_player_s_profile_and_history_follow_its_rated_games(api: APIClient) -> None:
    games = [bots_game("greedy", "random", seed=seed) for seed in (1, 2, 3)]
    profile = valid("PlayerProfile", api.get(f"{PLAYERS}/GREEDY"))
    assert profile["rating"] == rating_of(Rating.objects.get(account__handle="greedy"))
    assert profile["rating"]["games"] == 3 and profile["rating"]["provisional"] is True
    history = valid("RatingHistory", api.get(f"{PLAYERS}/greedy/ratings"))
    assert history["handle"] == "greedy" and history["rating"] == profile["rating"]
    assert history["count"] == 3 and history["next"] is None
    assert [point["game"] for point in history["history"]] == games  # oldest first
    changes = RatingChange.objects.filter(account__handle="greedy").order_by("rated_game")
    for point, change in zip(history["history"], changes, strict=True):
        assert (point["rank"], point["seats"]) == (change.rank, 2)
        assert (point["mu"], point["sigma"]) == (change.mu_after, change.sigma_after)
        assert point["ordinal"] == pytest.approx(change.mu_after - 3 * change.sigma_after)
    last = history["history"][-1]
    assert (last["mu"], last["sigma"]) == (profile["rating"]["mu"], profile["rating"]["sigma"])
    page = valid("RatingHistory", api.get(f"{PLAYERS}/greedy/ratings?limit=1&offset=1"))
    assert [p["game"] for p in page["history"]] == games[1:2] and page["count"] == 3
    assert page["next"] is not None and page["previous"] is not None


def test_an_unrated_player_has_the_default_rating_and_no_history(api: APIClient) -> None:
    person("ada")
    assert valid("PlayerProfile", api.get(f"{PLAYERS}/ada"))["rating"] == UNRATED
    history = valid("RatingHistory", api.get(f"{PLAYERS}/ada/ratings"))
    assert history["rating"] == UNRATED and history["history"] == [] and history["count"] == 0


def test_an_unknown_player_s_history_is_the_profile_s_404(api: APIClient) -> None:
    profile = assert_problem(api.get(f"{PLAYERS}/nobody"), 404, "player_not_found")
    history = assert_problem(api.get(f"{PLAYERS}/nobody/ratings"), 404, "player_not_found")
    assert history["title"] == profile["title"]
    for query in ("limit=0", "limit=1001", "offset=-1"):
        assert_problem(api.get(f"{PLAYERS}/greedy/ratings?{query}"), 400, "invalid_request")


def test_an_account_reads_its_own_rating(api: APIClient) -> None:
    token = person("ada")
    assert valid("Account", api.get("/api/v1/account", **bearer(token)))["rating"] == UNRATED
    game = rated_game(2)
    seat_account(api, game, token)
    seat_bot(api, str(game), "greedy")
    assert api.post(f"{GAMES}/{game}/players/0/leave", **bearer(token)).status_code == 200
    run_jobs()
    rating = valid("Account", api.get("/api/v1/account", **bearer(token)))["rating"]
    assert rating == rating_of(Rating.objects.get(account__handle="ada"))
    assert rating["games"] == 1 and rating["mu"] < DEFAULT.mu  # left: ranked last


# A rated game's views


def test_a_rated_game_s_views_show_each_seat_s_rating_then_its_change(api: APIClient) -> None:
    """Ada (a person, with her personal token) plays a rated game against greedy, rated once
    before: null while it waits; once dealt each view shows what each seat entered with and
    its chance; Ada leaves, greedy plays on, and once rated each seat's change shows."""
    first = bots_game("greedy", "random", seed=1)
    greedy_then = RatingChange.objects.get(game_id=first, account__handle="greedy")
    token = person("ada")
    game = str(rated_game(2, seed=5))
    waiting = seat_account(api, game, token)["game"]
    assert waiting["ratings"] is None  # not dealt yet
    seat_bot(api, game, "greedy")
    mine = valid("Game", api.get(f"{GAMES}/{game}", **bearer(token)))
    spectator = valid("Game", api.get(f"{GAMES}/{game}"))
    assert mine["you"] == 0 and mine["ratings"] == spectator["ratings"]
    ada, greedy = mine["ratings"]
    assert (ada["seat"], ada["handle"], ada["entered"]) == (0, "ada", UNRATED)
    assert (greedy["seat"], greedy["handle"]) == (1, "greedy")
    assert (greedy["entered"]["mu"], greedy["entered"]["games"]) == (greedy_then.mu_after, 1)
    assert ada["change"] is None and greedy["change"] is None
    assert ada["predicted_win"] + greedy["predicted_win"] == pytest.approx(1)
    acted = api.post(
        action_url(game, "reveal"), {"column": 0, "row": 0}, format="json", **bearer(token)
    )
    assert acted.status_code == 200 and acted.json()["ratings"] == mine["ratings"]
    assert api.post(f"{GAMES}/{game}/players/0/leave", **bearer(token)).status_code == 200
    run_jobs()
    assert Game.objects.get(pk=game).status == "finished"
    over = valid("Game", api.get(f"{GAMES}/{game}"))["ratings"]
    assert [seat["entered"] for seat in over] == [ada["entered"], greedy["entered"]]
    assert [seat["predicted_win"] for seat in over] == [
        ada["predicted_win"],
        greedy["predicted_win"],
    ]
    assert [seat["change"]["rank"] for seat in over] == [2, 1]  # Ada left: last
    for seat in over:
        change, now = seat["change"], Rating.objects.get(account__handle=seat["handle"])
        assert change["after"] == {"mu": now.mu, "sigma": now.sigma, "ordinal": now.ordinal}
        row = RatingChange.objects.get(game_id=game, seat=seat["seat"])
        assert change["mu"] == pytest.approx(row.mu_after - row.mu_before)
        assert change["sigma"] == pytest.approx(row.sigma_after - row.sigma_before)
    assert over[0]["change"]["mu"] < 0 < over[1]["change"]["mu"]


def test_a_seat_entered_with_its_rating_at_the_deal_not_at_the_first_view(
    api: APIClient,
) -> None:
    """Greedy is dealt into Ada's game, then rated in two other games before anyone reads
    Ada's: the view still shows what greedy had at the deal."""
    bots_game("greedy", "clearer", seed=1)
    at_deal = rating_of(Rating.objects.get(account__handle="greedy"))
    token = person("ada")
    game = str(rated_game(3, seed=8))
    seat_account(api, game, token)
    seat_bot(api, game, "greedy")
    seat_bot(api, game, "rusher")
    bots_game("greedy", "random", seed=2)
    bots_game("statistician", "greedy", seed=3)
    assert Rating.objects.get(account__handle="greedy").games == 3
    seats = valid("Game", api.get(f"{GAMES}/{game}", **bearer(token)))["ratings"]
    assert [seat["handle"] for seat in seats] == ["ada", "greedy", "rusher"]
    assert [seat["entered"] for seat in seats] == [UNRATED, at_deal, UNRATED]
    assert sum(seat["predicted_win"] for seat in seats) == pytest.approx(1)


def test_a_replay_shows_the_ratings_dealt_and_the_change_at_the_end(api: APIClient) -> None:
    game = bots_game("greedy", "random", seed=3)
    version = Game.objects.get(pk=game).version
    assert valid("Game", api.get(f"{GAMES}/{game}?at=1"))["ratings"] is None  # waiting
    middle = valid("Game", api.get(f"{GAMES}/{game}?at={version - 1}"))["ratings"]
    end = valid("Game", api.get(f"{GAMES}/{game}?at={version}"))["ratings"]
    assert [seat["change"] for seat in middle] == [None, None]
    assert all(seat["change"] is not None for seat in end)
    assert [seat["entered"] for seat in middle] == [UNRATED, UNRATED]
    assert [seat["predicted_win"] for seat in middle] == [pytest.approx(0.5)] * 2


def test_the_stream_s_view_frame_carries_the_ratings(api: APIClient) -> None:
    game = bots_game("greedy", "random", seed=4)
    batch = batch_for(read_log(Game.objects.get(pk=game).id, 0), None, 0)
    view_frame = batch.frames.split(b"event: view\n", 1)[1]
    data = orjson.loads(view_frame.split(b"data: ", 1)[1].split(b"\n", 1)[0])
    assert data["ratings"] == api.get(f"{GAMES}/{game}").json()["ratings"]
    assert all(seat["change"] is not None for seat in data["ratings"])


def test_a_finished_rated_game_is_answered_in_full_to_a_matching_etag(api: APIClient) -> None:
    """Its ratings' change comes after its last event, with no new version: a copy taken
    before the game was rated must not be told it is current."""
    rated = bots_game("greedy", "random", seed=6)
    casual = bots_game("greedy", "random", seed=6, rated=False)
    for game, status in ((rated, 200), (casual, 304)):
        etag = api.get(f"{GAMES}/{game}")["ETag"]
        assert api.get(f"{GAMES}/{game}", HTTP_IF_NONE_MATCH=etag).status_code == status


# Casual games


def test_a_casual_game_shows_no_ratings_and_reads_none(api: APIClient) -> None:
    game = bots_game("greedy", "random", seed=2, rated=False)
    with CaptureQueriesContext(connection) as queries:
        view = valid("Game", api.get(f"{GAMES}/{game}"))
    assert view["ratings"] is None and ratings_queries(queries) == []
    assert not RatingChange.objects.exists()
    assert valid("PlayerProfile", api.get(f"{PLAYERS}/greedy"))["rating"] == UNRATED


def test_a_rated_game_s_ratings_are_read_once_per_process(api: APIClient) -> None:
    game = bots_game("greedy", "random", seed=2)
    api.get(f"{GAMES}/{game}")
    with CaptureQueriesContext(connection) as queries:
        again = valid("Game", api.get(f"{GAMES}/{game}"))
    assert again["ratings"] is not None and ratings_queries(queries) == []


# The account stream


def test_rating_changed_reaches_the_account_s_inbox_in_its_documented_shape(
    api: APIClient,
) -> None:
    token = person("ada")
    game = rated_game(2)
    seat_account(api, game, token)
    seat_bot(api, str(game), "random")
    assert api.post(f"{GAMES}/{game}/players/0/leave", **bearer(token)).status_code == 200
    run_jobs()
    events = valid("AccountEvents", api.get("/api/v1/account/events", **bearer(token)))
    changed = [entry for entry in events["entries"] if entry["type"] == "rating_changed"]
    assert len(changed) == 1
    entry = changed[0]
    assert (entry["game"], entry["rank"], entry["seats"]) == (str(game), 2, 2)
    assert entry["before"] == UNRATED
    assert entry["rating"] == rating_of(Rating.objects.get(account__handle="ada"))

"""The bot ladder: bot accounts opt in and out, the job deals present bots duplicate sets (the
same seed once per rotation of the seats, built-ins filling the lineup), the external bots
play their seats through the API, and the ladder's table comes out of the complete sets."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from rest_framework.test import APIClient

from accounts.models import Account
from engine import GreedyPlayer, action_to_data, seats_to_act
from engine.tournament import bootstrap_mean
from games import core
from games.models import Game
from ratings import ladder
from ratings.models import DuplicateSet, LadderEntry, RatingChange
from tests.api.bots_support import Clock, due_jobs, run_jobs
from tests.api.support import act, assert_problem, bearer, get_view, view_from_data
from tests.play.support import account

pytestmark = pytest.mark.django_db

ACCOUNT_LADDER = "/api/v1/account/ladder"
LADDER = "/api/v1/ladder"


def join(api: APIClient, token: str, **body: Any) -> Any:
    return api.post(ACCOUNT_LADDER, body or None, format="json", **bearer(token))


def laddered(api: APIClient, handle: str, seats: list[int]) -> str:
    """A new bot account on the ladder for `seats`, present now: its token."""
    token = account(handle)
    assert join(api, token, seats=seats).status_code == 201
    ladder.seen(Account.objects.get(handle=handle).pk)
    return token


def set_games(duplicate: DuplicateSet) -> list[Game]:
    return [link.game for link in duplicate.games.order_by("rotation")]


def play_set(api: APIClient, duplicate: DuplicateSet, tokens: dict[str, str]) -> None:
    """Play the set's games to their end: the built-ins by the jobs, the bot accounts' seats
    (`tokens` by handle) through the API, each choosing as `greedy` from its view."""
    player = GreedyPlayer()
    for _ in range(5_000):
        run_jobs()
        games = [g for g in set_games(duplicate) if g.status != "finished"]
        if not games and len(set_games(duplicate)) == duplicate.seats:
            return
        for game in games:
            state = core.game_state(game)
            for seat in seats_to_act(state):
                token = tokens.get(state.accounts[seat] or "")
                if token is not None and state.bots[seat] is None:
                    view = view_from_data(get_view(api, str(game.id), token))
                    act(api, str(game.id), token, action_to_data(player.choose(view)))
    raise AssertionError("the set never finished")


def test_a_bot_account_joins_changes_and_leaves_the_ladder(api: APIClient) -> None:
    token = account("ladder-bot")
    first = join(api, token)
    assert first.status_code == 201 and first.json()["seats"] == [2]
    again = join(api, token, seats=[4, 2, 4])
    assert again.status_code == 200
    assert again.json() == {"seats": [2, 4], "joined_at": first.json()["joined_at"]}
    assert api.delete(ACCOUNT_LADDER, **bearer(token)).status_code == 204
    assert not LadderEntry.objects.exists()
    assert api.delete(ACCOUNT_LADDER, **bearer(token)).status_code == 204  # not on it: fine


def test_only_bot_accounts_with_the_play_scope_join(api: APIClient) -> None:
    person = account("ada", kind="person")
    assert_problem(join(api, person), 403, "bot_account_required")
    reader = account("reader-bot", scopes=["account:read"])
    assert_problem(join(api, reader), 403, "missing_scope")
    assert_problem(api.post(ACCOUNT_LADDER, {}, format="json"), 401, "account_token_required")
    bot = account("seats-bot")
    for seats in ([1], [9], [], "two"):
        assert_problem(join(api, bot, seats=seats), 400, "invalid_request")
    assert not LadderEntry.objects.exists()


def test_the_ladder_plays_a_complete_duplicate_set_between_two_bots_and_a_builtin(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    short = {**ladder.LADDER_OPTIONS, "end_score": 30}  # shorter games: the same deal each
    monkeypatch.setattr(ladder, "LADDER_OPTIONS", short)
    tokens = {handle: laddered(api, handle, [3]) for handle in ("alpha-bot", "beta-bot")}
    run_jobs()  # nothing queued yet: the workers' sweep queues the job
    assert ladder.sweep() == 2 and len(due_jobs()) == 1
    run_jobs()
    (duplicate,) = DuplicateSet.objects.all()
    lineup = [p.account for p in duplicate.players.order_by("position")]
    assert {a.handle for a in lineup} >= {"alpha-bot", "beta-bot"}
    assert sum(a.builtin for a in lineup) == 1 and duplicate.seats == 3
    assert ladder.start_sets() == []  # one unfinished set per bot at a time

    play_set(api, duplicate, tokens)

    games = set_games(duplicate)
    for earlier, later in itertools.pairwise(games):  # one at a time: a deal is the set's
        assert later.created_at >= earlier.updated_at and earlier.status == "finished"
    for rotation, game in enumerate(games):  # bot i at seat (i + r) % n of rotation r
        assert game.seed == duplicate.seed and game.options["rated"] is True
        assert game.options["turn_seconds"] == ladder.LADDER_TURN_SECONDS
        assert game.options["bot_pace_ms"] == 0  # its bot accounts count as persons (R15)
        handles = [row.account.handle for row in game.seat_rows.order_by("seat")]
        assert handles == [lineup[(seat - rotation) % 3].handle for seat in range(3)]
    for bot in lineup:  # every seat of the same deal
        seats = {h.index(bot.handle) for h in (_handles(g) for g in games)}
        assert seats == {0, 1, 2}

    # Rated: every game once, each bot three times.
    assert RatingChange.objects.filter(game__in=games).count() == 9
    assert all(RatingChange.objects.filter(account=a).count() == 3 for a in lineup)

    # Linked in the summaries.
    ids = {str(g.id) for g in games}
    mine = api.get("/api/v1/account/games", **bearer(tokens["alpha-bot"])).json()["results"]
    assert {g["duplicate_set"] for g in mine if g["id"] in ids} == {duplicate.id}
    assert len([g for g in mine if g["id"] in ids]) == 3
    listed = api.get("/api/v1/games?status=finished").json()["results"]
    assert not ids & {g["id"] for g in listed}  # unlisted: one watched would tell the next

    # The table: each bot's mean final total over its three seats.
    table = api.get(LADDER, {"seats": 3}).json()
    assert table["seats"] == 3
    entries = {e["handle"]: e for e in table["entries"]}
    assert set(entries) == {a.handle for a in lineup}
    for position, bot in enumerate(lineup):
        totals = [g.totals[(position + r) % 3] for r, g in enumerate(games)]
        entry = entries[bot.handle]
        assert entry["sets"] == 1 and entry["mean_score"] == pytest.approx(sum(totals) / 3)
        assert entry["interval"] == [entry["mean_score"]] * 2  # one set: no spread
        assert entry["rating"]["games"] == 3 and entry["rating"]["provisional"]
    ordinals = [e["rating"]["ordinal"] for e in table["entries"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert api.get(LADDER).json() == {"seats": 2, "entries": []}


def _handles(game: Game) -> list[str]:
    return [row.account.handle for row in game.seat_rows.order_by("seat")]


def test_a_bot_that_goes_away_times_out_and_its_set_still_completes(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    laddered(api, "gone-bot", [2])
    (duplicate,) = ladder.start_sets()
    finish_by_timeouts(clock, duplicate)
    gone = Account.objects.get(handle="gone-bot")
    assert RatingChange.objects.filter(account=gone).count() == 2
    assert all(c.rank == 2 for c in RatingChange.objects.filter(account=gone))  # handed over


def finish_by_timeouts(clock: Clock, duplicate: DuplicateSet) -> None:
    """Run the jobs, the clock moved on a turn at a time, until the set's games are over (the
    bot accounts, away, time out and are handed over)."""
    for _ in range(2_000):
        run_jobs()
        if all(g.status == "finished" for g in set_games(duplicate)):
            return
        clock.advance(ladder.LADDER_TURN_SECONDS)
    raise AssertionError("the set never finished")


def test_absent_bots_get_no_sets_and_the_bounds_hold(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    monkeypatch.setattr(ladder, "LADDER_SETS_PER_HOUR", 2)
    assert join(api, account("never-seen-bot")).status_code == 201  # no stream, ever
    laddered(api, "busy-bot", [2])
    laddered(api, "quiet-bot", [2])
    clock.advance(ladder.presence_window().total_seconds() + 1)
    busy = Account.objects.get(handle="busy-bot")
    ladder.seen(busy.pk)  # only busy-bot is still there
    assert ladder.sweep() == 1
    dealt = []
    for _ in range(3):  # a set at a time, each once the last is over, two an hour
        found = ladder.start_sets()
        assert ladder.start_sets() == []
        dealt += found
        for duplicate in found:
            finish_by_timeouts(clock, duplicate)
        ladder.seen(busy.pk)
    assert len(dealt) == 2 and clock.now - dealt[0].created_at < timedelta(hours=1)
    for duplicate in dealt:
        bots = [p.account.handle for p in duplicate.players.all() if not p.account.builtin]
        assert bots == ["busy-bot"]
    assert ladder.sweep() == 0
    clock.advance(timedelta(hours=1).total_seconds())
    ladder.seen(busy.pk)
    assert len(ladder.start_sets()) == 1


def test_the_table_bootstraps_each_mean_over_the_sets(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    laddered(api, "steady-bot", [2])
    bot = Account.objects.get(handle="steady-bot")
    sets = []
    for _ in range(3):
        (duplicate,) = ladder.start_sets()
        finish_by_timeouts(clock, duplicate)
        sets.append(duplicate)
        ladder.seen(bot.pk)
    scores = []
    for duplicate in sets:  # by hand: its mean final total over the set's two games
        position = duplicate.players.get(account=bot).position
        games = set_games(duplicate)
        scores.append(sum(g.totals[(position + r) % 2] for r, g in enumerate(games)) / 2)
    table = api.get(LADDER, {"seats": 2}).json()
    entry = next(e for e in table["entries"] if e["handle"] == "steady-bot")
    assert entry["sets"] == 3 and entry["mean_score"] == pytest.approx(sum(scores) / 3)
    low, high = bootstrap_mean(scores, seed="ladder/2/steady-bot")
    assert entry["interval"] == [low, high] and min(scores) <= low <= high <= max(scores)
    assert api.get(LADDER, {"seats": 2}).json() == table  # seeded: the same sets, the same
    assert_problem(api.get(LADDER, {"seats": 9}), 400, "invalid_request")


def test_polling_the_account_events_is_a_sign_of_presence(
    api: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    token = account("polling-bot")
    assert join(api, token).status_code == 201
    assert ladder.sweep() == 0  # on the ladder, never seen: no set
    assert api.get("/api/v1/account/events", **bearer(token)).status_code == 200
    assert LadderEntry.objects.get().last_seen == clock.now
    assert ladder.sweep() == 1
    clock.advance(ladder.presence_window().total_seconds())
    assert ladder.sweep() == 0 and ladder.start_sets() == []


def test_two_jobs_at_once_deal_one_set(api: APIClient) -> None:
    """Two workers' sweeps both queue the job: the one that runs second finds the bots busy
    (the lock makes them run one after the other on every database)."""
    laddered(api, "first-bot", [2])
    laddered(api, "second-bot", [2])
    assert ladder.sweep() == 2 and ladder.sweep() == 2
    assert len(due_jobs()) == 2
    run_jobs()
    (duplicate,) = DuplicateSet.objects.all()
    handles = {p.account.handle for p in duplicate.players.all()}
    assert handles == {"first-bot", "second-bot"}  # both online: no built-in needed
    assert duplicate.games.count() == 1 and ladder.sweep() == 0  # its first rotation


def test_a_lone_bot_is_never_dealt_more_seats_than_the_builtins_fill(api: APIClient) -> None:
    laddered(api, "big-table-bot", [7, 8])  # five built-ins: 7 seats need two laddered bots
    assert ladder.sweep() == 0 and ladder.start_sets() == []
    laddered(api, "second-big-bot", [7])
    assert ladder.sweep() == 2
    (duplicate,) = ladder.start_sets()
    assert duplicate.seats == 7 and duplicate.games.count() == 1  # its first rotation
    assert sum(p.account.builtin for p in duplicate.players.all()) == 5

"""The matcher (`play.matcher`): which seeks it groups and when it starts their games, the
games it starts (listed, a secret seed, the seekers' clock, the seekers seated by their
accounts oldest first, bots after `bots_after`), the `seek_matched` letters, and a seek seated
once however often it runs. Jobs run in this process as a worker runs them (`run_jobs`), time
moved with the service's clock; tests/production/test_seek_workers.py runs two real workers."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from accounts.models import InboxEntry
from games.models import Game, Seat
from play import seen
from play.matcher import BOT_STRATEGY, Match, match, plan
from play.models import Seek, SeekStatus
from tests.api.bots_support import Clock, run_jobs

from .seek_support import account, fresh, seek

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def seated(game: Game) -> list[tuple[str | None, str | None]]:
    """Each seat's account handle and bot, in seat order."""
    rows = Seat.objects.filter(game=game).select_related("account").order_by("seat")
    return [(row.account.handle if row.account else None, row.bot) for row in rows]


def game_of(found: Seek) -> Game:
    matched = fresh(found)
    assert matched.status == SeekStatus.MATCHED and matched.game is not None
    return matched.game


def searching(*seeks: Seek) -> bool:
    return all(fresh(s).status == SeekStatus.SEARCHING for s in seeks)


def in_turn(clock: Clock, made: Seek) -> Seek:
    """`made`, the clock then moved on a millisecond: the next seek is younger (the oldest is
    seated first; seeks made in the same microsecond are in no order)."""
    clock.advance(0.001)
    return made


def keep_seen(clock: Clock, seconds: int, *handles_ids: int) -> None:
    """Move the clock on by `seconds`, the accounts' streams open meanwhile (seen every 10 s)."""
    for _ in range(seconds // 10):
        clock.advance(10)
        for account_id in handles_ids:
            seen(account_id)


def test_two_compatible_seekers_play_the_largest_game_they_share(clock: Clock) -> None:
    ada, bob = account("ada"), account("bob")
    first, second = in_turn(clock, seek(ada, 2, 4)), seek(bob, 2, 2)
    run_jobs()
    game = game_of(first)
    assert game_of(second) == game
    assert game.seats == 2 and game.status == "setup"  # full: round 1 is dealt
    assert game.listed and not game.seeded
    assert game.options["turn_seconds"] is None
    assert seated(game) == [("ada", None), ("bob", None)]
    assert (fresh(first).seat, fresh(second).seat) == (0, 1)


def test_each_seeker_is_told_then_the_game_starts(clock: Clock) -> None:
    ada, bob = account("ada"), account("bob")
    first, second = in_turn(clock, seek(ada, 2, 2)), seek(bob, 2, 2)
    run_jobs()
    game = str(game_of(first).id)
    for who, mine, seat in ((ada, first, 0), (bob, second, 1)):
        entries = InboxEntry.objects.filter(account_id=who.account_id).order_by("sequence")
        kinds = [(e.type, e.payload) for e in entries[:2]]
        assert kinds == [
            ("seek_matched", {"seek": str(mine.id), "game": game, "seat": seat}),
            ("game_started", {"game": game, "seat": seat}),
        ]


def test_three_seekers_of_two_to_four_and_two_to_three_make_a_three_seat_game(
    clock: Clock,
) -> None:
    ada, bob, eve = account("ada"), account("bob"), account("eve")
    seeks = [in_turn(clock, seek(ada, 2, 4)), in_turn(clock, seek(bob, 2, 4))]
    run_jobs()
    assert searching(*seeks)  # 2 of the 4 they share: they wait
    seeks.append(seek(eve, 2, 3))
    run_jobs()
    game = game_of(seeks[0])
    assert {game_of(s) for s in seeks} == {game}
    assert game.seats == 3
    assert seated(game) == [("ada", None), ("bob", None), ("eve", None)]


def test_the_oldest_seeks_first(clock: Clock) -> None:
    seeks = []
    for handle in ("ada", "bob", "eve"):
        seeks.append(seek(account(handle), 2, 2))
        clock.advance(1)
    run_jobs()
    assert game_of(seeks[0]) == game_of(seeks[1])
    assert searching(seeks[2])


def test_incompatible_clocks_and_ranges_are_never_matched(clock: Clock) -> None:
    ada, bob, eve, dan = (account(h) for h in ("ada", "bob", "eve", "dan"))
    seeks = [
        seek(ada, 2, 2),
        seek(bob, 2, 2, turn_seconds=30),
        seek(eve, 2, 2, turn_seconds=60),
        seek(dan, 3, 4),
    ]
    run_jobs()
    keep_seen(clock, 60, ada.account_id, bob.account_id, eve.account_id, dan.account_id)
    run_jobs()
    assert match() == 0
    assert searching(*seeks)
    assert not Game.objects.exists()


def test_the_same_clock_is_the_games_clock(clock: Clock) -> None:
    first = seek(account("ada"), 2, 2, turn_seconds=30)
    seek(account("bob"), 2, 2, turn_seconds=30)
    run_jobs()
    assert game_of(first).options["turn_seconds"] == 30


def test_after_the_wait_a_group_starts_with_the_seekers_it_has(clock: Clock) -> None:
    ada, bob = account("ada"), account("bob")
    seeks = [seek(ada, 2, 4), seek(bob, 3, 5)]
    keep_seen(clock, 10, ada.account_id, bob.account_id)
    run_jobs()
    assert searching(*seeks)  # 2 seekers, 4 seats they share, 3 at least: wait
    eve = account("eve")
    seeks.append(seek(eve, 2, 8))
    keep_seen(clock, 10, ada.account_id, bob.account_id, eve.account_id)
    run_jobs()  # 20 s since the oldest: 3 seekers reach their common minimum, 3
    game = game_of(seeks[0])
    assert {game_of(s) for s in seeks} == {game}
    assert game.seats == 3


def test_the_wait_does_not_start_a_group_below_its_minimum(clock: Clock) -> None:
    ada, bob = account("ada"), account("bob")
    seeks = [seek(ada, 3, 4), seek(bob, 3, 4)]
    keep_seen(clock, 40, ada.account_id, bob.account_id)
    run_jobs()
    assert searching(*seeks)


def test_bots_fill_the_empty_seats_once_bots_after_has_passed(clock: Clock) -> None:
    ada = account("ada")
    mine = seek(ada, 2, 3, bots_after=5)
    run_jobs()
    assert searching(mine)
    clock.advance(5)
    run_jobs()  # the job queued for 5 s later
    game = game_of(mine)
    assert game.seats == 2
    assert seated(game)[0] == ("ada", None)
    assert seated(game)[1] == (BOT_STRATEGY, BOT_STRATEGY)
    assert fresh(mine).seat == 0


def test_bots_fill_up_to_the_common_minimum_at_once_with_no_wait(clock: Clock) -> None:
    mine = seek(account("ada"), 3, 5, bots_after=0)
    run_jobs()
    game = game_of(mine)
    assert game.seats == 3
    assert seated(game) == [("ada", None), (BOT_STRATEGY, BOT_STRATEGY), (BOT_STRATEGY, "greedy")]


def test_a_seeker_whose_bots_are_due_leaves_the_seekers_who_want_none_waiting(
    clock: Clock,
) -> None:
    """Ada wants no bots (`bots_after` null: keep waiting), Bob wants them at once: Bob plays
    bots, and Ada keeps searching for people."""
    ada, bob = account("ada"), account("bob")
    patient = in_turn(clock, seek(ada, 2, 4))
    hurried = seek(bob, 3, 4, bots_after=0)
    run_jobs()
    game = game_of(hurried)
    assert game.seats == 3
    assert seated(game) == [("bob", None), (BOT_STRATEGY, BOT_STRATEGY), (BOT_STRATEGY, "greedy")]
    assert searching(patient)


def test_the_seekers_whose_bots_are_due_play_together_with_bots(clock: Clock) -> None:
    """A seeker whose wait is not over stays out of a game with bots, and so does one that
    wants none; those whose `bots_after` passed sit together, then the bots."""
    ada, bob, cyd, dan = account("ada"), account("bob"), account("cyd"), account("dan")
    patient = in_turn(clock, seek(ada, 2, 4))
    first = in_turn(clock, seek(bob, 3, 4, bots_after=0))
    later = in_turn(clock, seek(cyd, 4, 4, bots_after=60))
    second = seek(dan, 2, 3, bots_after=0)
    run_jobs()
    game = game_of(first)
    assert game_of(second) == game and game.seats == 3
    assert seated(game) == [("bob", None), ("dan", None), (BOT_STRATEGY, BOT_STRATEGY)]
    assert searching(patient, later)


def test_a_seek_not_seen_is_never_matched(clock: Clock) -> None:
    ada, bob = account("ada"), account("bob")
    lost = seek(ada, 2, 2)
    clock.advance(30)
    late = seek(bob, 2, 2)
    run_jobs()
    assert fresh(lost).status == SeekStatus.EXPIRED
    assert searching(late)


def test_a_deleted_accounts_seek_is_never_matched(clock: Clock) -> None:
    ada, bob = account("ada"), account("bob")
    gone = seek(ada, 2, 2)
    from accounts import services

    services.delete_account(ada)
    waiting = seek(bob, 2, 2)
    run_jobs()
    assert fresh(gone).status == SeekStatus.SEARCHING
    assert searching(waiting)


def test_a_seek_is_seated_once_however_often_the_matcher_runs(clock: Clock) -> None:
    seeks = [in_turn(clock, seek(account(h), 2, 2)) for h in ("ada", "bob", "eve", "dan", "fay")]
    for _ in range(3):
        match()
    run_jobs()
    games = [fresh(s).game_id for s in seeks[:4]]
    assert games[0] == games[1] != games[2] == games[3]
    assert Game.objects.count() == 2
    assert Seat.objects.count() == 4
    assert searching(seeks[4])
    assert InboxEntry.objects.filter(type="seek_matched").count() == 4


def test_a_match_that_fails_leaves_its_seeks_searching_and_the_others_matched(
    clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeks = [seek(account(h), 2, 2, turn_seconds=t) for h, t in (("ada", 30), ("bob", 30))]
    seeks += [seek(account(h), 2, 2) for h in ("eve", "dan")]
    from games import core

    real = core.join_game

    def failing(game_id: object, name: str, *args: object, **kwargs: object) -> object:
        if name == "bob":
            raise RuntimeError("the database went away")
        return real(game_id, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(core, "join_game", failing)
    assert match() == 2
    assert searching(seeks[0], seeks[1])
    assert game_of(seeks[2]) == game_of(seeks[3])
    assert Game.objects.count() == 1  # the failed one's game is rolled back with it
    assert not InboxEntry.objects.filter(account__handle__in=["ada", "bob"]).exists()


# The plan alone: which groups start, at what size, from seeks that are never saved.

NOW = datetime(2026, 1, 1, 12, 0, 0)


def unsaved(low: int, high: int, age: float = 0, **extra: object) -> Seek:
    made = NOW - timedelta(seconds=age)
    return Seek(seats_min=low, seats_max=high, created_at=made, **extra)


Range = tuple[int, int]


def sizes(matches: list[Match]) -> list[tuple[int, int]]:
    """Each match's seekers and seats."""
    return [(len(m.seekers), m.seats) for m in matches]


@pytest.mark.parametrize(
    ("ranges", "age", "expected"),
    [
        ([(2, 2), (2, 2)], 0, [(2, 2)]),
        ([(2, 4), (2, 4)], 0, []),
        ([(2, 4), (2, 4)], 20, [(2, 2)]),
        ([(2, 4), (2, 4), (2, 3)], 0, [(3, 3)]),
        ([(2, 4)] * 9, 0, [(4, 4), (4, 4)]),
        ([(2, 2), (3, 3), (2, 2), (3, 3), (3, 3)], 0, [(2, 2), (3, 3)]),
        ([(4, 8), (2, 3)], 30, []),
        ([(8, 8)] * 8, 0, [(8, 8)]),
        ([(5, 8), (2, 4), (2, 4)], 20, [(2, 2)]),
    ],
)
def test_the_plan(ranges: list[Range], age: float, expected: list[Range]) -> None:
    seeks = [unsaved(low, high, age) for low, high in ranges]
    assert sizes(plan(seeks, NOW)) == expected


def test_the_plan_keeps_clocks_apart_and_seats_the_oldest_first() -> None:
    seeks = [
        unsaved(2, 2, 3, turn_seconds=60),
        unsaved(2, 2, 2),
        unsaved(2, 2, 1, turn_seconds=60),
        unsaved(2, 2, 0),
    ]
    matches = plan(seeks, NOW)
    assert [list(m.seekers) for m in matches] == [[seeks[0], seeks[2]], [seeks[1], seeks[3]]]


def test_the_plan_fills_with_bots_only_the_seekers_who_want_them() -> None:
    patient, hurried = unsaved(2, 4, 10), unsaved(2, 4, 5, bots_after=0)
    [found] = plan([patient, hurried], NOW)
    assert (list(found.seekers), found.seats, found.bots) == ([hurried], 2, 1)


def test_the_plan_fills_with_bots_only_for_a_seeker_whose_wait_is_over() -> None:
    young = unsaved(3, 4, 4, bots_after=5)
    assert plan([young], NOW) == []
    due = unsaved(3, 4, 5, bots_after=5)
    [found] = plan([due], NOW)
    assert (found.seats, found.bots) == (3, 2)

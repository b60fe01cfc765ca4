"""Seats held for someone (`games.core.holds`) and games called off (`core.cancel_game`),
through core's door: who may take a held seat, when holds stop counting, and a cancel that
leaves a log the rules and the audit accept."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.credentials import AccountCredential
from accounts.errors import AccountRequired
from accounts.services import acting_for, delete_account, sign_up
from engine import RuleError
from engine.audit import verify_log
from games import core
from games.core.errors import HoldNotFound, InvalidRequest, NotCreator, SeatReserved
from games.models import Game, SeatHold, Status
from tests.api.bots_support import Clock

pytestmark = pytest.mark.django_db


def account(handle: str) -> AccountCredential:
    return acting_for(sign_up(handle, "bot", None).account.id)


def test_a_reserved_seat_is_left_to_its_holder() -> None:
    ada, bob = account("ada-bot"), account("bob-bot")
    game = core.create_game(seats=2, options=None, seed=None, reserved=["bob-bot"], created_by=ada)
    core.join_game(game.id, "", account=ada)
    with pytest.raises(SeatReserved):
        core.join_game(game.id, "A stranger")
    with pytest.raises(SeatReserved):
        core.join_game(game.id, "", bot="greedy")
    joined = core.join_game(game.id, "", account=bob)
    assert joined.state.phase == "setup" and not SeatHold.objects.filter(game=game).exists()


def test_others_join_while_more_seats_are_open_than_held() -> None:
    ada = account("ada-bot")
    game = core.create_game(seats=3, options=None, seed=None, reserved=["ada-bot"], created_by=ada)
    core.join_game(game.id, "Cyd")
    core.join_game(game.id, "Dee")
    with pytest.raises(SeatReserved):
        core.join_game(game.id, "Eve")
    assert core.held_handles(Game.objects.get(pk=game.id)) == ["ada-bot"]


def test_the_creator_frees_a_reserved_seat_and_no_one_else_may() -> None:
    ada, bob = account("ada-bot"), account("bob-bot")
    game = core.create_game(seats=2, options=None, seed=None, reserved=["bob-bot"], created_by=ada)
    with pytest.raises(NotCreator):
        core.free_reserved_seat(game.id, "bob-bot", bob)
    core.free_reserved_seat(game.id, "bob-bot", ada)
    with pytest.raises(HoldNotFound):
        core.free_reserved_seat(game.id, "bob-bot", ada)
    core.join_game(game.id, "A stranger")


def test_an_expired_hold_keeps_no_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock(monkeypatch)
    game = core.create_game(seats=2, options=None, seed=None)
    core.hold_seats(game, guest_seats=[0, 1], expires_at=clock.now + timedelta(seconds=60))
    with pytest.raises(SeatReserved):
        core.join_game(game.id, "Too early")
    core.join_game(game.id, "The guest of seat 1", guest_of=1)
    clock.advance(61)
    core.join_game(game.id, "Anyone")
    assert Game.objects.get(pk=game.id).status == Status.SETUP


def test_reserving_needs_an_account_and_no_more_handles_than_seats() -> None:
    account("ada-bot")
    account("bob-bot")
    with pytest.raises(AccountRequired):
        core.create_game(seats=2, options=None, seed=None, reserved=["ada-bot"])
    with pytest.raises(InvalidRequest):
        core.create_game(
            seats=2,
            options=None,
            seed=None,
            reserved=["ada-bot", "bob-bot", "cyd-bot"],
            created_by=account("cyd-bot"),
        )
    assert not Game.objects.exists()


def test_a_canceled_game_ends_its_log_refuses_joins_and_audits() -> None:
    ada = account("ada-bot")
    game = core.create_game(seats=3, options=None, seed=None, reserved=["ada-bot"], created_by=ada)
    core.join_game(game.id, "Cyd")
    state = core.cancel_game(game.id, "expired")
    stored = Game.objects.get(pk=game.id)
    assert (stored.status, stored.ended, state.phase) == (Status.CANCELED, True, "canceled")
    assert not SeatHold.objects.filter(game=game).exists()
    assert verify_log(core.engine_events(stored)) == state
    with pytest.raises(RuleError, match="called off"):
        core.join_game(game.id, "Late")


def test_unlisted_games_are_listed_for_their_own_accounts_only() -> None:
    ada, bob = account("ada-bot"), account("bob-bot")
    query = {"ordering": "-created_at"}
    private = core.create_game(seats=2, options=None, seed=None, listed=False)
    public = core.create_game(seats=2, options=None, seed=None)
    core.join_game(private.id, "", account=ada)
    assert [g.id for g in core.listed_games(query)] == [public.id]
    assert {g.id for g in core.listed_games(query, viewer=ada.account_id)} == {
        private.id,
        public.id,
    }
    assert [g.id for g in core.listed_games(query, viewer=bob.account_id)] == [public.id]


def test_a_deleted_account_s_hold_keeps_no_seat() -> None:
    ada, bob = account("ada-bot"), account("bob-bot")
    game = core.create_game(seats=2, options=None, seed=None, reserved=["bob-bot"], created_by=ada)
    core.join_game(game.id, "", account=ada)
    delete_account(bob)
    assert core.held_handles(Game.objects.get(pk=game.id)) == []
    assert core.join_game(game.id, "A stranger").state.phase == "setup"

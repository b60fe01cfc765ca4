"""The service's own moves (R13): bots, and turns that ran out of time, made by workers
(`games.tasks`) and by any read that finds a deadline passed (`honour_deadline`).
"""

from __future__ import annotations

import uuid
from contextlib import nullcontext, suppress
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError
from django.db.models import Q

from engine import (
    Action,
    Event,
    GameState,
    StopPlay,
    act,
)
from engine.autoplay import Chooser, bot_seats_to_act, past_round_limit, time_out
from games import store
from games.core import bots, clock
from games.core.append import VersionMoved, append_events, optimistic, queue_jobs
from games.core.errors import (
    ConcurrentUpdate,
)
from games.core.states import game_state, shuffler_of
from games.models import Game, Status
from games.store import log
from games.store.errors import is_unique_violation

#: Bot moves one `play_bots` job makes before it queues the next: a job stays short, so a
#: worker killed mid-job costs little, and workers share a long game of bots.
BOT_MOVES_PER_JOB = 100


def play_bots(game_id: uuid.UUID, version: int) -> int:
    """The bots' moves, each its own append, from `version` until a person must act (or
    `BOT_MOVES_PER_JOB`, the last queueing the rest); at a pace (R15, `clock.bot_pace`), one
    move, whose append queues the next at the pace. Nothing if the game has moved on from
    `version`: another writer's append queued what follows it. Answers the moves made."""
    found = store.fetch_game(game_id, None, for_write=True)
    if found is None or found[0].version != version:
        return 0
    game = found[0]
    state = game_state(game)
    played = log.engine_events(game, 0, state.version)  # the bots' histories
    choose = bots.chooser(str(game.id), game.seats, played)
    per_job = 1 if clock.bot_pace(state) else BOT_MOVES_PER_JOB
    for moves in range(per_job):
        move = service_move(state, choose)
        if move is None:
            return moves
        events, after = act(state, *move, shuffler_of(game))
        try:
            _append_move(game, state, events, after, moves + 1 < per_job)
        except VersionMoved:
            return moves
        state = after
        played += events
    return per_job


#: Tries of a bot's move whose letters lost an inbox's next number to another writer.
LETTER_TRIES = 3


def _append_move(
    game: Game, state: GameState, events: list[Event], after: GameState, bots_continue: bool
) -> None:
    """Append a bot's move; a unique violation (a letter numbered at once by another writer of
    the same inbox, whose append rolled back) is tried again: it lands, or `VersionMoved`."""
    for tries in range(LETTER_TRIES):
        try:
            with store.atomic() if store.writer().in_atomic_block else nullcontext():
                append_events(game, state, events, after, bots_continue=bots_continue)
            return
        except IntegrityError as error:
            if not is_unique_violation(error) or tries + 1 == LETTER_TRIES:
                raise


def service_move(state: GameState, choose: Chooser) -> tuple[int | None, Action] | None:
    """The service's next move of a game for its bots (R13): the first bot seat's to act, as
    `choose` plays it; `StopPlay` instead once the game has had its rounds with no person
    seated (`BOT_ONLY_MAX_ROUNDS`), so that a game of bots alone cannot keep a worker busy
    for ever. None while a person must act."""
    if past_round_limit(state, settings.BOT_ONLY_MAX_ROUNDS):
        return None, StopPlay()
    seats = bot_seats_to_act(state)
    return (seats[0], choose(state, seats[0])) if seats else None


def expire_turn(game_id: uuid.UUID, turn: int | None = None) -> bool:
    """Time out the persons still to act in turn `turn` (None: the current turn) if its
    deadline has passed (R13): for each, `TurnTimedOut` (and `SeatAbandoned` after
    `max_timeouts` in a row) and the moves `bots.REPLACEMENT` makes to finish the turn, in one
    append. Nothing if the turn is over or its time is not up: so a late job, a duplicate, or
    two workers at once, time a turn out once. Answers whether it did."""

    def attempt(_: int) -> bool:
        found = store.fetch_game(game_id, None, for_write=True)
        if found is None or not clock.is_overdue(found[0].turn_deadline):
            return False
        game = found[0]
        before = game_state(game)
        if turn is not None and before.turn != turn:
            return False
        played = log.engine_events(game, 0, before.version)  # extended as the moves are made
        chooser = bots.chooser(str(game.id), game.seats, played)
        shuffler = shuffler_of(game)
        events, after = time_out(before, chooser, shuffler, bots.REPLACEMENT, played)
        if not events:
            return False
        append_events(game, before, events, after)
        return True

    return optimistic(attempt, game_id)


def honour_deadline(game: Game) -> bool:
    """The one place a read or an action of a game honours its clock (R13): a deadline that
    has passed (no worker ran, or none yet) is applied before the game is answered. Answers
    whether the game moved (read it again)."""
    if not clock.is_overdue(game.turn_deadline):
        return False
    with suppress(ConcurrentUpdate):  # others' writes won the race: the game moved anyway
        expire_turn(game.id)
    return True


def sweep(grace: float) -> int:
    """Queue a job for every game the service owes a move to and has not made for `grace`
    seconds (a worker killed mid-job, a job that failed, a deadline that passed while no
    worker ran): its bots' moves, or the timeout of its current turn. Late or duplicate jobs
    change nothing, so a sweep may queue one twice. Answers the games found.

    A game whose bots play at a pace (R15) has its next job due at most `MAX_BOT_PACE_MS`
    (10 s) after its last append, well within the grace (`SKYJO_SWEEP_GRACE`, 30 s): a
    sweep never takes it for one owed a move before that job is due. The sweep a worker makes
    as it starts (grace 0) may queue a move early, once: it lands, and the paced job then
    finds the game moved on."""
    cutoff = clock.now() - timedelta(seconds=grace)
    owed = Game.objects.filter(status__in=(Status.SETUP, Status.PLAYING)).filter(
        Q(bots_to_move=True, updated_at__lte=cutoff) | Q(turn_deadline__lte=cutoff)
    )
    found = 0
    for game_id, version, bots_due, deadline in owed.values_list(
        "id", "version", "bots_to_move", "turn_deadline"
    ):
        with store.atomic():
            queue_jobs(game_id, version, bots_due, deadline, None)
        found += 1
    return found

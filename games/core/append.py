"""The one place that appends events.

Every write goes through `append_events`: it inserts the new events at the next sequence
numbers and moves the game's summary row on, all or nothing, only if the game is still at the
version the use case read (optimistic concurrency, with the unique (game, sequence) constraint
as the last guard). An action therefore appends all of its events or none, and a concurrent
writer can never fork the log or leave a gap.

No lock is held while the engine decides. A use case that finds the game moved on when it
writes reads it again and decides again, then holding the game's row (`optimistic`): so
concurrent legal actions all land, one after the other, and an action made illegal by the one
that landed first gets the rules' answer. Once an append commits, `signals.game_moved` tells
whoever listens (the push, connected in `games.apps`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TypeVar

from django.db import IntegrityError, OperationalError, transaction

from engine import (
    Event,
    GameState,
    event_to_data,
    event_type,
    schema_version,
)
from engine.autoplay import bot_seats_to_act
from engine.events import PlayerLeft, SeatAbandoned, SeatLeft
from engine.state import FINISHED
from games import store, tasks
from games.core import clock, signals
from games.core.errors import (
    ConcurrentUpdate,
)
from games.core.letters import letters_of
from games.core.states import STATUS_OF_PHASE, new_checkpoints, snapshot_text
from games.models import Game, Seat
from games.store.errors import is_contention, is_unique_violation

T = TypeVar("T")


class VersionMoved(Exception):
    """Another write moved the game on between this one's read and its write: nothing was
    written, and the use case starts again from a fresh read."""


#: Reads-decide-writes of one request before a lost race becomes a 409 `concurrent_update`.
WRITE_ATTEMPTS = 5


def append_events(
    game: Game,
    before: GameState,
    events: list[Event],
    after: GameState,
    *,
    seat_token: tuple[int, str] | None = None,
    bots_continue: bool = False,
) -> None:
    """Append `events` after version `before.version` and move the game's summary row and
    snapshot on (with the checkpoints the events pass), all or nothing, if the game is still
    at that version and (with `seat_token`) the acting seat's token still the one presented;
    else `VersionMoved`.

    What the new state needs of the service (R13) goes with the events, in one transaction:
    the seats' rows that a leave or a timeout changed, the jobs that move its bots (unless
    `bots_continue`: the caller is the job that moves them, and goes on; at the game's pace,
    R15) or time its turn out,
    and the entries of its accounts' inboxes (`letters`, which the store writes with the
    events). A game without bots or clock needs none of the rest: on PostgreSQL its append
    stays one statement."""
    now = clock.now()
    deadline = clock.deadline_after(game.turn_deadline, before, after, now)
    summary = _summary(after, deadline)
    new_events = [
        store.NewEvent(event_type(e), schema_version(e), event_to_data(e)) for e in events
    ]
    checkpoints = new_checkpoints(before, events, after)
    seat_changes = [e for e in events if isinstance(e, PlayerLeft | SeatLeft | SeatAbandoned)]
    new_deadline = deadline if deadline != game.turn_deadline else None
    bots = summary.bots_to_move and not bots_continue
    jobs = _Jobs(bots, new_deadline, after, _bots_at(after, now) if bots else None)
    letters = letters_of(game.id, before, events, after, deadline)
    finishing = after.phase == FINISHED and before.phase != FINISHED
    with store.atomic(savepoint=False) if jobs or seat_changes or finishing else nullcontext():
        moved = store.append(
            game.id,
            before.version,
            new_events,
            summary,
            now,
            seat_token=seat_token,
            checkpoints=checkpoints,
            letters=letters,
        )
        if moved:
            _change_seats(game, seat_changes)
            jobs.schedule(game)
            if finishing:  # its listeners' writes commit with the events, or roll back
                signals.game_finished.send(Game, game_id=game.id, rated=after.options.rated)
    if not moved:
        raise VersionMoved()
    _moved_on(game, summary, now)


def _summary(after: GameState, deadline: datetime | None) -> store.Summary:
    """The game row's columns once at `after` (`deadline`: its turn's, R13)."""
    return store.Summary(
        version=after.version,
        status=STATUS_OF_PHASE[after.phase],
        round=after.round,
        current_seat=after.current,
        players_joined=sum(1 for name in after.names if name is not None),
        totals=list(after.totals),
        winners=list(after.winners) if after.winners else None,
        snapshot=snapshot_text(after),
        turn_deadline=deadline,
        bots_to_move=bool(bot_seats_to_act(after)),
    )


def _moved_on(game: Game, summary: store.Summary, now: datetime) -> None:
    """`game` as the append left its row (and `game_moved` sent, once committed)."""
    game.version, game.status, game.round = summary.version, summary.status, summary.round
    game.current_seat, game.players_joined = summary.current_seat, summary.players_joined
    game.totals, game.winners = summary.totals, summary.winners
    game.turn_deadline, game.bots_to_move = summary.turn_deadline, summary.bots_to_move
    game.updated_at = now
    game.snapshot, game.snapshot_version = summary.snapshot, summary.version
    game_id, version = game.id, summary.version
    transaction.on_commit(
        lambda: signals.game_moved.send(Game, game_id=game_id, version=version),
        using=store.write_alias(),
    )


def _bots_at(after: GameState, now: datetime) -> datetime | None:
    """When the bots' next move is due after an append at `now` (R15): at the game's pace,
    None (at once) for none."""
    pace = clock.bot_pace(after)
    return now + pace if pace else None


@dataclass(frozen=True)
class _Jobs:
    """The jobs an append to `after` queues (R13): its bots' moves (at `bots_at`, the game's
    pace after the append, R15; None: at once), a timeout at a new deadline."""

    bots: bool
    deadline: datetime | None
    after: GameState
    bots_at: datetime | None = None

    def __bool__(self) -> bool:
        return self.bots or self.deadline is not None

    def schedule(self, game: Game) -> None:
        if self:
            after = self.after
            queue_jobs(game.id, after.version, self.bots, self.deadline, after.turn, self.bots_at)


def queue_jobs(
    game_id: uuid.UUID,
    version: int,
    bots: bool,
    deadline: datetime | None,
    turn: int | None,
    bots_at: datetime | None = None,
) -> None:
    """The one place the use cases queue the workers' jobs (`games.tasks`), in the caller's
    transaction: an append's follow-up, or a sweep's jobs for a game owed a move. The bots'
    move runs at `bots_at` (their pace, R15), or at once."""
    tasks.schedule(game_id, version, bots=bots, deadline=deadline, turn=turn, bots_at=bots_at)


def _change_seats(game: Game, changes: list[PlayerLeft | SeatLeft | SeatAbandoned]) -> None:
    """The seats' rows as the events leave them (R13): a waiting game's seat given up is
    freed; a seat left in a started game loses its token and names its bot; a seat handed to
    a bot after its timeouts names its bot (its token still reads the game)."""
    for event in changes:
        rows = Seat.objects.filter(game=game, seat=event.seat)
        if isinstance(event, PlayerLeft):
            rows.delete()
        elif isinstance(event, SeatLeft):
            rows.update(token_hash=None, bot=event.bot)
        elif isinstance(event, SeatAbandoned):
            rows.update(bot=event.bot)


def optimistic(attempt: Callable[[int], T], game_id: uuid.UUID | None = None) -> T:
    """Run `attempt` (read the game, decide, write; given the number of attempts before it)
    until its write lands on the version it read; after `WRITE_ATTEMPTS` lost races, 409
    `concurrent_update`.

    The first attempt holds no lock while deciding: its write checks the version it read (and
    the unique (game, sequence) constraint backs that check), so a lone writer costs a read
    and one statement. One that lost a race to another writer of the same game (`game_id`)
    then waits its turn instead (`_in_turn`): it reads, decides and writes holding the game's
    row, so that however many seats act at once, each lands in turn, on the new state, where
    its action may still be legal (two seats' setup reveals) or not any more (the rules' 409,
    or 412 with If-Match). Retrying at once, as before, let a burst of 16 lose 5 races in a row.
    """
    for tries in range(WRITE_ATTEMPTS):
        try:
            if tries and game_id is not None:
                return _in_turn(game_id, partial(attempt, tries))
            # Within a caller's transaction (a test's, say) a failed attempt is rolled back to
            # a savepoint, so that the next one can run; otherwise none is needed.
            with store.atomic() if store.writer().in_atomic_block else nullcontext():
                return attempt(tries)
        except VersionMoved:
            continue
        except IntegrityError as error:
            if not is_unique_violation(error):
                raise
        except OperationalError as error:
            if is_contention(error):
                raise ConcurrentUpdate() from None
            raise
    raise ConcurrentUpdate()


def retry_on_conflict(write: Callable[[], T]) -> T:
    """`write`, a use case's transaction outside core (`play`'s), again after it lost a race on
    a unique index (a letter numbered at once by another writer of the same inbox, whose
    statement it waited for): each attempt in a savepoint within a caller's transaction,
    reading afresh; after `WRITE_ATTEMPTS` lost races, 409 `concurrent_update`."""
    return optimistic(lambda _tries: write())


def _in_turn(game_id: uuid.UUID, attempt: Callable[[], T]) -> T:
    """`attempt` in a transaction that first waits for the game's write lock (`store.lock_game`)
    and holds it to the end: no other write of the game can land between its read and its
    write. Taken only after a lost race: the lock is held while the rules decide."""
    with store.atomic():
        store.lock_game(game_id)
        return attempt()


def all_or_nothing(write: Callable[[], T]) -> T:
    """`write`'s statements in one transaction: all of them or none."""
    with store.atomic(savepoint=False):
        return write()

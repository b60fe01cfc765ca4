"""Use cases: create, join, act, read. The one place that appends events.

Every write goes through `append_events`: it inserts the new events at the next sequence
numbers and moves the game's summary row on, all or nothing, only if the game is still at the
version the use case read (optimistic concurrency, with the unique (game, sequence) constraint
as the last guard). An action therefore appends all of its events or none, and a concurrent
writer can never fork the log or leave a gap.

No lock is held while the engine decides. A use case that finds the game moved on when it
writes reads it again and decides again, then holding the game's row (`_optimistic`): so
concurrent legal actions all land, one after the other, and an action made illegal by the one
that landed first gets the rules' answer. A plain action reads the game (unless this process
remembers it: `games.warm`) and writes once (`store.append`, a single statement on PostgreSQL).

The log is read in one place, `games.log`.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

import orjson
from django.conf import settings
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F, Q

from engine import (
    EMPTY,
    Action,
    Event,
    GameState,
    Join,
    Leave,
    Options,
    SeededShuffler,
    StopPlay,
    TurnAction,
    act,
    event_to_data,
    event_type,
    replay,
    schema_version,
)
from engine import (
    create_game as engine_create_game,
)
from engine import state as engine_state
from engine.autoplay import Chooser, bot_seats_to_act, past_round_limit, time_out
from engine.errors import RuleError
from engine.events import GameCreated, PlayerLeft, SeatAbandoned, SeatLeft
from engine.snapshot import StaleSnapshot, state_from_data, state_to_data

from . import bots, clock, idempotency, log, store, tasks
from .auth import SeatCredential, hash_token, new_token
from .errors import (
    ConcurrentUpdate,
    Forbidden,
    GameNotFound,
    InvalidToken,
    SeatPlayedByBot,
    VersionMismatch,
)
from .history import (
    audit_events,
    check_envelope,
    expected_envelope,
    history_events,
    original_created_at,
)
from .live import hub
from .models import Game, Seat, Status
from .presenters import game_data
from .warm import WARM

SEED_BITS = 63
T = TypeVar("T")

STATUS_OF_PHASE = {
    engine_state.WAITING: Status.WAITING,
    engine_state.SETUP: Status.SETUP,
    engine_state.PLAYING: Status.PLAYING,
    engine_state.ROUND_ENDED: Status.PLAYING,
    engine_state.FINISHED: Status.FINISHED,
}


#: PostgreSQL's serialization failure, deadlock and lock-not-available.
_CONTENTION_SQLSTATES = frozenset({"40001", "40P01", "55P03"})


# Reading


def game_uuid(game_id: object) -> uuid.UUID:
    """A game id from a path as a UUID (404 if it is none)."""
    try:
        return game_id if isinstance(game_id, uuid.UUID) else uuid.UUID(str(game_id))
    except ValueError:
        raise GameNotFound(game_id) from None


def get_game(game_id: object) -> Game:
    """The game, after any turn of it that ran out is timed out (`honour_deadline`)."""
    try:
        game = Game.objects.get(pk=game_uuid(game_id))
    except Game.DoesNotExist:
        raise GameNotFound(game_id) from None
    if honour_deadline(game):
        game = Game.objects.get(pk=game.pk)
    return game


def game_and_seat(
    game_id: object, credential: SeatCredential | None, *, required: bool, for_write: bool = False
) -> tuple[Game, int | None]:
    """The game and the seat `credential` stands for in it (None: a spectator), in one query
    (`for_write`: to the write database, for an action to decide on): 404 for no such game,
    401 for a token of no seat of it (or none, when `required`)."""
    token_hash = None if credential is None else credential.token_hash
    found = store.fetch_game(game_uuid(game_id), token_hash, for_write=for_write)
    if found is not None and honour_deadline(found[0]):
        found = store.fetch_game(found[0].id, token_hash, for_write=True)
    if found is None:
        raise GameNotFound(game_id)
    game, seat = found
    if credential is None and required:
        raise InvalidToken(InvalidToken.MISSING)
    if credential is not None and seat is None:
        raise InvalidToken()
    return game, seat


def listed_games(query: dict[str, Any]) -> Any:
    """The games a lobby's validated `query` selects (`status`, `seats`, `open_seats`,
    `seeded`; stale games only with `stale`), in its `ordering` (the id breaks ties), their
    seats fetched with them: the API's list and the web lobby show the same games."""
    games = Game.objects.prefetch_related("seat_rows")
    if not query.get("stale"):
        games = games.exclude(~Q(status=Status.FINISHED), updated_at__lt=stale_before())
    if "status" in query:
        games = games.filter(status=query["status"])
    if "seats" in query:
        games = games.filter(seats=query["seats"])
    if "open_seats" in query:
        games = games.filter(seats__gte=F("players_joined") + query["open_seats"])
    if "seeded" in query:
        games = games.filter(seeded=query["seeded"])
    ordering = query["ordering"]
    return games.order_by(ordering, "-id" if ordering.startswith("-") else "id")


def stale_before() -> datetime:
    """An unfinished game whose last event is older than this is stale: no one moves it (a
    seat taken by a client that never came back keeps a game without a clock waiting)."""
    return clock.now() - timedelta(seconds=settings.LOBBY_STALE_AFTER_SECONDS)


def is_stale(game: Game) -> bool:
    return game.status != Status.FINISHED and game.updated_at < stale_before()


def replay_data(game: Game, seat: int | None, at: int) -> dict[str, Any]:
    """The game just after event `at` (1 to its version), as `seat` may see it: a finished
    game shows everything, face-down cards included. Its `updated_at` is event `at`'s time."""
    state = game_state(game, at=at)
    moment = log.events(game, after=at - 1, upto=at)[0].at
    finished = game.status == Status.FINISHED
    return game_data(game, state, seat, reveal_all=finished, updated_at=moment)


def game_state(game: Game, at: int | None = None) -> GameState:
    """The game's state at its current version (or at version `at`).

    The current state comes from the game's snapshot when it was made at exactly the game's
    version; otherwise the log is replayed (and the snapshot refreshed, so the next read is
    cheap again). An earlier version is folded from the nearest checkpoint (`state_at`).
    """
    if at is not None and at != game.version:
        return state_at(game, at)
    if game.snapshot is not None and game.snapshot_version == game.version:
        try:
            return state_from_data(orjson.loads(game.snapshot))
        except (StaleSnapshot, KeyError, TypeError, ValueError):  # orjson's errors are too
            pass  # disposable: rebuild it below
    state = replay(log.engine_events(game))
    if state.version == game.version:
        store_snapshot(game, state)
    return state


def seat_state(game: Game, credential: SeatCredential | None, seat: int | None) -> GameState:
    """The game's current state, read for `seat` (None: a spectator); this process then
    remembers it for the seat's next action (`games.warm`)."""
    state = game_state(game)
    update_memory(game, seat, credential, state)
    return state


def store_snapshot(game: Game, state: GameState) -> None:
    """Save `state` as the snapshot of `game`, unless the game has moved on meanwhile."""
    text = snapshot_text(state)
    Game.objects.filter(pk=game.pk, version=state.version).update(
        snapshot=text, snapshot_version=state.version
    )
    game.snapshot, game.snapshot_version = text, state.version


def snapshot_text(state: GameState) -> str:
    """`state` as the JSON text of its snapshot (`Game.snapshot`)."""
    return orjson.dumps(state_to_data(state)).decode()


def checkpoint_every() -> int:
    """Events between two checkpoints of a game's state (0: no checkpoints)."""
    return max(0, int(settings.REPLAY_CHECKPOINT_EVERY))


def state_at(game: Game, at: int) -> GameState:
    """The game's state at version `at`: its nearest checkpoint at or before `at`, then a fold
    of the (fewer than `checkpoint_every()`) events after it, so that a replay's cost does not
    grow with the log. Without a usable checkpoint the fold starts from the log's start, and
    saves the checkpoints it passes (games older than checkpoints, a lost or stale one)."""
    every = checkpoint_every()
    if not every:
        return replay(log.engine_events(game, 0, at))
    start = _checkpoint_state(game, at)
    state, passed = fold_with_checkpoints(start, log.engine_events(game, start.version, at), every)
    if passed:
        _save_checkpoints_quietly(game, passed)
    return state


def _checkpoint_state(game: Game, at: int) -> GameState:
    """The state of the game's nearest checkpoint at or before `at`; the empty state (the
    log's start) when there is none or it cannot be read (another snapshot format)."""
    found = store.nearest_checkpoint(game.id, at)
    if found is None:
        return EMPTY
    version, text = found
    try:
        state = state_from_data(orjson.loads(text))
    except (StaleSnapshot, KeyError, TypeError, ValueError):  # orjson's errors are too
        return EMPTY
    return state if state.version == version else EMPTY


def fold_with_checkpoints(
    start: GameState, events: list[Event], every: int
) -> tuple[GameState, list[tuple[int, str]]]:
    """`events` folded onto `start`, and the snapshot text of each state on the way at a
    version that is a multiple of `every` (version, text)."""
    state, done = start, 0
    passed: list[tuple[int, str]] = []
    while True:
        step = every - state.version % every  # events to the next multiple
        if done + step > len(events):
            return replay(events[done:], state), passed
        state = replay(events[done : done + step], state)
        done += step
        passed.append((state.version, snapshot_text(state)))


def _save_checkpoints_quietly(game: Game, checkpoints: list[tuple[int, str]]) -> None:
    """Save checkpoints a read passed; a cache, so a write that fails (the database busy with
    another writer) is given up: a later read will save them."""
    try:
        with store.atomic():
            store.save_checkpoints(game.id, checkpoints)
    except (OperationalError, IntegrityError):
        pass


def _new_checkpoints(
    before: GameState, events: list[Event], after: GameState
) -> list[tuple[int, str]]:
    """The checkpoints an append from `before` to `after` passes (most pass none: this costs
    a comparison then)."""
    every = checkpoint_every()
    if not every or after.version // every == before.version // every:
        return []
    return fold_with_checkpoints(before, events, every)[1]


# Writing


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
    the seats' rows that a leave or a timeout changed, and the jobs that move its bots (unless
    `bots_continue`: the caller is the job that moves them, and goes on) or time its turn out.
    A game without bots or clock needs neither: its append stays one statement."""
    now = clock.now()
    deadline = clock.deadline_after(game.turn_deadline, before, after, now)
    summary = _summary(after, deadline)
    new_events = [
        store.NewEvent(event_type(e), schema_version(e), event_to_data(e)) for e in events
    ]
    checkpoints = _new_checkpoints(before, events, after)
    seat_changes = [e for e in events if isinstance(e, PlayerLeft | SeatLeft | SeatAbandoned)]
    new_deadline = deadline if deadline != game.turn_deadline else None
    jobs = _Jobs(summary.bots_to_move and not bots_continue, new_deadline, after)
    with store.atomic(savepoint=False) if jobs or seat_changes else nullcontext():
        moved = store.append(
            game.id,
            before.version,
            new_events,
            summary,
            now,
            seat_token=seat_token,
            checkpoints=checkpoints,
        )
        if moved:
            _change_seats(game, seat_changes)
            jobs.schedule(game)
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
    """`game` as the append left its row (and this process's streams told, once committed)."""
    game.version, game.status, game.round = summary.version, summary.status, summary.round
    game.current_seat, game.players_joined = summary.current_seat, summary.players_joined
    game.totals, game.winners = summary.totals, summary.winners
    game.turn_deadline, game.bots_to_move = summary.turn_deadline, summary.bots_to_move
    game.updated_at = now
    game.snapshot, game.snapshot_version = summary.snapshot, summary.version
    game_id, version = game.id, summary.version
    transaction.on_commit(lambda: hub.publish(game_id, version), using=store.write_alias())


@dataclass(frozen=True)
class _Jobs:
    """The jobs an append to `after` queues (R13): its bots' moves, a timeout at a new
    deadline."""

    bots: bool
    deadline: datetime | None
    after: GameState

    def __bool__(self) -> bool:
        return self.bots or self.deadline is not None

    def schedule(self, game: Game) -> None:
        if self:
            after = self.after
            tasks.schedule(
                game.id, after.version, bots=self.bots, deadline=self.deadline, turn=after.turn
            )


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


def _is_contention(error: OperationalError) -> bool:
    """A write refused because another holds the lock: SQLite's "database (table) is locked"
    (its busy timeout spent, or at once between connections of a shared in-memory database),
    PostgreSQL's serialization failure, deadlock or lock timeout."""
    if getattr(error.__cause__, "sqlstate", None) in _CONTENTION_SQLSTATES:
        return True
    return store.writer().vendor == "sqlite" and "locked" in str(error)


def _is_unique_violation(error: IntegrityError) -> bool:
    """A row another writer inserted first (an event's sequence, a seat, an idempotency key);
    other integrity errors (a CHECK, a foreign key) are bugs, not races."""
    if store.writer().vendor == "sqlite":
        return "UNIQUE constraint failed" in str(error)
    return getattr(error.__cause__, "sqlstate", None) == "23505"


def _optimistic(attempt: Callable[[int], T], game_id: uuid.UUID | None = None) -> T:
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
            if not _is_unique_violation(error):
                raise
        except OperationalError as error:
            if _is_contention(error):
                raise ConcurrentUpdate() from None
            raise
    raise ConcurrentUpdate()


def _in_turn(game_id: uuid.UUID, attempt: Callable[[], T]) -> T:
    """`attempt` in a transaction that first waits for the game's write lock (`store.lock_game`)
    and holds it to the end: no other write of the game can land between its read and its
    write. Taken only after a lost race: the lock is held while the rules decide."""
    with store.atomic():
        store.lock_game(game_id)
        return attempt()


def _atomic(write: Callable[[], T]) -> T:
    """`write`'s statements in one transaction: all of them or none."""
    with store.atomic(savepoint=False):
        return write()


def create_game(*, seats: int, options: dict[str, Any] | None, seed: int | None) -> Game:
    rules = Options(**(options or {}))
    events = engine_create_game(seats, rules)  # validates seats and options (R2, R12)
    seeded = seed is not None  # the creator knows the seed, so every card: told to joiners
    if seed is None:
        seed = secrets.randbits(SEED_BITS)

    def write() -> Game:
        game = Game.objects.create(seats=seats, options=rules.to_data(), seed=seed, seeded=seeded)
        append_events(game, EMPTY, events, replay(events))
        return game

    return _optimistic(lambda _: _atomic(write))


@dataclass(frozen=True)
class Joined:
    """A seat taken: a person's, with its token (shown once), or a bot's (`bot`), with none."""

    game: Game
    seat: int
    name: str
    token: str | None
    state: GameState
    bot: str | None = None


def join_game(game_id: object, name: str, bot: str | None = None) -> Joined:
    """Take the next open seat for a person, or for a bot playing strategy `bot` (R13)."""

    def attempt(_: int) -> Joined:
        game = get_game(game_id)
        before = game_state(game)
        events, after = act(before, None, Join(name, bot), SeededShuffler(game.seed))
        seat = events[0].seat  # type: ignore[union-attr]
        token = None if bot is not None else new_token()
        token_hash = None if token is None else hash_token(token)

        def write() -> None:  # the seat's row with its events: both or neither
            append_events(game, before, events, after)
            Seat.objects.create(game=game, seat=seat, name=name, token_hash=token_hash, bot=bot)

        _atomic(write)
        return Joined(game, seat, name, token, after, bot)

    return _optimistic(attempt, game_uuid(game_id))


def own_seat(
    game_id: object, seat: int, credential: SeatCredential | None, *, for_write: bool = False
) -> Game:
    """The game, if `credential` is `seat`'s token in it: 401 for a token of no seat of it,
    403 for another seat's."""
    game, own = game_and_seat(game_id, credential, required=True, for_write=for_write)
    if own != seat:
        raise Forbidden("A seat token may only rotate its own token or leave its own seat.")
    return game


@dataclass(frozen=True)
class LeftSeat:
    game: Game
    state: GameState


def leave_seat(game_id: object, seat: int, credential: SeatCredential | None) -> LeftSeat:
    """Give `seat` up, authorised by its token (R13): in a waiting game the seat is open again,
    in a started one a bot (`bots.REPLACEMENT`) plays it to the end; either way the token
    stops acting at once. A finished game refuses (409 `game_finished`), and so does a seat a
    bot already plays (409 `seat_played_by_bot`)."""

    def attempt(_: int) -> LeftSeat:
        game = own_seat(game_id, seat, credential, for_write=True)
        assert credential is not None
        before = game_state(game)
        _refuse_if_played_by_bot(before, seat)
        events, after = act(before, seat, Leave(bots.REPLACEMENT))
        append_events(game, before, events, after, seat_token=(seat, credential.token_hash))
        return LeftSeat(game, after)

    return _optimistic(attempt, game_uuid(game_id))


@dataclass(frozen=True)
class SeatBinding:
    """Who holds a seat: its token's hash (None once its player left a started game) and the
    bot that plays it, if any. A stream of the seat ends when this changes (`games.streams`)."""

    token_hash: str | None
    bot: str | None


def seat_bindings(game_id: uuid.UUID) -> dict[int, SeatBinding]:
    """Every joined seat's binding, read now (a rotated token changes no version)."""
    rows = Seat.objects.filter(game_id=game_id).values_list("seat", "token_hash", "bot")
    return {seat: SeatBinding(token_hash, bot) for seat, token_hash, bot in rows}


def seat_binding(game_id: uuid.UUID, seat: int, credential: SeatCredential) -> SeatBinding:
    """`seat`'s binding, if `credential` still holds it (401 otherwise): what a stream of the
    seat starts with."""
    binding = seat_bindings(game_id).get(seat)
    if binding is None or binding.token_hash != credential.token_hash:
        raise InvalidToken()
    return binding


@dataclass(frozen=True)
class RotatedToken:
    seat: int
    name: str
    token: str


def rotate_token(game_id: object, seat: int, credential: SeatCredential | None) -> RotatedToken:
    """Replace `seat`'s token by a new one, authorised by its current token (401 for a token of
    no seat of this game, 403 for another seat's). The old token stops working at once.

    Tokens are not part of the game's log: no event is appended and the version stays. The
    token is swapped only if it is still the one presented, so of two concurrent rotations
    with the same token one wins and the other is refused (401).
    """
    game = own_seat(game_id, seat, credential)
    assert credential is not None
    token = new_token()
    rows = Seat.objects.filter(game=game, seat=seat, token_hash=credential.token_hash)
    name = rows.values_list("name", flat=True).first()
    if name is None or rows.update(token_hash=hash_token(token)) != 1:
        raise InvalidToken()
    return RotatedToken(seat, name, token)


@dataclass(frozen=True)
class ActionResult:
    """A seat's new view: as data, or rendered (an answer stored for an Idempotency-Key,
    served byte for byte)."""

    game: Game
    seat: int
    version: int
    body: dict[str, Any] | bytes
    replayed: bool = False


def action_fingerprint(action: dict[str, Any]) -> str:
    """What tells a retried action from another under the same Idempotency-Key: its kind and
    position, whether it was sent to its typed path or to `/actions`."""
    rest = {name: value for name, value in action.items() if name != "action"}
    return idempotency.fingerprint(action["action"], rest)


def perform_action(
    game_id: object,
    credential: SeatCredential | None,
    action: TurnAction,
    *,
    expected_versions: frozenset[int] | None = None,
    idempotency_key: str | None = None,
    fingerprint: str = "",
) -> ActionResult:
    """Apply one turn action for the credential's seat; answer that seat's new view.

    `expected_versions` (If-Match) refuses with 412 unless the game is at one of them.
    `idempotency_key` returns the first answer for a retried identical request (`fingerprint`,
    the action's `action_fingerprint`, tells an identical one). Each attempt loads the game
    (`load`), then decides and appends (`decide_and_append`); the retry loop (`_optimistic`)
    starts again from a fresh load when another write landed first.
    """
    request = SeatAction(
        game_uuid(game_id), credential, action, expected_versions, idempotency_key, fingerprint
    )
    return _optimistic(partial(_attempt_action, request), request.game_id)


@dataclass(frozen=True)
class SeatAction:
    """A seat's action as it was asked for: what each attempt of `perform_action` decides."""

    game_id: uuid.UUID
    credential: SeatCredential | None
    action: TurnAction
    expected_versions: frozenset[int] | None
    idempotency_key: str | None
    fingerprint: str


@dataclass(frozen=True)
class Loaded:
    """The acting seat's game and the state it is at: read from the database, or (`warm`)
    from this process's memory of the game (`games.warm`), which may be out of date."""

    game: Game
    seat: int
    state: GameState
    warm: bool


def _attempt_action(request: SeatAction, tries: int) -> ActionResult:
    """One attempt: the first from memory when it has the game (a keyed request reads its
    record anyway), then from fresh reads. Decided on memory, only a landed write counts:
    any refusal is forgotten and decided again on a fresh read (`VersionMoved`)."""
    loaded = load(request, warm=tries == 0 and request.idempotency_key is None)
    try:
        return decide_and_append(request, loaded)
    except (RuleError, VersionMismatch, VersionMoved):
        if not loaded.warm:
            raise
        update_memory(loaded.game, loaded.seat, request.credential, None)
        raise VersionMoved() from None


def load(request: SeatAction, *, warm: bool) -> Loaded:
    """The acting seat's game and state: from memory if `warm` and it has them, else read
    (404 for no such game, 401 for a token of no seat of it)."""
    if warm and request.credential is not None:
        found = WARM.get(request.game_id, request.credential.token_hash)
        if found is not None and not clock.is_overdue(found[0].turn_deadline):
            return Loaded(*found, warm=True)
    game, seat = game_and_seat(request.game_id, request.credential, required=True, for_write=True)
    assert seat is not None
    return Loaded(game, seat, game_state(game), warm=False)


def decide_and_append(request: SeatAction, loaded: Loaded) -> ActionResult:
    """The stored answer to a retried keyed request; else the action decided on the loaded
    state and appended in one write that also checks the seat's token (with the answer
    stored for its key, both or neither), and remembered for the seat's next action."""
    keyed = _keyed(request, loaded)
    earlier = None if keyed is None else idempotency.earlier_answer(keyed)
    if earlier is not None:
        version = earlier.version or 0
        return ActionResult(loaded.game, loaded.seat, version, earlier.body, replayed=True)
    _check_version(request.expected_versions, loaded.game)
    game, seat, before = loaded.game, loaded.seat, loaded.state
    _refuse_if_played_by_bot(before, seat)
    assert request.credential is not None  # `load` found the seat of its token
    events, after = act(before, seat, request.action, SeededShuffler(game.seed))
    with nullcontext() if keyed is None else store.atomic(savepoint=False):
        append_events(game, before, events, after, seat_token=(seat, request.credential.token_hash))
        body = _answer(keyed, game, after, seat)
    update_memory(game, seat, request.credential, after)
    return ActionResult(game, seat, after.version, body)


def _refuse_if_played_by_bot(state: GameState, seat: int) -> None:
    """409 `seat_played_by_bot` for a token whose seat a bot took over (`SeatAbandoned`): it
    still reads the game, but neither acts nor leaves (the bot plays on)."""
    if state.bots[seat] is not None:
        raise SeatPlayedByBot(seat, state.bots[seat])


def _keyed(request: SeatAction, loaded: Loaded) -> idempotency.Idempotency | None:
    """The request's Idempotency-Key in the acting seat's scope (None without a key)."""
    if request.idempotency_key is None:
        return None
    scope = idempotency.seat_scope(loaded.game.id, loaded.seat)
    return idempotency.Idempotency(scope, request.idempotency_key, request.fingerprint)


def _check_version(expected: frozenset[int] | None, game: Game) -> None:
    """412 `version_mismatch` unless If-Match named the game's version (None: no condition;
    weak tags are no names, as they never match)."""
    if expected is not None and game.version not in expected:
        raise VersionMismatch(game.version, _mismatch_detail(expected, game.version))


def _mismatch_detail(expected: frozenset[int], version: int) -> str:
    if not expected:  # only weak tags: a client comparing weakly needs telling why
        return (
            f'A weak tag (W/"...") never matches in If-Match; the game is at version {version}: '
            f'send its ETag as it came, "{version}".'
        )
    named = ", ".join(str(number) for number in sorted(expected))
    return f"The game is at version {version}, not {named}."


def _answer(
    keyed: idempotency.Idempotency | None, game: Game, after: GameState, seat: int
) -> dict[str, Any] | bytes:
    """The seat's new view; with a key, stored (in the caller's transaction) and rendered."""
    body = game_data(game, after, seat)
    if keyed is None:
        return body
    answer = idempotency.Answer(200, body, after.version, game.id)
    return idempotency.store(keyed, answer).body


def update_memory(
    game: Game, seat: int | None, credential: SeatCredential | None, state: GameState | None
) -> None:
    """The one place this process's memory of warm games (`games.warm`) changes: `state` is
    the game's, read or written for the seat of `credential`; None forgets the game (it led
    an action astray)."""
    if credential is None or seat is None:
        return
    if state is None:
        WARM.forget(game.id)
    else:
        WARM.remember(game, state, credential.token_hash, seat)


@dataclass(frozen=True)
class Imported:
    game: Game
    state: GameState
    seat_tokens: list[dict[str, Any]]


def audit_history(document: Any) -> tuple[list[Event], GameState]:
    """A history document's events and final state, every event audited by the rules, and
    its `game` object checked against them."""
    events, state = audit_events(history_events(document))
    check_envelope(document, expected_envelope(events, state, STATUS_OF_PHASE[state.phase]))
    return events, state


def import_history(document: Any, audited: tuple[list[Event], GameState] | None = None) -> Imported:
    """A new game from a history document, every event audited by the rules first.

    A finished history becomes a finished game; an unfinished one becomes playable, with a new
    token for each seat a person plays (a bot's seat has none: the service plays it) and a new
    secret seed for the shuffles still to come: so it is not `seeded` (no one knows its future
    cards), whatever the original was. The game keeps
    the original's `created_at`; its events are stored now (their `at` is the import's). The
    document's `game` object must agree with its events.
    """
    events, state = audited or audit_history(document)
    created_at = original_created_at(document)
    first = events[0]
    assert isinstance(first, GameCreated)
    options = first.options
    seated = [(seat, name) for seat, name in enumerate(state.names) if name is not None]
    finished = state.phase == engine_state.FINISHED

    def write() -> Imported:
        game = Game.objects.create(
            seats=first.seats, options=options.to_data(), seed=secrets.randbits(SEED_BITS)
        )
        if created_at is not None:  # the original game's, not the import's (auto_now_add)
            Game.objects.filter(pk=game.pk).update(created_at=created_at)
            game.created_at = created_at
        append_events(game, EMPTY, events, state)
        tokens = []
        for seat, name in seated:  # after the append: the seats as the log leaves them
            bot = state.bots[seat]
            token = None if bot is not None else new_token()
            token_hash = None if token is None else hash_token(token)
            Seat.objects.create(game=game, seat=seat, name=name, token_hash=token_hash, bot=bot)
            if token is not None:
                tokens.append({"seat": seat, "name": name, "token": token})
        return Imported(game, state, [] if finished else tokens)

    return _optimistic(lambda _: _atomic(write))


# The service's own moves (R13): bots, and turns that ran out of time

#: Bot moves one `play_bots` job makes before it queues the next: a job stays short, so a
#: worker killed mid-job costs little, and workers share a long game of bots.
BOT_MOVES_PER_JOB = 100


def play_bots(game_id: uuid.UUID, version: int) -> int:
    """The bots' moves, each its own append, from `version` until a person must act (or
    `BOT_MOVES_PER_JOB`, the last queueing the rest); nothing if the game has moved on from
    `version`: another writer's append queued what follows it. Answers the moves made."""
    found = store.fetch_game(game_id, None, for_write=True)
    if found is None or found[0].version != version:
        return 0
    game = found[0]
    state = game_state(game)
    played = log.engine_events(game, 0, state.version)  # the bots' histories
    choose = bots.chooser(str(game.id), game.seats, played)
    for moves in range(BOT_MOVES_PER_JOB):
        move = service_move(state, choose)
        if move is None:
            return moves
        events, after = act(state, *move, SeededShuffler(game.seed))
        try:
            append_events(game, state, events, after, bots_continue=moves + 1 < BOT_MOVES_PER_JOB)
        except VersionMoved:
            return moves
        state = after
        played += events
    return BOT_MOVES_PER_JOB


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
        shuffler = SeededShuffler(game.seed)
        events, after = time_out(before, chooser, shuffler, bots.REPLACEMENT, played)
        if not events:
            return False
        append_events(game, before, events, after)
        return True

    return _optimistic(attempt, game_id)


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
    change nothing, so a sweep may queue one twice. Answers the games found."""
    cutoff = clock.now() - timedelta(seconds=grace)
    owed = Game.objects.filter(status__in=(Status.SETUP, Status.PLAYING)).filter(
        Q(bots_to_move=True, updated_at__lte=cutoff) | Q(turn_deadline__lte=cutoff)
    )
    found = 0
    for game_id, version, bots_due, deadline in owed.values_list(
        "id", "version", "bots_to_move", "turn_deadline"
    ):
        with store.atomic():
            tasks.schedule(game_id, version, bots=bots_due, deadline=deadline, turn=None)
        found += 1
    return found

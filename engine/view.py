"""What one seat (or a spectator, `seat=None`) may know: `view` for the state, `event_for_viewer`
for one event of the log.

R7 and R4: face-down cards are unknown to everyone, their owner included; the draw pile's order
is unknown; a card drawn from the draw pile is seen by its drawer only until it is placed.
`reveal_all=True` lifts all of this, for replaying a finished game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from operator import attrgetter
from typing import Any, NamedTuple

from .actions import (
    Action,
    Discard,
    Draw,
    Join,
    Leave,
    Replace,
    Reveal,
    TakeDiscard,
    action_from_data,
    action_to_data,
)
from .cards import CARD_COUNTS, COLUMN_CELLS, COLUMNS, ROWS
from .decide import legal_actions
from .events import (
    CardDrawn,
    CardReplaced,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    DrawPileReshuffled,
    Event,
    FinalTurnsBegan,
    GameEnded,
    PlayerJoined,
    PlayerLeft,
    RoundDealt,
    RoundEnded,
    SeatLeft,
    event_to_data,
)
from .slots import maker
from .state import DECK, PLAYING, ROUND_ENDED, SETUP, GameState, Grid, RoundResult

FACE_DOWN = "face_down"
FACE_UP = "face_up"
REMOVED = "removed"


class LastAction(NamedTuple):
    """The most recent action that changed the game, and what it caused, as one viewer may see
    it (the API's `last_action`).

    `value` is the card the action turned or moved: revealed, drawn, taken, placed or
    discarded (None where R7 hides it, and for a join). `replaced` is the card a replace sent
    to the discard pile. `removed_column` is the column of three equal cards the action
    completed (R8), `final_turns_began` whether it made its seat the closer (R10),
    `ended_round` the round it ended and scored (R11), `ended_game` whether that ended the
    game (R3).
    """

    seat: int
    action: str  # the kind of action as `engine.actions` names it: join, leave, reveal...
    column: int | None = None
    row: int | None = None
    value: int | None = None
    replaced: int | None = None
    removed_column: int | None = None
    final_turns_began: bool = False
    ended_round: int | None = None
    ended_game: bool = False


#: The event each kind of action starts with, and that kind.
_ACTION_OF: dict[type[Any], str] = {
    PlayerJoined: Join.kind,
    PlayerLeft: Leave.kind,
    SeatLeft: Leave.kind,
    CardRevealed: Reveal.kind,
    CardDrawn: Draw.kind,
    DiscardTaken: TakeDiscard.kind,
    CardReplaced: Replace.kind,
    DrawnCardDiscarded: Discard.kind,
}


@dataclass(frozen=True, slots=True)
class Cell:
    state: str  # FACE_DOWN, FACE_UP or REMOVED
    value: int | None  # None unless the viewer may know it


@dataclass(frozen=True, slots=True)
class HeldCard:
    seat: int
    source: str  # "deck" or "discard"
    value: int | None  # None for everyone R7 hides a drawn card from


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    name: str | None
    total: int
    grid: tuple[tuple[Cell, ...], ...]  # 4 columns of 3 cells; empty before the first deal
    bot: str | None = None  # the strategy of the bot that plays the seat; None: a person
    timeouts: int = 0  # the seat's turns in a row that ran out (R13)
    account: str | None = None  # the handle of the account the seat belongs to; None: a guest


@dataclass(frozen=True, slots=True)
class RoundPlayer:
    seat: int
    grid: tuple[tuple[Cell, ...], ...]
    raw_score: int
    round_score: int
    doubled: bool


@dataclass(frozen=True)
class RoundSummary:
    """A scored round. Immutable and shared: `view` builds one per distinct round result."""

    round: int
    closer_seat: int
    players: tuple[RoundPlayer, ...]

    @cached_property
    def data(self) -> dict[str, Any]:
        """Plain data, built once per summary; shared between views, so read-only."""
        return {
            "round": self.round,
            "closer_seat": self.closer_seat,
            "players": [
                {
                    "seat": p.seat,
                    "grid": _grid_data(p.grid),
                    "raw_score": p.raw_score,
                    "round_score": p.round_score,
                    "doubled": p.doubled,
                }
                for p in self.players
            ],
        }


@dataclass(frozen=True, slots=True)
class GameView:
    """The game as one viewer may see it: the API's game resource, less what the service adds
    (its id, its times and `seeded`)."""

    version: int
    status: str
    round: int
    seats: int
    open_seats: int
    you: int | None
    current_seat: int | None
    closer_seat: int | None
    final_turns_left: int
    starting_seat: int | None
    discard_top: int | None
    discard_size: int
    deck_size: int
    held_card: HeldCard | None
    players: tuple[PlayerView, ...]
    legal_actions: tuple[Action, ...]
    rounds: tuple[RoundSummary, ...]
    winners: tuple[int, ...] | None
    last_action: LastAction | None = None  # as the viewer may see it: `value` None if hidden
    options: dict[str, Any] = field(default_factory=dict)
    # When the turn's time runs out (R13), an ISO time: the service's to say (the rules keep
    # no time), None from `view`.
    turn_deadline: str | None = None

    def player(self, seat: int) -> PlayerView:
        """`players[seat]`: one seat's part, which a view made for a bot builds alone (a
        strategy reading its own grid need not build every seat's)."""
        return self.players[seat]

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-able data in the API's field names."""
        return {
            "version": self.version,
            "status": self.status,
            "round": self.round,
            "seats": self.seats,
            "open_seats": self.open_seats,
            "options": self.options,
            "you": self.you,
            "current_seat": self.current_seat,
            "closer_seat": self.closer_seat,
            "final_turns_left": self.final_turns_left,
            "starting_seat": self.starting_seat,
            "discard_top": self.discard_top,
            "discard_size": self.discard_size,
            "deck_size": self.deck_size,
            "held_card": None
            if self.held_card is None
            else {
                "seat": self.held_card.seat,
                "source": self.held_card.source,
                "value": self.held_card.value,
            },
            "players": [
                {
                    "seat": p.seat,
                    "name": p.name,
                    "bot": p.bot,
                    "account": p.account,
                    "total": p.total,
                    "timeouts": p.timeouts,
                    "grid": _grid_data(p.grid),
                }
                for p in self.players
            ],
            "legal_actions": [action_to_data(a) for a in self.legal_actions],
            # Finished rounds never change: their data is built once and shared (read-only),
            # so a long game's view costs no more than a short one's.
            "rounds": [r.data for r in self.rounds],
            "winners": None if self.winners is None else list(self.winners),
            "last_action": None if self.last_action is None else self.last_action._asdict(),
            "turn_deadline": self.turn_deadline,
        }


_new_view = maker(GameView)
_new_player = maker(PlayerView)


def _grid_data(grid: tuple[tuple[Cell, ...], ...]) -> list[list[dict[str, Any]]]:
    return [[{"state": c.state, "value": c.value} for c in column] for column in grid]


_REMOVED = Cell(REMOVED, None)
_HIDDEN = Cell(FACE_DOWN, None)
#: One shared cell per card value (R1), face up and (for `reveal_all`) face down: cells are
#: immutable, and building a frozen dataclass per cell was most of a grid's view.
_FACE_UP: dict[int, Cell] = {value: Cell(FACE_UP, value) for value in CARD_COUNTS}
_SHOWN_DOWN: dict[int, Cell] = {value: Cell(FACE_DOWN, value) for value in CARD_COUNTS}
_UNSEEN: dict[int, Cell] = dict.fromkeys(CARD_COUNTS, _HIDDEN)


#: `_player` by `reveal_all`, then by the identity of a grid: a grid changes only when its
#: own seat acts, so every other view of it (each seat's, each action's) finds it here.
#: Holding the grid keeps its id from being reused while it is a key.
_PLAYER_VIEWS: tuple[dict[int, tuple[Grid, PlayerView]], ...] = ({}, {})
_PLAYER_VIEWS_KEPT = 8192


def _player(
    seat: int,
    name: str | None,
    total: int,
    grid: Grid | None,
    bot: str | None,
    timeouts: int,
    account: str | None,
    reveal_all: bool,
) -> PlayerView:
    """One seat's public part of a view."""
    if grid is None:
        return _new_player(seat, name, total, (), bot, timeouts, account)
    kept_views = _PLAYER_VIEWS[reveal_all]
    kept = kept_views.get(id(grid))
    if kept is not None:
        kept_grid, player = kept
        if (  # compared one by one, cheapest and likeliest to differ first
            kept_grid is grid
            and player.total == total
            and player.seat == seat
            and player.timeouts == timeouts
            and player.bot == bot
            and player.name == name
            and player.account == account
        ):
            return player
    if len(kept_views) >= _PLAYER_VIEWS_KEPT:
        kept_views.clear()
    player = _new_player(seat, name, total, _grid_view(grid, reveal_all), bot, timeouts, account)
    kept_views[id(grid)] = (grid, player)
    return player


def _grid_view(grid: Grid, reveal_all: bool) -> tuple[tuple[Cell, ...], ...]:
    """A grid as a viewer sees it (cells are immutable, so shared). A seat's own view takes
    each column from `_SEEN_COLUMNS`: the same column tuple for the same visible cards, which
    costs less than building one, and lets a strategy keep what it reads of a column by the
    column's identity."""
    if reveal_all:
        return _grid_cells(grid, _SHOWN_DOWN)
    values, up, gone = grid
    if gone:
        columns = []
        for base in _COLUMN_BASES:
            removed = gone >> base & 7
            if removed == 7:
                columns.append(_REMOVED_COLUMN)
            elif removed:  # part of a column: not from a game (R8 removes whole columns)
                columns.append(_grid_column(grid, base, _UNSEEN))
            else:
                seen = _SEEN_COLUMNS[up >> base & 7]
                columns.append(seen[values[base]][values[base + 1]][values[base + 2]])
        return tuple(columns)
    seen = _SEEN_COLUMNS  # no column removed: the four written out
    return (
        seen[up & 7][values[0]][values[1]][values[2]],
        seen[up >> 3 & 7][values[3]][values[4]][values[5]],
        seen[up >> 6 & 7][values[6]][values[7]][values[8]],
        seen[up >> 9 & 7][values[9]][values[10]][values[11]],
    )


def _grid_cells(grid: Grid, down: dict[int, Cell]) -> tuple[tuple[Cell, ...], ...]:
    """A grid's view built cell by cell, `down` giving a face-down card's cell."""
    return tuple(_grid_column(grid, base, down) for base in _COLUMN_BASES)


def _grid_column(grid: Grid, base: int, down: dict[int, Cell]) -> tuple[Cell, ...]:
    """The cells of the column whose top cell is `base`, built one by one."""
    values, up, gone = grid
    return tuple(
        _REMOVED if gone >> cell & 1 else (_FACE_UP if up >> cell & 1 else down)[values[cell]]
        for cell in range(base, base + ROWS)
    )


_COLUMN_BASES: tuple[int, ...] = tuple(cells[0] for cells in COLUMN_CELLS)
_REMOVED_COLUMN: tuple[Cell, ...] = (_REMOVED,) * ROWS
#: The card values in the order a list indexed by the value itself holds them (-2 and -1 from
#: the end): `[0, 1, ..., 12, -2, -1]`.
_BY_INDEX: tuple[int, ...] = tuple(sorted(CARD_COUNTS, key=lambda v: v % len(CARD_COUNTS)))


def _seen_columns(up: int, cells: tuple[Cell, ...] = ()) -> Any:
    """Every column a seat may see with the face-up rows of bit mask `up` (no card removed),
    as nested lists indexed by the cards of the column's rows still to come, top first (a
    face-down row's list holds one column for every value: the card is not seen)."""
    row = len(cells)
    if row == ROWS:
        return cells
    if up >> row & 1:
        return [_seen_columns(up, (*cells, _FACE_UP[value])) for value in _BY_INDEX]
    return [_seen_columns(up, (*cells, _HIDDEN))] * len(_BY_INDEX)


#: `_SEEN_COLUMNS[up][a][b][c]`: the column of cards a, b, c (top first) whose face-up rows
#: are the bit mask `up`, as its seat or anyone but `reveal_all` sees it; one tuple for each.
_SEEN_COLUMNS: tuple[Any, ...] = tuple(_seen_columns(up) for up in range(1 << ROWS))


def _final_cell(value: int | None) -> Cell:
    return _REMOVED if value is None else _FACE_UP[value]


def _final_grid_view(cells: tuple[int | None, ...]) -> tuple[tuple[Cell, ...], ...]:
    return tuple(
        tuple(_final_cell(cells[cell]) for cell in column_cells) for column_cells in COLUMN_CELLS
    )


@lru_cache(maxsize=4096)
def _round_summary(result: RoundResult) -> RoundSummary:
    return RoundSummary(
        round=result.round,
        closer_seat=result.closer,
        players=tuple(
            RoundPlayer(
                seat=seat,
                grid=_final_grid_view(cells),
                raw_score=result.raw_scores[seat],
                round_score=result.round_scores[seat],
                doubled=result.closer_doubled and seat == result.closer,
            )
            for seat, cells in enumerate(result.grids)
        ),
    )


#: `_round_summaries` by the identity of a state's `rounds` tuple, which every state of a
#: round shares: holding the tuple keeps its id from being reused while it is a key.
_SUMMARIES: dict[int, tuple[tuple[RoundResult, ...], tuple[RoundSummary, ...]]] = {}
_SUMMARIES_KEPT = 1024


def _round_summaries(rounds: tuple[RoundResult, ...]) -> tuple[RoundSummary, ...]:
    """The summaries of a game's rounds, found by identity: hashing every round result on
    every view cost more than building the rest of a two-seat view."""
    kept = _SUMMARIES.get(id(rounds))
    if kept is not None and kept[0] is rounds:
        return kept[1]
    if len(_SUMMARIES) >= _SUMMARIES_KEPT:
        _SUMMARIES.clear()
    summaries = tuple(_round_summary(r) for r in rounds)
    _SUMMARIES[id(rounds)] = (rounds, summaries)
    return summaries


#: `_players` by the identity of the state's grids, totals, names, bots, timeouts and accounts (and
#: `reveal_all`): they are the same objects in every state until one of them changes.
_PLAYERS: dict[tuple[Any, ...], tuple[tuple[Any, ...], tuple[PlayerView, ...]]] = {}
_PLAYERS_KEPT = 1024
#: The last answer of `_players` (by `reveal_all`), checked first: the views of one game's
#: seats, move after move, mostly follow each other (a tournament's or a bot's game), and
#: comparing six identities costs less than building the key of `_PLAYERS`.
_LAST_PLAYERS: list[tuple[Any, ...] | None] = [None, None]


def _players(state: GameState, reveal_all: bool) -> tuple[PlayerView, ...]:
    """Every seat's public part of the view; found by identity, since most actions change
    no grid that the previous view did not already show."""
    last = _LAST_PLAYERS[reveal_all]
    if (
        last is not None
        and last[0] is state.grids
        and last[1] is state.totals
        and last[2] is state.names
        and last[3] is state.bots
        and last[4] is state.timeouts
        and last[5] is state.accounts
    ):
        return last[6]
    parts = (state.grids, state.totals, state.names, state.bots, state.timeouts, state.accounts)
    players = _players_of(state, parts, reveal_all)
    _LAST_PLAYERS[reveal_all] = (*parts, players)
    return players


def _players_of(
    state: GameState, parts: tuple[Any, ...], reveal_all: bool
) -> tuple[PlayerView, ...]:
    """`_players` past its last answer: by the identities of `parts`, else built."""
    key = (*map(id, parts), reveal_all)
    kept = _PLAYERS.get(key)
    if kept is not None and all(a is b for a, b in zip(kept[0], parts, strict=True)):
        return kept[1]
    if len(_PLAYERS) >= _PLAYERS_KEPT:
        _PLAYERS.clear()
    grids, totals, names, bots, timeouts, accounts = parts
    players = tuple(
        _player(
            s,
            names[s],
            totals[s] if totals else 0,
            grids[s] if grids else None,
            bots[s],
            timeouts[s],
            accounts[s],
            reveal_all,
        )
        for s in range(state.seats)
    )
    _PLAYERS[key] = (parts, players)
    return players


def _held_card(state: GameState, seat: int | None, reveal_all: bool) -> HeldCard | None:
    """The card in the current seat's hand, its value shown where R7 allows."""
    if state.held is None or state.current is None:
        return None
    visible = reveal_all or state.held_from != DECK or seat == state.current
    return _held(state.current, state.held_from or DECK, state.held if visible else None)


@lru_cache(maxsize=1024)
def _held(seat: int, source: str, value: int | None) -> HeldCard:
    """Held cards are immutable, and few: one of each is shared."""
    return HeldCard(seat, source, value)


def _starting_seat(state: GameState) -> int | None:
    """Who takes (or took) the first turn of the round (R5): while playing, the seat that did;
    in setup and between rounds, the previous round's closer, unknown (None) in round 1 until
    every seat has made its reveals; None once the game is over."""
    if state.phase == PLAYING:
        return state.starter
    if state.phase == SETUP or state.phase == ROUND_ENDED:
        return state.last_closer
    return None


def _last_action_seen(
    events: tuple[Event, ...], seat: int | None, reveal_all: bool
) -> LastAction | None:
    """The last action, from its events, as `seat` may see it: a card drawn from the draw pile
    is its drawer's only while held (R7), and it is held exactly while the draw is the last
    action. Every other card it names is face up by now."""
    if not events:
        return None
    done: Any = events[0]  # one of the events of `_ACTION_OF`
    kind = _ACTION_OF[type(done)]
    value = getattr(done, "value", None)
    if kind == Draw.kind and not reveal_all and done.seat != seat:
        value = None
    last = LastAction(
        done.seat,
        kind,
        getattr(done, "column", None),
        getattr(done, "row", None),
        value,
        getattr(done, "replaced", None),
    )
    for event in events[1:]:
        if isinstance(event, ColumnRemoved):
            last = last._replace(removed_column=event.column)
        elif isinstance(event, FinalTurnsBegan):
            last = last._replace(final_turns_began=True)
        elif isinstance(event, RoundEnded):
            last = last._replace(ended_round=event.round)
        elif isinstance(event, GameEnded):
            last = last._replace(ended_game=True)
    return last


def view(state: GameState, seat: int | None, *, reveal_all: bool = False) -> GameView:
    """Exactly what `seat` may know now (`None`: a spectator), with its legal actions."""
    held = _held_card(state, seat, reveal_all)
    phase = state.phase
    players = _players(state, reveal_all)
    return _new_view(
        state.version,
        phase,
        state.round,
        state.seats,
        sum(1 for name in state.names if name is None),  # open_seats
        seat,  # you
        state.current if phase == PLAYING else None,  # current_seat
        state.closer,  # closer_seat
        state.final_turns_left if phase == PLAYING and state.closer is not None else 0,
        _starting_seat(state),
        state.discard_top,
        len(state.discard),  # discard_size
        state.deck_size,
        held,  # held_card
        players,
        tuple(legal_actions(state, seat)),
        _round_summaries(state.rounds),
        state.winners if state.winners else None,
        _last_action_seen(state.last_action, seat, reveal_all),
        state.options.to_data(),
        None,  # turn_deadline: the service's
    )


class _SeatView(GameView):
    """A `GameView` that keeps the state and reads each field from it when the field is read:
    a bot reads a few fields of every view it is shown, hundreds of times a game, so a view
    that computes (and stores) every field costs more than the reads. Equal, field for field,
    to `view(state, seat)`; only `you` is stored."""

    __slots__ = ("_state",)
    _state: GameState

    def __new__(cls, *args: Any, **kwargs: Any) -> GameView:  # type: ignore[misc]
        """A view built from its fields (`dataclasses.replace` builds one so) is a plain
        `GameView`: there is no state to read them from."""
        return GameView(*args, **kwargs)

    def __eq__(self, other: object) -> bool:
        """Equal to a `GameView` of the same fields (a dataclass compares its own class only;
        `view(...) == seat_view(...)` comes here too, reflected)."""
        if not isinstance(other, GameView):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(GameView))

    __hash__ = GameView.__hash__

    def player(self, seat: int) -> PlayerView:
        """This seat's part, built alone (`players` builds every seat's)."""
        state = self._state
        return _player(
            seat,
            state.names[seat],
            state.totals[seat] if state.totals else 0,
            state.grids[seat] if state.grids else None,
            state.bots[seat],
            state.timeouts[seat],
            state.accounts[seat],
            False,
        )


def _playing(state: GameState) -> bool:
    return state.phase == PLAYING


#: How `_SeatView` reads each field but `you` (as `view` computes it, with `reveal_all` off).
_SEAT_VIEW_FIELDS: dict[str, Callable[[_SeatView], Any]] = {
    "version": attrgetter("_state.version"),
    "status": attrgetter("_state.phase"),
    "round": attrgetter("_state.round"),
    "seats": attrgetter("_state.seats"),
    "open_seats": lambda v: sum(1 for name in v._state.names if name is None),
    "current_seat": lambda v: v._state.current if _playing(v._state) else None,
    "closer_seat": attrgetter("_state.closer"),
    "final_turns_left": lambda v: (
        v._state.final_turns_left if _playing(v._state) and v._state.closer is not None else 0
    ),
    "starting_seat": lambda v: _starting_seat(v._state),
    "discard_top": attrgetter("_state.discard_top"),
    "discard_size": lambda v: len(v._state.discard),
    "deck_size": attrgetter("_state.deck_size"),
    "held_card": lambda v: _held_card(v._state, v.you, False),
    "players": lambda v: _players(v._state, False),
    "legal_actions": lambda v: tuple(legal_actions(v._state, v.you)),
    "rounds": lambda v: _round_summaries(v._state.rounds),
    "winners": lambda v: v._state.winners or None,
    "last_action": lambda v: _last_action_seen(v._state.last_action, v.you, False),
    "options": lambda v: v._state.options.to_data(),
    "turn_deadline": lambda v: None,  # the service's
}
for _name, _read in _SEAT_VIEW_FIELDS.items():
    setattr(_SeatView, _name, property(_read, doc=f"`GameView.{_name}`, read from the state."))
_new_seat_view = maker(_SeatView, ["_state", "you"])


def seat_view(state: GameState, seat: int) -> GameView:
    """`view(state, seat)` for a bot: the same view, each field computed when it is read (see
    `_SeatView`)."""
    return _new_seat_view(state, seat)


def event_for_viewer(
    event: Event, viewer: int | None, seats: int, *, reveal_all: bool = False
) -> dict[str, Any]:
    """What `viewer` may learn from one event, as plain data.

    A deal shows no card but the one that starts the discard pile; a reshuffle shows only the
    size of the new draw pile; a draw shows its value to the drawer only (R7). Every other event
    shows cards that are face up for everyone once it has happened.
    """
    data = event_to_data(event)
    if reveal_all:
        return data
    if isinstance(event, RoundDealt):
        first_discard = seats * ROWS * COLUMNS
        return {
            "round": event.round,
            "discard_top": event.deck[first_discard],
            "deck_size": len(event.deck) - first_discard - 1,
        }
    if isinstance(event, DrawPileReshuffled):
        return {"deck_size": len(event.order)}
    if isinstance(event, CardDrawn) and viewer != event.seat:
        data["value"] = None
    return data


def _grid(columns: list[list[dict[str, Any]]]) -> tuple[tuple[Cell, ...], ...]:
    return tuple(tuple(Cell(cell["state"], cell["value"]) for cell in column) for column in columns)


def view_from_data(data: dict[str, Any]) -> GameView:
    """The `GameView` an API game resource stands for (its `to_data` gives it back): lets an
    engine player, or any bot, choose from a view served over HTTP."""
    held = data["held_card"]
    return GameView(
        version=data["version"],
        status=data["status"],
        round=data["round"],
        seats=data["seats"],
        open_seats=data["open_seats"],
        you=data["you"],
        current_seat=data["current_seat"],
        closer_seat=data["closer_seat"],
        final_turns_left=data["final_turns_left"],
        starting_seat=data["starting_seat"],
        discard_top=data["discard_top"],
        discard_size=data["discard_size"],
        deck_size=data["deck_size"],
        held_card=None if held is None else HeldCard(held["seat"], held["source"], held["value"]),
        players=tuple(
            PlayerView(
                p["seat"],
                p["name"],
                p["total"],
                _grid(p["grid"]),
                p.get("bot"),
                p.get("timeouts", 0),
            )
            for p in data["players"]
        ),
        legal_actions=tuple(action_from_data(a) for a in data["legal_actions"]),
        rounds=tuple(
            RoundSummary(
                r["round"],
                r["closer_seat"],
                tuple(
                    RoundPlayer(
                        p["seat"], _grid(p["grid"]), p["raw_score"], p["round_score"], p["doubled"]
                    )
                    for p in r["players"]
                ),
            )
            for r in data["rounds"]
        ),
        winners=None if data["winners"] is None else tuple(data["winners"]),
        last_action=None if data["last_action"] is None else LastAction(**data["last_action"]),
        options=data["options"],
        turn_deadline=data.get("turn_deadline"),
    )

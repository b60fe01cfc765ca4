"""What one seat (or a spectator, `seat=None`) may know: `view` for the state, `event_for_viewer`
for one event of the log.

R7 and R4: face-down cards are unknown to everyone, their owner included; the draw pile's order
is unknown; a card drawn from the draw pile is seen by its drawer only until it is placed.
`reveal_all=True` lifts all of this, for replaying a finished game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
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
from .cards import COLUMN_CELLS, COLUMNS, ROWS
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


def _grid_data(grid: tuple[tuple[Cell, ...], ...]) -> list[list[dict[str, Any]]]:
    return [[{"state": c.state, "value": c.value} for c in column] for column in grid]


_REMOVED = Cell(REMOVED, None)
_HIDDEN = Cell(FACE_DOWN, None)


def _grid_view(grid: Grid, reveal_all: bool) -> tuple[tuple[Cell, ...], ...]:
    columns = []
    for column_cells in COLUMN_CELLS:
        cells = []
        for cell in column_cells:
            if grid.gone >> cell & 1:
                cells.append(_REMOVED)
            elif grid.up >> cell & 1:
                cells.append(Cell(FACE_UP, grid.values[cell]))
            elif reveal_all:
                cells.append(Cell(FACE_DOWN, grid.values[cell]))
            else:
                cells.append(_HIDDEN)
        columns.append(tuple(cells))
    return tuple(columns)


def _final_grid_view(cells: tuple[int | None, ...]) -> tuple[tuple[Cell, ...], ...]:
    return tuple(
        tuple(
            _REMOVED if cells[cell] is None else Cell(FACE_UP, cells[cell]) for cell in column_cells
        )
        for column_cells in COLUMN_CELLS
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
    held = None
    if state.held is not None and state.current is not None:
        visible = reveal_all or state.held_from != DECK or seat == state.current
        held = HeldCard(state.current, state.held_from or DECK, state.held if visible else None)
    grids = state.grids
    phase = state.phase
    players = tuple(
        PlayerView(
            seat=s,
            name=state.names[s],
            total=state.totals[s] if state.totals else 0,
            grid=_grid_view(grids[s], reveal_all) if grids else (),
            bot=state.bots[s],
            timeouts=state.timeouts[s],
        )
        for s in range(state.seats)
    )
    return GameView(
        version=state.version,
        status=state.phase,
        round=state.round,
        seats=state.seats,
        open_seats=sum(1 for name in state.names if name is None),
        you=seat,
        current_seat=state.current if phase == PLAYING else None,
        closer_seat=state.closer,
        final_turns_left=state.final_turns_left
        if phase == PLAYING and state.closer is not None
        else 0,
        starting_seat=_starting_seat(state),
        discard_top=state.discard_top,
        discard_size=len(state.discard),
        deck_size=state.deck_size,
        held_card=held,
        players=players,
        legal_actions=tuple(legal_actions(state, seat)),
        rounds=tuple(_round_summary(r) for r in state.rounds),
        winners=state.winners if state.winners else None,
        last_action=_last_action_seen(state.last_action, seat, reveal_all),
        options=state.options.to_data(),
    )


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

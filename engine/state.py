"""The game state: what the rules need to know between two events.

`GameState` is never mutated once handed out: `evolve` returns a new one, so a state taken
before an action stays valid after it. Its attributes are read-only by convention (the engine
only writes to a private copy it has just made), which keeps replay allocation-light.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import ALL_CELLS_MASK
from .events import Event
from .options import Options

# Phases of a game (the API's `status`).
WAITING = "waiting"  # seats still open, nothing dealt
SETUP = "setup"  # a round is dealt; seats make their two reveals (R4.3)
PLAYING = "playing"  # turns (R6)
ROUND_ENDED = "round_ended"  # scored; only ever seen between two events of one action
FINISHED = "finished"  # R3: someone reached the end score
CANCELED = "canceled"  # R13: called off while it waited for players; nothing was dealt
#: Every phase, in a game's order: the API's `status` values.
PHASES: tuple[str, ...] = (WAITING, SETUP, PLAYING, ROUND_ENDED, FINISHED, CANCELED)
#: The phases after which no event follows.
OVER: frozenset[str] = frozenset({FINISHED, CANCELED})

# Steps of a turn while PLAYING.
CHOOSE = "choose"  # draw from the draw pile or take the discard
PLACE_DRAWN = "place_drawn"  # holding a drawn card: replace or discard it
PLACE_TAKEN = "place_taken"  # holding the taken discard: replace (R6a)
REVEAL_AFTER_DISCARD = "reveal_after_discard"  # turn one face-down card (R6b)
TURN_DONE = "turn_done"  # the card is placed; column removal and passing follow

#: Cards each seat turns face up before a round's first turn (R4.3).
SETUP_REVEALS = 2

DECK = "deck"
DISCARD_PILE = "discard"


class Grid(NamedTuple):
    """One player's 12 cards: values, a bit mask of face-up cells and of removed cells."""

    values: tuple[int, ...]
    up: int = 0
    gone: int = 0

    @property
    def face_down(self) -> int:
        """Bit mask of the cells still face down."""
        return ALL_CELLS_MASK & ~(self.up | self.gone)

    def is_up(self, cell: int) -> bool:
        return bool(self.up >> cell & 1)

    def is_gone(self, cell: int) -> bool:
        return bool(self.gone >> cell & 1)

    def remaining_values(self) -> list[int]:
        """The cards still in the grid (removed columns aside)."""
        gone = self.gone
        return [v for i, v in enumerate(self.values) if not gone >> i & 1]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A scored round (R11): grids after the final reveal, None where a column was removed."""

    round: int
    closer: int
    grids: tuple[tuple[int | None, ...], ...]
    raw_scores: tuple[int, ...]
    round_scores: tuple[int, ...]
    closer_doubled: bool


_SLOTS = (
    "seats",
    "options",
    "names",
    "phase",
    "round",
    "grids",
    "totals",
    "deck",
    "deck_pos",
    "discard",
    "current",
    "step",
    "held",
    "held_from",
    "closer",
    "final_turns_left",
    "last_closer",
    "starter",
    "last_action",
    "reshuffles",
    "rounds",
    "winners",
    "bots",
    "accounts",
    "timeouts",
    "left",
    "timing_out",
    "unattended_rounds",
    "turn",
    "version",
)


class GameState:
    """Everything the rules know after `version` events. Treat as immutable."""

    __slots__ = _SLOTS

    seats: int
    options: Options
    names: tuple[str | None, ...]
    phase: str
    round: int
    grids: tuple[Grid, ...]
    totals: tuple[int, ...]
    deck: tuple[int, ...]  # the current draw pile order, top first, from deck_pos on
    deck_pos: int
    discard: tuple[int, ...]  # bottom first; the top card is the last
    current: int | None
    step: str
    held: int | None
    held_from: str | None
    closer: int | None
    final_turns_left: int
    last_closer: int | None
    starter: int | None  # the seat that took the first turn of the round being played (R5)
    # The events of the most recent action that changed the game: the action's own (a join,
    # reveal, draw...) then those it caused (ColumnRemoved, FinalTurnsBegan, RoundEnded,
    # GameEnded); `view` makes the API's `last_action` of them. Empty before any action.
    last_action: tuple[Event, ...]
    reshuffles: int  # how many times the draw pile ran out this round (R9)
    rounds: tuple[RoundResult, ...]
    winners: tuple[int, ...]
    # Per seat (R13): the strategy of the bot that plays it (None: a person), its timeouts in
    # a row, and whether its player left the game. `timing_out` is the seat whose timed-out
    # turn the service is playing (its moves do not end the streak of timeouts).
    bots: tuple[str | None, ...]
    # Per seat: the handle of the account it belongs to (None: a guest's, or open).
    accounts: tuple[str | None, ...]
    timeouts: tuple[int, ...]
    left: tuple[bool, ...]
    timing_out: int | None
    # Rounds dealt while no person held a seat: what the service's limit on playing a game
    # for its bots alone counts (R13).
    unattended_rounds: int
    # How many turns (and rounds' setups) have begun: a new number is a new turn, so a new
    # clock (R13) for the service.
    turn: int
    version: int

    def __init__(self) -> None:
        """The state before any event: no game yet."""
        self.seats = 0
        self.options = Options()
        self.names = ()
        self.phase = WAITING
        self.round = 0
        self.grids = ()
        self.totals = ()
        self.deck = ()
        self.deck_pos = 0
        self.discard = ()
        self.current = None
        self.step = CHOOSE
        self.held = None
        self.held_from = None
        self.closer = None
        self.final_turns_left = 0
        self.last_closer = None
        self.starter = None
        self.last_action = ()
        self.reshuffles = 0
        self.rounds = ()
        self.winners = ()
        self.bots = ()
        self.accounts = ()
        self.timeouts = ()
        self.left = ()
        self.timing_out = None
        self.unattended_rounds = 0
        self.turn = 0
        self.version = 0

    def copy(self) -> GameState:
        """A shallow copy: every field is immutable, so nothing is shared mutably.

        Written out slot by slot: this is the hot path of `decide` and `evolve`.
        """
        new = GameState.__new__(GameState)
        new.seats = self.seats
        new.options = self.options
        new.names = self.names
        new.phase = self.phase
        new.round = self.round
        new.grids = self.grids
        new.totals = self.totals
        new.deck = self.deck
        new.deck_pos = self.deck_pos
        new.discard = self.discard
        new.current = self.current
        new.step = self.step
        new.held = self.held
        new.held_from = self.held_from
        new.closer = self.closer
        new.final_turns_left = self.final_turns_left
        new.last_closer = self.last_closer
        new.starter = self.starter
        new.last_action = self.last_action
        new.reshuffles = self.reshuffles
        new.rounds = self.rounds
        new.winners = self.winners
        new.bots = self.bots
        new.accounts = self.accounts
        new.timeouts = self.timeouts
        new.left = self.left
        new.timing_out = self.timing_out
        new.unattended_rounds = self.unattended_rounds
        new.turn = self.turn
        new.version = self.version
        return new

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _SLOTS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"GameState(version={self.version}, phase={self.phase!r}, round={self.round}, "
            f"current={self.current}, step={self.step!r})"
        )

    # Derived facts, named after the rules.

    @property
    def draw_pile(self) -> tuple[int, ...]:
        return self.deck[self.deck_pos :]

    @property
    def deck_size(self) -> int:
        return len(self.deck) - self.deck_pos

    @property
    def discard_top(self) -> int | None:
        return self.discard[-1] if self.discard else None

    @property
    def is_full(self) -> bool:
        return self.seats > 0 and all(name is not None for name in self.names)

    @property
    def unattended(self) -> bool:
        """Every seat is taken and a bot plays each: no person is left at the table (R13)."""
        return self.is_full and None not in self.bots

    def cards_in_play(self) -> list[int]:
        """Every card the round holds (R1 conservation): grids, draw pile, discard, held."""
        cards = list(self.draw_pile) + list(self.discard)
        for grid in self.grids:
            cards.extend(grid.remaining_values())
        if self.held is not None:
            cards.append(self.held)
        return cards


EMPTY = GameState()

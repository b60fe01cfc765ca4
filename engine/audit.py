"""Auditing a log: does it replay as the rules would have written it?

`evolve` trusts its log. An imported or stored log is not trusted: `verify_log` recovers the
action behind each group of events, asks `decide` for the events that action causes (taking card
orders from the log itself), and compares them with the log, event by event. The first event
that differs, or the first action the rules refuse, is reported with its sequence number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .actions import (
    DISCARD,
    DRAW,
    TAKE_DISCARD,
    Action,
    Cancel,
    Join,
    Leave,
    Replace,
    Reveal,
    StopPlay,
    TimeOut,
)
from .cards import FULL_DECK_COUNTER
from .decide import act, create_game
from .errors import RuleError
from .events import (
    CardDrawn,
    CardReplaced,
    CardRevealed,
    DiscardTaken,
    DrawnCardDiscarded,
    DrawPileReshuffled,
    Event,
    GameCanceled,
    GameCreated,
    GameEnded,
    PlayerJoined,
    PlayerLeft,
    RoundDealt,
    SeatAbandoned,
    SeatLeft,
    TurnTimedOut,
    event_type,
)
from .evolve import evolve
from .state import EMPTY, GameState


class InvalidLog(Exception):
    """The log does not replay; `sequence` (1-based) names the first offending event."""

    def __init__(self, sequence: int, code: str, message: str) -> None:
        super().__init__(f"event {sequence}: {message} ({code})")
        self.sequence = sequence
        self.code = code
        self.message = message


class _RecordedShuffler:
    """Card orders taken from the log, from the start of the action being checked."""

    def __init__(self, events: Sequence[Event], start: int) -> None:
        self.events = events
        self.start = start

    def _find(self, kind: type[Event]) -> tuple[int, Event]:
        for index in range(self.start, len(self.events)):
            if isinstance(self.events[index], kind):
                return index, self.events[index]
        raise InvalidLog(
            len(self.events) + 1, "missing_event", f"the log ends before its {kind.__name__}"
        )

    def deal_order(self, round_number: int) -> tuple[int, ...]:
        index, event = self._find(RoundDealt)
        assert isinstance(event, RoundDealt)
        if event.round != round_number:
            raise InvalidLog(index + 1, "event_mismatch", f"round {round_number} is dealt next")
        if Counter(event.deck) != FULL_DECK_COUNTER:
            raise InvalidLog(index + 1, "invalid_deck", "a deal holds exactly the 150 cards of R1")
        return event.deck

    def reshuffle(self, cards: Sequence[int], round_number: int, count: int) -> tuple[int, ...]:
        index, event = self._find(DrawPileReshuffled)
        assert isinstance(event, DrawPileReshuffled)
        if Counter(event.order) != Counter(cards):
            raise InvalidLog(
                index + 1, "invalid_shuffle", "a reshuffle holds the discard pile but its top (R9)"
            )
        return event.order


def action_behind(
    event: Event, state: GameState, following: Event | None = None
) -> tuple[int | None, Action] | None:
    """The action whose first event `event` is (`following`, the event after it, names the
    bot a timeout handed the seat to); None for an event no action begins with."""
    if isinstance(event, PlayerJoined):
        return None, Join(event.name, event.bot, event.account)
    if isinstance(event, PlayerLeft):
        return event.seat, Leave()
    if isinstance(event, SeatLeft):
        return event.seat, Leave(event.bot)
    if isinstance(event, TurnTimedOut):
        if isinstance(following, SeatAbandoned):
            return event.seat, TimeOut(following.bot)
        return event.seat, TimeOut()
    if isinstance(event, CardRevealed):
        return event.seat, Reveal(event.column, event.row)
    if isinstance(event, CardDrawn):
        return event.seat, DRAW
    if isinstance(event, DrawPileReshuffled):
        return state.current, DRAW
    if isinstance(event, DiscardTaken):
        return event.seat, TAKE_DISCARD
    if isinstance(event, CardReplaced):
        return event.seat, Replace(event.column, event.row)
    if isinstance(event, DrawnCardDiscarded):
        return event.seat, DISCARD
    if isinstance(event, GameEnded):  # an end no move caused: the service stopped the game
        return None, StopPlay()
    if isinstance(event, GameCanceled):  # the service called a waiting game off
        return None, Cancel(event.reason)
    return None


def verify_log(events: Sequence[Event]) -> GameState:
    """The state the log replays to, or `InvalidLog` naming the first offending event."""
    if not events or not isinstance(events[0], GameCreated):
        raise InvalidLog(1, "missing_game_created", "a log starts with GameCreated")
    first = events[0]
    try:
        expected = create_game(first.seats, first.options)
    except (RuleError, TypeError) as error:
        raise InvalidLog(1, getattr(error, "code", "invalid_options"), str(error)) from None
    if expected != [first]:
        raise InvalidLog(1, "event_mismatch", "GameCreated is not as the rules write it")
    state = evolve(EMPTY, first)
    index = 1
    while index < len(events):
        event = events[index]
        following = events[index + 1] if index + 1 < len(events) else None
        behind = action_behind(event, state, following)
        if behind is None:
            raise InvalidLog(
                index + 1, "unexpected_event", f"no action begins with {event_type(event)}"
            )
        seat, action = behind
        try:
            decided, after = act(state, seat, action, _RecordedShuffler(events, index))
        except RuleError as error:
            raise InvalidLog(index + 1, error.code, error.message) from None
        except (TypeError, ValueError) as error:
            raise InvalidLog(index + 1, "invalid_event", str(error)) from None
        for offset, want in enumerate(decided):
            position = index + offset
            if position >= len(events):
                raise InvalidLog(
                    position + 1, "missing_event", f"the log ends before {event_type(want)}"
                )
            if events[position] != want:
                raise InvalidLog(
                    position + 1,
                    "event_mismatch",
                    f"the rules write {event_type(want)} {want} here, "
                    f"the log has {event_type(events[position])}",
                )
        state = after
        index += len(decided)
    return state

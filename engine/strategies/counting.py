"""Following a seat's history: which cards lie in the discard pile now, and how many turns
the round has lasted.

The view shows only the discard pile's top; the history shows every card that went onto it
or left it, so the pile's whole content can be followed. Cards in the discard pile are out of
the draw pile until a reshuffle (R9) takes all but the top back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .seen import SeenEvent

MEMO_KEY = "counting.discard"


class DiscardPile:
    """The discard pile's cards, bottom first, and the turns of the round, after the events
    read so far."""

    __slots__ = ("cards", "read", "turns")

    def __init__(self) -> None:
        self.cards: list[int] = []
        self.read = 0
        self.turns = 0

    def follow(self, history: Sequence[SeenEvent]) -> None:
        """Read the events not read yet."""
        for event in history[self.read :]:
            kind = event["type"]
            if kind == "TurnPassed":
                self.turns += 1
            elif kind == "RoundDealt":
                self.turns = 0
            _APPLY.get(kind, _ignore)(self.cards, event["data"])
        self.read = len(history)

    def counts(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for value in self.cards:
            counts[value] = counts.get(value, 0) + 1
        return counts


def discard_pile(history: Sequence[SeenEvent]) -> DiscardPile:
    """The discard pile after `history`, taken up from the history's memo when it has one
    (so each turn reads only the new events)."""
    memo: dict[str, Any] | None = getattr(history, "memo", None)
    pile = None if memo is None else memo.get(MEMO_KEY)
    if not isinstance(pile, DiscardPile) or pile.read > len(history):
        pile = DiscardPile()
        if memo is not None:
            memo[MEMO_KEY] = pile
    pile.follow(history)
    return pile


def _ignore(cards: list[int], data: dict[str, Any]) -> None:
    pass


def _dealt(cards: list[int], data: dict[str, Any]) -> None:
    cards[:] = [data["discard_top"]]


def _pushed_replaced(cards: list[int], data: dict[str, Any]) -> None:
    cards.append(data["replaced"])


def _pushed_value(cards: list[int], data: dict[str, Any]) -> None:
    cards.append(data["value"])


def _taken(cards: list[int], data: dict[str, Any]) -> None:
    if cards:
        cards.pop()


def _column(cards: list[int], data: dict[str, Any]) -> None:
    cards.extend([data["value"]] * 3)


def _reshuffled(cards: list[int], data: dict[str, Any]) -> None:
    cards[:] = cards[-1:]


_APPLY = {
    "RoundDealt": _dealt,
    "CardReplaced": _pushed_replaced,
    "DrawnCardDiscarded": _pushed_value,
    "DiscardTaken": _taken,
    "ColumnRemoved": _column,
    "DrawPileReshuffled": _reshuffled,
}

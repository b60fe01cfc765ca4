"""The table's move log and its last move: pure functions over the viewer's events.

They read the log as the viewer may see it (`engine.event_for_viewer`'s data, as the
`/events` feed shows it), so the log never tells a card the viewer may not know. The words
are `games.web.words`' (one place for them); here they are grouped by round, newest first,
and the last action is found again to mark the cells it changed on the grids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import COLUMNS, ROWS
from games.web.words import Seen, Told, is_action

#: The classes of the cells (and of the discard pile's card) the last action changed: the
#: page highlights them for a moment (follow.css) and animates them (skyjo.css).
CARD_PLACED = "card-placed"
CARD_TURNED = "card-turned"
COLUMN_REMOVED = "column-removed"
CARD_DISCARDED = "card-discarded"

#: An entry's kind as a class, for the log's style: what the reader should not miss.
_KINDS = (
    ("TurnTimedOut", "timeout"),
    ("SeatAbandoned", "takeover"),
    ("SeatLeft", "takeover"),
    ("ColumnRemoved", "removal"),
    ("FinalTurnsBegan", "final-turns"),
    ("RoundEnded", "round-end"),
    ("GameEnded", "game-end"),
)

Marks = dict[tuple[int, int], str]


def move_log(entries: Sequence[Told]) -> list[dict[str, Any]]:
    """The rounds of the log (its entries `told`), newest first, each with its entries newest
    first: `round` (0 before the first deal), `heading`, `entries` ({"text", "css"}) and
    `current` (the newest round: shown open)."""
    rounds: list[dict[str, Any]] = [{"round": 0, "heading": "Before the deal", "entries": []}]
    for entry, words in entries:
        kind, data = entry[0]
        if kind == "RoundDealt":
            heading = f"Round {data['round']}"
            rounds.append({"round": data["round"], "heading": heading, "entries": []})
        if words:
            rounds[-1]["entries"].append({"text": words, "css": _kind(entry)})
    shown = [group for group in reversed(rounds) if group["entries"]]
    for index, group in enumerate(shown):
        group["entries"].reverse()
        group["current"] = index == 0
    return shown


def _kind(entry: Sequence[Seen]) -> str:
    kinds = {kind for kind, _ in entry}
    return " ".join(css for kind, css in _KINDS if kind in kinds)


@dataclass(frozen=True)
class LastMove:
    """What the last action changed: each seat's cells (`Marks`), whether it put a card on
    the discard pile, and the round it ended (its cells are then on that round's results,
    the grids on the table being the next round's)."""

    cells: dict[int, Marks] = field(default_factory=dict)
    discarded: bool = False
    ended_round: int | None = None


def last_move(entries: Sequence[Told]) -> LastMove:
    """The last action's changes, from the log's last entry (`told`) that is an action."""
    actions = [entry for entry, _ in entries if is_action(entry)]
    if not actions:
        return LastMove()
    cells: dict[int, Marks] = {}
    discarded, ended = False, None
    for kind, data in actions[-1]:
        if kind in ("CardReplaced", "CardRevealed"):
            mark = CARD_PLACED if kind == "CardReplaced" else CARD_TURNED
            cells.setdefault(data["seat"], {})[(data["column"], data["row"])] = mark
        if kind == "ColumnRemoved":
            column = cells.setdefault(data["seat"], {})
            column.update({(data["column"], row): COLUMN_REMOVED for row in range(ROWS)})
        discarded = discarded or kind in ("CardReplaced", "DrawnCardDiscarded", "ColumnRemoved")
        if kind == "RoundEnded":
            ended = data["round"]
    return LastMove(cells, discarded, ended)


def turned_at_the_end(events: Sequence[Seen], round_number: int) -> dict[int, set[tuple[int, int]]]:
    """Each seat's cells still face down when round `round_number` ended: the final reveal
    turned them (R10), as a round's results show them. Every cell a seat revealed, replaced
    or saw removed during the round was face up before."""
    up: dict[int, set[tuple[int, int]]] = {}
    seats: set[int] = set()
    playing = False
    for kind, data in events:
        if kind == "RoundDealt":
            playing = data["round"] == round_number
        elif kind == "PlayerJoined":
            seats.add(data["seat"])
        elif playing and kind in ("CardRevealed", "CardReplaced"):
            up.setdefault(data["seat"], set()).add((data["column"], data["row"]))
        elif playing and kind == "ColumnRemoved":
            up.setdefault(data["seat"], set()).update((data["column"], r) for r in range(ROWS))
        elif playing and kind == "RoundEnded":
            break
    every = {(column, row) for column in range(COLUMNS) for row in range(ROWS)}
    return {seat: every - up.get(seat, set()) for seat in seats}

"""The table page's context, built from the API's game resource (`presenters.game_data`), so
the page shows exactly what the API tells the same viewer, no more.

Plain data for the templates: each card carries its accessible name ("Column 2, row 1: 7",
1-based like every position the page says) and, when the viewer may act on it, the move its
button sends (`forms.parse_move` reads it back).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.cards import COLUMNS, ROWS
from games.core.resources import iso_time
from games.models import Status
from games.web.move_log import (
    CARD_DISCARDED,
    CARD_TURNED,
    LastMove,
    Marks,
    last_move,
    move_log,
    turned_at_the_end,
)
from games.web.words import Names, Seen, called_off, card, last_words, listed, told

#: The buttons of the moves that name no card, with their accessible names (a contract:
#: tests and users' scripts find them by these names).
BUTTONS = {"draw": "Draw", "take_discard": "Take discard", "discard": "Discard"}
#: How long a round's results stay above the next round once its play started, unless the
#: player dismisses them ("Continue"): long enough to read them (docs/WEB.md). During the
#: next round's setup they stay whatever the time.
ROUND_HOLD_SECONDS = 20


def card_colour(value: int | None) -> str:
    """The printed deck's colours: dark blue -2 and -1, light blue 0, green 1-4, yellow 5-8,
    red 9-12 (the number is always printed too: colour is never the only cue)."""
    if value is None:
        return "back"
    if value < 0:
        return "dark-blue"
    if value == 0:
        return "light-blue"
    return "green" if value <= 4 else "yellow" if value <= 8 else "red"


def move_of(action: dict[str, Any]) -> str:
    """A legal action as its button's value: `draw`, `replace:1:0`..."""
    if "column" in action:
        return f"{action['action']}:{action['column']}:{action['row']}"
    return str(action["action"])


def _cell(
    column: int, row: int, cell: dict[str, Any], moves: dict[tuple[int, int], str], mark: str
) -> Any:
    """A card of a grid; `mark` the class the last action gave it ("" for none)."""
    where = f"Column {column + 1}, row {row + 1}"
    state, value = cell["state"], cell["value"]
    if state == "removed":
        label, shown = f"{where}: removed", ""
    elif state == "face_down" and value is None:
        label, shown = f"{where}: face down", ""
    else:
        hidden = ", face down" if state == "face_down" else ""  # a finished game's replay
        label, shown = f"{where}: {value}{hidden}", str(value)
    colour = "removed" if state == "removed" else card_colour(value)
    return {
        "id": f"cell-{column}-{row}",
        "label": label,
        "text": shown,
        "css": _marked(f"card {colour}{' down' if state == 'face_down' else ''}", mark),
        "move": moves.get((column, row)),
    }


def _marked(css: str, mark: str) -> str:
    """A card's classes with the last action's mark, if any."""
    return f"{css} {mark}" if mark else css


def grid_cells(
    grid: list[list[dict[str, Any]]],
    moves: dict[tuple[int, int], str] | None = None,
    marks: Marks | None = None,
) -> list[dict[str, Any]]:
    """A grid's cells in reading order (row by row), as the page lays them out; empty before
    the first deal. `marks`: the classes of the cells the last action changed."""
    if not grid:
        return []
    moves, marks = moves or {}, marks or {}
    return [
        _cell(c, r, grid[c][r], moves, marks.get((c, r), ""))
        for r in range(ROWS)
        for c in range(COLUMNS)
    ]


def _panel(
    player: dict[str, Any], data: dict[str, Any], moves: dict[tuple[int, int], str]
) -> dict[str, Any]:
    seat, you = player["seat"], data["you"]
    name = player["name"] or f"Seat {seat + 1} (open)"
    return {
        "seat": seat,
        "name": name,
        "heading": f"{name} (you)" if seat == you else name,
        "mine": seat == you,
        "total": player["total"],
        "bot": player.get("bot"),  # a bot seat: its strategy's name
        "timeouts": player.get("timeouts", 0) if data["options"].get("turn_seconds") else None,
        "current": seat == data["current_seat"],
        "closer": seat == data["closer_seat"],
        "cells": grid_cells(player["grid"], moves if seat == you else None),
        **_seat_clock(player, data),
    }


def _seat_clock(player: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """A timed game's clock on a seat's panel, where the eye is: the turn's deadline on the
    seat whose turn it is (the page counts down to it, as the clock line above the table), and
    under each name its timeouts in a row out of the game's limit, after which a bot takes
    the seat over (`max_timeouts`). Nothing for a game without a clock."""
    options = data["options"]
    if not options.get("turn_seconds"):
        return {}
    deadline = data.get("turn_deadline") if player["seat"] == data["current_seat"] else None
    return {
        "deadline": deadline,
        "seconds": _seconds_left(deadline),
        "timeouts_of": f"{player.get('timeouts', 0)} of {options.get('max_timeouts')}",
    }


def _seconds_left(deadline: str | None, now: datetime | None = None) -> int | None:
    """The whole seconds left until `deadline` (an ISO time, as the API gives it), as the
    page shows them before its script counts down; None without a deadline."""
    if deadline is None:
        return None
    at = datetime.fromisoformat(deadline.replace("Z", "+00:00"))
    return max(0, int((at - (now or datetime.now(UTC))).total_seconds() + 0.999))


def seating(seats: int, you: int | None) -> list[int]:
    """The seats in play order starting after the viewer's (the viewer's own last, drawn at
    the bottom); a spectator's in seat order."""
    first = 0 if you is None else you + 1
    return [(first + i) % seats for i in range(seats)]


def headline(data: dict[str, Any], names: Names) -> str:
    """Where the game stands, in one sentence."""
    status = data["status"]
    if status == Status.WAITING:
        return f"Waiting for players: {data['open_seats']} of {data['seats']} seats open."
    if status == Status.SETUP:
        return f"Round {data['round']}: everyone turns two cards face up."
    if status == "round_ended":  # only between two events of one action (a replay's step)
        return f"Round {data['round']} is over."
    if status == Status.CANCELED:
        return called_off(None)
    if status == Status.FINISHED:
        winners = [names.of(seat) for seat in data["winners"] or ()]
        verb = "win" if len(winners) != 1 or winners == ["You"] else "wins"
        return f"The game is over: {listed(winners)} {verb}."
    turn = names.possessive(data["current_seat"]).capitalize()
    last = data["final_turns_left"]
    final = f" Final turns: {last} left." if last else ""
    return f"Round {data['round']}: {turn} turn.{final}"


def prompt(data: dict[str, Any]) -> str:
    """What the viewer may do now, said for a person ("" when nothing)."""
    kinds = {action["action"] for action in data["legal_actions"]}
    held = data["held_card"]
    if "draw" in kinds:
        return f"Draw a card, or take {card(data['discard_top'])} from the discard."
    if "discard" in kinds:
        return f"Place {card(held['value'])} on one of your cards, or discard it."
    if "replace" in kinds:
        return f"Place {card(held['value'])} on one of your cards."
    if "reveal" in kinds and data["status"] == Status.SETUP:
        up = sum(
            cell["state"] == "face_up"
            for column in data["players"][data["you"]]["grid"]
            for cell in column
        )
        return f"Turn {'two cards' if up == 0 else 'one more card'} face up."
    if "reveal" in kinds:
        return "Turn one of your face-down cards face up."
    return ""


def held_words(data: dict[str, Any], names: Names) -> str:
    held = data["held_card"]
    if held is None:
        return ""
    source = "from the draw pile" if held["source"] == "deck" else "from the discard"
    who = names.verb(held["seat"], "holds", "hold")
    return f"{who} {card(held['value'])} {source}."


def round_result(
    data: dict[str, Any], names: Names, held: bool = False, marks: dict[int, Marks] | None = None
) -> dict[str, Any] | None:
    """The last round's result while it is news: during the next round's setup, while it is
    `held` (it ended moments ago: `ROUND_HOLD_SECONDS`), and once the game is over. `marks`:
    each seat's cells the round's last action and its final reveal changed."""
    status = data["status"]
    if not data["rounds"] or not (status in (Status.SETUP, Status.FINISHED) or held):
        return None
    result, marks = data["rounds"][-1], marks or {}
    return {
        "round": result["round"],
        "closer": names.of(result["closer_seat"]),
        "players": [
            {
                "name": names.label(player["seat"]),
                "cells": grid_cells(player["grid"], marks=marks.get(player["seat"])),
                "raw": player["raw_score"],
                "score": player["round_score"],
                "doubled": player["doubled"],
                "total": data["players"][player["seat"]]["total"],
            }
            for player in result["players"]
        ],
    }


def score_sheet(data: dict[str, Any], names: Names) -> dict[str, Any] | None:
    """Every scored round's scores by seat, and the totals."""
    if not data["rounds"]:
        return None
    return {
        "names": [names.label(player["seat"]) for player in data["players"]],
        "rounds": [
            {
                "round": result["round"],
                "scores": [
                    f"{p['round_score']}{' (doubled)' if p['doubled'] else ''}"
                    for p in result["players"]
                ],
            }
            for result in data["rounds"]
        ],
        "totals": [player["total"] for player in data["players"]],
    }


def standings(data: dict[str, Any], names: Names) -> list[dict[str, Any]]:
    """A finished game's players from the lowest total, the winners marked."""
    if data["status"] != Status.FINISHED:
        return []
    winners = set(data["winners"] or ())
    ranked = sorted(data["players"], key=lambda p: (p["total"], p["seat"]))
    return [
        {"name": names.label(p["seat"]), "total": p["total"], "winner": p["seat"] in winners}
        for p in ranked
    ]


def clock(data: dict[str, Any], names: Names, now: datetime | None = None) -> dict[str, Any] | None:
    """The turn's countdown when there is a clock: its deadline (the page's script counts
    down to it; the server keeps the time) and whose it is; None without one."""
    deadline = data.get("turn_deadline")
    if deadline is None:
        return None
    left = _seconds_left(deadline, now)
    seat = data["current_seat"]
    whose = "Setup reveals" if seat is None else f"{names.possessive(seat).capitalize()} turn"
    return {"deadline": deadline, "seconds": left, "whose": whose}


def _headline(data: dict[str, Any], names: Names, events: Sequence[Seen]) -> str:
    """The headline; a canceled game's says why, from its `GameCanceled` (the log's last)."""
    if data["status"] != Status.CANCELED:
        return headline(data, names)
    reasons = [event["reason"] for kind, event in events if kind == "GameCanceled"]
    return called_off(reasons[-1] if reasons else None)


@dataclass(frozen=True)
class Live:
    """The live table's times (a replay has none): now, and when the last round ended (None
    before any did), whose results the table holds above the next round a while."""

    now: datetime
    ended_at: datetime | None


def table_context(
    data: dict[str, Any], events: Sequence[Seen], live: Live | None = None
) -> dict[str, Any]:
    """Everything the table's templates show, from the viewer's game resource `data` and the
    log as the viewer sees it up to `data`'s version (whole, so that a seat taken over is said
    as its bot): the live table's (`live`) with its move log and its round results held."""
    names = Names([p["name"] for p in data["players"]], data["you"])
    legal = data["legal_actions"]
    cells = {(a["column"], a["row"]): move_of(a) for a in legal if "column" in a}
    buttons = {a["action"]: BUTTONS[a["action"]] for a in legal if a["action"] in BUTTONS}
    order = seating(data["seats"], data["you"])
    panels = [_panel(data["players"][seat], data, cells) for seat in order]
    entries = told(events, names)  # the log in words, once
    moved = last_move(entries)
    if moved.ended_round is None:
        _mark_panels(panels, moved)
    mine = panels.pop() if data["you"] is not None else None
    return {
        "game": data,
        "Status": Status,  # the templates compare `game.status` with its members
        "headline": _headline(data, names, events),
        "clock": clock(data, names),
        "prompt": prompt(data),
        "last_action": last_words(entries),
        "others": panels,
        "mine": mine,
        "buttons": buttons,
        "discard_label": "Discard pile: empty"
        if data["discard_top"] is None
        else f"Discard pile: {data['discard_top']}",
        "discard_css": _discard_css(data, moved),
        "held": held_words(data, names),
        "held_card": data["held_card"],
        "held_css": f"card {card_colour((data['held_card'] or {}).get('value'))}",
        "result": _held_result(data, names, events, moved, live),
        "scores": score_sheet(data, names),
        "standings": standings(data, names),
        "moves": move_log(entries) if live is not None else [],
    }


def _mark_panels(panels: list[dict[str, Any]], moved: LastMove) -> None:
    """The cells the last action changed, marked on the seats' panels (built by `_panel`)."""
    for panel in panels:
        marks = moved.cells.get(panel["seat"], {})
        for cell in panel["cells"]:
            column, row = (int(n) for n in cell["id"].split("-")[1:])
            cell["css"] = _marked(cell["css"], marks.get((column, row), ""))


def _discard_css(data: dict[str, Any], moved: LastMove) -> str:
    """The discard pile's card, marked when the last action of this round put a card on it."""
    fresh = moved.discarded and moved.ended_round is None
    return _marked(f"card {card_colour(data['discard_top'])}", CARD_DISCARDED if fresh else "")


def _held_result(
    data: dict[str, Any],
    names: Names,
    events: Sequence[Seen],
    moved: LastMove,
    live: Live | None,
) -> dict[str, Any] | None:
    """The round's result, held above the next round for `ROUND_HOLD_SECONDS` after its end
    (and during the next round's setup), with the last action's cells and the final reveal's
    marked; on the live table, with when it goes (`until`: the page's script hides it then)
    and a key for the page to remember its dismissal by."""
    if not data["rounds"]:
        return None
    number = data["rounds"][-1]["round"]
    ended_at = None if live is None else live.ended_at
    until = None if ended_at is None else ended_at + timedelta(seconds=ROUND_HOLD_SECONDS)
    held = live is not None and until is not None and live.now < until
    marks: dict[int, Marks] = {}
    if moved.ended_round == number:
        marks = {seat: dict(cells) for seat, cells in moved.cells.items()}
    for seat, turned in turned_at_the_end(events, number).items():
        marks.setdefault(seat, {}).update(dict.fromkeys(turned, CARD_TURNED))
    result = round_result(data, names, held, marks)
    if result is not None and live is not None and data["status"] != Status.FINISHED:
        result["key"] = f"{data['id']}:{number}"
        held_on = data["status"] != Status.SETUP and until is not None
        result["until"] = iso_time(until) if held_on else None
    return result

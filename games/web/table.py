"""The table page's context, built from the API's game resource (`presenters.game_data`), so
the page shows exactly what the API tells the same viewer, no more.

Plain data for the templates: each card carries its accessible name ("Column 2, row 1: 7",
1-based like every position the page says) and, when the viewer may act on it, the move its
button sends (`forms.parse_move` reads it back).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from engine.cards import COLUMNS, ROWS
from games.models import Status
from games.web.words import Names, Seen, called_off, card, listed, turn_words

#: The buttons of the moves that name no card, with their accessible names (a contract:
#: tests and users' scripts find them by these names).
BUTTONS = {"draw": "Draw", "take_discard": "Take discard", "discard": "Discard"}


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


def _cell(column: int, row: int, cell: dict[str, Any], moves: dict[tuple[int, int], str]) -> Any:
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
        "css": f"card {colour}{' down' if state == 'face_down' else ''}",
        "move": moves.get((column, row)),
    }


def grid_cells(
    grid: list[list[dict[str, Any]]], moves: dict[tuple[int, int], str] | None = None
) -> list[dict[str, Any]]:
    """A grid's cells in reading order (row by row), as the page lays them out; empty before
    the first deal."""
    if not grid:
        return []
    moves = moves or {}
    return [_cell(c, r, grid[c][r], moves) for r in range(ROWS) for c in range(COLUMNS)]


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


def round_result(data: dict[str, Any], names: Names) -> dict[str, Any] | None:
    """The last round's result while it is news: until the next round's play starts (during
    its setup), and once the game is over."""
    if not data["rounds"] or data["status"] not in (Status.SETUP, Status.FINISHED):
        return None
    result = data["rounds"][-1]
    return {
        "round": result["round"],
        "closer": names.of(result["closer_seat"]),
        "players": [
            {
                "name": names.label(player["seat"]),
                "cells": grid_cells(player["grid"]),
                "raw": player["raw_score"],
                "score": player["round_score"],
                "doubled": player["doubled"],
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
    at = datetime.fromisoformat(deadline.replace("Z", "+00:00"))
    left = max(0, int((at - (now or datetime.now(UTC))).total_seconds() + 0.999))
    seat = data["current_seat"]
    whose = "Setup reveals" if seat is None else f"{names.possessive(seat).capitalize()} turn"
    return {"deadline": deadline, "seconds": left, "whose": whose}


def _headline(data: dict[str, Any], names: Names, events: Sequence[Seen]) -> str:
    """The headline; a canceled game's says why, from its `GameCanceled` (the log's last)."""
    if data["status"] != Status.CANCELED:
        return headline(data, names)
    reasons = [event["reason"] for kind, event in events if kind == "GameCanceled"]
    return called_off(reasons[-1] if reasons else None)


def table_context(data: dict[str, Any], events: Sequence[Seen]) -> dict[str, Any]:
    """Everything the table's templates show, from the viewer's game resource `data` and the
    log's last few events as the viewer sees them (for the last action in words)."""
    names = Names([p["name"] for p in data["players"]], data["you"])
    legal = data["legal_actions"]
    cells = {(a["column"], a["row"]): move_of(a) for a in legal if "column" in a}
    buttons = {a["action"]: BUTTONS[a["action"]] for a in legal if a["action"] in BUTTONS}
    order = seating(data["seats"], data["you"])
    panels = [_panel(data["players"][seat], data, cells) for seat in order]
    mine = panels.pop() if data["you"] is not None else None
    return {
        "game": data,
        "Status": Status,  # the templates compare `game.status` with its members
        "headline": _headline(data, names, events),
        "clock": clock(data, names),
        "prompt": prompt(data),
        "last_action": turn_words(events, names),
        "others": panels,
        "mine": mine,
        "buttons": buttons,
        "discard_label": "Discard pile: empty"
        if data["discard_top"] is None
        else f"Discard pile: {data['discard_top']}",
        "discard_css": f"card {card_colour(data['discard_top'])}",
        "held": held_words(data, names),
        "held_card": data["held_card"],
        "held_css": f"card {card_colour((data['held_card'] or {}).get('value'))}",
        "result": round_result(data, names),
        "scores": score_sheet(data, names),
        "standings": standings(data, names),
    }

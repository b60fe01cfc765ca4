"""A game state as plain JSON data and back: a disposable cache of a replay.

A snapshot saves replaying a long log. It is never trusted over the log: the service uses one
only for the exact version it was made at, and can always rebuild it by replaying.
"""

from __future__ import annotations

from typing import Any

from .events import event_from_data, event_to_data, event_type
from .options import Options
from .state import GameState, Grid, RoundResult

#: Bumped whenever the state's shape changes; a snapshot of another format is ignored.
#: 2: the round's starter and the last action. 3: bots, timeouts, leavers, the turn number.
#: 4: the rounds dealt with no person seated. 5: the seats' accounts.
SNAPSHOT_FORMAT = 5


class StaleSnapshot(ValueError):
    """The snapshot was written in another format: replay the log instead."""


def state_to_data(state: GameState) -> dict[str, Any]:
    return {
        "format": SNAPSHOT_FORMAT,
        "seats": state.seats,
        "options": state.options.to_data(),
        "names": list(state.names),
        "phase": state.phase,
        "round": state.round,
        "grids": [[list(g.values), g.up, g.gone] for g in state.grids],
        "totals": list(state.totals),
        "deck": list(state.deck),
        "deck_pos": state.deck_pos,
        "discard": list(state.discard),
        "current": state.current,
        "step": state.step,
        "held": state.held,
        "held_from": state.held_from,
        "closer": state.closer,
        "final_turns_left": state.final_turns_left,
        "last_closer": state.last_closer,
        "starter": state.starter,
        "last_action": [[event_type(e), event_to_data(e)] for e in state.last_action],
        "reshuffles": state.reshuffles,
        "rounds": [
            [
                r.round,
                r.closer,
                [list(grid) for grid in r.grids],
                list(r.raw_scores),
                list(r.round_scores),
                r.closer_doubled,
            ]
            for r in state.rounds
        ],
        "winners": list(state.winners),
        "bots": list(state.bots),
        "accounts": list(state.accounts),
        "timeouts": list(state.timeouts),
        "left": list(state.left),
        "timing_out": state.timing_out,
        "unattended_rounds": state.unattended_rounds,
        "turn": state.turn,
        "version": state.version,
    }


def state_from_data(data: dict[str, Any]) -> GameState:
    """The state `state_to_data` saved; `StaleSnapshot` for another format."""
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise StaleSnapshot("snapshot format differs")
    state = GameState()
    state.seats = data["seats"]
    state.options = Options.from_data(data["options"])
    state.names = tuple(data["names"])
    state.phase = data["phase"]
    state.round = data["round"]
    state.grids = tuple(Grid(tuple(values), up, gone) for values, up, gone in data["grids"])
    state.totals = tuple(data["totals"])
    state.deck = tuple(data["deck"])
    state.deck_pos = data["deck_pos"]
    state.discard = tuple(data["discard"])
    state.current = data["current"]
    state.step = data["step"]
    state.held = data["held"]
    state.held_from = data["held_from"]
    state.closer = data["closer"]
    state.final_turns_left = data["final_turns_left"]
    state.last_closer = data["last_closer"]
    state.starter = data["starter"]
    state.last_action = tuple(event_from_data(kind, event) for kind, event in data["last_action"])
    state.reshuffles = data["reshuffles"]
    state.rounds = tuple(
        RoundResult(rnd, closer, tuple(tuple(g) for g in grids), tuple(raw), tuple(scores), dbl)
        for rnd, closer, grids, raw, scores, dbl in data["rounds"]
    )
    state.winners = tuple(data["winners"])
    state.bots = tuple(data["bots"])
    state.accounts = tuple(data["accounts"])
    state.timeouts = tuple(data["timeouts"])
    state.left = tuple(data["left"])
    state.timing_out = data["timing_out"]
    state.unattended_rounds = data["unattended_rounds"]
    state.turn = data["turn"]
    state.version = data["version"]
    return state

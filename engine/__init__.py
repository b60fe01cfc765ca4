"""The rules of Skyjo as pure Python: a decider over an event log.

    events = decide(state, seat, action, shuffler)   # or a RuleError saying why not
    state = evolve(state, event)                      # never fails for a valid log
    state = replay(events)                            # a fold of evolve
    view(state, seat)                                 # what that seat may know

The rule tags (R1...R12) in docstrings refer to RULES.md.
"""

from .actions import (
    DISCARD,
    DRAW,
    POSITION_KINDS,
    TAKE_DISCARD,
    TURN_ACTION_KINDS,
    TURN_ACTIONS,
    Action,
    Cancel,
    Discard,
    Draw,
    Join,
    Leave,
    Replace,
    Reveal,
    StopPlay,
    TakeDiscard,
    TimeOut,
    TurnAction,
    action_from_data,
    action_to_data,
)
from .cards import FULL_DECK
from .decide import act, create_game, decide, legal_actions, seats_to_act
from .errors import ALL_RULE_ERRORS, RuleError
from .events import (
    EVENT_TYPES,
    Event,
    UnknownEventType,
    event_from_data,
    event_to_data,
    event_type,
    schema_version,
)
from .evolve import evolve, replay
from .options import Options
from .players import GreedyPlayer, RandomPlayer
from .shuffle import RiggedShuffler, SeededShuffler, Shuffler
from .state import EMPTY, GameState
from .view import GameView, event_for_viewer, view

__all__ = [
    "ALL_RULE_ERRORS",
    "DISCARD",
    "DRAW",
    "EMPTY",
    "EVENT_TYPES",
    "FULL_DECK",
    "POSITION_KINDS",
    "TAKE_DISCARD",
    "TURN_ACTIONS",
    "TURN_ACTION_KINDS",
    "Action",
    "Cancel",
    "Discard",
    "Draw",
    "Event",
    "GameState",
    "GameView",
    "GreedyPlayer",
    "Join",
    "Leave",
    "Options",
    "RandomPlayer",
    "Replace",
    "Reveal",
    "RiggedShuffler",
    "RuleError",
    "SeededShuffler",
    "Shuffler",
    "StopPlay",
    "TakeDiscard",
    "TimeOut",
    "TurnAction",
    "UnknownEventType",
    "act",
    "action_from_data",
    "action_to_data",
    "create_game",
    "decide",
    "event_for_viewer",
    "event_from_data",
    "event_to_data",
    "event_type",
    "evolve",
    "legal_actions",
    "replay",
    "schema_version",
    "seats_to_act",
    "view",
]

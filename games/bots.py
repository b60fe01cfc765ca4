"""The bots' strategies as the service uses them: which exist, and the move one makes for a
seat from what that seat may see. The one door to the engine's strategies.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import Action, GameState, GreedyPlayer, RandomPlayer, view
from engine.autoplay import Chooser

#: The strategy that plays a timed-out turn, and a seat whose player left or timed out
#: `max_timeouts` turns in a row (R13).
REPLACEMENT = "greedy"


@dataclass(frozen=True)
class Strategy:
    """A strategy as the API lists it, and how it chooses: from the seat's view, with a
    generator seeded by the game and its version (a bot's play replays exactly)."""

    description: str
    choose: Callable[[GameState, int, random.Random], Action]


def _greedy(state: GameState, seat: int, _: random.Random) -> Action:
    return GreedyPlayer().choose(view(state, seat))


def _random(state: GameState, seat: int, rng: random.Random) -> Action:
    player = RandomPlayer()
    player.rng = rng
    return player.choose(view(state, seat))


STRATEGIES: dict[str, Strategy] = {
    "greedy": Strategy(
        "Keeps low cards, builds columns of three and replaces high cards, never looking ahead.",
        _greedy,
    ),
    "random": Strategy("Plays any legal action, uniformly at random.", _random),
}


def descriptions() -> dict[str, str]:
    """Every strategy's name and one-sentence description, as `GET /api/v1/bots` lists them."""
    return {name: strategy.description for name, strategy in STRATEGIES.items()}


def default_name(strategy: str) -> str:
    """The name a bot's seat gets when its joiner names none: `Statistician bot`."""
    return f"{strategy.capitalize()} bot"


def chooser(game_key: str) -> Chooser:
    """Each seat's move as its bot plays it (a person's seat: as `REPLACEMENT` would, for a
    timed-out turn), seeded by the game and the state's version."""

    def choose(state: GameState, seat: int) -> Action:
        name = state.bots[seat] or REPLACEMENT
        strategy = STRATEGIES.get(name) or STRATEGIES[REPLACEMENT]
        rng = random.Random(f"{game_key}/{state.version}/{seat}")
        return strategy.choose(state, seat, rng)

    return choose

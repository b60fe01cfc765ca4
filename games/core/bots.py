"""The bots' strategies as the service uses them (`engine.strategies`): which exist, and the
move one makes for a seat from what that seat may see. The one door to the strategies.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Action, Event, GameState
from engine.autoplay import Chooser
from engine.strategies import STRATEGIES, History, Seen, choose
from engine.view import seat_view

#: The strategy that plays a timed-out turn, and a seat whose player left or timed out
#: `max_timeouts` turns in a row (R13).
REPLACEMENT = "greedy"


#: The strategies' names, in the registry's order (the schema's enum `Strategy`).
STRATEGY_NAMES: list[str] = list(STRATEGIES)


def descriptions() -> dict[str, str]:
    """Every strategy's name and one-sentence description, as `GET /api/v1/bots` lists them."""
    return {name: info.description for name, info in STRATEGIES.items()}


def default_name(strategy: str, taken: Iterable[str | None] = ()) -> str:
    """The name a bot's seat gets when its joiner names none: `Statistician bot`, numbered
    from 2 when a seat of the game (`taken`, its names so far) already has that name
    (`Statistician bot 2`, `Statistician bot 3`), so every seat of a game reads apart."""
    names = {name for name in taken if name is not None}
    base = f"{strategy.capitalize()} bot"
    name, number = base, 1
    while name in names:
        number += 1
        name = f"{base} {number}"
    return name


def chooser(game_key: str, seats: int, log: list[Event]) -> Chooser:
    """Each seat's move as its bot plays it (a person's seat: as `REPLACEMENT`, for a turn
    that ran out), from the seat's view and its history: `log`, the game's events up to the
    state the move is chosen on, which the caller extends as the game moves on. Seeded by
    `game_key` and the version, so a bot's play replays exactly."""
    histories = [History(seat, seats, log) for seat in range(seats)]

    def choose_for(state: GameState, seat: int) -> Action:
        name = state.bots[seat] or REPLACEMENT
        strategy = name if name in STRATEGIES else REPLACEMENT  # one since withdrawn
        return choose(strategy, Seen(seat_view(state, seat), histories[seat], game_key))

    return choose_for

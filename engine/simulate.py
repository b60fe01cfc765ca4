"""Play whole games with engine players: for tests, the benchmark and seeding demos."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .actions import Action, Join
from .decide import act, create_game, legal_actions, seats_to_act
from .events import Event
from .evolve import replay
from .options import Options
from .shuffle import SeededShuffler, Shuffler
from .state import FINISHED, PLAYING, GameState
from .view import GameView, view


class LegalOnly:
    """The cheapest 'view': the legal actions alone (enough for a random player)."""

    __slots__ = ("legal_actions",)

    def __init__(self, legal_actions: Sequence[Action] = ()) -> None:
        self.legal_actions = legal_actions


@dataclass
class PlayedGame:
    events: list[Event]
    state: GameState
    actions: int


def start_game(
    seats: int, shuffler: Shuffler, options: Options | None = None
) -> tuple[list[Event], GameState]:
    """Create a game and fill every seat: the first round is dealt."""
    events = create_game(seats, options)
    state = replay(events)
    for seat in range(seats):
        new, state = act(state, None, Join(f"Player {seat + 1}"), shuffler)
        events.extend(new)
    return events, state


def play_game(
    choosers: Sequence[Callable[[GameState, int], Action]],
    *,
    seed: int = 0,
    shuffler: Shuffler | None = None,
    options: Options | None = None,
    max_actions: int = 100_000,
    on_step: Callable[[GameState, list[Event], GameState], None] | None = None,
) -> PlayedGame:
    """Play until the game is finished; `choosers[seat](state, seat)` picks each action."""
    shuffler = shuffler or SeededShuffler(seed)
    events, state = start_game(len(choosers), shuffler, options)
    actions = 0
    while state.phase != FINISHED:
        if actions >= max_actions:
            raise RuntimeError("the game did not end")
        seat = state.current
        if seat is None or state.phase != PLAYING:
            seat = seats_to_act(state)[0]
        new, after = act(state, seat, choosers[seat](state, seat), shuffler)
        if on_step is not None:
            on_step(state, new, after)
        events.extend(new)
        state = after
        actions += 1
    return PlayedGame(events, state, actions)


def chooser_from_view(player: object) -> Callable[[GameState, int], Action]:
    """Adapt a view-based player (`choose(GameView)`) to `play_game`."""

    def choose(state: GameState, seat: int) -> Action:
        the_view: GameView = view(state, seat)
        return player.choose(the_view)  # type: ignore[attr-defined]

    return choose


def chooser_from_legal(player: object) -> Callable[[GameState, int], Action]:
    """Adapt a player that needs only the legal actions (the random player)."""

    seen = LegalOnly()  # one holder, refilled each call: saves an allocation per action

    def choose(state: GameState, seat: int) -> Action:
        seen.legal_actions = legal_actions(state, seat)
        return player.choose(seen)  # type: ignore[attr-defined]

    return choose

"""Built-in bot strategies: pure functions of what one seat may see (no Django, no I/O).

    action = choose("statistician", Seen(view(state, seat), History(seat, seats, events), key))

`STRATEGIES` is the one table of them (name -> description and factory): the API's list of
bots and the tournament both derive from it. A strategy sees only a `Seen`: its seat's view
and the log as that seat may see it, so it can count the cards that went by but never peek at
a face-down card or the draw pile; and it is deterministic given the `Seen` (its randomness
comes from `Seen.rng`), so a bot's play replays exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..actions import Action
from .chance import Random
from .clearer import Clearer
from .greedy import Greedy
from .rusher import Rusher
from .seen import History, Seen, SeenEvent, Strategy
from .statistician import Statistician


class StrategyInfo(NamedTuple):
    """A registered strategy: a one-sentence description, for people, and a factory."""

    description: str
    factory: Callable[[], Strategy]


STRATEGIES: dict[str, StrategyInfo] = {
    "random": StrategyInfo("Plays any legal action, uniformly at random.", Random),
    "greedy": StrategyInfo(
        "Keeps low cards, builds columns of three and replaces high cards, never looking ahead.",
        Greedy,
    ),
    "rusher": StrategyInfo(
        "Ends rounds fast: takes low cards, turns cards in the columns closest to done and "
        "closes as soon as it expects to be lowest at even odds.",
        Rusher,
    ),
    "clearer": StrategyInfo(
        "Builds columns of three equal cards, valuing each pair by its chance of clearing.",
        Clearer,
    ),
    "statistician": StrategyInfo(
        "Counts the cards it has seen to weigh the draw pile against the discard and value "
        "each pair, and closes a round only when it expects to be strictly lowest.",
        Statistician,
    ),
}

#: One instance per strategy: strategies keep no state of their own (what they derive from a
#: history is kept in its `memo`), so one instance serves every seat and game.
_INSTANCES: dict[str, Strategy] = {}


def strategy(name: str) -> Strategy:
    """The strategy called `name`; KeyError for a name `STRATEGIES` does not hold."""
    found = _INSTANCES.get(name)
    if found is None:
        found = _INSTANCES[name] = STRATEGIES[name].factory()
    return found


def choose(name: str, seen: Seen) -> Action:
    """The action strategy `name` takes, one of `seen.view.legal_actions`."""
    return strategy(name).choose(seen)


__all__ = [
    "STRATEGIES",
    "History",
    "Seen",
    "SeenEvent",
    "Strategy",
    "StrategyInfo",
    "choose",
    "strategy",
]

"""Where card orders come from. The engine never shuffles by itself: `decide` asks a
`Shuffler` for the order of each deal (R4) and reshuffle (R9), and records it in an event, so
replay needs no shuffler and gives the same state on any Python version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .cards import FULL_DECK

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Shuffler(Protocol):
    def deal_order(self, round_number: int) -> tuple[int, ...]:
        """All 150 cards in the order they are dealt for `round_number`, top first."""
        ...

    def reshuffle(self, cards: Sequence[int], round_number: int, count: int) -> tuple[int, ...]:
        """`cards` (the discard pile without its top) in a new order: the `count`-th
        reshuffle (1, 2, ...) of `round_number`."""
        ...


def _splitmix64(x: int) -> int:
    x = (x + _GAMMA) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def _shuffled(cards: Sequence[int], key: int) -> tuple[int, ...]:
    """Fisher-Yates driven by splitmix64: fixed here, so a seed means the same on any Python.
    `_splitmix64` is written out in the loop: a deal draws 149 numbers, and the call cost
    more than the arithmetic. Its state is not kept apart: the n-th number mixes the key plus
    n + 1 gammas, so one sum moves on by a gamma per number."""
    out = list(cards)
    mixed = (key & _MASK64) + _GAMMA
    for i in range(len(out) - 1, 0, -1):
        mixed = (mixed + _GAMMA) & _MASK64
        x = ((mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
        j = (x ^ (x >> 31)) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


class SeededShuffler:
    """Every order of a game derived from one integer seed: same seed, same game."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def _key(self, round_number: int, count: int) -> int:
        mixed = _splitmix64(self.seed & _MASK64) ^ (self.seed >> 64)
        return _splitmix64(mixed ^ _splitmix64(round_number << 20 | count))

    def deal_order(self, round_number: int) -> tuple[int, ...]:
        return _shuffled(FULL_DECK, self._key(round_number, 0))

    def reshuffle(self, cards: Sequence[int], round_number: int, count: int) -> tuple[int, ...]:
        return _shuffled(cards, self._key(round_number, count))


class RiggedShuffler:
    """Fixed deal orders, for tests: round n uses `deals[n - 1]`; a reshuffle keeps the order
    of the discard pile from the top down unless `reshuffles` says otherwise."""

    def __init__(
        self,
        deals: Sequence[Sequence[int]],
        reshuffles: Sequence[Sequence[int]] = (),
        fallback: Shuffler | None = None,
    ) -> None:
        self.deals = [tuple(deal) for deal in deals]
        self.reshuffles = [tuple(order) for order in reshuffles]
        self.fallback = fallback or SeededShuffler(0)
        self.reshuffles_used = 0

    def deal_order(self, round_number: int) -> tuple[int, ...]:
        if round_number <= len(self.deals):
            return self.deals[round_number - 1]
        return self.fallback.deal_order(round_number)

    def reshuffle(self, cards: Sequence[int], round_number: int, count: int) -> tuple[int, ...]:
        if self.reshuffles_used < len(self.reshuffles):
            self.reshuffles_used += 1
            return self.reshuffles[self.reshuffles_used - 1]
        return tuple(reversed(cards))

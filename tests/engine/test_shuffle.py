"""Where card orders come from: the seeded shuffler is deterministic and pinned."""

from __future__ import annotations

from collections import Counter

from engine import FULL_DECK, RiggedShuffler, SeededShuffler


def test_seeded_shuffler_same_seed_same_orders() -> None:
    a, b = SeededShuffler(1234), SeededShuffler(1234)
    for round_number in (1, 2, 7):
        assert a.deal_order(round_number) == b.deal_order(round_number)
    pile = tuple(range(-2, 40))
    assert a.reshuffle(pile, 3, 1) == b.reshuffle(pile, 3, 1)


def test_seeded_shuffler_different_seeds_rounds_and_reshuffles_differ() -> None:
    orders = {SeededShuffler(seed).deal_order(1) for seed in range(50)}
    assert len(orders) == 50
    shuffler = SeededShuffler(5)
    assert len({shuffler.deal_order(r) for r in range(1, 20)}) == 19
    pile = tuple(range(40))
    assert shuffler.reshuffle(pile, 1, 1) != shuffler.reshuffle(pile, 1, 2)
    assert shuffler.reshuffle(pile, 1, 1) != shuffler.reshuffle(pile, 2, 1)
    assert SeededShuffler(2**64 + 5).deal_order(1) != SeededShuffler(5).deal_order(1)


def test_seeded_shuffler_deals_the_whole_deck() -> None:
    for seed in (0, 1, -1, 2**80):
        order = SeededShuffler(seed).deal_order(1)
        assert len(order) == 150
        assert Counter(order) == Counter(FULL_DECK)
        assert order != FULL_DECK


def test_seeded_shuffler_is_pinned() -> None:
    """A stored seed must mean the same game forever: a change of algorithm fails here."""
    shuffler = SeededShuffler(42)
    assert shuffler.deal_order(1)[:24] == (
        0, 8, 0, 11, 0, 12, 6, 9, 6, -1, 1, 10, 5, 10, 6, 9, 2, 0, -2, 5, 2, 3, 11, 0,
    )  # fmt: skip
    assert shuffler.deal_order(2)[:12] == (7, 12, -2, -1, 10, 5, 12, 5, -1, 7, 4, 6)
    assert shuffler.reshuffle(tuple(range(10)), 1, 1) == (7, 8, 2, 1, 3, 6, 9, 0, 4, 5)


def test_rigged_shuffler_uses_given_orders_then_falls_back() -> None:
    deal = tuple(reversed(FULL_DECK))
    shuffler = RiggedShuffler([deal], reshuffles=[(3, 2, 1)])
    assert shuffler.deal_order(1) == deal
    assert shuffler.deal_order(2) == SeededShuffler(0).deal_order(2)
    assert shuffler.reshuffle((1, 2, 3), 1, 1) == (3, 2, 1)
    assert shuffler.reshuffle((1, 2, 3), 1, 2) == (3, 2, 1)  # by default, the pile top down
    assert shuffler.reshuffle((5, 6, 7), 1, 3) == (7, 6, 5)

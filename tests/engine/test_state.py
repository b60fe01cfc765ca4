"""The state object: copies, equality and the derived facts the rules use."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import EMPTY, FULL_DECK, GameState, replay
from engine.decide import legal_actions
from engine.state import _SLOTS

from .support import Table, rig_deal


def test_copy_copies_every_slot() -> None:
    """`GameState.copy` is written out slot by slot for speed: it must not miss one."""
    assert set(GameState.__slots__) == set(_SLOTS)
    state = GameState()
    for index, name in enumerate(_SLOTS):
        setattr(state, name, ("sentinel", index))
    copy = state.copy()
    assert copy is not state
    for index, name in enumerate(_SLOTS):
        assert getattr(copy, name) == ("sentinel", index), name
    assert copy == state and hash(copy) == hash(state)


def test_states_compare_by_value() -> None:
    table = Table(2, [rig_deal(2)])
    again = replay(table.events)
    assert again == table.state and again is not table.state
    assert hash(again) == hash(table.state)
    assert again != EMPTY
    assert again != "a state"
    assert "version=4" in repr(again)  # created, two joins, dealt


def test_empty_state() -> None:
    assert EMPTY.version == 0 and EMPTY.seats == 0
    assert EMPTY.cards_in_play() == []
    assert EMPTY.discard_top is None and EMPTY.deck_size == 0
    assert not EMPTY.is_full


def test_cards_in_play_after_the_deal() -> None:
    table = Table(4, [rig_deal(4)])
    assert Counter(table.state.cards_in_play()) == Counter(FULL_DECK)
    assert table.state.deck_size == 150 - 4 * 12 - 1


@pytest.mark.parametrize("seat", [True, False, -1, 2, "0", 1.0])
def test_no_legal_action_for_what_is_not_a_seat(seat: object) -> None:
    table = Table(2, [rig_deal(2)])
    assert legal_actions(table.state, seat) == ()  # type: ignore[arg-type]

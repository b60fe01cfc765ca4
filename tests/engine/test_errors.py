"""Every rule error code (engine/errors.py), each raised where the rules refuse an action."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import (
    ALL_RULE_ERRORS,
    DISCARD,
    DRAW,
    EMPTY,
    TAKE_DISCARD,
    Action,
    Cancel,
    GameState,
    Join,
    Leave,
    Options,
    Replace,
    Reveal,
    RuleError,
    create_game,
    decide,
    replay,
)
from engine.errors import PositionOutOfRange
from engine.state import PLAYING

from .support import Table, cols, rig_deal

G0 = cols((1, 2, 3), (7, 7, 9), (4, 5, 6), (10, 11, 12))
G1 = cols((0, -1, -2), (1, 2, 3), (4, 5, 6), (7, 8, 9))
DEAL = rig_deal(2, [G0, G1], discard_top=0, draw=[6, 5, 4])


def playing() -> Table:
    """Two seats in their first turn: seat 0 (7 + 7 face up in column 1) is to move."""
    table = Table(2, [DEAL])
    table.setup([[(1, 0), (1, 1)], [(0, 0), (0, 1)]])
    assert table.state.phase == PLAYING and table.current == 0
    return table


def refused(state: GameState, seat: int | None, action: Action) -> str:
    """The code of the `RuleError` that `decide` raises; the state is left as it was."""
    before = state.copy()
    with pytest.raises(RuleError) as caught:
        decide(state, seat, action)
    assert state == before
    assert caught.value.message
    return caught.value.code


def _not_your_turn() -> list[str]:
    table = playing()
    return [refused(table.state, 1, action) for action in (DRAW, TAKE_DISCARD, Reveal(2, 2))]


def _wrong_step() -> list[str]:
    table = playing()
    return [refused(table.state, 0, Reveal(0, 0)), refused(table.state, 0, "nonsense")]  # type: ignore[arg-type]


def _setup_reveals_done() -> list[str]:
    table = Table(2, [DEAL])
    table.do_all(1, Reveal(0, 0), Reveal(0, 1))
    return [refused(table.state, 1, Reveal(2, 2)), refused(table.state, 1, Reveal(0, 0))]


def _setup_not_finished() -> list[str]:
    table = Table(2, [DEAL])
    table.do_all(1, Reveal(0, 0), Reveal(0, 1))
    return [
        refused(table.state, seat, action)
        for seat in (0, 1)
        for action in (DRAW, TAKE_DISCARD, DISCARD, Replace(0, 0))
    ]


def _position_out_of_range() -> list[str]:
    table = playing()
    codes = [refused(Table(2, [DEAL]).state, 0, Reveal(4, 0))]
    table.do(0, DRAW)
    bad = [(4, 0), (0, 3), (-1, 0), (0, -1), (True, 0), (0, False), ("0", 0), (1.0, 0)]
    codes += [refused(table.state, 0, Replace(c, r)) for c, r in bad]  # type: ignore[arg-type]
    table.do(0, DISCARD)
    codes += [refused(table.state, 0, Reveal(c, r)) for c, r in bad]  # type: ignore[arg-type]
    return codes


def _position_removed() -> list[str]:
    table = Table(2, [rig_deal(2, [G0, G1], discard_top=0, draw=[7, 6])])
    table.setup([[(1, 0), (1, 1)], [(0, 0), (0, 1)]])
    table.do_all(0, DRAW, Replace(1, 2))  # the drawn 7 completes column 1 (R8)
    assert table.state.grids[0].is_gone(1 * 3)
    table.do_all(1, TAKE_DISCARD, Replace(0, 0))
    table.do(0, DRAW)
    codes = [refused(table.state, 0, Replace(1, row)) for row in range(3)]
    table.do(0, DISCARD)
    codes += [refused(table.state, 0, Reveal(1, row)) for row in range(3)]
    return codes


def _card_already_face_up() -> list[str]:
    table = Table(2, [DEAL])
    table.do(0, Reveal(1, 0))
    codes = [refused(table.state, 0, Reveal(1, 0))]
    table = playing()
    table.do_all(0, DRAW, DISCARD)
    codes += [refused(table.state, 0, Reveal(1, 0)), refused(table.state, 0, Reveal(1, 1))]
    return codes


def _no_card_held() -> list[str]:
    table = playing()
    return [refused(table.state, 0, Replace(0, 0)), refused(table.state, 0, DISCARD)]


def _card_already_held() -> list[str]:
    codes = []
    for first in (DRAW, TAKE_DISCARD):
        table = playing()
        table.do(0, first)
        codes += [refused(table.state, 0, a) for a in (DRAW, TAKE_DISCARD, Reveal(0, 0))]
    return codes


def _must_replace_taken_discard() -> list[str]:
    table = playing()
    table.do(0, TAKE_DISCARD)
    return [refused(table.state, 0, DISCARD)]


def _must_reveal_after_discard() -> list[str]:
    table = playing()
    table.do_all(0, DRAW, DISCARD)
    return [refused(table.state, 0, a) for a in (DRAW, TAKE_DISCARD, DISCARD, Replace(0, 0))]


def _game_full() -> list[str]:
    table = Table(2, [DEAL])
    codes = [refused(table.state, None, Join("late"))]
    table.setup([[(1, 0), (1, 1)], [(0, 0), (0, 1)]])
    codes.append(refused(table.state, None, Join("later")))
    return codes


def _game_not_started() -> list[str]:
    waiting = replay(create_game(3))
    half = Table(3, join=False)
    half.do(None, Join("only one"))
    return [
        refused(EMPTY, 0, DRAW),
        refused(EMPTY, None, Join("nobody")),
        refused(waiting, 0, Reveal(0, 0)),
        refused(half.state, 0, DRAW),
    ]


def _game_finished() -> list[str]:
    table = Table(2, [DEAL], options=Options(end_score=1))
    table.setup([[(1, 0), (1, 1)], [(0, 0), (0, 1)]])
    while table.state.phase == PLAYING:
        table.reveal_turn()
    assert table.state.winners
    return [
        refused(table.state, seat, action)
        for seat in (0, 1, None)
        for action in (DRAW, Reveal(0, 0), Join("again"))
    ]


def _game_canceled() -> list[str]:
    half = Table(2, join=False)
    half.do(None, Join("Ada"))
    half.do(None, Cancel("declined"))
    return [
        refused(half.state, seat, action)
        for seat in (0, 1, None)
        for action in (DRAW, Reveal(0, 0), Join("late"), Cancel("expired"), Leave())
    ]


def _spectator_cannot_act() -> list[str]:
    table = playing()
    return [refused(table.state, None, a) for a in (DRAW, TAKE_DISCARD, Reveal(0, 0))]


def _unknown_seat() -> list[str]:
    table = playing()
    return [
        refused(table.state, seat, DRAW)  # type: ignore[arg-type]
        for seat in (2, 7, -1, True, "0", 0.0)
    ]


def _already_seated() -> list[str]:
    half = Table(3, join=False)
    half.do(None, Join("Ada", account="ada"))
    half.do(None, Join("a guest"))
    return [refused(half.state, None, Join("Ada again", account="ada"))]


def _invalid_options() -> list[str]:
    codes = []
    for make in (lambda: create_game(1), lambda: create_game(9), lambda: Options(end_score=0)):
        with pytest.raises(RuleError) as caught:
            make()
        codes.append(caught.value.code)
    return codes


def _account_required() -> list[str]:
    rated = Table(3, join=False, options=Options(rated=True))
    rated.do(None, Join("Ada", account="ada"))
    return [refused(rated.state, None, Join("a guest"))]


TRIGGERS: dict[str, Callable[[], list[str]]] = {
    "already_seated": _already_seated,
    "account_required": _account_required,
    "not_your_turn": _not_your_turn,
    "wrong_step": _wrong_step,
    "setup_reveals_done": _setup_reveals_done,
    "setup_not_finished": _setup_not_finished,
    "position_out_of_range": _position_out_of_range,
    "position_removed": _position_removed,
    "card_already_face_up": _card_already_face_up,
    "no_card_held": _no_card_held,
    "card_already_held": _card_already_held,
    "must_replace_taken_discard": _must_replace_taken_discard,
    "must_reveal_after_discard": _must_reveal_after_discard,
    "game_full": _game_full,
    "game_not_started": _game_not_started,
    "game_finished": _game_finished,
    "game_canceled": _game_canceled,
    "spectator_cannot_act": _spectator_cannot_act,
    "unknown_seat": _unknown_seat,
    "invalid_options": _invalid_options,
}


@pytest.mark.parametrize("code", sorted(error.code for error in ALL_RULE_ERRORS))
def test_rule_error_code(code: str) -> None:
    codes = TRIGGERS[code]()
    assert codes and set(codes) == {code}


def test_every_rule_error_has_a_unique_code_and_a_message() -> None:
    codes = [error.code for error in ALL_RULE_ERRORS]
    assert len(codes) == len(set(codes))
    assert set(codes) == set(TRIGGERS)
    for error in ALL_RULE_ERRORS:
        assert issubclass(error, RuleError)
        assert error().message and error("custom").message == "custom"


def test_position_out_of_range_message_names_the_position() -> None:
    table = playing()
    table.do(0, DRAW)
    with pytest.raises(PositionOutOfRange, match="column 4, row 0"):
        decide(table.state, 0, Replace(4, 0))

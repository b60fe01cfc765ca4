"""One scenario (or more) per rule of RULES.md, R1 to R12, on rigged deals.

Grids are written with `cols(...)`: four columns of three cards, top to bottom. A seat's setup
reveals are (column, row) positions. Unless a test says otherwise the options are the defaults.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine import (
    DISCARD,
    DRAW,
    FULL_DECK,
    TAKE_DISCARD,
    Event,
    Options,
    Replace,
    Reveal,
    RuleError,
    SeededShuffler,
    create_game,
    replay,
    view,
)
from engine.cards import CARD_COUNTS, CELLS
from engine.decide import legal_actions
from engine.errors import InvalidOptions
from engine.events import (
    CardDrawn,
    CardReplaced,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    DrawPileReshuffled,
    FinalTurnsBegan,
    GameCreated,
    GameEnded,
    PlayStarted,
    RoundDealt,
    RoundEnded,
    TurnPassed,
)
from engine.scoring import closer_is_doubled, final_reveal, round_scores
from engine.state import FINISHED, PLACE_DRAWN, PLACE_TAKEN, PLAYING, SETUP, Grid
from engine.view import FACE_DOWN, FACE_UP, REMOVED, event_for_viewer

from .support import Table, cols, position, rig_deal, types

# A 2-seat deal used by the turn tests: seat 0 reveals 12 + 11 and starts (R5).
G0 = cols((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12))
G1 = cols((0, -1, -2), (1, 2, 3), (4, 5, 6), (7, 8, 9))
TWO_SEATS = rig_deal(2, [G0, G1], discard_top=0, draw=[6, 11, 5])
TWO_SEATS_REVEALS = [[(3, 2), (3, 1)], [(0, 0), (0, 1)]]


def two_seat_table() -> Table:
    table = Table(2, [TWO_SEATS])
    table.setup(TWO_SEATS_REVEALS)
    assert table.current == 0
    return table


# R1: the deck.


def test_r1_deck_has_150_cards_with_official_counts() -> None:
    assert len(FULL_DECK) == 150
    expected = {-2: 5, -1: 10, 0: 15, **{value: 10 for value in range(1, 13)}}
    assert Counter(FULL_DECK) == expected
    assert expected == CARD_COUNTS


def test_r1_every_deal_holds_the_whole_deck() -> None:
    table = Table(3, [rig_deal(3)])
    dealt = table.last(RoundDealt)
    assert isinstance(dealt, RoundDealt)
    assert Counter(dealt.deck) == Counter(FULL_DECK)
    assert Counter(table.state.cards_in_play()) == Counter(FULL_DECK)
    for seed in range(5):
        assert sorted(SeededShuffler(seed).deal_order(1)) == sorted(FULL_DECK)


def test_r1_a_deal_order_without_the_150_cards_is_refused() -> None:
    short = (0,) * 150
    with pytest.raises(ValueError, match="150 cards"):
        Table(2, [short])


# R2: players.


@pytest.mark.parametrize("seats", range(2, 9))
def test_r2_two_to_eight_seats(seats: int) -> None:
    table = Table(seats, [rig_deal(seats)])
    assert table.state.phase == SETUP
    assert len(table.state.grids) == seats


@pytest.mark.parametrize("seats", [-1, 0, 1, 9, 20, True, 2.0, "4", None])
def test_r2_seats_outside_two_to_eight_refused(seats: object) -> None:
    with pytest.raises(InvalidOptions) as caught:
        create_game(seats)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_options"


def test_r2_play_passes_in_increasing_seat_order_wrapping_around() -> None:
    grids = [
        cols((0, 1, 2), (1, 0, 3), (2, 3, 4), (3, 4, 5)),
        cols((1, 2, 3), (2, 1, 4), (3, 4, 5), (4, 5, 6)),
        cols((9, 1, 2), (9, 0, 3), (2, 3, 4), (3, 4, 5)),
    ]
    table = Table(3, [rig_deal(3, grids)])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (0, 1)], [(0, 0), (1, 0)]])
    seen = [table.current]
    for _ in range(6):
        events = table.reveal_turn()
        passed = events[-1]
        assert isinstance(passed, TurnPassed)
        assert passed.next_seat == (passed.seat + 1) % 3
        seen.append(table.current)
    assert seen == [2, 0, 1, 2, 0, 1, 2]


# R3: a game is a series of rounds; lowest total wins, ties shared.

HIGH = cols((12, 12, 11), (12, 12, 11), (12, 12, 11), (12, 12, 11))  # 140, no column of three
LOW_A = cols((0, 1, 2), (1, 0, 2), (2, 1, 0), (0, 2, 1))  # 12
LOW_B = cols((1, 2, 0), (2, 0, 1), (0, 1, 2), (1, 0, 2))  # 12


def test_r3_game_ends_after_the_round_in_which_a_total_reaches_end_score() -> None:
    table = Table(3, [rig_deal(3, [HIGH, LOW_A, LOW_B])])
    table.setup([[(0, 0), (1, 0)], [(0, 0), (0, 1)], [(0, 0), (0, 1)]])
    assert table.current == 0
    ended = table.play_round_by_reveals()
    assert ended.raw_scores == (140, 12, 12)
    assert table.state.phase == FINISHED
    game_ended = table.events[-1]
    assert isinstance(game_ended, GameEnded)
    assert game_ended.totals == table.state.totals == ended.totals
    assert all(not isinstance(event, RoundDealt) for event in table.events[-2:])


def test_r3_tie_for_lowest_total_is_shared_win() -> None:
    table = Table(3, [rig_deal(3, [HIGH, LOW_A, LOW_B])])
    table.setup([[(0, 0), (1, 0)], [(0, 0), (0, 1)], [(0, 0), (0, 1)]])
    table.play_round_by_reveals()
    game_ended = table.events[-1]
    assert isinstance(game_ended, GameEnded)
    assert game_ended.totals == (280, 12, 12)  # the closer is doubled (R11)
    assert game_ended.winners == (1, 2)
    assert table.state.winners == (1, 2)
    assert view(table.state, None).winners == (1, 2)


def test_r3_game_goes_on_while_every_total_is_below_end_score() -> None:
    low_c = cols((-1, 3, -2), (3, -1, 4), (-2, 4, 3), (4, -1, -2))  # 12
    table = Table(3, [rig_deal(3, [LOW_A, LOW_B, low_c])])
    table.setup([[(0, 2), (1, 2)], [(0, 0), (1, 1)], [(0, 0), (0, 2)]])  # 4, 1, -3
    assert table.current == 0
    ended = table.play_round_by_reveals()
    assert ended.totals == (24, 12, 12)
    assert isinstance(table.events[-1], RoundDealt)
    assert table.state.phase == SETUP
    assert table.state.round == 2
    assert table.state.totals == ended.totals


# R4: setting up a round.


def test_r4_deal_layout_grids_then_discard_then_draw_pile() -> None:
    deck = rig_deal(2, [G0, G1], discard_top=7, draw=[3, 9, 4])
    table = Table(2, [deck])
    state = table.state
    assert state.phase == SETUP
    assert state.grids[0].values == tuple(G0)
    assert state.grids[1].values == tuple(G1)
    assert state.grids[1].values[1 * 3 + 2] == 3  # column 1, row 2 = cell 5
    assert state.discard == (7,)
    assert state.draw_pile[:3] == (3, 9, 4)
    assert state.deck_size == 150 - 2 * 12 - 1
    for seat in range(2):
        assert state.grids[seat].up == 0
        grid_view = view(state, seat).players[seat].grid
        assert len(grid_view) == 4 and all(len(column) == 3 for column in grid_view)
        assert all(cell.state == FACE_DOWN for column in grid_view for cell in column)


def test_r4_each_seat_reveals_exactly_two() -> None:
    table = Table(3, [rig_deal(3)])
    # Any order, any seat: seat 2 first, then seat 0, interleaved.
    table.do(2, Reveal(3, 2))
    table.do(0, Reveal(0, 0))
    table.do(2, Reveal(0, 1))
    assert legal_actions(table.state, 2) == ()
    with pytest.raises(RuleError) as caught:
        table.do(2, Reveal(1, 1))
    assert caught.value.code == "setup_reveals_done"
    with pytest.raises(RuleError) as caught:
        table.do(0, DRAW)  # no turn before everyone has revealed two
    assert caught.value.code == "setup_not_finished"
    table.do(0, Reveal(2, 2))
    assert table.state.phase == SETUP
    table.do(1, Reveal(1, 0))
    events = table.do(1, Reveal(1, 1))
    assert types(events) == ["CardRevealed", "PlayStarted"]
    assert table.state.phase == PLAYING
    assert [grid.up.bit_count() for grid in table.state.grids] == [2, 2, 2]


def test_r4_setup_reveal_of_a_face_up_card_is_refused() -> None:
    table = Table(2, [rig_deal(2)])
    table.do(0, Reveal(1, 1))
    with pytest.raises(RuleError) as caught:
        table.do(0, Reveal(1, 1))
    assert caught.value.code == "card_already_face_up"


def test_r4_setup_reveal_shows_the_dealt_card() -> None:
    table = Table(2, [TWO_SEATS])
    events = table.do(1, Reveal(2, 1))
    assert events == [CardRevealed(1, 2, 1, G1[2 * 3 + 1])]


# R5: who starts.


@pytest.mark.parametrize(
    ("reveals", "starter"),
    [
        ([[(0, 0), (0, 1)], [(3, 0), (3, 1)], [(3, 0), (3, 1)]], 1),  # 3, 19, 19: lowest seat
        ([[(3, 0), (3, 1)], [(0, 0), (0, 1)], [(3, 0), (3, 1)]], 0),  # 19, 3, 19
        ([[(0, 0), (0, 1)], [(0, 0), (3, 2)], [(3, 0), (3, 2)]], 2),  # 3, 12, 20
    ],
)
def test_r5_first_round_highest_sum_starts_lowest_seat_on_tie(
    reveals: list[list[tuple[int, int]]], starter: int
) -> None:
    grid = cols((1, 2, 3), (4, 5, 6), (7, 8, 10), (9, 10, 11))
    table = Table(3, [rig_deal(3, [grid, grid, grid])])
    events = table.setup(reveals)
    started = events[-1]
    assert isinstance(started, PlayStarted)
    assert started.seat == starter == table.current


def test_r5_later_rounds_closer_starts() -> None:
    round_1 = rig_deal(
        2,
        [
            cols((0, 1, 2), (1, 0, 2), (2, 1, 0), (0, 2, 1)),
            cols((5, 1, 0), (5, 0, 1), (1, 2, 0), (0, 1, 2)),
        ],
    )
    round_2 = rig_deal(
        2,
        [
            cols((12, 1, 0), (12, 0, 1), (1, 2, 0), (0, 1, 2)),
            cols((0, 1, 2), (1, 0, 2), (2, 1, 0), (0, 2, 1)),
        ],
    )
    table = Table(2, [round_1, round_2])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (1, 0)]])  # 1 against 10: seat 1 starts
    assert table.current == 1
    ended = table.play_round_by_reveals()
    assert ended.closer_seat == 1
    assert table.state.round == 2
    events = table.setup([[(0, 0), (1, 0)], [(0, 0), (0, 1)]])  # 24 against 1
    started = events[-1]
    assert isinstance(started, PlayStarted)
    assert started.seat == 1 == table.current  # the previous closer, not the highest sum


# R6: a turn.


def test_r6a_taken_discard_must_replace() -> None:
    table = two_seat_table()
    events = table.do(0, TAKE_DISCARD)
    assert events == [DiscardTaken(0, 0)]
    assert table.state.held == 0 and table.state.step == PLACE_TAKEN
    assert table.state.discard == ()
    assert set(legal_actions(table.state, 0)) == {Replace(*position(cell)) for cell in range(CELLS)}
    with pytest.raises(RuleError) as caught:
        table.do(0, DISCARD)
    assert caught.value.code == "must_replace_taken_discard"
    events = table.do(0, Replace(0, 0))  # a face-down card, not looked at first
    assert events == [CardReplaced(0, 0, 0, 0, 1), TurnPassed(0, 1)]
    grid = table.state.grids[0]
    assert grid.values[0] == 0 and grid.is_up(0)
    assert table.state.discard == (1,)  # the replaced card, face up on the pile


def test_r6a_taken_discard_may_replace_a_face_up_card() -> None:
    table = two_seat_table()
    table.do_all(0, TAKE_DISCARD, Replace(3, 2))  # 0 replaces the face-up 12
    assert table.state.discard == (12,)
    assert table.state.grids[0].values[11] == 0
    events = table.do_all(1, TAKE_DISCARD, Replace(0, 0))  # 12 replaces the face-up 0
    assert events[1] == CardReplaced(1, 0, 0, 12, 0)
    assert table.state.discard == (0,)


def test_r6b_drawn_card_replaces_a_card() -> None:
    table = two_seat_table()
    size = table.state.deck_size
    events = table.do(0, DRAW)
    assert events == [CardDrawn(0, 6)]
    assert table.state.held == 6 and table.state.step == PLACE_DRAWN
    assert table.state.deck_size == size - 1
    assert DISCARD in legal_actions(table.state, 0)
    events = table.do(0, Replace(3, 2))
    assert events == [CardReplaced(0, 3, 2, 6, 12), TurnPassed(0, 1)]
    assert table.state.discard == (0, 12)
    assert table.state.held is None


def test_r6b_drawn_card_discard_then_reveal() -> None:
    table = two_seat_table()
    table.do(0, DRAW)
    events = table.do(0, DISCARD)
    assert events == [DrawnCardDiscarded(0, 6)]
    assert table.state.discard == (0, 6)
    assert table.state.held is None
    down = table.state.grids[0].face_down
    assert set(legal_actions(table.state, 0)) == {
        Reveal(*position(cell)) for cell in range(CELLS) if down >> cell & 1
    }
    for action in (DRAW, TAKE_DISCARD, DISCARD, Replace(0, 0)):
        with pytest.raises(RuleError) as caught:
            table.do(0, action)
        assert caught.value.code == "must_reveal_after_discard"
    with pytest.raises(RuleError) as caught:
        table.do(0, Reveal(3, 2))
    assert caught.value.code == "card_already_face_up"
    events = table.do(0, Reveal(1, 1))
    assert events == [CardRevealed(0, 1, 1, 5), TurnPassed(0, 1)]
    assert table.current == 1


def test_r6_only_a_turn_choice_at_the_start_of_a_turn() -> None:
    table = two_seat_table()
    assert list(legal_actions(table.state, 0)) == [DRAW, TAKE_DISCARD]
    assert legal_actions(table.state, 1) == ()


# R7: who sees the drawn card.


def test_r7_drawn_card_seen_by_drawer_only_until_placed() -> None:
    table = two_seat_table()
    drawn = table.do(0, DRAW)[0]
    drawer, other, spectator = (view(table.state, v) for v in (0, 1, None))
    assert drawer.held_card is not None and drawer.held_card.value == 6
    assert drawer.held_card.source == "deck"
    for seen in (other, spectator):
        assert seen.held_card is not None
        assert seen.held_card.value is None
        assert seen.held_card.seat == 0
    revealed = view(table.state, 1, reveal_all=True).held_card
    assert revealed is not None and revealed.value == 6
    assert event_for_viewer(drawn, 0, 2)["value"] == 6
    assert event_for_viewer(drawn, 1, 2)["value"] is None
    assert event_for_viewer(drawn, None, 2)["value"] is None
    assert event_for_viewer(drawn, 1, 2, reveal_all=True)["value"] == 6
    table.do(0, DISCARD)  # placed: everyone sees it on the discard pile
    for v in (0, 1, None):
        assert view(table.state, v).discard_top == 6
        assert view(table.state, v).held_card is None


def test_r7_taken_discard_is_seen_by_everyone() -> None:
    table = two_seat_table()
    table.do(0, TAKE_DISCARD)
    for v in (0, 1, None):
        held = view(table.state, v).held_card
        assert held is not None and held.value == 0 and held.source == "discard"


def test_r7_face_down_cards_unknown_to_everyone_owner_included() -> None:
    table = two_seat_table()
    for v in (0, 1, None):
        seen = view(table.state, v)
        for player in seen.players:
            for column in player.grid:
                for cell in column:
                    if cell.state == FACE_DOWN:
                        assert cell.value is None
    own = view(table.state, 0).players[0].grid
    assert own[3][2].state == FACE_UP and own[3][2].value == 12
    assert own[0][0].state == FACE_DOWN and own[0][0].value is None
    everything = view(table.state, None, reveal_all=True).players[0].grid
    assert [cell.value for column in everything for cell in column] == G0


def test_r7_draw_pile_order_unknown_to_everyone() -> None:
    table = Table(2, [TWO_SEATS])
    dealt = table.last(RoundDealt)
    for v in (0, 1, None):
        data = event_for_viewer(dealt, v, 2)
        assert data == {"round": 1, "discard_top": 0, "deck_size": 125}
        seen = view(table.state, v).to_data()
        assert "deck" not in seen and seen["deck_size"] == 125


# R8: columns of three.


def test_r8_replaced_card_goes_under_removed_column() -> None:
    grid = cols((5, 5, 9), (1, 2, 3), (4, 6, 7), (8, 10, 11))
    table = Table(2, [rig_deal(2, [grid, G1], discard_top=5)])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (0, 1)]])
    assert table.current == 0
    events = table.do_all(0, TAKE_DISCARD, Replace(0, 2))
    assert events == [
        DiscardTaken(0, 5),
        CardReplaced(0, 0, 2, 5, 9),
        ColumnRemoved(0, 0, 5),
        TurnPassed(0, 1),
    ]
    assert table.state.discard == (9, 5, 5, 5)  # the replaced card first, the three on top
    assert table.state.discard_top == 5
    grid_state = table.state.grids[0]
    assert grid_state.is_gone(0) and grid_state.is_gone(1) and grid_state.is_gone(2)
    assert [cell.state for cell in view(table.state, 1).players[0].grid[0]] == [REMOVED] * 3
    assert Counter(table.state.cards_in_play()) == Counter(FULL_DECK)


def test_r8_drawn_card_completing_a_column_by_replacement() -> None:
    grid = cols((5, 5, 9), (1, 2, 3), (4, 6, 7), (8, 10, 11))
    table = Table(2, [rig_deal(2, [grid, G1], discard_top=12, draw=[5])])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (0, 1)]])
    events = table.do_all(0, DRAW, Replace(0, 2))
    assert types(events) == ["CardDrawn", "CardReplaced", "ColumnRemoved", "TurnPassed"]
    assert table.state.discard == (12, 9, 5, 5, 5)


def test_r8_reveal_completes_column_drawn_card_below() -> None:
    grid = cols((1, 2, 3), (7, 7, 7), (4, 6, 8), (9, 10, 11))
    table = Table(2, [rig_deal(2, [grid, G1], discard_top=12, draw=[3])])
    table.setup([[(1, 0), (1, 1)], [(0, 0), (0, 1)]])
    assert table.current == 0
    events = table.do_all(0, DRAW, DISCARD, Reveal(1, 2))
    assert events == [
        CardDrawn(0, 3),
        DrawnCardDiscarded(0, 3),
        CardRevealed(0, 1, 2, 7),
        ColumnRemoved(0, 1, 7),
        TurnPassed(0, 1),
    ]
    assert table.state.discard == (12, 3, 7, 7, 7)


def test_r8_removed_column_cannot_be_played_and_scores_nothing() -> None:
    grid = cols((1, 2, 3), (7, 7, 7), (4, 6, 8), (9, 10, 11))
    table = Table(2, [rig_deal(2, [grid, G1], discard_top=12)])
    table.setup([[(1, 0), (1, 1)], [(0, 0), (0, 1)]])
    table.reveal_turn(1 * 3 + 2)  # removes column 1
    table.do_all(1, TAKE_DISCARD, Replace(3, 2))
    table.do(0, DRAW)
    for row in range(3):
        assert Replace(1, row) not in legal_actions(table.state, 0)
        with pytest.raises(RuleError) as caught:
            table.do(0, Replace(1, row))
        assert caught.value.code == "position_removed"
    table.do(0, DISCARD)
    with pytest.raises(RuleError) as caught:
        table.do(0, Reveal(1, 0))
    assert caught.value.code == "position_removed"
    table.do(0, Reveal(0, 0))
    ended = table.play_round_by_reveals()
    assert ended.grids[0][3:6] == (None, None, None)
    assert ended.raw_scores[0] == sum(grid) - 21


def test_r8_rows_do_not_count() -> None:
    grid = cols((4, 1, 2), (4, 2, 3), (4, 3, 5), (4, 5, 6))  # row 0 is four 4s
    table = Table(2, [rig_deal(2, [grid, G1])])
    table.setup([[(0, 0), (1, 0)], [(0, 0), (0, 1)]])
    assert table.current == 0
    table.reveal_turn(2 * 3)
    table.reveal_turn()
    table.reveal_turn(3 * 3)
    grid_state = table.state.grids[0]
    assert all(grid_state.is_up(cell) for cell in (0, 3, 6, 9))
    assert grid_state.gone == 0
    assert not any(isinstance(event, ColumnRemoved) for event in table.events)
    ended = table.play_round_by_reveals()
    assert None not in ended.grids[0]
    assert ended.raw_scores[0] == sum(grid)


def test_r8_two_equal_face_up_cards_and_a_different_one_stay() -> None:
    grid = cols((5, 5, 6), (1, 2, 3), (4, 6, 7), (8, 10, 11))
    table = Table(2, [rig_deal(2, [grid, G1], discard_top=12)])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (0, 1)]])
    events = table.reveal_turn(2)
    assert types(events)[-2:] == ["CardRevealed", "TurnPassed"]
    assert table.state.grids[0].gone == 0


# R9: empty draw pile.


def _replace_turns_until_the_draw_pile_is_empty(table: Table) -> None:
    """Each seat draws and puts the card on its face-up (0, 0): no card is turned, so the round
    never ends and the draw pile runs out."""
    while table.state.deck_size:
        table.replace_turn(0)


def test_r9_empty_draw_pile_reshuffles_keeping_top_discard() -> None:
    table = Table(2, [TWO_SEATS])
    table.setup([[(0, 0), (1, 0)], [(0, 0), (1, 0)]])
    _replace_turns_until_the_draw_pile_is_empty(table)
    state = table.state
    top = state.discard_top
    rest = state.discard[:-1]
    assert len(rest) == 125  # the first discard and every replaced card, but the top
    order = tuple(sorted(rest))
    table.shuffler.reshuffles = [order]
    seat = table.current
    events = table.do(seat, DRAW)
    assert events == [DrawPileReshuffled(order), CardDrawn(seat, order[0])]
    state = table.state
    assert state.discard == (top,)
    assert state.draw_pile == order[1:]
    assert state.reshuffles == 1
    assert Counter(state.cards_in_play()) == Counter(FULL_DECK)
    # The order is recorded in the log, like the deal: replay needs no shuffler.
    assert replay(table.events) == state
    reshuffled = events[0]
    for v in (0, 1, None):
        assert event_for_viewer(reshuffled, v, 2) == {"deck_size": len(order)}
        assert view(state, v).deck_size == len(order) - 1


def test_r9_seeded_reshuffle_is_a_permutation_of_the_pile_under_the_top() -> None:
    shuffler = SeededShuffler(7)
    pile = tuple(range(40))
    order = shuffler.reshuffle(pile, 1, 1)
    assert sorted(order) == list(pile) and order != pile
    assert shuffler.reshuffle(pile, 1, 1) == order
    assert shuffler.reshuffle(pile, 1, 2) != order


def test_r9_a_reshuffle_order_with_other_cards_is_refused() -> None:
    table = Table(2, [TWO_SEATS])
    table.setup([[(0, 0), (1, 0)], [(0, 0), (1, 0)]])
    _replace_turns_until_the_draw_pile_is_empty(table)
    table.shuffler.reshuffles = [(0,) * (len(table.state.discard) - 1)]
    with pytest.raises(ValueError, match="reshuffle"):
        table.do(table.current, DRAW)


# R10: end of a round.

THREE_GRIDS = [
    cols((0, 1, 2), (1, 0, 2), (2, 1, 0), (0, 2, 1)),
    cols((5, 1, 0), (5, 0, 1), (1, 2, 0), (0, 1, 2)),
    cols((3, 2, 0), (2, 0, 3), (0, 3, 2), (6, 6, 6)),
]


def test_r10_each_other_player_gets_exactly_one_more_turn() -> None:
    table = Table(3, [rig_deal(3, THREE_GRIDS)])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (1, 0)], [(0, 0), (0, 1)]])
    assert table.current == 1
    turns: list[int] = []
    while not any(isinstance(event, FinalTurnsBegan) for event in table.events):
        turns.append(table.current)
        table.reveal_turn()
    assert turns == [1, 2, 0] * 9 + [1]  # seat 1 turned its 10 cards first
    began = table.last(FinalTurnsBegan)
    assert began == FinalTurnsBegan(1)
    assert table.events[-1] == TurnPassed(1, 2)
    assert table.state.grids[1].face_down == 0
    table.reveal_turn()
    assert table.events[-1] == TurnPassed(2, 0)
    events = table.reveal_turn()
    assert types(events)[:3] == ["CardDrawn", "DrawnCardDiscarded", "CardRevealed"]
    assert not any(isinstance(event, TurnPassed) for event in events)  # the closer is done
    ended = next(event for event in events if isinstance(event, RoundEnded))
    assert ended.closer_seat == 1


def test_r10_two_seats_the_other_player_plays_once_more() -> None:
    table = Table(2, [rig_deal(2, THREE_GRIDS[:2])])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (1, 0)]])
    while not any(isinstance(event, FinalTurnsBegan) for event in table.events):
        table.reveal_turn()
    assert table.current == 0
    events = table.reveal_turn()
    assert any(isinstance(event, RoundEnded) for event in events)


def test_r10_closing_by_replacing_the_last_face_down_card() -> None:
    table = Table(2, [rig_deal(2, THREE_GRIDS[:2])])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (1, 0)]])
    while not (table.current == 1 and table.state.grids[1].face_down.bit_count() == 1):
        table.reveal_turn()
    last = table.state.grids[1].face_down.bit_length() - 1
    events = table.do_all(1, DRAW, Replace(*position(last)))
    assert types(events)[-2:] == ["FinalTurnsBegan", "TurnPassed"]


def test_r10_finishing_during_the_final_turns_does_not_make_a_second_closer() -> None:
    table = Table(2, [rig_deal(2, THREE_GRIDS[:2])])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (1, 0)]])
    while not any(isinstance(event, FinalTurnsBegan) for event in table.events):
        table.reveal_turn()
    assert table.state.grids[0].face_down.bit_count() == 1
    events = table.reveal_turn()  # seat 0 turns its last card in its final turn
    assert sum(isinstance(event, FinalTurnsBegan) for event in table.events) == 1
    ended = next(event for event in events if isinstance(event, RoundEnded))
    assert ended.closer_seat == 1


def test_r10_columns_removed_at_final_reveal() -> None:
    table = Table(3, [rig_deal(3, THREE_GRIDS)])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (1, 0)], [(0, 0), (0, 1)]])
    # Seat 2 keeps its (6, 6, 6) column face down: it only ever replaces its face-up (0, 0).
    events: list[Event] = []
    while not any(isinstance(event, RoundEnded) for event in events):
        events = table.replace_turn(0) if table.current == 2 else table.reveal_turn()
    ended = table.last(RoundEnded)
    assert isinstance(ended, RoundEnded)
    assert ended.grids[2][9:12] == (None, None, None)
    assert None not in ended.grids[2][:9]
    assert ended.raw_scores[2] == sum(v for v in ended.grids[2] if v is not None)
    assert not any(isinstance(event, ColumnRemoved) for event in table.events)
    at_end = replay(table.events[: table.events.index(ended) + 1])
    assert at_end.discard[-3:] == (6, 6, 6)
    assert Counter(at_end.cards_in_play()) == Counter(FULL_DECK)
    assert all(grid.face_down == 0 for grid in at_end.grids)
    summary = view(at_end, None).rounds[0].players[2]
    assert [cell.state for cell in summary.grid[3]] == [REMOVED] * 3


def test_r10_final_reveal_removes_only_columns_of_three_equal_cards() -> None:
    grid = Grid((1, 1, 1, 2, 2, 3, 4, 4, 4, 5, 6, 7), up=0b1, gone=0)
    assert final_reveal(grid) == (None, None, None, 2, 2, 3, None, None, None, 5, 6, 7)
    removed = Grid(grid.values, up=0, gone=0b111)
    assert final_reveal(removed)[:3] == (None, None, None)


# R11: scoring a round.

CLOSER_10 = cols((3, 2, 0), (1, 0, 1), (0, 1, 0), (1, 0, 1))  # reveals 3 + 2
B_24 = cols((4, 4, 0), (2, 2, 1), (3, 3, 0), (2, 1, 2))  # reveals 0 + 0
C_10 = cols((-1, 2, 0), (2, -1, 2), (3, -2, 1), (0, 2, 2))  # reveals -1 + 0
EXAMPLE_REVEALS = [[(0, 0), (0, 1)], [(0, 2), (2, 2)], [(0, 0), (0, 2)]]


def _rules_example(options: Options | None = None) -> Table:
    assert (sum(CLOSER_10), sum(B_24), sum(C_10)) == (10, 24, 10)
    table = Table(3, [rig_deal(3, [CLOSER_10, B_24, C_10])], options=options)
    table.setup(EXAMPLE_REVEALS)
    assert table.current == 0
    return table


def test_r11_rules_example_closer_10_vs_24_and_10_scores_20() -> None:
    table = _rules_example()
    ended = table.play_round_by_reveals()
    assert ended.closer_seat == 0
    assert ended.raw_scores == (10, 24, 10)
    assert ended.closer_doubled is True
    assert ended.round_scores == (20, 24, 10)
    assert ended.totals == (20, 24, 10) == table.state.totals
    summary = view(table.state, None).rounds[0]
    assert summary.closer_seat == 0
    assert [p.doubled for p in summary.players] == [True, False, False]
    assert [p.round_score for p in summary.players] == [20, 24, 10]


def test_r11_closer_strictly_lowest_not_doubled() -> None:
    c_11 = cols((-1, 2, 0), (2, -1, 2), (3, -2, 1), (0, 2, 3))
    table = Table(3, [rig_deal(3, [CLOSER_10, B_24, c_11])])
    table.setup(EXAMPLE_REVEALS)
    ended = table.play_round_by_reveals()
    assert ended.raw_scores == (10, 24, 11)
    assert ended.closer_doubled is False
    assert ended.round_scores == (10, 24, 11)


def test_r11_closer_zero_or_negative_never_doubled() -> None:
    closer_0 = cols((2, 1, -1), (0, 1, -1), (-2, 0, 0), (0, -1, 1))  # reveals 2 + 1
    other_minus_3 = cols((-2, 0, 1), (-1, 0, 0), (1, -1, 0), (0, -1, 0))  # reveals -2 + -1
    table = Table(2, [rig_deal(2, [closer_0, other_minus_3])])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (1, 0)]])
    ended = table.play_round_by_reveals()
    assert ended.closer_seat == 0
    assert ended.raw_scores == (0, -3)
    assert ended.closer_doubled is False
    assert ended.round_scores == (0, -3)


@pytest.mark.parametrize(
    ("raw", "closer", "doubled"),
    [
        ((10, 24, 10), 0, True),  # the rules' example: a tie is not strictly lowest
        ((10, 24, 11), 0, False),
        ((10, 9), 0, True),
        ((0, -5), 0, False),  # 0 is never doubled
        ((-3, -5), 0, False),  # nor a negative score
        ((1, 1), 1, True),
        ((1, 2, 3, 0), 3, False),
        ((5, 2, 3, 4), 0, True),
    ],
)
def test_r11_closer_penalty_table(raw: tuple[int, ...], closer: int, doubled: bool) -> None:
    assert closer_is_doubled(raw, closer, True) is doubled
    assert closer_is_doubled(raw, closer, False) is False
    scores = round_scores(raw, closer, doubled)
    assert scores[closer] == raw[closer] * (2 if doubled else 1)
    assert [s for i, s in enumerate(scores) if i != closer] == [
        r for i, r in enumerate(raw) if i != closer
    ]


def test_r11_round_scores_add_up_to_totals() -> None:
    table = _rules_example()
    table.play_round_by_reveals()
    assert table.state.round == 2
    table.setup([[(0, 0), (0, 1)], [(0, 0), (0, 1)], [(0, 0), (0, 1)]])
    assert table.current == 0  # the closer of round 1 (R5)
    second = table.play_round_by_reveals()
    first = table.state.rounds[0]
    assert second.totals == tuple(
        a + b for a, b in zip(first.round_scores, second.round_scores, strict=True)
    )


# R12: rule options.


def test_r12_closer_penalty_off() -> None:
    table = _rules_example(Options(closer_penalty=False))
    ended = table.play_round_by_reveals()
    assert ended.raw_scores == (10, 24, 10)
    assert ended.closer_doubled is False
    assert ended.round_scores == (10, 24, 10)


def test_r12_end_score_option() -> None:
    table = _rules_example(Options(end_score=20))
    table.play_round_by_reveals()
    game_ended = table.events[-1]
    assert game_ended == GameEnded((20, 24, 10), (2,))
    assert table.state.phase == FINISHED
    # With the default end score the same round does not end the game.
    table = _rules_example()
    table.play_round_by_reveals()
    assert table.state.phase == SETUP


def test_r3_a_total_equal_to_the_end_score_ends_the_game() -> None:
    table = _rules_example(Options(end_score=24))  # totals 20, 24, 10: B reaches 24 exactly
    table.play_round_by_reveals()
    assert table.events[-1] == GameEnded((20, 24, 10), (2,))
    table = _rules_example(Options(end_score=25))  # nobody reaches 25: next round
    table.play_round_by_reveals()
    assert table.state.phase == SETUP and table.state.round == 2


def test_r12_options_recorded_in_first_event_and_fixed() -> None:
    options = Options(end_score=42, closer_penalty=False)
    table = Table(2, [rig_deal(2)], options=options)
    assert table.events[0] == GameCreated(2, Options(end_score=42, closer_penalty=False))
    assert table.state.options == options
    assert replay(table.events).options == options
    assert view(table.state, 0).options == {
        "end_score": 42,
        "closer_penalty": False,
        "turn_seconds": None,
        "max_timeouts": 3,
    }
    assert create_game(3) == [GameCreated(3, Options())]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"end_score": 0},
        {"end_score": -5},
        {"end_score": True},
        {"end_score": 10.5},
        {"end_score": "100"},
        {"closer_penalty": 1},
        {"closer_penalty": "yes"},
    ],
)
def test_r12_invalid_options_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidOptions) as caught:
        Options(**kwargs)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_options"


def test_r12_options_from_data_round_trip() -> None:
    options = Options(end_score=7, closer_penalty=False)
    assert Options.from_data(options.to_data()) == options
    with pytest.raises(InvalidOptions):
        Options.from_data({"end_score": 0, "closer_penalty": True})

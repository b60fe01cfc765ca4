"""What each viewer may know (R7): `view` of a state and `event_for_viewer` of an event."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine import (
    DISCARD,
    DRAW,
    TAKE_DISCARD,
    GreedyPlayer,
    Join,
    Replace,
    Reveal,
    event_to_data,
    replay,
    view,
)
from engine.cards import CELLS, COLUMN_MASKS, COLUMNS, FULL_DECK
from engine.events import CardDrawn, DrawPileReshuffled, RoundDealt
from engine.simulate import chooser_from_view, play_game
from engine.state import Grid
from engine.view import (
    _REMOVED,
    _SHOWN_DOWN,
    _UNSEEN,
    FACE_DOWN,
    FACE_UP,
    REMOVED,
    GameView,
    _grid_cells,
    _grid_view,
    event_for_viewer,
    seat_view,
)

from .support import Table, cols, rig_deal

G0 = cols((1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12))
G1 = cols((0, -1, -2), (1, 2, 3), (4, 5, 6), (7, 8, 9))
DEAL = rig_deal(2, [G0, G1], discard_top=0, draw=[6, 11, 5])


def hidden_values(seen: GameView) -> list[int | None]:
    """Every value the view shows on a face-down card (must be none)."""
    return [
        cell.value
        for player in seen.players
        for column in player.grid
        for cell in column
        if cell.state == FACE_DOWN and cell.value is not None
    ]


def test_waiting_game_view() -> None:
    table = Table(3, join=False)
    table.do(None, Join("Ann"))
    seen = view(table.state, None)
    assert seen.status == "waiting"
    assert seen.open_seats == 2
    assert [p.name for p in seen.players] == ["Ann", None, None]
    assert all(p.grid == () for p in seen.players)
    assert seen.legal_actions == ()
    assert seen.deck_size == 0 and seen.discard_top is None
    json.dumps(seen.to_data())


def test_own_face_down_cards_hidden_from_the_owner() -> None:
    table = Table(2, [DEAL])
    table.do(0, Reveal(2, 1))
    for viewer in (0, 1, None):
        seen = view(table.state, viewer)
        assert hidden_values(seen) == []
        own = seen.players[0].grid
        assert own[2][1] == own[2][1].__class__(FACE_UP, 8)
        assert sum(cell.state == FACE_DOWN for column in own for cell in column) == 11
    assert view(table.state, 0).legal_actions == tuple(
        Reveal(c, r) for c in range(4) for r in range(3) if (c, r) != (2, 1)
    )
    assert view(table.state, 1).legal_actions == tuple(
        Reveal(c, r) for c in range(4) for r in range(3)
    )
    assert view(table.state, None).legal_actions == ()


def test_drawn_card_visible_only_to_the_drawer() -> None:
    table = Table(2, [DEAL])
    table.setup([[(3, 2), (3, 1)], [(0, 0), (0, 1)]])
    table.do(0, DRAW)
    drawer = view(table.state, 0)
    assert drawer.held_card is not None and drawer.held_card.value == 6
    assert drawer.legal_actions[-1] == DISCARD
    for viewer in (1, None):
        seen = view(table.state, viewer)
        assert seen.held_card is not None and seen.held_card.value is None
        assert seen.held_card.source == "deck"
        assert seen.legal_actions == ()
        assert seen.to_data()["held_card"] == {"seat": 0, "source": "deck", "value": None}
        assert "6" not in json.dumps(seen.to_data()["held_card"])
    table.do(0, Replace(0, 0))
    for viewer in (0, 1, None):
        seen = view(table.state, viewer)
        assert seen.held_card is None
        assert seen.players[0].grid[0][0].value == 6
        assert seen.discard_top == 1


def test_spectator_sees_no_hidden_value_and_reveal_all_shows_every_card() -> None:
    table = Table(2, [DEAL])
    table.setup([[(3, 2), (3, 1)], [(0, 0), (0, 1)]])
    table.do(0, DRAW)
    spectator = view(table.state, None)
    assert hidden_values(spectator) == []
    assert spectator.you is None and spectator.current_seat == 0
    everything = view(table.state, None, reveal_all=True)
    assert everything.held_card is not None and everything.held_card.value == 6
    values = [[cell.value for column in p.grid for cell in column] for p in everything.players]
    assert values == [G0, G1]
    states = [cell.state for column in everything.players[0].grid for cell in column]
    assert states.count(FACE_UP) == 2 and states.count(FACE_DOWN) == 10


def test_finished_round_grids_in_rounds() -> None:
    low = cols((0, 1, 2), (1, 0, 2), (2, 1, 0), (0, 2, 1))
    table = Table(2, [rig_deal(2, [low, G1])])
    table.setup([[(3, 2), (3, 1)], [(0, 0), (0, 1)]])
    ended = table.play_round_by_reveals()
    for viewer in (0, 1, None):
        seen = view(table.state, viewer)
        assert seen.status == "setup" and seen.round == 2
        assert len(seen.rounds) == 1
        summary = seen.rounds[0]
        assert summary.round == 1 and summary.closer_seat == ended.closer_seat
        for seat, player in enumerate(summary.players):
            cells = [cell for column in player.grid for cell in column]
            assert [c.value for c in cells] == list(ended.grids[seat])
            assert all(c.state in (FACE_UP, REMOVED) for c in cells)
            assert player.raw_score == ended.raw_scores[seat]
            assert player.round_score == ended.round_scores[seat]
        assert [p.total for p in seen.players] == list(ended.totals)
        data = seen.to_data()
        assert data["rounds"][0]["players"][0]["grid"][0][0] == {"state": FACE_UP, "value": 0}
        json.dumps(data)
        # The new round's cards are hidden again.
        assert hidden_values(seen) == []


def test_event_for_viewer_redaction() -> None:
    table = Table(2, [DEAL])
    dealt = table.last(RoundDealt)
    assert isinstance(dealt, RoundDealt)
    for viewer in (0, 1, None):
        assert event_for_viewer(dealt, viewer, 2) == {
            "round": 1,
            "discard_top": 0,
            "deck_size": 125,
        }
    assert event_for_viewer(dealt, None, 2, reveal_all=True) == event_to_data(dealt)
    drawn = CardDrawn(1, 9)
    assert event_for_viewer(drawn, 1, 2) == {"seat": 1, "value": 9}
    assert event_for_viewer(drawn, 0, 2) == {"seat": 1, "value": None}
    assert event_for_viewer(drawn, None, 2) == {"seat": 1, "value": None}
    reshuffled = DrawPileReshuffled((4, 5, 6))
    assert event_for_viewer(reshuffled, 0, 2) == {"deck_size": 3}
    assert event_for_viewer(reshuffled, 0, 2, reveal_all=True) == {"order": [4, 5, 6]}
    table.setup([[(3, 2), (3, 1)], [(0, 0), (0, 1)]])
    for event in table.do_all(0, TAKE_DISCARD, Replace(0, 0)):
        assert event_for_viewer(event, 1, 2) == event_to_data(event)  # all public


def test_view_lists_the_same_legal_actions_as_the_engine() -> None:
    table = Table(2, [DEAL])
    table.setup([[(3, 2), (3, 1)], [(0, 0), (0, 1)]])
    data = view(table.state, 0).to_data()
    assert data["legal_actions"] == [{"action": "draw"}, {"action": "take_discard"}]
    assert data["current_seat"] == 0 and data["you"] == 0
    assert data["status"] == "playing"


def test_seat_view_is_the_view_field_for_field() -> None:
    """`seat_view`, the bots' view with its costlier fields computed on first read, equals
    `view` in every state of whole games (each field, and its data), and stays frozen."""
    compared = 0
    for seats, seed in ((2, 1), (4, 2)):
        choosers = [chooser_from_view(GreedyPlayer()) for _ in range(seats)]
        events = play_game(choosers, seed=seed).events
        states = [replay(events[:end]) for end in range(len(events) - 300, len(events), 3)]
        for state in states:
            for seat in range(seats):
                eager, lazy = view(state, seat), seat_view(state, seat)
                # One seat's part, read before the players are (built alone) and after.
                for other in range(seats):
                    assert seat_view(state, seat).player(other) == eager.players[other]
                    assert eager.player(other) == eager.players[other]
                assert lazy == eager and eager == lazy and isinstance(lazy, GameView)
                assert all(lazy.player(s) == eager.players[s] for s in range(seats))
                assert lazy.to_data() == eager.to_data()
                assert dataclasses.replace(lazy) == eager
                compared += 1
    assert compared > 200
    with pytest.raises(dataclasses.FrozenInstanceError):
        lazy.players = ()  # type: ignore[misc]


def test_a_seats_grid_view_takes_shared_columns_equal_to_the_cells() -> None:
    """`_grid_view` takes a seat's columns from one shared set: each equals the column built
    cell by cell, for every pattern of face-up, face-down and removed cells (whole columns
    removed, as R8 removes them, and odd partial ones), and the same visible column is the
    same tuple whatever the face-down cards are."""
    rng = random.Random(26)
    for _ in range(20_000):
        values = tuple(rng.choice(FULL_DECK) for _ in range(CELLS))
        gone = sum(COLUMN_MASKS[c] for c in range(COLUMNS) if rng.random() < 0.2)
        if rng.random() < 0.05:
            gone = rng.getrandbits(CELLS)
        grid = Grid(values, rng.getrandbits(CELLS) & ~gone, gone)
        assert _grid_view(grid, False) == _grid_cells(grid, _UNSEEN)
        assert _grid_view(grid, True) == _grid_cells(grid, _SHOWN_DOWN)
        hidden = [v if grid.up >> i & 1 else rng.choice(FULL_DECK) for i, v in enumerate(values)]
        again = _grid_view(Grid(tuple(hidden), grid.up, gone), False)
        assert all(
            a is b for a, b in zip(again, _grid_view(grid, False), strict=True) if _REMOVED not in a
        )

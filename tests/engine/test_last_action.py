"""What a view tells a player about the game's progress: the last action (R7 applied to it), the
final turns left (R10), who starts the round (R5) and the signal that a round just ended."""

from __future__ import annotations

from engine import DISCARD, DRAW, TAKE_DISCARD, Join, Options, Replace, Reveal, view
from engine.events import FinalTurnsBegan, RoundEnded
from engine.view import LastAction, view_from_data

from .support import Table, cols, rig_deal

G0 = cols((5, 5, 9), (4, 5, 6), (7, 8, 9), (10, 11, 12))
G1 = cols((0, -1, -2), (1, 2, 3), (4, 6, 6), (7, 8, 9))
G2 = cols((1, 0, 1), (2, 3, 4), (3, 4, 3), (0, 1, 0))
DEAL = rig_deal(3, [G0, G1, G2], discard_top=0, draw=[11, 5, 12, 2])
VIEWERS = (0, 1, 2, None)


def started_table(options: Options | None = None) -> Table:
    """Three seats after their setup reveals: seat 0 (5 + 5) starts round 1 (R5)."""
    table = Table(3, [DEAL], options=options)
    table.setup([[(0, 0), (0, 1)], [(0, 0), (0, 1)], [(0, 0), (0, 2)]])
    return table


def last_seen(table: Table, viewer: int | None) -> LastAction | None:
    return view(table.state, viewer).last_action


def test_no_last_action_before_any_and_joins_are_actions() -> None:
    table = Table(2, join=False)
    assert last_seen(table, None) is None
    assert view(table.state, None).to_data()["last_action"] is None
    table.do(None, Join("Ann"))
    assert last_seen(table, None) == LastAction(0, "join")


def test_a_drawn_card_shows_to_its_drawer_only_while_held() -> None:
    table = started_table()
    table.do(0, DRAW)
    assert last_seen(table, 0) == LastAction(0, "draw", value=11)
    for viewer in (1, 2, None):
        assert last_seen(table, viewer) == LastAction(0, "draw", value=None)
        assert view(table.state, viewer).to_data()["last_action"]["value"] is None
    assert view(table.state, 1, reveal_all=True).last_action == LastAction(0, "draw", value=11)
    table.do(0, Replace(1, 0))  # placed: the card and the one it replaced are public
    for viewer in VIEWERS:
        assert last_seen(table, viewer) == LastAction(0, "replace", 1, 0, 11, 4)


def test_taking_the_discard_and_discarding_are_public() -> None:
    table = started_table()
    table.do_all(0, DRAW, DISCARD)
    for viewer in VIEWERS:
        assert last_seen(table, viewer) == LastAction(0, "discard", value=11)
    table.do(0, Reveal(2, 0))
    for viewer in VIEWERS:
        assert last_seen(table, viewer) == LastAction(0, "reveal", 2, 0, 7)
    table.do(1, TAKE_DISCARD)
    for viewer in VIEWERS:
        assert last_seen(table, viewer) == LastAction(1, "take_discard", value=11)


def test_a_column_of_three_removed() -> None:
    deal = rig_deal(2, [G0, G1], discard_top=0, draw=[5, 3])
    table = Table(2, [deal])
    table.setup([[(0, 0), (0, 1)], [(0, 0), (0, 1)]])
    table.do_all(0, DRAW, Replace(0, 2))
    for viewer in (0, 1, None):
        assert last_seen(table, viewer) == LastAction(0, "replace", 0, 2, 5, 9, removed_column=0)


def play_until_final_turns(table: Table) -> int:
    """Reveal turns until a seat has no face-down card left (R10); that seat."""
    while True:
        for event in table.reveal_turn():
            if isinstance(event, FinalTurnsBegan):
                return event.closer_seat


def test_final_turns_left_counts_down_and_the_closer_starts_the_next_round() -> None:
    table = started_table(Options(end_score=1000))
    assert view(table.state, None).final_turns_left == 0
    closer = play_until_final_turns(table)
    seen = view(table.state, None)
    assert seen.closer_seat == closer and seen.final_turns_left == 2
    assert seen.last_action is not None and seen.last_action.final_turns_began
    assert seen.last_action.seat == closer and seen.last_action.ended_round is None
    events = table.reveal_turn()
    assert view(table.state, None).final_turns_left == 1
    assert not any(isinstance(event, RoundEnded) for event in events)
    last_seat = table.current
    table.reveal_turn()
    # The answer to the action that ended the round: already round 2, in setup, and says so.
    seen = view(table.state, last_seat)
    assert (seen.status, seen.round) == ("setup", 2)
    assert seen.last_action is not None and seen.last_action.seat == last_seat
    assert seen.last_action.ended_round == 1 and not seen.last_action.ended_game
    assert seen.rounds[-1].round == 1 and seen.rounds[-1].closer_seat == closer
    assert seen.final_turns_left == 0 and seen.closer_seat is None
    assert seen.starting_seat == closer  # R5: the closer starts the next round
    table.do(closer, Reveal(0, 0))  # the next action replaces the signal
    assert last_seen(table, None) == LastAction(
        closer, "reveal", 0, 0, table.state.grids[closer].values[0]
    )


def test_starting_seat_unknown_in_the_first_setup_then_the_highest_pair() -> None:
    table = Table(3, [DEAL])
    assert view(table.state, None).starting_seat is None
    table.setup([[(0, 0), (0, 1)], [(0, 0), (0, 1)]])  # seat 2 has not revealed yet
    assert view(table.state, None).starting_seat is None
    table.do_all(2, Reveal(0, 0), Reveal(0, 2))
    seen = view(table.state, 1)
    assert seen.status == "playing" and seen.starting_seat == 0 == seen.current_seat
    table.do_all(0, DRAW, DISCARD, Reveal(2, 0))
    assert view(table.state, 1).starting_seat == 0  # still who started, while playing


def test_the_action_that_ends_the_game_says_so() -> None:
    table = started_table(Options(end_score=1))
    play_until_final_turns(table)
    table.reveal_turn()
    last_seat = table.current
    table.reveal_turn()
    seen = view(table.state, last_seat)
    assert seen.status == "finished"
    assert seen.last_action is not None
    assert seen.last_action.ended_round == 1 and seen.last_action.ended_game
    assert seen.starting_seat is None and seen.final_turns_left == 0


def test_view_from_data_round_trips_the_new_fields() -> None:
    table = started_table()
    table.do(0, DRAW)
    for viewer in VIEWERS:
        data = view(table.state, viewer).to_data()
        assert view_from_data(data).to_data() == data
    table.do_all(0, DISCARD, Reveal(2, 0))
    play_until_final_turns(table)
    data = view(table.state, 1).to_data()
    assert data["final_turns_left"] == 2 and data["last_action"]["final_turns_began"]
    assert view_from_data(data) == view(table.state, 1)

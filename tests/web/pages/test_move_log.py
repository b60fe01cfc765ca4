"""The table's move log and last move (games.web.move_log) over rigged logs, as a viewer sees
them: one entry per action in words, newest first, grouped by round; a bot's move with its
card and position; column removals, final turns, timeouts and takeovers said; a hidden card
never told; the cells the last action changed marked."""

from __future__ import annotations

from typing import Any

from engine import FULL_DECK, Options, event_for_viewer
from engine.events import (
    CardDrawn,
    CardReplaced,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    FinalTurnsBegan,
    GameCreated,
    PlayerJoined,
    PlayStarted,
    RoundDealt,
    RoundEnded,
    SeatAbandoned,
    SeatLeft,
    TurnPassed,
    TurnTimedOut,
)
from games.web.move_log import last_move, move_log, turned_at_the_end
from games.web.words import Names, last_words, told

ADA = Names(["Ada", "Greedy bot"], you=0)
SPECTATOR = Names(["Ada", "Greedy bot"])


def seen(*events: object, viewer: int | None = 0) -> list[tuple[str, dict[str, Any]]]:
    """Events as `viewer` sees them, as the table reads them from the log."""
    return [
        (type(e).__name__, event_for_viewer(e, viewer, 2))  # type: ignore[arg-type]
        for e in events
    ]


START = (
    GameCreated(2, Options()),
    PlayerJoined(0, "Ada"),
    PlayerJoined(1, "Greedy bot", bot="greedy"),
    RoundDealt(1, FULL_DECK),
    CardRevealed(0, 0, 0, 5),
    CardRevealed(1, 0, 0, 7),
    CardRevealed(0, 1, 0, 3),
    CardRevealed(1, 1, 0, 7),
    PlayStarted(1, 1),
)


def texts(log: list[dict[str, Any]], index: int = 0) -> list[str]:
    return [entry["text"] for entry in log[index]["entries"]]


def test_a_bots_move_is_one_entry_with_its_card_and_position_newest_first() -> None:
    events = seen(*START, CardDrawn(1, 4), CardReplaced(1, 2, 1, 4, 11), TurnPassed(1, 0))
    log = move_log(told(events, ADA))
    assert [group["heading"] for group in log] == ["Round 1", "Before the deal"]
    assert log[0]["current"] and not log[1]["current"]
    assert texts(log)[:2] == [
        "Greedy bot drew the 4 and placed it at column 3, row 2, replacing the 11.",
        "Greedy bot turned up the 7 at column 2, row 1. Greedy bot starts round 1.",
    ]
    assert texts(log)[-1] == "Round 1 is dealt; the 0 starts the discard pile."
    assert texts(log, 1) == [
        "Greedy bot took seat 2 (a greedy bot).",
        "You took seat 1.",
        "A game for 2 players is created: end score 100, closer penalty on.",
    ]


def test_a_hidden_card_is_never_told() -> None:
    """R7: the bot's drawn card, held then discarded, is told once face up, never before;
    its drawer's own log tells it at once."""
    held = seen(*START, CardDrawn(1, 12))
    assert texts(move_log(told(held, ADA)))[0] == "Greedy bot drew a card from the draw pile."
    assert "12" not in " ".join(texts(move_log(told(held, ADA))))
    mine = seen(*START, CardDrawn(1, 12), viewer=1)
    assert texts(move_log(told(mine, Names(["Ada", "Bot"], you=1))))[0] == (
        "You drew the 12 from the draw pile."
    )
    dropped = seen(*START, CardDrawn(1, 12), DrawnCardDiscarded(1, 12), CardRevealed(1, 3, 2, 0))
    assert texts(move_log(told(dropped, SPECTATOR)))[0] == (
        "Greedy bot drew the 12, discarded it and turned up the 0 at column 4, row 3."
    )


def test_column_removals_final_turns_and_the_round_end_are_said() -> None:
    result = RoundEnded(1, 0, ((None,) * 12, (1,) * 12), (0, 12), (0, 12), False, (0, 12))
    events = seen(
        *START,
        DiscardTaken(0, 5),
        CardReplaced(0, 0, 2, 5, 9),
        ColumnRemoved(0, 0, 5),
        FinalTurnsBegan(0),
        TurnPassed(0, 1),
        DiscardTaken(1, 5),
        CardReplaced(1, 3, 2, 5, 1),
        result,
        RoundDealt(2, FULL_DECK),
    )
    log = move_log(told(events, ADA))
    assert [group["heading"] for group in log][:2] == ["Round 2", "Round 1"]
    assert texts(log) == ["Round 2 is dealt; the 0 starts the discard pile."]
    ended, removed = texts(log, 1)[:2]
    assert ended.endswith("Round 1 is over: Ada (you) 0, Greedy bot 12.")
    assert removed == (
        "You took the 5 from the discard and placed it at column 1, row 3, replacing the 9. "
        "Three 5s in your column 1 are removed. "
        "You have no face-down card left: everyone else plays one more turn."
    )
    assert log[1]["entries"][1]["css"] == "removal final-turns"
    assert log[1]["entries"][0]["css"] == "round-end"


def test_a_timeout_and_a_takeover_name_who_really_moved() -> None:
    """Issue 25, defect 6: a timed-out turn is the service's, and once a bot took the seat
    over its moves are the bot's, never "You drew..."."""
    events = seen(
        *START,
        DiscardTaken(1, 8),
        CardReplaced(1, 2, 2, 8, 10),
        TurnPassed(1, 0),
        TurnTimedOut(0),
        CardDrawn(0, 6),
        CardReplaced(0, 3, 0, 6, 2),
        TurnPassed(0, 1),
        DiscardTaken(1, 2),
        CardReplaced(1, 3, 1, 2, 9),
        TurnPassed(1, 0),
        TurnTimedOut(0),
        SeatAbandoned(0, "greedy"),
        CardDrawn(0, 12),
        CardReplaced(0, 2, 0, 12, 4),
        TurnPassed(0, 1),
    )
    newest, _, timed_out = texts(move_log(told(events, ADA)))[:3]
    assert timed_out == (
        "You ran out of time: the service played for you and drew the 6 and placed it at "
        "column 4, row 1, replacing the 2."
    )
    assert newest == (
        "You ran out of time once too often: the greedy bot plays the seat now. "
        "The greedy bot playing for you drew the 12 and placed it at column 3, row 1, "
        "replacing the 4."
    )
    assert move_log(told(events, ADA))[0]["entries"][0]["css"] == "timeout takeover"
    assert last_words(told(events, ADA)) == newest  # the last action's line says the same
    later = seen(*START, SeatLeft(0, "greedy"), CardDrawn(0, 12), viewer=None)
    assert (
        last_words(told(later, SPECTATOR)) == "Ada's bot (greedy) drew a card from the draw pile."
    )


def test_a_timed_out_setup_is_one_entry_per_seat() -> None:
    events = seen(
        *START[:4],
        TurnTimedOut(0),
        CardRevealed(0, 0, 0, 5),
        CardRevealed(0, 1, 0, 3),
        CardRevealed(1, 0, 0, 7),
        CardRevealed(1, 1, 0, 7),
        PlayStarted(1, 1),
    )
    assert texts(move_log(told(events, SPECTATOR)))[2] == (
        "Ada ran out of time: the service played for Ada and turned up the 5 at column 1, "
        "row 1 and turned up the 3 at column 2, row 1."
    )
    assert "ran out of time" in last_words(told(events[:7], SPECTATOR))


def test_the_last_move_marks_the_cells_it_changed() -> None:
    placed = last_move(told(seen(*START, DiscardTaken(1, 8), CardReplaced(1, 2, 2, 8, 10)), ADA))
    assert placed.cells == {1: {(2, 2): "card-placed"}} and placed.discarded
    turned = last_move(told(seen(*START, CardDrawn(1, 3), DrawnCardDiscarded(1, 3)), ADA))
    assert turned.cells == {} and turned.discarded
    removal = last_move(
        told(
            seen(*START, DiscardTaken(0, 5), CardReplaced(0, 0, 2, 5, 9), ColumnRemoved(0, 0, 5)),
            ADA,
        )
    )
    assert removal.cells == {
        0: {(0, 0): "column-removed", (0, 1): "column-removed", (0, 2): "column-removed"}
    }
    assert (
        last_move(told(seen(*START, CardDrawn(1, 3)), ADA)).cells == {}
    )  # held: nothing placed yet
    assert last_move(told(seen(*START[:3]), ADA)).ended_round is None


def test_the_final_reveal_is_the_cells_still_face_down_at_the_round_end() -> None:
    result = RoundEnded(1, 0, ((1,) * 12, (1,) * 12), (12, 12), (12, 12), False, (12, 12))
    events = seen(*START, DiscardTaken(1, 8), CardReplaced(1, 2, 2, 8, 10), result)
    turned = turned_at_the_end(events, 1)
    assert len(turned[0]) == 10 and (0, 0) not in turned[0] and (1, 0) not in turned[0]
    assert len(turned[1]) == 9 and (2, 2) not in turned[1]
    assert last_move(told(events, ADA)).ended_round == 1

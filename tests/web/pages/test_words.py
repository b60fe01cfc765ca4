"""The pages' sentences (games.web.words): the last action with its turn, every event type,
said 1-based and only with the cards the viewer may see."""

from __future__ import annotations

from engine import EVENT_TYPES, Options, event_for_viewer, event_to_data
from engine.events import (
    ROUND_LIMIT,
    CardDrawn,
    CardReplaced,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    FinalTurnsBegan,
    GameCreated,
    GameEnded,
    RoundEnded,
    SeatAbandoned,
    TurnPassed,
    TurnTimedOut,
)
from games.web.words import EVENT_WORDS, Names, Seen, event_words, last_words, told

NAMES = Names(["Ada", "Bob"])


def turn_words(events: list[Seen], names: Names) -> str:
    """The table's "Last:" line for a log."""
    return last_words(told(events, names))


BOB = Names(["Ada", "Bob"], you=1)


def seen(*events: object, viewer: int | None = None) -> list[tuple[str, dict[str, object]]]:
    """Events as `viewer` sees them, as the pages read them from the log."""
    return [
        (type(e).__name__, event_for_viewer(e, viewer, 2))  # type: ignore[arg-type]
        for e in events
    ]


def test_a_taken_discard_placed_is_one_sentence_with_1_based_positions() -> None:
    events = seen(DiscardTaken(1, 5), CardReplaced(1, 1, 0, 5, 9), TurnPassed(1, 0))
    assert turn_words(events, NAMES) == (
        "Bob took the 5 from the discard and placed it at column 2, row 1, replacing the 9."
    )
    assert turn_words(events, BOB).startswith("You took the 5 from the discard")


def test_a_drawn_card_is_told_to_its_drawer_only_while_held() -> None:
    draw = CardDrawn(1, 7)
    assert turn_words(seen(draw), NAMES) == "Bob drew a card from the draw pile."
    assert turn_words(seen(draw, viewer=1), BOB) == "You drew the 7 from the draw pile."
    placed = seen(draw, CardReplaced(1, 3, 2, 7, -2), TurnPassed(1, 0))  # then face up
    assert turn_words(placed, NAMES) == (
        "Bob drew the 7 and placed it at column 4, row 3, replacing the -2."
    )


def test_draw_discard_and_reveal_make_one_turn() -> None:
    events = seen(
        TurnPassed(1, 0),
        CardDrawn(0, 3),
        DrawnCardDiscarded(0, 3),
        CardRevealed(0, 2, 1, 11),
        TurnPassed(0, 1),
    )
    assert turn_words(events, NAMES) == (
        "Ada drew the 3, discarded it and turned up the 11 at column 3, row 2."
    )


def test_what_a_move_caused_follows_it() -> None:
    result = RoundEnded(1, 0, ((None,) * 12, (1,) * 12), (0, 12), (0, 12), False, (0, 12))
    events = seen(
        DiscardTaken(0, 4),
        CardReplaced(0, 0, 2, 4, 10),
        ColumnRemoved(0, 0, 4),
        FinalTurnsBegan(0),
        TurnPassed(0, 1),
    )
    assert turn_words(events, NAMES).endswith(
        "Three 4s in Ada's column 1 are removed. "
        "Ada has no face-down card left: everyone else plays one more turn."
    )
    ending = seen(CardRevealed(1, 0, 0, 1), result, GameEnded((0, 12), (0,)))
    assert turn_words(ending, BOB) == (
        "You turned up the 1 at column 1, row 1. Round 1 is over: Ada 0, Bob (you) 12. "
        "The game is over: Ada wins."
    )


def test_no_action_no_sentence() -> None:
    assert turn_words(seen(GameCreated(2, Options())), NAMES) == ""


def test_every_event_type_has_its_sentence() -> None:
    assert set(EVENT_WORDS) == set(EVENT_TYPES)
    created = event_to_data(GameCreated(3, Options(end_score=50, closer_penalty=False)))
    assert event_words("GameCreated", created, NAMES) == (
        "A game for 3 players is created: end score 50, closer penalty off."
    )
    assert event_words("TurnPassed", {"seat": 0, "next_seat": 1}, BOB) == "Your turn."
    assert event_words("Unknown", {}, NAMES) == "Unknown"


def test_seats_changing_hands_are_said() -> None:
    """R13: a bot's seat, a seat given up or left, and a turn the service played."""
    assert event_words("PlayerJoined", {"seat": 1, "name": "B", "bot": "greedy"}, NAMES) == (
        "Bob took seat 2 (a greedy bot)."
    )
    assert event_words("PlayerLeft", {"seat": 0}, NAMES) == "Ada left: seat 1 is open again."
    assert event_words("SeatLeft", {"seat": 1, "bot": "greedy"}, BOB) == (
        "You left: the greedy bot plays the seat now."
    )
    events = seen(
        TurnTimedOut(0),
        SeatAbandoned(0, "greedy"),
        CardDrawn(0, 3),
        DrawnCardDiscarded(0, 3),
        CardRevealed(0, 2, 1, 11),
        TurnPassed(0, 1),
    )
    assert turn_words(events, NAMES) == (  # issue 25: the bot plays those moves, not Ada
        "Ada ran out of time once too often: the greedy bot plays the seat now. "
        "Ada's bot (greedy) drew the 3, discarded it and turned up the 11 at column 3, row 2."
    )


def test_a_game_the_service_stopped_says_why() -> None:
    stopped = seen(GameEnded((30, 30), (0, 1), ROUND_LIMIT))
    assert event_words(*stopped[0], NAMES) == (
        "The game is over (no person was left: the bots played their rounds): Ada and Bob win."
    )

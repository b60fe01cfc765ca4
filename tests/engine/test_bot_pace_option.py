"""R15: `bot_pace_ms`, the pace of the service's bots, an option that changes no rule: held to
its bounds, recorded in `GameCreated` only when chosen (a game created without it keeps the
payload, so the hash, of every game before R15), and read back absent as None."""

from __future__ import annotations

import pytest

from engine import Options, create_game, event_from_data, event_to_data, replay
from engine.errors import InvalidOptions
from engine.events import GameCreated
from engine.options import MAX_BOT_PACE_MS, MIN_BOT_PACE_MS
from engine.snapshot import state_from_data, state_to_data


def test_a_chosen_pace_is_recorded_and_read_back() -> None:
    created = create_game(2, Options(bot_pace_ms=700))[0]
    data = event_to_data(created)
    assert data["options"]["bot_pace_ms"] == 700
    again = event_from_data("GameCreated", data)
    assert isinstance(again, GameCreated) and again.options.bot_pace_ms == 700
    assert replay([again]).options == Options(bot_pace_ms=700)


def test_no_pace_chosen_leaves_the_payload_as_before() -> None:
    data = event_to_data(create_game(2, Options())[0])
    assert data["options"] == {
        "end_score": 100,
        "closer_penalty": True,
        "turn_seconds": None,
        "max_timeouts": 3,
    }


@pytest.mark.parametrize(
    "options",
    [
        {"end_score": 100, "closer_penalty": True},  # schema 2 before the clocks
        {"end_score": 100, "closer_penalty": True, "turn_seconds": None, "max_timeouts": 3},
    ],
)
def test_an_older_game_without_it_reads_as_none(options: dict[str, object]) -> None:
    event = event_from_data("GameCreated", {"seats": 2, "options": options}, 2)
    assert isinstance(event, GameCreated) and event.options.bot_pace_ms is None
    assert Options.from_data(options) == Options()


def test_zero_is_a_pace_and_is_recorded() -> None:
    """0 (at once, even beside a person) is a choice, unlike None (the service's default)."""
    options = Options(bot_pace_ms=0)
    assert options.to_data()["bot_pace_ms"] == 0
    assert Options.from_data(options.to_data()) == options != Options()


@pytest.mark.parametrize("pace", [MIN_BOT_PACE_MS, 1, 700, MAX_BOT_PACE_MS])
def test_paces_within_the_bounds_are_accepted(pace: int) -> None:
    assert Options(bot_pace_ms=pace).bot_pace_ms == pace


@pytest.mark.parametrize(
    ("pace", "message"),
    [
        (MIN_BOT_PACE_MS - 1, "bot_pace_ms must be between 0 and 10000"),
        (MAX_BOT_PACE_MS + 1, "bot_pace_ms must be between 0 and 10000"),
        (True, "bot_pace_ms must be a whole number"),
        (0.5, "bot_pace_ms must be a whole number"),
        ("700", "bot_pace_ms must be a whole number"),
    ],
)
def test_paces_outside_the_bounds_are_refused(pace: object, message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        Options(bot_pace_ms=pace)  # type: ignore[arg-type]


def test_a_snapshot_keeps_the_pace() -> None:
    state = replay(create_game(3, Options(bot_pace_ms=250)))
    assert state_from_data(state_to_data(state)).options.bot_pace_ms == 250

"""Events as stored data: JSON round trips for every type, schema versions and upcasting."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from typing import Any

import pytest

from engine import (
    EVENT_TYPES,
    Event,
    GreedyPlayer,
    UnknownEventType,
    event_from_data,
    event_to_data,
    event_type,
    replay,
    schema_version,
)
from engine.events import (
    UPCASTERS,
    CardDrawn,
    CardReplaced,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    DrawPileReshuffled,
    FinalTurnsBegan,
    GameCanceled,
    GameCreated,
    GameEnded,
    PlayerJoined,
    PlayerLeft,
    PlayStarted,
    RoundDealt,
    RoundEnded,
    SeatAbandoned,
    SeatLeft,
    TurnPassed,
    TurnTimedOut,
    upcast,
)
from engine.options import Options
from engine.shuffle import SeededShuffler
from engine.simulate import chooser_from_view, play_game

ONE_OF_EACH: list[Event] = [
    GameCreated(4, Options(end_score=100, closer_penalty=True)),
    PlayerJoined(2, "Zoë «the closer» 🃏"),
    RoundDealt(3, SeededShuffler(1).deal_order(3)),
    CardRevealed(1, 3, 2, -2),
    PlayStarted(2, 3),
    CardDrawn(0, 12),
    DiscardTaken(1, -1),
    CardReplaced(2, 1, 0, 5, -2),
    DrawnCardDiscarded(3, 0),
    ColumnRemoved(1, 2, 7),
    DrawPileReshuffled((3, 2, 1, 0, -1)),
    TurnPassed(3, 0),
    FinalTurnsBegan(2),
    RoundEnded(
        round=2,
        closer_seat=1,
        grids=((1, 2, None, None, None, 3, 4, 5, 6, 7, 8, 9), (0,) * 12),
        raw_scores=(45, 0),
        round_scores=(45, 0),
        closer_doubled=False,
        totals=(80, 12),
    ),
    GameEnded((101, 40, 40), (1, 2)),
    PlayerLeft(1),
    SeatLeft(3, "greedy"),
    TurnTimedOut(0),
    SeatAbandoned(0, "random"),
    PlayerJoined(5, "Statistician bot", "statistician"),
    GameCanceled("declined"),
]


def through_json(event: Event) -> Event:
    stored = json.dumps(
        {"type": event_type(event), "version": schema_version(event), "data": event_to_data(event)}
    )
    loaded = json.loads(stored)
    return event_from_data(loaded["type"], loaded["data"], loaded["version"])


def test_one_of_each_covers_every_event_type() -> None:
    assert {event_type(event) for event in ONE_OF_EACH} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", ONE_OF_EACH, ids=event_type)
def test_event_json_round_trip(event: Event) -> None:
    back = through_json(event)
    assert back == event
    assert type(back) is type(event)
    assert hash(back) == hash(event)  # tuples again, not lists
    assert schema_version(back) == type(event).SCHEMA_VERSION
    assert event_from_data(event_type(event), event_to_data(event)) == event


def test_game_created_schema_1_is_upcast_to_nested_options() -> None:
    """The real schema change of GameCreated: v1 kept the options at the top level."""
    v1 = {"seats": 3, "end_score": 60, "closer_penalty": False}
    assert upcast("GameCreated", 1, dict(v1)) == {
        "seats": 3,
        "options": {"end_score": 60, "closer_penalty": False},
    }
    event = event_from_data("GameCreated", v1, version=1)
    assert event == GameCreated(3, Options(end_score=60, closer_penalty=False))
    assert event_to_data(event) == {
        "seats": 3,
        "options": {
            "end_score": 60,
            "closer_penalty": False,
            "turn_seconds": None,
            "max_timeouts": 3,
        },
    }


def test_player_joined_schema_1_is_a_person() -> None:
    """Schema 2 added `bot`: every seat of a schema 1 log was a person's (and a guest's)."""
    assert upcast("PlayerJoined", 1, {"seat": 1, "name": "Ada"}) == {
        "seat": 1,
        "name": "Ada",
        "bot": None,
        "account": None,
    }
    assert event_from_data("PlayerJoined", {"seat": 1, "name": "Ada"}, 1) == PlayerJoined(1, "Ada")
    joined = {"seat": 1, "name": "Ada", "bot": None, "account": None}
    assert event_to_data(PlayerJoined(1, "Ada")) == joined


def test_player_joined_schema_2_is_a_guest() -> None:
    """Schema 3 added `account`: every seat of a schema 2 log was a guest's."""
    v2 = {"seat": 0, "name": "Bot", "bot": "greedy"}
    assert upcast("PlayerJoined", 2, dict(v2)) == {**v2, "account": None}
    assert event_from_data("PlayerJoined", v2, 2) == PlayerJoined(0, "Bot", "greedy")
    with pytest.raises(ValueError):
        upcast("PlayerJoined", 2, {**v2, "account": "ada"})
    assert PlayerJoined(0, "Ada", None, "ada").account == "ada"


def test_closer_schema_1_is_upcast_to_closer_seat() -> None:
    """FinalTurnsBegan and RoundEnded schema 1 named the closing seat `closer`; schema 2 uses
    the views' name, `closer_seat`, and keeps every other field as it was."""
    assert event_from_data("FinalTurnsBegan", {"closer": 2}, version=1) == FinalTurnsBegan(2)
    ended = event_to_data(ONE_OF_EACH[13])
    v1 = {("closer" if key == "closer_seat" else key): value for key, value in ended.items()}
    assert "closer_seat" not in v1 and v1["closer"] == 1
    assert upcast("RoundEnded", 1, dict(v1)) == ended
    assert event_from_data("RoundEnded", v1, version=1) == ONE_OF_EACH[13]
    assert schema_version(ONE_OF_EACH[13]) == schema_version(FinalTurnsBegan(2)) == 2


def test_payload_is_plain_json_data() -> None:
    data = event_to_data(ONE_OF_EACH[13])
    assert data["grids"][0][2] is None
    assert isinstance(data["grids"], list) and isinstance(data["grids"][0], list)
    assert json.loads(json.dumps(data)) == data


def test_a_whole_game_log_round_trips_and_replays_the_same() -> None:
    played = play_game([chooser_from_view(GreedyPlayer()) for _ in range(3)], seed=11)
    back = [through_json(event) for event in played.events]
    assert back == played.events
    assert replay(back) == played.state


def test_unknown_event_type() -> None:
    with pytest.raises(UnknownEventType):
        event_from_data("CardEaten", {"seat": 0})
    with pytest.raises(UnknownEventType):
        upcast("CardEaten", 1, {})


def test_payload_of_the_wrong_shape() -> None:
    with pytest.raises(TypeError):
        event_from_data("TurnPassed", {"seat": 0})
    with pytest.raises(TypeError):
        event_from_data("TurnPassed", {"seat": 0, "next_seat": 1, "extra": 2})
    with pytest.raises(TypeError):
        event_from_data("TurnPassed", [0, 1])  # type: ignore[arg-type]


def test_version_newer_than_the_code_is_refused() -> None:
    with pytest.raises(ValueError, match="no schema version 2"):
        event_from_data("TurnPassed", {"seat": 0, "next_seat": 1}, version=2)


def test_current_version_needs_no_upcaster() -> None:
    data = {"seat": 0, "next_seat": 1}
    assert upcast("TurnPassed", 1, dict(data)) == data


def test_upcasters_bring_an_old_payload_to_the_current_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fake schema history for TurnPassed: v1 {"from", "to"}, v2 {"seat", "to"}, now v3."""

    def v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
        return {"seat": data["from"], "to": data["to"]}

    def v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
        return {"seat": data["seat"], "next_seat": data["to"]}

    monkeypatch.setattr(TurnPassed, "SCHEMA_VERSION", 3)
    monkeypatch.setitem(UPCASTERS, ("TurnPassed", 1), v1_to_v2)
    monkeypatch.setitem(UPCASTERS, ("TurnPassed", 2), v2_to_v3)

    assert event_from_data("TurnPassed", {"from": 2, "to": 3}, version=1) == TurnPassed(2, 3)
    assert event_from_data("TurnPassed", {"seat": 2, "to": 3}, version=2) == TurnPassed(2, 3)
    current = {"seat": 2, "next_seat": 3}
    assert event_from_data("TurnPassed", current, version=3) == TurnPassed(2, 3)
    assert schema_version(TurnPassed(2, 3)) == 3
    # Other types are untouched.
    assert event_from_data("PlayerJoined", {"seat": 1, "name": "A"}, 2) == PlayerJoined(1, "A")


def test_missing_upcaster_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(FinalTurnsBegan, "SCHEMA_VERSION", 3)
    with pytest.raises(KeyError):
        event_from_data("FinalTurnsBegan", {"closer_seat": 1}, version=2)


def test_events_are_immutable() -> None:
    event = TurnPassed(0, 1)
    with pytest.raises(AttributeError):
        event.seat = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("type_name", "payload"),
    [
        ("GameCreated", {"seats": 2, "end_score": 100, "options": {"end_score": 50}}),
        ("RoundEnded", {"round": 1, "closer": 0, "closer_seat": 1}),
        ("FinalTurnsBegan", {"closer": 0, "closer_seat": 1}),
        ("PlayerJoined", {"seat": 0, "name": "A", "bot": "greedy"}),
    ],
)
def test_an_old_payload_with_the_new_fields_too_is_refused(
    type_name: str, payload: dict[str, object]
) -> None:
    """An upcaster never drops or overrides a field: such a payload is neither version."""
    with pytest.raises(ValueError):
        event_from_data(type_name, payload, 1)


def test_the_events_faster_init_builds_the_same_frozen_events() -> None:
    """`slots.fast_init` (issue 26): the same parameters and defaults, by position or by name,
    frozen, equal, picklable and `dataclasses.replace`-able as the dataclass's own `__init__`."""
    for cls in EVENT_TYPES.values():  # each fills its slots, no `object.__setattr__`
        assert all(name.startswith("set_") for name in cls.__init__.__code__.co_names)
    event = CardReplaced(1, 2, 0, 5, 7)
    assert event == CardReplaced(seat=1, column=2, row=0, value=5, replaced=7)
    assert pickle.loads(pickle.dumps(event)) == event == copy.deepcopy(event)
    assert dataclasses.replace(event, seat=0) == CardReplaced(0, 2, 0, 5, 7)
    assert PlayerJoined(0, "Ann") == PlayerJoined(0, "Ann", None, None)
    assert PlayerJoined(0, "Ann", account="ann").account == "ann"
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seat = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        CardReplaced(1, 2)  # type: ignore[call-arg]

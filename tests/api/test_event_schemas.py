"""Every event has a named schema for each shape it can take, and real games keep to them.

The committed openapi.yaml is read as a client author reads it: each event of a complete
4-seat game, from `/events` (as every seat and as a spectator, unfinished and finished) and
from `/history`, must validate against the member of its `type` (`RoundDealtEvent`,
`RoundDealtHistoryEvent`...) and against the `oneOf` itself, and its payload against the
variant expected for that viewer and moment (`RoundDealtRedacted` while the game runs,
`RoundDealt` once it is finished).
"""

from __future__ import annotations

import json
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from rest_framework.test import APIClient

from engine import (
    EVENT_TYPES,
    event_for_viewer,
    event_to_data,
    event_type,
)
from engine.events import UPCASTERS

from .every_event import (
    CANCELED_EVENTS,
    END_SCORE,
    PLAY_EVENTS,
    SEAT_EVENTS,
    SEATS,
    SEED,
    Plan,
    canceled_plan,
    game_plan,
    history_document,
    seats_plan,
)
from .support import GAMES, bearer, start_game
from .support import act as act_over_http

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = yaml.safe_load((ROOT / "openapi.yaml").read_text())
COMPONENTS = SCHEMA["components"]["schemas"]
REDACTED = {"RoundDealt", "DrawPileReshuffled"}


# Reading the schema as JSON Schema


def as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's `nullable: true` as JSON Schema says it (3.1 schemas have none)."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: as_json_schema(value) for key, value in node.items() if key != "nullable"}
    if not node.get("nullable"):
        return converted
    if "type" in converted:
        converted["type"] = [converted["type"], "null"]
        return converted
    return {"anyOf": [converted, {"type": "null"}]}


def inlined(node: Any) -> Any:
    """The node with every `#/components/schemas/...` $ref replaced by its target (the event
    schemas are not recursive): validating without reference lookups is many times faster."""
    if isinstance(node, list):
        return [inlined(item) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = inlined(COMPONENTS[node["$ref"].removeprefix("#/components/schemas/")])
        rest = {key: inlined(value) for key, value in node.items() if key != "$ref"}
        return {"allOf": [target], **rest} if rest else target
    return {key: inlined(value) for key, value in node.items()}


@cache
def validator(component: str) -> Draft202012Validator:
    """Validates against `#/components/schemas/<component>` as JSON Schema."""
    return Draft202012Validator(as_json_schema(inlined(COMPONENTS[component])))


def valid(component: str, instance: Any) -> bool:
    return bool(validator(component).is_valid(instance))


def assert_valid(component: str, instance: Any) -> None:
    errors = sorted(validator(component).iter_errors(instance), key=str)
    assert not errors, f"{component}: {errors[0].message} in {instance}"


def nullable(schema: dict[str, Any]) -> bool:
    """Whether a property admits null, as OpenAPI 3.0 (`nullable`) or 3.1 (a type list) says."""
    return schema.get("nullable") is True or "null" in schema.get("type", [])


def payload_shapes(member: str) -> list[str]:
    """The component names a member's `data` may take (a $ref, or a oneOf of them)."""
    data = COMPONENTS[member]["properties"]["data"]
    refs = data.get("oneOf") or data.get("allOf") or [data]
    return [ref["$ref"].rsplit("/", 1)[1] for ref in refs]


@pytest.fixture(scope="module")
def plan() -> Plan:
    """A 4-seat game with every event type of play (tests/api/every_event.py)."""
    planned = game_plan()
    events = planned.events
    assert {event_type(e) for e in events} == PLAY_EVENTS
    assert sum(1 for e in events if event_type(e) == "RoundEnded") == 2
    return planned


# Every type and field has a described schema


def test_every_event_type_and_field_has_a_described_schema() -> None:
    for name, cls in EVENT_TYPES.items():
        component = COMPONENTS[name]
        engine_fields = {f.name for f in fields(cls)}
        assert set(component["properties"]) == engine_fields, name
        assert set(component["required"]) == engine_fields, name
        assert component["additionalProperties"] is False, name
        assert component.get("description"), name
        for field, schema in component["properties"].items():
            assert schema.get("description"), f"{name}.{field} has no description"
        assert name in payload_shapes(f"{name}Event")
        assert name in payload_shapes(f"{name}HistoryEvent")


def test_the_feed_and_the_history_are_discriminated_by_type() -> None:
    for union, member in (("Event", "{}Event"), ("HistoryEvent", "{}HistoryEvent")):
        for component in (union, f"{union}Request") if union == "HistoryEvent" else (union,):
            suffix = component.removeprefix(union)
            schema = COMPONENTS[component]
            assert schema["discriminator"]["propertyName"] == "type"
            mapping = schema["discriminator"]["mapping"]
            assert set(mapping) == set(EVENT_TYPES)
            for name, ref in mapping.items():
                assert ref == f"#/components/schemas/{member.format(name)}{suffix}"
            assert [r["$ref"] for r in schema["oneOf"]] == list(mapping.values())
    for name in EVENT_TYPES:
        for member in (f"{name}Event", f"{name}HistoryEvent"):
            type_ref = COMPONENTS[member]["properties"]["type"]["allOf"][0]["$ref"]
            assert COMPONENTS[type_ref.rsplit("/", 1)[1]]["enum"] == [name]


def test_each_redaction_has_its_shape(plan: Plan) -> None:
    """Where `event_for_viewer` changes a payload's fields the feed offers a `...Redacted`
    shape with exactly those fields; where it hides a value, the value is nullable."""
    events = plan.events
    first = {event_type(e): e for e in reversed(events)}
    for name, event in first.items():
        full = event_to_data(event)
        shapes = payload_shapes(f"{name}Event")
        for viewer in (None, *range(SEATS)):
            seen = event_for_viewer(event, viewer, SEATS)
            if set(seen) != set(full):
                assert name in REDACTED
                assert shapes == [name, f"{name}Redacted"]
                assert set(COMPONENTS[f"{name}Redacted"]["properties"]) == set(seen)
            for field, value in seen.items():
                if value is None and full.get(field) is not None:
                    assert nullable(COMPONENTS[name]["properties"][field]), f"{name}.{field}"
    assert {name for name in EVENT_TYPES if len(payload_shapes(f"{name}Event")) > 1} == REDACTED


def test_older_schema_versions_are_accepted_by_the_history() -> None:
    for name, cls in EVENT_TYPES.items():
        member = COMPONENTS[f"{name}HistoryEvent"]
        assert member["properties"]["schema_version"]["maximum"] == cls.SCHEMA_VERSION
        older = [f"{name}Schema{v}" for v in range(1, cls.SCHEMA_VERSION) if (name, v) in UPCASTERS]
        assert payload_shapes(f"{name}HistoryEvent") == [name, *older]
        assert payload_shapes(f"{name}HistoryEventRequest") == [
            f"{shape}Request" for shape in [name, *older]
        ]
    assert {"closer"} <= set(COMPONENTS["RoundEndedSchema1"]["properties"])
    assert "closer_seat" not in COMPONENTS["FinalTurnsBeganSchema1"]["properties"]


# A real game's events against their schemas


def feed(client: APIClient, game_id: str, token: str | None) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        url = f"{GAMES}/{game_id}/events?after={len(events)}&limit=1000"
        page = client.get(url, **(bearer(token) if token else {})).json()["events"]
        events += page
        if not page:
            return events


def check_feed(events: list[dict[str, Any]], viewer: int | None, *, finished: bool) -> None:
    """Each event validates against its member and the union, and its payload against the
    shape expected for this viewer and moment (and not against the other). The union (its
    `oneOf` picks exactly one member) is checked once per type: it costs 15 validations."""
    union_checked = set()
    for event in events:
        name = event["type"]
        assert_valid(f"{name}Event", event)
        if name not in union_checked:
            assert_valid("Event", event)
            union_checked.add(name)
        data = event["data"]
        if name in REDACTED:
            full, redacted = name, f"{name}Redacted"
            expected, other = (full, redacted) if finished else (redacted, full)
            assert valid(expected, data) and not valid(other, data), (viewer, event)
        if name == "CardDrawn":
            hidden = not finished and viewer != data["seat"]
            assert (data["value"] is None) == hidden, (viewer, event)


def check_every_viewer(
    client: APIClient, game_id: str, tokens: list[str], *, finished: bool
) -> list[str]:
    """Checks the feed as the spectator and as each seat: the types of the events seen."""
    types = []
    for viewer, token in [(None, None), *enumerate(tokens)]:
        events = feed(client, game_id, token)
        check_feed(events, viewer, finished=finished)
        types += [event["type"] for event in events]
    return types


@pytest.mark.django_db
def test_a_four_seat_games_events_match_their_schemas(api: APIClient, plan: Plan) -> None:
    actions, events = plan.actions, plan.events
    game_id, tokens = start_game(api, SEATS, seed=SEED, end_score=END_SCORE)
    for seat, action in actions[:-1]:
        act_over_http(api, game_id, tokens[seat], action)
    unfinished = check_every_viewer(api, game_id, tokens, finished=False)
    assert set(unfinished) == PLAY_EVENTS - {"GameEnded"}  # a round ended already
    seat, action = actions[-1]
    act_over_http(api, game_id, tokens[seat], action)
    finished = check_every_viewer(api, game_id, tokens, finished=True)
    assert finished == [event_type(e) for e in events] * (SEATS + 1)

    document = api.get(f"{GAMES}/{game_id}/history").json()
    assert_valid("History", document)
    history = document["events"]
    assert [e["type"] for e in history] == [event_type(e) for e in events]
    for event in history:
        assert_valid(f"{event['type']}HistoryEvent", event)
        assert_valid("HistoryEvent", event)
        assert_valid(event["type"], event["data"])  # the current, full shape
    by_spectator = feed(api, game_id, None)
    assert [e["data"] for e in by_spectator] == [e["data"] for e in history]


@pytest.mark.django_db
def test_a_game_whose_seats_change_hands_matches_the_schemas(api: APIClient) -> None:
    """The seats' events (R13: a seat given up before the start, a bot's seat, a timeout that
    hands a seat to a bot, a player who leaves): imported unfinished and finished, their feed
    and history validate."""
    events = seats_plan()
    assert {event_type(e) for e in events} >= SEAT_EVENTS
    for upto, finished in ((len(events) // 2, False), (len(events), True)):
        imported = api.post(f"{GAMES}/import", history_document(events[:upto]), format="json")
        assert imported.status_code == 201, imported.content
        game_id = imported.json()["id"]
        check_feed(feed(api, game_id, None), None, finished=finished)
    assert [e["type"] for e in feed(api, game_id, None)] == [event_type(e) for e in events]
    document = api.get(f"{GAMES}/{game_id}/history").json()
    assert_valid("History", document)
    for event in document["events"]:
        assert_valid(f"{event['type']}HistoryEvent", event)
        assert_valid(event["type"], event["data"])


@pytest.mark.django_db
def test_a_canceled_game_matches_the_schemas_and_imports_as_canceled(api: APIClient) -> None:
    """A game called off before it started (R13): its feed and history validate, its
    history is published (nothing is hidden), and an import of it is canceled too."""
    events = canceled_plan()
    assert {event_type(e) for e in events} >= CANCELED_EVENTS
    imported = api.post(f"{GAMES}/import", history_document(events), format="json")
    assert imported.status_code == 201, imported.content
    game_id = imported.json()["id"]
    assert imported.json()["status"] == "canceled"
    check_feed(feed(api, game_id, None), None, finished=True)
    document = api.get(f"{GAMES}/{game_id}/history").json()
    assert_valid("History", document)
    assert document["events"][-1]["data"] == {"reason": "declined"}
    for event in document["events"]:
        assert_valid(f"{event['type']}HistoryEvent", event)
    listed = api.get(f"{GAMES}?status=canceled").json()["results"]
    assert [game["id"] for game in listed] == [game_id]


def test_the_schema_1_fixtures_validate_as_history_items() -> None:
    """Old history files (schema 1 payloads) are valid import bodies, and their events valid
    history items (a history shows stored events as they were stored)."""
    for fixture in ("history_gamecreated_schema1.json", "history_closer_schema1.json"):
        document = json.loads((ROOT / "tests" / "fixtures" / fixture).read_text())
        assert_valid("HistoryRequest", document)
        for event in document["events"]:
            name, version = event["type"], event["schema_version"]
            if version < EVENT_TYPES[name].SCHEMA_VERSION:
                assert_valid(f"{name}HistoryEvent", event)
                assert_valid(f"{name}Schema{version}", event["data"])
                assert not valid(name, event["data"])

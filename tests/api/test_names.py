"""A player's name is accepted exactly when the schema's `JoinRequest` says it is valid: the
schema's pattern (checked here by an ECMA-262 regular expression engine, as a client's
validator would) and the server (`JoinSerializer`) agree on every string."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.api.inputs import (
    JoinSerializer,
)
from games.core.names import MAX_NAME_LENGTH, NAME_PATTERN, REFUSED_CATEGORIES

ROOT = Path(__file__).resolve().parents[2]
COMPONENTS = yaml.safe_load((ROOT / "openapi.yaml").read_text())["components"]["schemas"]


def inlined(node: Any) -> Any:
    """The schema with each `$ref` to a component replaced by the component (the join's
    `bot`, a `Strategy`)."""
    if isinstance(node, dict):
        if "$ref" in node:
            return inlined(COMPONENTS[node["$ref"].rsplit("/", 1)[1]])
        return {key: inlined(value) for key, value in node.items()}
    if isinstance(node, list):
        return [inlined(item) for item in node]
    return node


JOIN_REQUEST = inlined(COMPONENTS["JoinRequest"])
SCHEMA = jsonschema_rs.validator_for(JOIN_REQUEST)


def accepted(name: str) -> bool:
    return bool(JoinSerializer(data={"name": name}).is_valid())


def printable(name: str) -> bool:
    """The rule in words (games.names), independently of any regular expression."""
    return (
        1 <= len(name) <= MAX_NAME_LENGTH
        and not name.isspace()
        and all(
            unicodedata.category(char) not in REFUSED_CATEGORIES
            and len(unicodedata.normalize("NFC", char)) == 1
            for char in name
        )
    )


def test_the_schema_carries_the_servers_pattern() -> None:
    assert JOIN_REQUEST["properties"]["name"]["pattern"] == NAME_PATTERN


@settings(max_examples=300, deadline=None)
@given(st.from_regex(NAME_PATTERN, fullmatch=True).filter(lambda n: len(n) <= MAX_NAME_LENGTH))
def test_every_name_the_pattern_admits_is_accepted(name: str) -> None:
    form = JoinSerializer(data={"name": name})
    assert form.is_valid(), (name, form.errors)
    stored = form.validated_data["name"]
    assert 1 <= len(stored) <= MAX_NAME_LENGTH
    assert stored == unicodedata.normalize("NFC", stored) == stored.strip()


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=MAX_NAME_LENGTH + 2) | st.from_regex(NAME_PATTERN, fullmatch=True))
@example("Ada\n")
@example("  Zoe\u0301  ")
@example("\u00a0")
@example("\ufb2c")
@example("Ada\u200b")
@example("\U0001f600")
@example("\U000e0001")  # a tag character: format (Cf)
@example("\U00030000")  # CJK extension G: assigned since Unicode 13
@example("\U0003134b")  # unassigned in the server's Unicode database
def test_server_schema_and_rule_agree_on_every_string(name: str) -> None:
    assert accepted(name) == SCHEMA.is_valid({"name": name}) == printable(name), name


@pytest.mark.parametrize(
    ("body", "valid"),
    [
        ({"name": "Ada"}, True),
        ({"name": "Ada", "seat": 1}, False),
        ({}, False),
        ({"bot": "greedy"}, True),
        ({"bot": "greedy", "name": "Ada"}, True),
        ({"bot": "deep-blue"}, False),
        ({"bot": None}, False),
    ],
)
def test_the_schema_is_the_whole_request(body: dict[str, Any], valid: bool) -> None:
    assert SCHEMA.is_valid(body) == valid == JoinSerializer(data=body).is_valid()

"""The base of every shape that holds exactly its fields."""

from __future__ import annotations

from rest_framework import serializers


class ClosedShape(serializers.Serializer):
    """A shape with exactly its fields: the schema says `additionalProperties: false`
    (games.schema's extension), for request bodies that refuse unknown fields and for event
    payloads, where a new field makes a new schema version."""

"""play's door hands out its names at their first use (Django imports the app's package
before its models are ready): every name it lists is there, and nothing else is."""

from __future__ import annotations

import importlib

import pytest

import play


def test_every_name_of_the_door_is_its_module_s() -> None:
    assert set(play._DOOR) == set(play.__all__)
    for name, module in play._DOOR.items():
        assert getattr(play, name) is getattr(importlib.import_module(module), name)


def test_a_name_the_door_lacks_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'store'"):
        play.store  # noqa: B018

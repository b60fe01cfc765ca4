"""`rusher`: ends rounds fast. It takes low cards, turns cards in the columns closest to done,
and closes as soon as it expects to be lowest at even odds."""

from __future__ import annotations

from .planner import Planner, Style


class Rusher(Planner):
    """The `rusher` strategy."""

    style = Style(hurry=2.0, finish_columns=0.5, clear_weight=0.5, close_at=0.5)

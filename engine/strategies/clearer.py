"""`clearer`: builds columns of three equal cards (R8). It values a pair by the chance of
clearing it, counted optimistically over a long round, and is in no hurry to end one."""

from __future__ import annotations

from .planner import Planner, Style


class Clearer(Planner):
    """The `clearer` strategy."""

    style = Style(clear_weight=1.5, turns_per_card=2.5, close_at=0.6)

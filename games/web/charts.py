"""Ratings drawn for the pages: a rating's mu ± 2·sigma as a bar, and a rating history as a line
chart with its band, both as plain geometry for server-rendered SVG (no script draws them).

Each drawing comes with its words (an accessible name, a description, the numbers), so a
screen reader hears what a sighted reader sees; colour is never the only cue.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: The bar's width in SVG units (it stretches to its cell's width).
BAR_WIDTH = 200.0
#: The scale every bar shares at least: OpenSkill's default rating, 25 ± 2 * 25/3, fits in it.
BAR_SCALE = (0.0, 50.0)
#: The chart's size in SVG units, and the margins of its plot (axis labels outside).
CHART_WIDTH, CHART_HEIGHT = 640.0, 260.0
LEFT, RIGHT, TOP, BOTTOM = 44.0, 12.0, 12.0, 34.0
#: A history longer than this is drawn by its last points (and its table lists those).
CHART_POINTS = 200


def signed(value: float) -> str:
    """A change as the pages say it: "+1.2", "-0.8", "±0.0"."""
    shown = f"{abs(value):.1f}"
    if shown == "0.0":
        return "±0.0"
    return f"+{shown}" if value > 0 else f"-{shown}"


def percent(chance: float) -> str:
    """A win chance as a whole percentage ("48%"; "<1%" rather than a misleading 0%)."""
    whole = round(chance * 100)
    if whole == 0 and chance > 0:
        return "<1%"
    return f"{whole}%"


def bar_scale(ratings: Sequence[dict[str, Any]]) -> tuple[float, float]:
    """One scale for every bar of a table (so that bars compare): `BAR_SCALE`, widened to
    hold each mu ± 2·sigma."""
    low = min([BAR_SCALE[0], *(r["mu"] - 2 * r["sigma"] for r in ratings)])
    high = max([BAR_SCALE[1], *(r["mu"] + 2 * r["sigma"] for r in ratings)])
    return math.floor(low), math.ceil(high)


def bar(rating: dict[str, Any], scale: tuple[float, float]) -> dict[str, Any]:
    """A rating's bar: from mu - 2·sigma to mu + 2·sigma, a tick at mu, and its words."""
    low, high = scale
    span = high - low

    def x(value: float) -> float:
        return round((value - low) / span * BAR_WIDTH, 2)

    mu, sigma = rating["mu"], rating["sigma"]
    start, end = x(mu - 2 * sigma), x(mu + 2 * sigma)
    return {
        "width": BAR_WIDTH,
        "x": start,
        "length": round(end - start, 2),
        "mu_x": x(mu),
        "mu": f"{mu:.1f}",
        "spread": f"{2 * sigma:.1f}",
        "label": f"Skill {mu:.1f}, likely between {mu - 2 * sigma:.1f} and {mu + 2 * sigma:.1f}",
    }


@dataclass(frozen=True)
class Axis:
    """The chart's vertical scale: its bounds and round ticks."""

    low: float
    high: float
    ticks: list[float]


def axis(values: Sequence[float]) -> Axis:
    """Round bounds around `values` and a tick every 1, 2, 5, 10... (at most 6 ticks)."""
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 1, high + 1
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500) if (high - low) / s <= 6)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    count = round((high - low) / step)
    return Axis(low, high, [low + i * step for i in range(count + 1)])


def history_chart(points: Sequence[dict[str, Any]], handle: str) -> dict[str, Any] | None:
    """The rating history (`ratings.reading.rating_history`) as a chart: mu as a line, one
    point per rated game, inside its mu ± 2·sigma band; None before any rated game."""
    if not points:
        return None
    drawn = list(points[-CHART_POINTS:])
    first = len(points) - len(drawn) + 1  # the number of the first game drawn
    scale = axis([p["mu"] + d * 2 * p["sigma"] for p in drawn for d in (-1, 1)])
    plot_w, plot_h = CHART_WIDTH - LEFT - RIGHT, CHART_HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + (plot_w / 2 if len(drawn) == 1 else plot_w * i / (len(drawn) - 1)), 2)

    def y(value: float) -> float:
        return round(TOP + plot_h * (scale.high - value) / (scale.high - scale.low), 2)

    upper = [f"{x(i)},{y(p['mu'] + 2 * p['sigma'])}" for i, p in enumerate(drawn)]
    lower = [f"{x(i)},{y(p['mu'] - 2 * p['sigma'])}" for i, p in enumerate(drawn)]
    dots = [{"x": x(i), "y": y(p["mu"])} for i, p in enumerate(drawn)]
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "band": " ".join(upper + lower[::-1]),
        "line": " ".join(f"{d['x']},{d['y']}" for d in dots),
        "dots": dots if len(drawn) <= 60 else [],  # beyond, the line says it alone
        "ticks": [{"y": y(t), "label": f"{t:g}"} for t in scale.ticks],
        "left": LEFT,
        "right": CHART_WIDTH - RIGHT,
        "middle": (LEFT + CHART_WIDTH - RIGHT) / 2,
        "tick_x": LEFT - 6,
        "label_y": CHART_HEIGHT - BOTTOM + 16,
        "x_first": {"x": x(0), "label": str(first)},
        "x_last": {"x": x(len(drawn) - 1), "label": str(len(points))},
        "title": f"Rating history of {handle}",
        "desc": _description(points, drawn),
    }


def _description(points: Sequence[dict[str, Any]], drawn: Sequence[dict[str, Any]]) -> str:
    """The chart in words: how many games, where the skill started and ended, and its range."""
    games = len(points)
    start, end = drawn[0], drawn[-1]
    which = f"the last {len(drawn)} of {games}" if len(drawn) < games else f"{games}"
    plural = "s" if games != 1 else ""
    return (
        f"Skill (mu) after each of {which} rated game{plural}, with a band of ± 2 sigma: "
        f"{start['mu']:.1f} ± {2 * start['sigma']:.1f} after game {games - len(drawn) + 1}, "
        f"{end['mu']:.1f} ± {2 * end['sigma']:.1f} after game {games}. "
        "The table below lists every point drawn."
    )

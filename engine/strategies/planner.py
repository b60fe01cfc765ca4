"""The one-move lookahead the stronger strategies share: every legal action is scored by how
many points it is expected to save, from what the seat knows of the unseen cards
(`Knowledge`) and a `Style` (how much it values clearing columns, hurrying, closing).

A grid is scored column by column: the face-up cards, each face-down card at the mean of the
unseen cards, less the chance of clearing a pair (R8) times the points the clear would save.
A draw is worth the mean, over the unseen cards, of the best use of each; the reveal after a
discard the mean, over the unseen cards, of the column it leaves. An action that would end the
round (R10) is taken only when the seat expects to be strictly lowest often enough, the
doubling penalty (R11) in mind.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..actions import (
    DISCARD,
    DRAW,
    REPLACES,
    REVEALS,
    TAKE_DISCARD,
    Action,
    Draw,
    Replace,
    TakeDiscard,
)
from ..cards import CARD_COUNTS, ROWS
from ..state import DECK, PLAYING
from ..view import FACE_DOWN, FACE_UP, REMOVED, Cell, GameView
from .counting import DiscardPile, discard_pile
from .greedy import greedy_action
from .seen import Seen

#: Card values, low to high (R1); `Knowledge.left` is indexed alike.
VALUES: tuple[int, ...] = tuple(sorted(CARD_COUNTS))
#: A column as the seat knows it: 3 cells (a face-up value, or None face down); None if removed.
Column = list[int | None] | None
#: `Table.gifts`' key for the mean use of an unseen card to the next seat (no card value).
_BASELINE = 99
#: A pair is worth at most this share of its column's clear: a clear in hand beats one hoped.
MAX_HOPE = 0.9
#: Never close (or break a rule of the style) while anything else is legal.
FORBIDDEN = -1_000.0
#: Turns into a round (every seat's) after which a planner only hurries to close it: two
#: planners can otherwise trade a 4 and a 5 through the discard pile forever.
RUSH_AFTER = 150


class Knowledge(NamedTuple):
    """What the seat believes of a card it has not seen: copies of each value left unseen,
    their number, mean and variance."""

    left: tuple[int, ...]
    unseen: int
    mean: float
    variance: float


def knowledge(seen_counts: dict[int, int]) -> Knowledge:
    """The unseen cards: the whole deck (R1) less the cards counted as seen."""
    left = tuple(max(0, CARD_COUNTS[v] - seen_counts.get(v, 0)) for v in VALUES)
    unseen = sum(left)
    if unseen == 0:  # cannot happen with 150 cards, but never divide by zero
        left, unseen = tuple(CARD_COUNTS[v] for v in VALUES), sum(CARD_COUNTS.values())
    mean = sum(v * n for v, n in zip(VALUES, left, strict=True)) / unseen
    variance = sum(n * (v - mean) ** 2 for v, n in zip(VALUES, left, strict=True)) / unseen
    return Knowledge(left, unseen, mean, variance)


def face_up_counts(view: GameView) -> dict[int, int]:
    """Copies of each value face up on the table now, the held card included when shown."""
    counts: dict[int, int] = {}
    for player in view.players:
        for cells in player.grid:
            for cell in cells:
                if cell.state == FACE_UP and cell.value is not None:
                    counts[cell.value] = counts.get(cell.value, 0) + 1
    held = view.held_card
    if held is not None and held.value is not None:
        counts[held.value] = counts.get(held.value, 0) + 1
    return counts


@dataclass(frozen=True)
class Style:
    """How a strategy weighs what the planner computes."""

    #: Weight of a pair's expected clear (R8) in a column's score.
    clear_weight: float = 1.0
    #: Points a face-down card fewer is worth (positive: hurry the round's end).
    hurry: float = 0.0
    #: Expected turns left, per face-down card of the seat nearest to closing.
    turns_per_card: float = 1.5
    #: The chance of being strictly lowest needed to close a round (R10, R11); None: always.
    close_at: float | None = 0.75
    #: Extra points needed to take the discard rather than draw.
    take_margin: float = 0.0
    #: Weight of what a card left on the discard pile is worth to the next seat.
    deny: float = 0.0
    #: Points per face-up card already in a column, for turning one more card there.
    finish_columns: float = 0.0
    #: Turns into a round after which `close_at` falls, by `patience_step` a turn, so that
    #: two seats that both wait for better odds cannot stall a round forever.
    patience: int = 40
    patience_step: float = 0.02


class Table(NamedTuple):
    """One decision's facts: the seat's columns and what it knows of the others."""

    columns: list[Column]
    knowledge: Knowledge
    turns: float  # expected turns left for the seat (0: this is its last)
    final: bool  # someone has closed: this is the seat's last turn (R10)
    close_at: float | None  # the chance of being strictly lowest needed to close now (None:
    # any: no doubling penalty, R12)
    costs: dict[tuple[int | None, ...], float]  # column_cost by column, for this decision
    down: int  # the seat's face-down cards
    opponents: list[tuple[int, int, int]]  # each other seat: face-up sum, face-down, highest
    following: list[Column]  # the columns of the next seat, who may take what this one leaves
    gifts: dict[int, float]  # `Planner._gift` by card value, for this decision


def read_table(view: GameView, known: Knowledge, style: Style, turns_played: int) -> Table:
    """The facts of `view` (`turns_played` in the round so far) that the planner scores with."""
    me = view.you
    assert me is not None
    columns = _columns(view.players[me].grid)
    opponents = []
    nearest = _face_down(columns)
    following = _columns(view.players[(me + 1) % view.seats].grid)
    for player in view.players:
        if player.seat == me:
            continue
        shown = [c.value for col in player.grid for c in col if c.state == FACE_UP]
        down = sum(1 for col in player.grid for c in col if c.state not in (FACE_UP, REMOVED))
        values = [v for v in shown if v is not None]
        opponents.append((sum(values), down, max(values, default=0)))
        nearest = min(nearest, down)
    final = view.closer_seat is not None
    turns = 0.0 if final else style.turns_per_card * nearest + 1.0
    close_at = style.close_at
    if not view.options.get("closer_penalty", True):
        close_at = None  # R12: no doubling, nothing to fear in closing
    elif close_at is not None:
        close_at -= style.patience_step * max(0, turns_played - style.patience)
    down = _face_down(columns)
    return Table(columns, known, turns, final, close_at, {}, down, opponents, following, {})


def _columns(grid: Sequence[Sequence[Cell]]) -> list[Column]:
    """A grid's columns as a seat knows them."""
    return [
        None
        if cells[0].state == REMOVED
        else [c.value if c.state == FACE_UP else None for c in cells]
        for cells in grid
    ]


def _known_sum(col: Column) -> int:
    return 0 if col is None else sum(v for v in col if v is not None)


def _face_down(columns: Sequence[Column]) -> int:
    return sum(1 for col in columns if col is not None for v in col if v is None)


def clear_chance(value: int, third_unseen: bool, table: Table) -> float:
    """The chance a pair of `value` becomes a cleared column before the round is scored: a
    copy shows on the draw pile or the discard in a turn left, or turns up at the end."""
    known = table.knowledge
    share = known.left[value - VALUES[0]] / known.unseen
    per_turn = min(1.0, 2.0 * share)
    chance = 1.0 - (1.0 - per_turn) ** table.turns
    if third_unseen:
        chance = chance + (1.0 - chance) * share
    return chance


def column_cost(col: Column, table: Table, style: Style) -> float:
    """Expected points a column will score, less the expected saving of clearing it; kept
    for the decision, since a draw's value scores the same columns many times."""
    if col is None:
        return 0.0
    key = tuple(col)
    cost = table.costs.get(key)
    if cost is None:
        cost = table.costs[key] = _column_cost(col, table, style)
    return cost


def _column_cost(col: list[int | None], table: Table, style: Style) -> float:
    a, b, c = col
    if a is not None and a == b == c:
        return 0.0  # three equal face-up cards are removed (R8)
    mean = table.knowledge.mean
    cost = (mean if a is None else a) + (mean if b is None else b) + (mean if c is None else c)
    pair = _pair(a, b, c)
    if pair is not None and pair[0] > 0:
        value, third = pair
        saving = 2 * value + (mean if third is None else third)
        hope = min(MAX_HOPE, style.clear_weight * clear_chance(value, third is None, table))
        cost -= hope * saving  # always less than clearing it now saves
    return cost


def _pair(a: int | None, b: int | None, c: int | None) -> tuple[int, int | None] | None:
    """(value, the third cell) when two face-up cards of a column are equal."""
    if a is not None and a == b:
        return a, c
    if a is not None and a == c:
        return a, b
    if b is not None and b == c:
        return b, a
    return None


def _with(col: list[int | None], row: int, value: int) -> list[int | None]:
    changed = list(col)
    changed[row] = value
    return changed


class Choice(NamedTuple):
    gain: float
    action: Action


class Planner:
    """A strategy that takes, each move, the legal action the planner scores best."""

    style: Style = Style()

    def knowledge(self, view: GameView, pile: DiscardPile) -> Knowledge:
        """What the seat believes of the unseen cards: by default, the deck less the cards
        face up on the table now (no memory of what went by)."""
        return knowledge(face_up_counts(view))

    def choose(self, seen: Seen) -> Action:
        view = seen.view
        legal = view.legal_actions
        if view.you is None or not legal:
            raise ValueError("nothing to choose")
        if view.status != PLAYING:
            return greedy_action(view)  # setup reveals (R4.3): spread over the columns
        pile = discard_pile(seen.history)
        kind = type(legal[0])
        if pile.turns >= RUSH_AFTER:
            return _rush(view, kind)
        table = read_table(view, self.knowledge(view, pile), self.style, pile.turns)
        if kind is Draw or kind is TakeDiscard:
            return self._draw_or_take(view, table)
        held = view.held_card
        if held is not None and held.value is not None:
            return self._place(table, held.value, can_discard=held.source == DECK).action
        return self._best_reveal(table).action

    def _draw_or_take(self, view: GameView, table: Table) -> Action:
        top = view.discard_top
        if top is None:
            return DRAW
        take = self._place(table, top, can_discard=False)
        if take.gain >= self._draw_value(table) + self.style.take_margin:
            return TAKE_DISCARD
        return DRAW

    def _draw_value(self, table: Table) -> float:
        """The mean, over the unseen cards, of the best use of the card drawn."""
        known = table.knowledge
        reveal = self._best_reveal(table).gain
        total = 0.0
        for value, copies in zip(VALUES, known.left, strict=True):
            if copies:
                total += copies * self._place(table, value, True, reveal).gain
        return total / known.unseen

    def _place(
        self, table: Table, value: int, can_discard: bool, reveal: float | None = None
    ) -> Choice:
        """The best place for a held card, or discarding it (then the best reveal)."""
        best = Choice(-math.inf, DISCARD)
        if can_discard:
            gain = self._best_reveal(table).gain if reveal is None else reveal
            best = Choice(gain - self._gift(table, value), DISCARD)
        for index, col in enumerate(table.columns):
            if col is None:
                continue
            before = column_cost(col, table, self.style)
            for row in range(ROWS):
                after = _with(col, row, value)
                gain = before - column_cost(after, table, self.style)
                left = col[row]
                if left is None:
                    gain += self._down_gain(table, index, after)
                else:  # the replaced card (or a cleared column's value) tops the discard pile
                    gain -= self._gift(table, value if after[0] == after[1] == after[2] else left)
                if gain > best.gain:
                    best = Choice(gain, REPLACES[index * ROWS + row])
        return best

    def _gift(self, table: Table, value: int) -> float:
        """What leaving `value` on top of the discard pile gives the next seat: how much more
        it saves taking it than an unseen card would, weighted by `Style.deny`."""
        if not self.style.deny:
            return 0.0
        gift = table.gifts.get(value)
        if gift is None:
            baseline = table.gifts.get(_BASELINE)
            if baseline is None:
                known = table.knowledge
                uses = (n * self._use(table, v) for v, n in zip(VALUES, known.left, strict=True))
                baseline = table.gifts[_BASELINE] = sum(uses) / known.unseen
            gift = table.gifts[value] = self.style.deny * max(
                0.0, self._use(table, value) - baseline
            )
        return gift

    def _use(self, table: Table, value: int) -> float:
        """The most the next seat's grid saves with `value` in place of one of its cards."""
        best = 0.0
        for col in table.following:
            if col is None:
                continue
            before = column_cost(col, table, self.style)
            for row in range(ROWS):
                best = max(best, before - column_cost(_with(col, row, value), table, self.style))
        return best

    def _best_reveal(self, table: Table) -> Choice:
        """The face-down card whose reveal leaves the best column, on average."""
        known = table.knowledge
        best = Choice(-math.inf, DISCARD)
        for index, col in enumerate(table.columns):
            if col is None:
                continue
            before = column_cost(col, table, self.style)
            for row in range(ROWS):
                if col[row] is not None:
                    continue
                total = 0.0
                for value, copies in zip(VALUES, known.left, strict=True):
                    if copies:
                        total += copies * column_cost(_with(col, row, value), table, self.style)
                gain = before - total / known.unseen
                unknown = list(col)  # the revealed card, still unknown: None
                gain += self._down_gain(table, index, unknown)
                if gain > best.gain:
                    best = Choice(gain, REVEALS[index * ROWS + row])
        return best

    def _down_gain(self, table: Table, index: int, after: list[int | None]) -> float:
        """What turning one more card face up (in column `index`, leaving `after`; None for a
        card still unknown) is worth beyond its points: hurrying, finishing the columns
        nearest to done, and whether it ends the round (R10)."""
        if table.final:
            return 0.0
        if table.down > 1:
            done = 3 - (table.columns[index] or ()).count(None)
            return self.style.hurry + self.style.finish_columns * done
        return self._closing_gain(table, index, after)

    def _closing_gain(self, table: Table, index: int, after: list[int | None]) -> float:
        """Closing the round: allowed when the seat expects to be strictly lowest often
        enough, valued by what the doubling penalty (R11) is expected to cost."""
        mean = table.knowledge.mean
        mine: float = sum(_known_sum(col) for i, col in enumerate(table.columns) if i != index)
        a, b, c = after
        if not (a is not None and a == b == c):
            mine += sum(mean if v is None else v for v in after)
        close_at = table.close_at
        if close_at is None:
            return 0.0
        lowest = self.lowest_chance(table, mine)
        if lowest < close_at:
            return FORBIDDEN
        return -max(0.0, mine) * (1.0 - lowest)

    def lowest_chance(self, table: Table, mine: float) -> float:
        """The chance that `mine` is strictly below every other seat's final score: each
        scores its face-up cards, its face-down ones at the mean, less what its last turn is
        expected to save, give or take the spread of its face-down cards."""
        known = table.knowledge
        chance = 1.0
        for shown, down, highest in table.opponents:
            last_turn = max(1.0, highest - known.mean)
            expected = shown + down * known.mean - last_turn
            spread = math.sqrt(down * known.variance + 4.0)
            chance *= _normal_cdf((expected - mine - 0.5) / spread)
        return chance


def _rush(view: GameView, kind: type) -> Action:
    """Draw, and put every card on a face-down one: the round closes within 12 turns."""
    if kind is Draw or kind is TakeDiscard:
        return DRAW
    legal = view.legal_actions
    if kind is Replace and view.you is not None:
        for index, col in enumerate(view.players[view.you].grid):
            for row, cell in enumerate(col):
                if cell.state == FACE_DOWN:
                    return REPLACES[index * ROWS + row]
        return greedy_action(view)
    return legal[0]


def _normal_cdf(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))

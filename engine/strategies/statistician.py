"""`statistician`: counts the cards. The unseen cards are the deck (R1) less every card it
has seen face up, in the discard pile (followed through the history) or in its hand; from
them it weighs the draw pile against the discard, values each pair by the copies left, and
closes a round only when it expects to be strictly lowest (R10, R11)."""

from __future__ import annotations

from ..view import GameView
from .counting import DiscardPile
from .planner import Knowledge, Planner, Style, face_up_counts, knowledge


class Statistician(Planner):
    """The `statistician` strategy."""

    style = Style(close_at=0.75, deny=1.0)

    def knowledge(self, view: GameView, pile: DiscardPile) -> Knowledge:
        counts = face_up_counts(view)
        for value, copies in pile.counts().items():
            counts[value] = counts.get(value, 0) + copies
        return knowledge(counts)

"""The pages' forms: HTML fields with the API's bounds (engine.options, games.names), read
into the same values the API's input serializers give the services.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from engine import POSITION_KINDS, TURN_ACTION_KINDS
from engine.options import DEFAULT_END_SCORE, MAX_END_SCORE, MAX_SEATS, MIN_SEATS

from ..inputs import AnyActionSerializer
from ..names import MAX_NAME_LENGTH, is_valid_name, normalized_name

NAME_RULE = "1 to 40 printable characters, not only spaces."


class NameField(forms.CharField):
    """A player's name, by the API's rule (games.names), stored normalized as the API does."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_NAME_LENGTH)
        kwargs.setdefault("strip", False)  # the rule applies to the name as typed
        super().__init__(**kwargs)
        self.widget.attrs.update(autocomplete="nickname")

    def clean(self, value: Any) -> Any:
        value = super().clean(value)
        if value in (None, ""):
            return value
        if not is_valid_name(value):
            raise ValidationError(f"Names hold {NAME_RULE}")
        return normalized_name(value)


class CreateGameForm(forms.Form):
    """A new game: seats and rule options (R2, R12), and the creator's name to take the first
    seat at once (optional: leave it empty to open a table for others)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    seats = forms.IntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS, initial=2, label="Seats")
    end_score = forms.IntegerField(
        min_value=1,
        max_value=MAX_END_SCORE,
        initial=DEFAULT_END_SCORE,
        label="End score",
        help_text="The game ends after the round in which a total reaches it.",
    )
    closer_penalty = forms.BooleanField(
        required=False,
        initial=True,
        label="Closer penalty",
        help_text="Double the closer's round score unless it is strictly the lowest.",
    )
    name = NameField(required=False, label="Your name", help_text="Take the first seat (optional).")

    def options(self) -> dict[str, Any]:
        """The rule options as the API's `options` object (`Options(**options)`)."""
        return {
            "end_score": self.cleaned_data["end_score"],
            "closer_penalty": self.cleaned_data["closer_penalty"],
        }


class JoinForm(forms.Form):
    name = NameField(label="Your name")


def parse_move(move: str) -> dict[str, Any] | None:
    """A move button's value (`draw`, `replace:1:0`: `table.move_of`) as an action in the
    API's shape, checked by the API's own serializer; None if it is none."""
    kind, *where = move.split(":")
    if kind not in TURN_ACTION_KINDS or len(where) != (2 if kind in POSITION_KINDS else 0):
        return None
    data: dict[str, Any] = {"action": kind}
    if where:
        if not all(part.isdigit() and part.isascii() for part in where):
            return None
        data.update(column=int(where[0]), row=int(where[1]))
    form = AnyActionSerializer(data=data)
    return dict(form.validated_data) if form.is_valid() else None

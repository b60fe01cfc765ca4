"""The pages' forms: HTML fields with the API's bounds (engine.options, games.names), read
into the same values the API's input serializers give the services.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from accounts.handles import is_well_formed
from engine import POSITION_KINDS, TURN_ACTION_KINDS
from engine.options import (
    DEFAULT_END_SCORE,
    DEFAULT_MAX_TIMEOUTS,
    MAX_END_SCORE,
    MAX_MAX_TIMEOUTS,
    MAX_SEATS,
    MAX_TURN_SECONDS,
    MIN_MAX_TIMEOUTS,
    MIN_SEATS,
    MIN_TURN_SECONDS,
)
from games.api.inputs import AnyActionSerializer
from games.core.bots import STRATEGY_NAMES
from games.core.names import MAX_NAME_LENGTH, is_valid_name, normalized_name
from play.models import DeclineReason

NAME_RULE = "1 to 40 printable characters, not only spaces."
#: A seat's player in the create form: a person (who joins later, or the creator), or a bot.
PERSON = ""
BOT_CHOICES = [(PERSON, "A person"), *((name, f"Bot: {name}") for name in STRATEGY_NAMES)]


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
    name = NameField(
        required=False, label="Your name", help_text="Take the first person's seat (optional)."
    )
    private = forms.BooleanField(
        required=False,
        label="Private game",
        help_text="Left out of the lobby: its table's link, which you send, is the invitation.",
    )
    rated = forms.BooleanField(
        required=False,
        label="Rated game",
        help_text="Only accounts sit at it (people, bots, each once) and the result counts for "
        "their ratings.",
    )
    turn_seconds = forms.IntegerField(
        required=False,
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        label="Turn clock (seconds)",
        help_text="Empty: no clock. When a turn's time runs out, the server plays it.",
    )
    max_timeouts = forms.IntegerField(
        required=False,
        min_value=MIN_MAX_TIMEOUTS,
        max_value=MAX_MAX_TIMEOUTS,
        initial=DEFAULT_MAX_TIMEOUTS,
        label="Timeouts before a bot takes the seat",
        help_text="Turns in a row that run out; only with a clock.",
    )
    challenge = forms.CharField(
        required=False,
        max_length=200,
        label="Challenge players",
        help_text="Their handles, comma-separated: they are invited to the game (a seat held "
        "for each until they answer, 10 minutes), which stays out of the lobby's lists.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        for seat in range(MAX_SEATS):
            self.fields[seat_field(seat)] = forms.ChoiceField(
                choices=BOT_CHOICES, required=False, label=f"Seat {seat + 1}"
            )

    def seat_fields(self) -> list[forms.BoundField]:
        """The seats' choices (person or bot), for the template."""
        return [self[seat_field(seat)] for seat in range(MAX_SEATS)]

    def clean_challenge(self) -> list[str]:
        """The handles challenged (none: an open game), each well-formed."""
        handles = [part.strip() for part in self.cleaned_data["challenge"].split(",")]
        handles = [handle for handle in handles if handle]
        wrong = [handle for handle in handles if not is_well_formed(handle)]
        if wrong:
            raise ValidationError(f"Not a handle: {', '.join(wrong)}.")
        return handles

    def clean(self) -> dict[str, Any] | None:
        data = super().clean() or {}
        if "seats" in data:
            self.refuse_unseated_bots(data)
        if data.get("challenge"):  # the challenger sits first, whatever the order of the rest
            return data
        if "seats" in data and data.get("name") and self.all_bots(data):
            raise ValidationError(
                'You gave your name but every seat is a bot\'s: choose "A person" for one '
                "seat (yours), or leave your name empty to watch the bots play each other."
            )
        if data.get("rated") and "seats" in data and self.repeats_a_bot(data):
            raise ValidationError("A rated game seats each bot once: choose different bots.")
        if "seats" in data and self.bots(data) is None:
            raise ValidationError(
                "Bots sit before the seats left open for people: choose bots for the first "
                "seats (after yours), people for the last."
            )
        return data

    def bots(self, data: dict[str, Any] | None = None) -> list[str | None] | None:
        """Who takes the seats at once, in seat order: a strategy for a bot, None for the
        creator; None (no list) when a bot would come after a seat left open (seats are
        taken in order, so it could not sit where it was put)."""
        data = self.cleaned_data if data is None else data
        chosen = [data.get(seat_field(seat)) or PERSON for seat in range(data["seats"])]
        takers: list[str | None] = []
        creator = bool(data.get("name"))
        for seat, choice in enumerate(chosen):
            if choice == PERSON and not creator:
                return takers if all(c == PERSON for c in chosen[seat:]) else None
            takers.append(choice or None)
            creator = creator and choice != PERSON
        return takers

    @staticmethod
    def refuse_unseated_bots(data: dict[str, Any]) -> None:
        """A bot chosen for a seat the game does not have (beyond "Seats": the page hides its
        picker, but a browser without scripts shows them all) is refused, not dropped."""
        beyond = [
            f"Seat {seat + 1}"
            for seat in range(data["seats"], MAX_SEATS)
            if data.get(seat_field(seat)) not in (None, PERSON)
        ]
        if beyond:
            raise ValidationError(
                f"{' and '.join(beyond)}: a bot is chosen for a seat beyond the game's "
                f'{data["seats"]}: add seats, or choose "A person" there.'
            )

    @staticmethod
    def all_bots(data: dict[str, Any]) -> bool:
        """Whether every seat of the game is a bot's (no seat left for the creator)."""
        chosen = [data.get(seat_field(seat)) for seat in range(data["seats"])]
        return all(choice not in (None, PERSON) for choice in chosen)

    @staticmethod
    def repeats_a_bot(data: dict[str, Any]) -> bool:
        """Whether a strategy is chosen for two seats (a built-in bot is one account, which a
        rated game seats once, R14)."""
        chosen = [data.get(seat_field(seat)) for seat in range(data["seats"])]
        bots = [choice for choice in chosen if choice and choice != PERSON]
        return len(bots) != len(set(bots))

    def chosen_bots(self) -> list[str]:
        """The strategies chosen for the game's seats, in seat order (a challenge's bots)."""
        seats = range(self.cleaned_data["seats"])
        return [choice for seat in seats if (choice := self.cleaned_data.get(seat_field(seat)))]

    def options(self) -> dict[str, Any]:
        """The rule options as the API's `options` object (`Options(**options)`)."""
        return {
            "end_score": self.cleaned_data["end_score"],
            "closer_penalty": self.cleaned_data["closer_penalty"],
            "turn_seconds": self.cleaned_data["turn_seconds"],
            "max_timeouts": self.cleaned_data["max_timeouts"] or DEFAULT_MAX_TIMEOUTS,
        }


def seat_field(seat: int) -> str:
    return f"seat_{seat + 1}"


#: The lobby's "Play against bots": how many bots and which strategy, unless remembered.
DEFAULT_BOTS = 1
DEFAULT_STRATEGY = "greedy"
STRATEGY_CHOICES = [(name, name.capitalize()) for name in STRATEGY_NAMES]


class PlayBotsForm(forms.Form):
    """One click to a game against bots: the person in seat 1 and `bots` bots of `strategy`
    after them. A logged-in person sits under their handle (`person`): no name asked."""

    name = NameField(required=False, label="Your name")
    bots = forms.IntegerField(
        min_value=1, max_value=MAX_SEATS - 1, initial=DEFAULT_BOTS, label="Bots"
    )
    strategy = forms.ChoiceField(
        choices=STRATEGY_CHOICES, initial=DEFAULT_STRATEGY, label="Strategy"
    )

    def __init__(self, *args: Any, person: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", "bots-%s")  # beside the create form's fields
        super().__init__(*args, **kwargs)
        self.person = person
        if person is not None:
            del self.fields["name"]

    def clean(self) -> dict[str, Any] | None:
        data = super().clean() or {}
        if self.person is None and "name" in data and not data["name"]:
            self.add_error("name", "Give your name: it is your seat's at the table.")
        return data

    def remembered(self) -> dict[str, Any]:
        """What the lobby offers next time (kept in the session): the choice just made."""
        kept = {"bots": self.cleaned_data["bots"], "strategy": self.cleaned_data["strategy"]}
        if self.cleaned_data.get("name"):
            kept["name"] = self.cleaned_data["name"]
        return kept


class JoinForm(forms.Form):
    name = NameField(label="Your name")


class DeclineForm(forms.Form):
    """Why a challenge is declined (lichess's reasons, `DeclineReason`), shown to its
    challenger."""

    reason = forms.ChoiceField(choices=DeclineReason.choices, initial="generic", label="Reason")


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

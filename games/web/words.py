"""Events in words, for people: the table's "last action" and the replay's step.

Everything here reads events as one viewer may see them (`engine.event_for_viewer`'s data, the
shape `/events` shows), so a sentence never tells a card the viewer may not know. Positions
are said 1-based, as the page's cell names are: the API's `{"column": 1, "row": 0}` is
"column 2, row 1".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

#: One event as the viewer sees it: its type and its data.
Seen = tuple[str, dict[str, Any]]

#: The events each action starts with (engine.view's `_ACTION_OF`).
ACTION_STARTS = frozenset(
    {
        "PlayerJoined",
        "CardRevealed",
        "CardDrawn",
        "DiscardTaken",
        "CardReplaced",
        "DrawnCardDiscarded",
        "PlayerLeft",
        "SeatLeft",
        "TurnTimedOut",
    }
)
#: The events that say the service, not the seat's player, made the moves that follow.
TIMED_OUT = frozenset({"TurnTimedOut", "SeatAbandoned"})
#: What an action may cause, said after it; the rest (the turn passing) the page shows.
CONSEQUENCES = frozenset(
    {"ColumnRemoved", "FinalTurnsBegan", "PlayStarted", "RoundEnded", "RoundDealt", "GameEnded"}
)


@dataclass(frozen=True)
class Names:
    """Who is who in a sentence: the seats' names, the viewer's own seat said "You"."""

    names: Sequence[str | None]
    you: int | None = None

    def of(self, seat: int) -> str:
        if seat == self.you:
            return "You"
        name = self.names[seat] if 0 <= seat < len(self.names) else None
        return name or f"Seat {seat + 1}"

    def label(self, seat: int) -> str:
        """The seat's name in a list or a table: "Ada (you)" for the viewer."""
        name = self.names[seat] if 0 <= seat < len(self.names) else None
        name = name or f"Seat {seat + 1}"
        return f"{name} (you)" if seat == self.you else name

    def possessive(self, seat: int) -> str:
        return "your" if seat == self.you else f"{self.of(seat)}'s"

    def verb(self, seat: int, third_person: str, base: str) -> str:
        """`seat` as a subject with its verb: "Ada has", "You have"."""
        return f"{self.of(seat)} {base if seat == self.you else third_person}"


def position(data: dict[str, Any]) -> str:
    return f"column {data['column'] + 1}, row {data['row'] + 1}"


def card(value: int | None) -> str:
    """ "the 7", or "a card" when the viewer may not know it."""
    return "a card" if value is None else f"the {value}"


def listed(parts: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def _scores(data: dict[str, Any], names: Names) -> str:
    doubled, closer = data["closer_doubled"], data["closer_seat"]
    return ", ".join(
        f"{names.label(seat)} {score}{' (doubled)' if doubled and seat == closer else ''}"
        for seat, score in enumerate(data["round_scores"])
    )


def _winners(data: dict[str, Any], names: Names) -> str:
    winners = data["winners"]
    who = listed([names.of(seat) for seat in winners])
    alone = len(winners) == 1 and winners[0] != names.you
    stopped = " (no person was left: the bots played their rounds)"
    why = stopped if data.get("reason") == "round_limit" else ""
    return f"The game is over{why}: {who} {'wins' if alone else 'win'}."


def _dealt(data: dict[str, Any], names: Names) -> str:
    top = data.get("discard_top")
    start = "" if top is None else f"; the {top} starts the discard pile"
    return f"Round {data['round']} is dealt{start}."


def _removed(data: dict[str, Any], names: Names) -> str:
    owner = names.possessive(data["seat"])
    return f"Three {data['value']}s in {owner} column {data['column'] + 1} are removed."


def _final_turns(data: dict[str, Any], names: Names) -> str:
    closer = names.verb(data["closer_seat"], "has", "have")
    return f"{closer} no face-down card left: everyone else plays one more turn."


#: One sentence per event type, for the replay's steps (and an action's consequences).
EVENT_WORDS: dict[str, Callable[[dict[str, Any], Names], str]] = {
    "GameCreated": lambda d, n: (
        f"A game for {d['seats']} players is created: end score {d['options']['end_score']}, "
        f"closer penalty {'on' if d['options']['closer_penalty'] else 'off'}."
    ),
    "PlayerJoined": lambda d, n: (
        f"{n.of(d['seat'])} took seat {d['seat'] + 1}"
        + (f" (a {d['bot']} bot)." if d.get("bot") else ".")
    ),
    "RoundDealt": _dealt,
    "CardRevealed": lambda d, n: (
        f"{n.of(d['seat'])} turned up {card(d['value'])} at {position(d)}."
    ),
    "PlayStarted": lambda d, n: f"{n.verb(d['seat'], 'starts', 'start')} round {d['round']}.",
    "CardDrawn": lambda d, n: f"{n.of(d['seat'])} drew {card(d['value'])} from the draw pile.",
    "DiscardTaken": lambda d, n: f"{n.of(d['seat'])} took {card(d['value'])} from the discard.",
    "CardReplaced": lambda d, n: (
        f"{n.of(d['seat'])} placed {card(d['value'])} at "
        f"{position(d)}, replacing {card(d['replaced'])}."
    ),
    "DrawnCardDiscarded": lambda d, n: f"{n.of(d['seat'])} discarded {card(d['value'])}.",
    "ColumnRemoved": _removed,
    "DrawPileReshuffled": lambda d, n: (
        "The discard pile is shuffled into a new draw pile "
        f"of {d.get('deck_size', len(d.get('order', ())))} cards."
    ),
    "TurnPassed": lambda d, n: f"{n.possessive(d['next_seat']).capitalize()} turn.",
    "FinalTurnsBegan": _final_turns,
    "RoundEnded": lambda d, n: f"Round {d['round']} is over: {_scores(d, n)}.",
    "GameEnded": _winners,
    "PlayerLeft": lambda d, n: f"{n.of(d['seat'])} left: seat {d['seat'] + 1} is open again.",
    "SeatLeft": lambda d, n: f"{n.of(d['seat'])} left: the {d['bot']} bot plays the seat now.",
    "TurnTimedOut": lambda d, n: f"{n.of(d['seat'])} ran out of time.",
    "SeatAbandoned": lambda d, n: (
        f"{n.of(d['seat'])} ran out of time too often: the {d['bot']} bot plays the seat now."
    ),
    "GameCanceled": lambda d, n: f"The game is called off: {_CANCELED_WHY[d['reason']]}.",
}

#: Why a waiting game was called off (engine.events.CANCEL_REASONS), in words.
_CANCELED_WHY: dict[str, str] = {
    "declined": "an invitee declined the challenge",
    "canceled": "the challenger canceled the challenge",
    "expired": "the challenge expired unanswered",
}


def called_off(reason: str | None) -> str:
    """A canceled game's headline, saying why when its `GameCanceled` is known."""
    why = _CANCELED_WHY.get(reason or "")
    return f"This game was called off: {why}." if why else "This game was called off."


def event_words(kind: str, data: dict[str, Any], names: Names) -> str:
    """One event in a sentence (an event type this version does not know: its name)."""
    say = EVENT_WORDS.get(kind)
    return kind if say is None else say(data, names)


def _turn_start(events: Sequence[Seen], index: int) -> int:
    """Where the turn of the action at `index` began: a placement or a discard follows the
    draw or take just before it, a reveal after a discard the discard (events of one turn
    are adjacent in the log)."""
    kind = events[index][0]
    before = events[index - 1][0] if index > 0 else None
    if kind == "CardReplaced" and before in ("CardDrawn", "DiscardTaken"):
        return index - 1
    if kind == "DrawnCardDiscarded" and before == "CardDrawn":
        return index - 1
    if kind == "CardRevealed" and before == "DrawnCardDiscarded":
        return _turn_start(events, index - 1)
    return index


def _phrase(kind: str, data: dict[str, Any], first: bool) -> str:
    """One action of a turn as a verb phrase; after the first, the held card is "it"."""
    if kind == "CardDrawn":
        return f"drew {card(data['value'])}"
    if kind == "DiscardTaken":
        return f"took {card(data['value'])} from the discard"
    if kind == "CardReplaced":
        held = card(data["value"]) if first else "it"
        return f"placed {held} at {position(data)}, replacing {card(data['replaced'])}"
    if kind == "DrawnCardDiscarded":
        return f"discarded {card(data['value']) if first else 'it'}"
    if kind == "CardRevealed":
        return f"turned up {card(data['value'])} at {position(data)}"
    return f"took seat {data['seat'] + 1}"  # PlayerJoined


def turn_words(events: Sequence[Seen], names: Names) -> str:
    """The last action, with what the same turn did before it and what it caused: "Bob took
    the 5 from the discard and placed it at column 2, row 1, replacing the 9." `events` are
    the log's last few (a turn is at most eight events); "" when none is an action."""
    starts = [i for i, (kind, _) in enumerate(events) if kind in ACTION_STARTS]
    if not starts:
        return ""
    last = starts[-1]
    if events[last][0] not in _PHRASED:  # leaving, a turn's time running out: said whole
        return " ".join(event_words(kind, data, names) for kind, data in events[last:])
    begin = _turn_start(events, last)
    turn = [events[i] for i in range(begin, last + 1)]
    (kind, data), *rest = turn
    if kind == "CardDrawn" and data["value"] is None and rest:  # face up now: say it
        turn[0] = (kind, {**data, "value": rest[0][1]["value"]})
    if len(turn) == 1 and turn[0][0] == "CardDrawn":  # a card held: where it came from
        sentence = event_words(*turn[0], names)
    else:
        phrases = [_phrase(kind, data, i == 0) for i, (kind, data) in enumerate(turn)]
        sentence = f"{names.of(turn[0][1]['seat'])} {listed(phrases)}."
    caused = [
        event_words(kind, data, names) for kind, data in events[last + 1 :] if kind in CONSEQUENCES
    ]
    return " ".join([_timed_out(events[:begin], names), sentence, *caused]).lstrip()


#: The actions `_phrase` says as part of a turn.
_PHRASED = ACTION_STARTS - {"PlayerLeft", "SeatLeft", "TurnTimedOut"}


def _timed_out(before: Sequence[Seen], names: Names) -> str:
    """ "Ada ran out of time:" when the service played the turn (`TurnTimedOut` just before
    it), saying so when the seat went to a bot for good (`SeatAbandoned`); else ""."""
    kinds: dict[str, dict[str, Any]] = {}
    for kind, data in reversed(before):
        if kind not in TIMED_OUT:
            break
        kinds[kind] = data
    if "TurnTimedOut" not in kinds:
        return ""
    who = names.of(kinds["TurnTimedOut"]["seat"])
    abandoned = kinds.get("SeatAbandoned")
    bot = f" (the {abandoned['bot']} bot plays the seat from now on)" if abandoned else ""
    return f"{who} ran out of time{bot}:"


def idle_words(seconds: float) -> str:
    """How long a game has not moved, roughly, in its largest unit: "3 hours", "2 days"."""
    minutes = int(seconds // 60)
    for unit, size in (("day", 1440), ("hour", 60), ("minute", 1)):
        if minutes >= size:
            count = minutes // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return "less than a minute"

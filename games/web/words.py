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


#: The moves of a turn (and a join), said as verb phrases of one sentence by `_phrase`.
MOVES = frozenset(
    {
        "PlayerJoined",
        "CardRevealed",
        "CardDrawn",
        "DiscardTaken",
        "CardReplaced",
        "DrawnCardDiscarded",
    }
)
#: What a move continues: a placement or a discard the draw or take just before it, a reveal
#: the discard of a drawn card (the events of one turn are adjacent in the log).
_CONTINUES = {
    "CardReplaced": ("CardDrawn", "DiscardTaken"),
    "DrawnCardDiscarded": ("CardDrawn",),
    "CardRevealed": ("DrawnCardDiscarded",),
}
#: What ends a turn the service plays for a seat whose time ran out.
_TURN_ENDS = frozenset({"TurnPassed", "PlayStarted", "RoundEnded", "RoundDealt", "GameEnded"})
#: Said in the log as what they are, never as a consequence: the game going on without words.
_UNSAID = frozenset({"TurnPassed"})


def split_actions(events: Sequence[Seen]) -> list[list[Seen]]:
    """The log cut into entries, one per action as a person tells it, in log order: a turn's
    draw and placement (or discard and reveal) together, a timed-out seat's turn with the
    moves the service made for it, each with what it caused; a deal begins an entry of its
    own (a round's first). Events before the first action (the game's creation) make one."""
    entries: list[list[Seen]] = []
    service: int | None = None  # the seat whose turn the service is playing
    for kind, data in events:
        current = entries[-1] if entries else None
        if current is None or _begins(kind, data, current, service):
            current = []
            entries.append(current)
        current.append((kind, data))
        if kind == "TurnTimedOut":
            service = data["seat"]
        elif kind in _TURN_ENDS or (kind in MOVES and data.get("seat") != service):
            service = None
    return entries


def _begins(kind: str, data: dict[str, Any], current: list[Seen], service: int | None) -> bool:
    """Whether the event begins a new entry after `current`."""
    if kind == "RoundDealt":
        return True
    if kind not in ACTION_STARTS or kind == "TurnTimedOut":
        return kind == "TurnTimedOut"
    if kind in MOVES and service is not None and data["seat"] == service:
        return False
    moves = [k for k, d in current if k in MOVES and d.get("seat") == data.get("seat")]
    return not (moves and moves[-1] in _CONTINUES.get(kind, ()))


def _phrase(kind: str, data: dict[str, Any], first: bool, alone: bool) -> str:
    """One move of a turn as a verb phrase; after the first, the held card is "it"."""
    if kind == "CardDrawn":
        return f"drew {card(data['value'])}{' from the draw pile' if alone else ''}"
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


def _shown(moves: list[Seen]) -> list[Seen]:
    """A drawn card hidden from the viewer while held, told once it went face up (placed or
    discarded just after)."""
    if len(moves) > 1 and moves[0][0] == "CardDrawn" and moves[0][1]["value"] is None:
        return [(moves[0][0], {**moves[0][1], "value": moves[1][1]["value"]}), *moves[1:]]
    return moves


@dataclass(frozen=True)
class Teller:
    """Who played each seat, as the log walks on: a seat a bot took over (its player left,
    or timed out too often) is said as the bot playing for it, never as its player."""

    names: Names
    taken: dict[int, str]

    def actor(self, seat: int) -> str:
        bot = self.taken.get(seat)
        if bot is None:
            return self.names.of(seat)
        if seat == self.names.you:
            return f"The {bot} bot playing for you"
        return f"{self.names.possessive(seat)} bot ({bot})"

    def tell(self, entry: Sequence[Seen]) -> str:
        """The entry in words, noting the seats it hands to bots for the entries after it."""
        said: list[str] = []
        moves = _shown([(kind, data) for kind, data in entry if kind in MOVES])
        quiet = {"TurnTimedOut"} if moves or "SeatAbandoned" in dict(entry) else set()
        for kind, data in entry:
            if kind in ("SeatLeft", "SeatAbandoned"):
                self.taken[data["seat"]] = data["bot"]
            if kind in MOVES and moves:
                said.append(self._moves(moves, serviced=entry[0][0] == "TurnTimedOut"))
                moves = []
            elif kind == "SeatAbandoned":
                who, bot = self.names.of(data["seat"]), data["bot"]
                said.append(
                    f"{who} ran out of time once too often: the {bot} bot plays the seat now."
                )
            elif kind not in MOVES and kind not in _UNSAID and kind not in quiet:
                said.append(event_words(kind, data, self.names))
        return " ".join(said)

    def _moves(self, moves: list[Seen], serviced: bool) -> str:
        """A seat's moves as one sentence: its player's, its bot's, or the service's after
        its time ran out (a bot that takes the seat over then plays it: said as the bot)."""
        kind, data = moves[0]
        if kind == "PlayerJoined":
            return event_words(kind, data, self.names)
        seat, alone = data["seat"], len(moves) == 1
        phrases = listed([_phrase(k, d, i == 0, alone) for i, (k, d) in enumerate(moves)])
        if serviced and seat not in self.taken:
            who = self.names.of(seat)
            whom = "you" if seat == self.names.you else who
            return f"{who} ran out of time: the service played for {whom} and {phrases}."
        return f"{self.actor(seat)} {phrases}."


#: An entry of the log (`split_actions`) with its words.
Told = tuple[list[Seen], str]


def told(events: Sequence[Seen], names: Names) -> list[Told]:
    """Every entry of `events` (`split_actions`) with its words, in log order: read once
    for the table's move log, its last action and its last move."""
    teller = Teller(names, {})
    return [(entry, teller.tell(entry)) for entry in split_actions(events)]


def last_words(entries: Sequence[Told]) -> str:
    """The last action of the entries `told`, with what the same turn did before it and what
    it caused: "Bob took the 5 from the discard and placed it at column 2, row 1, replacing
    the 9." (and the next round's deal it caused). From the viewer's whole log, or its last
    few events (a seat a bot took over before them is then said by its name); "" when none
    is an action."""
    acted = [i for i, (entry, _) in enumerate(entries) if is_action(entry)]
    if not acted:
        return ""
    return " ".join(words for _, words in entries[acted[-1] :])


def is_action(entry: Sequence[Seen]) -> bool:
    """Whether an entry of `split_actions` holds an action (not only a deal, say)."""
    return any(kind in ACTION_STARTS for kind, _ in entry)


def idle_words(seconds: float) -> str:
    """How long a game has not moved, roughly, in its largest unit: "3 hours", "2 days"."""
    minutes = int(seconds // 60)
    for unit, size in (("day", 1440), ("hour", 60), ("minute", 1)):
        if minutes >= size:
            count = minutes // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return "less than a minute"

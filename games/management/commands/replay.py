"""`manage.py replay <id>`: print a game round by round: deals, actions, grids and scores."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine import GameState, evolve
from engine import events as ev
from engine.cards import COLUMNS, ROWS, cell_index
from engine.state import EMPTY
from games import core
from games.core import get_game
from games.core.errors import GameNotFound


def _card(value: int | None) -> str:
    return "  ." if value is None else f"{value:3d}"


def grid_lines(cells: tuple[int | None, ...]) -> list[str]:
    """A 12-cell grid as 3 text rows of 4 columns."""
    return [
        " ".join(_card(cells[cell_index(column, row)]) for column in range(COLUMNS))
        for row in range(ROWS)
    ]


#: How the seats' events (R13) read, by type: `{who}` the seat, `{bot}` the bot taking it.
_SEATS_EVENTS: dict[type, str] = {
    ev.PlayerLeft: "{who} gives the seat up",
    ev.SeatLeft: "  {who} leaves the game: the {bot} bot plays on",
    ev.TurnTimedOut: "  {who}'s time runs out: the service plays the turn",
    ev.SeatAbandoned: "  {who} timed out too often: the {bot} bot plays on",
}


class Command(BaseCommand):
    help = "Print a stored game round by round: grids, actions, scores."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            game = get_game(options["game_id"])
        except GameNotFound:
            raise CommandError(f"no game {options['game_id']}") from None
        state = EMPTY
        for event in core.engine_events(game):
            line = self.describe(event, state)
            if line:
                self.stdout.write(line)
            state = evolve(state, event)
            if isinstance(event, ev.RoundEnded):
                self.print_round(event, state)
        self.stdout.write(f"-- {state.phase} at version {state.version}")

    def name(self, state: GameState, seat: int) -> str:
        name = state.names[seat] if seat < len(state.names) else None
        return f"{name or 'seat'} ({seat})"

    def describe(self, event: ev.Event, state: GameState) -> str:
        if isinstance(event, ev.GameCreated):
            return (
                f"Game for {event.seats} seats, end score {event.options.end_score}, "
                f"closer penalty {'on' if event.options.closer_penalty else 'off'}"
            )
        if isinstance(event, ev.PlayerJoined):
            bot = "" if event.bot is None else f" (a {event.bot} bot)"
            return f"{event.name} joins at seat {event.seat}{bot}"
        seats = _SEATS_EVENTS.get(type(event))
        if seats is not None:
            return seats.format(who=self.name(state, event.seat), bot=getattr(event, "bot", ""))  # type: ignore[union-attr]
        if isinstance(event, ev.RoundDealt):
            first_discard = event.deck[state.seats * COLUMNS * ROWS]
            return f"\n== Round {event.round} dealt; the discard pile starts with {first_discard}"
        if isinstance(event, ev.PlayStarted):
            return f"{self.name(state, event.seat)} starts round {event.round}"
        who = self.name(state, getattr(event, "seat", 0)) if hasattr(event, "seat") else ""
        if isinstance(event, ev.CardRevealed):
            return f"  {who} reveals {event.value} at column {event.column}, row {event.row}"
        if isinstance(event, ev.CardDrawn):
            return f"  {who} draws {event.value}"
        if isinstance(event, ev.DiscardTaken):
            return f"  {who} takes the discard {event.value}"
        if isinstance(event, ev.CardReplaced):
            return (
                f"  {who} places {event.value} at column {event.column}, row {event.row}, "
                f"discarding {event.replaced}"
            )
        if isinstance(event, ev.DrawnCardDiscarded):
            return f"  {who} discards {event.value}"
        if isinstance(event, ev.ColumnRemoved):
            return f"  {who} clears column {event.column} of {event.value}s"
        if isinstance(event, ev.DrawPileReshuffled):
            return f"  the discard pile is reshuffled into a draw pile of {len(event.order)}"
        if isinstance(event, ev.FinalTurnsBegan):
            return f"  {self.name(state, event.closer_seat)} closes the round: last turns"
        if isinstance(event, ev.GameEnded):
            winners = ", ".join(self.name(state, seat) for seat in event.winners)
            why = " (no person left: round limit)" if event.reason == ev.ROUND_LIMIT else ""
            return f"\nGame over{why}. Totals {list(event.totals)}; winner(s): {winners}"
        return ""

    def print_round(self, event: ev.RoundEnded, state: GameState) -> None:
        self.stdout.write(
            f"-- Round {event.round} scored (closer: {self.name(state, event.closer_seat)})"
        )
        for seat, cells in enumerate(event.grids):
            doubled = " doubled" if event.closer_doubled and seat == event.closer_seat else ""
            self.stdout.write(
                f"   {self.name(state, seat)}: raw {event.raw_scores[seat]}, "
                f"round {event.round_scores[seat]}{doubled}, total {event.totals[seat]}"
            )
            for line in grid_lines(cells):
                self.stdout.write(f"      {line}")

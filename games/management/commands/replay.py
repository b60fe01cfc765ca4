"""`manage.py replay <id>`: print a game round by round: deals, actions, grids and scores, each
event in the words of the replay page (`games.web.words`)."""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine import GameState, event_for_viewer, event_type, evolve
from engine import events as ev
from engine.cards import COLUMNS, ROWS, cell_index
from engine.state import EMPTY
from games import core
from games.core import get_game
from games.core.errors import GameNotFound
from games.web.words import Names, event_words


def _card(value: int | None) -> str:
    return "  ." if value is None else f"{value:3d}"


def grid_lines(cells: tuple[int | None, ...]) -> list[str]:
    """A 12-cell grid as 3 text rows of 4 columns."""
    return [
        " ".join(_card(cells[cell_index(column, row)]) for column in range(COLUMNS))
        for row in range(ROWS)
    ]


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
            before, state = state, evolve(state, event)
            line = self.describe(event, before, state)
            if line:
                self.stdout.write(line)
            if isinstance(event, ev.RoundEnded):
                self.print_round(event, state)
        self.stdout.write(f"-- {state.phase} at version {state.version}")

    def name(self, state: GameState, seat: int) -> str:
        name = state.names[seat] if seat < len(state.names) else None
        return f"{name or 'seat'} ({seat})"

    def describe(self, event: ev.Event, before: GameState, after: GameState) -> str:
        """The event in the words the replay page uses for a finished game (nothing hidden),
        a new round set apart; a turn passing goes without saying. Seats are named as the
        event leaves them, or as it found them (a player who left)."""
        if isinstance(event, ev.TurnPassed):
            return ""
        seen = event_for_viewer(event, None, after.seats, reveal_all=True)
        names = [now or then for now, then in zip_longest(after.names, before.names)]
        words = event_words(event_type(event), seen, Names(names))
        if isinstance(event, ev.RoundDealt):
            return f"\n== {words}"
        return words if isinstance(event, ev.GameCreated | ev.PlayerJoined) else f"  {words}"

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

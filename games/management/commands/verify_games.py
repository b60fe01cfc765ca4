"""`manage.py verify_games`: replay every stored game through the rules, and check that its
account seats' inboxes hold exactly the entries its log calls for; exit 1 if any fails."""

from __future__ import annotations

import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine import Event, RuleError, UnknownEventType
from engine.audit import InvalidLog, verify_log
from games import core
from games.core import STATUS_OF_PHASE
from games.models import Game


class Command(BaseCommand):
    help = "Replay every stored game's log through the engine and report those that do not."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", help="Only these games (default: all).")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("created_at")
        if options["game_ids"]:
            games = games.filter(pk__in=_known_games(options["game_ids"]))
        checked = failed = 0
        for game in games.iterator():
            checked += 1
            problem = self.failure(game)
            if problem:
                failed += 1
                self.stdout.write(self.style.ERROR(f"FAIL {game.id}: {problem}"))
            elif options["verbosity"] > 1:
                self.stdout.write(f"ok   {game.id} ({game.version} events)")
        self.stdout.write(f"{checked} games checked, {failed} do not replay.")
        if failed:
            raise CommandError(f"{failed} of {checked} games do not replay", returncode=1)

    def failure(self, game: Game) -> str | None:
        """Why `game`'s log does not replay to the game as stored, or None if it does.

        (Not `check`: that would shadow `BaseCommand.check`, the system checks every command
        runs first when started from the shell.)"""
        stored = core.logged_events(game)
        if not stored:
            return "no events"
        try:
            state = verify_log(_engine_events(stored))
        except InvalidLog as error:
            return f"event {error.sequence}: {error.message}"
        if state.version != game.version:
            return f"the log has {state.version} events, the game says version {game.version}"
        if STATUS_OF_PHASE[state.phase] != game.status:
            return f"the log says {state.phase}, the game says {game.status}"
        return core.inbox_mismatch(game)


def _engine_events(stored: list[core.StoredEvent]) -> list[Event]:
    """The log's engine events, numbered 1, 2, 3...: `InvalidLog` names the first event that
    is missing or that no longer reads as an event (`engine.audit` checks the rest)."""
    events = []
    for position, row in enumerate(stored, start=1):
        if row.sequence != position:
            raise InvalidLog(position, "sequence_gap", f"missing (the next is {row.sequence})")
        try:
            events.append(row.event)
        except (RuleError, UnknownEventType, KeyError, TypeError, ValueError) as error:
            raise InvalidLog(
                position, "malformed_event", f"unreadable {row.type}: {error}"
            ) from error
    return events


def _known_games(game_ids: list[str]) -> list[uuid.UUID]:
    """The games named, each a stored game's id; else a clean error, not a traceback."""
    try:
        wanted = [uuid.UUID(game_id) for game_id in game_ids]
    except ValueError as error:
        raise CommandError(f"not a game id: {error}") from None
    stored = set(Game.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    missing = [str(game_id) for game_id in wanted if game_id not in stored]
    if missing:
        raise CommandError(f"no game {', '.join(missing)}")
    return wanted

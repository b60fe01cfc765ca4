"""`manage.py tournament`: the built-in strategies against each other, engine-only (the logic
is `engine.tournament`; this is its command line)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.strategies import STRATEGIES
from engine.tournament import Config, progress_stream, run


class Command(BaseCommand):
    help = (
        "Play the built-in strategies against each other, engine-only (no HTTP, no database), "
        "on every core, and report per strategy: games, wins, win rate, mean score per round "
        "and per game, and a Bradley-Terry rating (Elo scale) with a 95%% bootstrap interval "
        "over deals. Each deal draws its lineup fairly: with more strategies than seats a "
        "random subset in random order, with fewer each strategy holds seats//k seats and "
        "the rest go to strategies drawn at random. A strategy holding two seats of a game "
        "plays two games; a shared win counts for each winner."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--strategies",
            default=",".join(STRATEGIES),
            help=f"comma-separated, each once (default: all: {', '.join(STRATEGIES)})",
        )
        parser.add_argument("--seats", type=int, default=2, help="seats per game, 2-8 (2)")
        parser.add_argument("--games", type=int, default=100, help="games to play (100)")
        parser.add_argument("--seed", type=int, default=0, help="the tournament's seed (0)")
        parser.add_argument(
            "--duplicate",
            action="store_true",
            help="play each deal once per rotation of the seats (same cards), so the luck of "
            "the deal cancels out; --games is rounded up to a multiple of --seats",
        )
        parser.add_argument(
            "--jobs", type=int, default=None, help="processes (default: every core)"
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        names = tuple(name.strip() for name in options["strategies"].split(",") if name.strip())
        try:
            config = Config(
                names, options["seats"], options["games"], options["seed"], options["duplicate"]
            )
        except ValueError as error:
            raise CommandError(str(error)) from None
        if options["jobs"] is not None and options["jobs"] < 1:
            raise CommandError("--jobs must be at least 1")
        report = run(config, options["jobs"], progress_stream())
        if options["json"]:
            self.stdout.write(json.dumps(report.to_data()))
        else:
            self.stdout.write(report.table())

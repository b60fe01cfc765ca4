"""Figures of the service's own moves (R13) with a real worker, on the configured database
(use a scratch one: it creates games there):

    DATABASE_URL=sqlite:////tmp/bots.sqlite3 .venv/bin/python manage.py migrate
    DATABASE_URL=sqlite:////tmp/bots.sqlite3 .venv/bin/python -m loadtest.bench_bots

- games of greedy bots alone at 2 and 4 seats, played by one worker: events stored a second;
- a person (greedy, through the service's use cases) with seven statistician bots: the time
  from the person's move to the first bot's move, which includes the worker's poll.

`--runaway N` measures that delay again with N runaway games beside it (eight random bots to
end score 100,000: the service stops each after `BOT_ONLY_MAX_ROUNDS` rounds, R13), and
reports the ratio of the two medians and the runaways' events a second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_service.settings")
# The worker's own delay is measured, not the bots' pace beside a person (R15).
os.environ.setdefault("SKYJO_BOT_PACE_MS", "0")
django.setup()

from engine import GreedyPlayer, action_from_data, action_to_data, view  # noqa: E402
from games import core  # noqa: E402
from games.core.tokens import SeatCredential  # noqa: E402
from games.models import Game  # noqa: E402
from loadtest.server import ROOT, stop  # noqa: E402

#: Seconds given to the worker to start before the clock runs.
WORKER_START = 8


def worker() -> subprocess.Popen[bytes]:
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "x" * 50, "LOG_LEVEL": "ERROR"}
    command = [sys.executable, str(ROOT / "manage.py"), "worker", "--no-startup-delay"]
    process = subprocess.Popen(command, env=env, cwd=ROOT, start_new_session=True)
    time.sleep(WORKER_START)
    return process


def bots_alone(seats: int, games: int = 3) -> str:
    ids = [core.create_game(seats=seats, options=None, seed=100 + g).id for g in range(games)]
    process = worker()
    start = time.monotonic()
    for game_id in ids:
        for seat in range(seats):
            core.join_game(game_id, f"Bot {seat}", "greedy")
    while Game.objects.filter(pk__in=ids).exclude(status="finished").exists():
        time.sleep(0.05)  # a lighter poll: this process shares the machine with the worker
    spent = time.monotonic() - start
    stop(process)
    events = sum(Game.objects.filter(pk__in=ids).values_list("version", flat=True))
    return f"{seats} seats, {games} games of greedy bots: {events} events in {spent:.1f} s"


def first_bot_delays(game_id: uuid.UUID, token: str, turns: int) -> list[float]:
    """The person plays `turns` moves; after each that hands the turn on, the seconds until
    the next bot's move is stored."""
    credential, player, delays = SeatCredential(token), GreedyPlayer(), []
    for _ in range(turns):
        seen = view(core.game_state(core.get_game(game_id)), 0)
        while not seen.legal_actions:
            time.sleep(0.01)
            seen = view(core.game_state(core.get_game(game_id)), 0)
        start = time.monotonic()
        choice = action_from_data(action_to_data(player.choose(seen)))  # a turn action
        moved = core.perform_action(game_id, credential, choice)
        state = core.game_state(moved.game)
        if state.phase == "playing" and state.current != 0:
            while Game.objects.get(pk=game_id).version == moved.version:
                time.sleep(0.005)
            delays.append(time.monotonic() - start)
    return delays


def person_and_bots(bots: int = 7, turns: int = 30) -> str:
    process = worker()
    delays = person_delays(bots, turns)
    stop(process)
    return (
        f"a person and {bots} statistician bots: the first bot's move "
        f"{statistics.median(delays) * 1000:.0f} ms after the person's (median; max "
        f"{max(delays) * 1000:.0f} ms, {len(delays)} turns)"
    )


def person_delays(bots: int, turns: int) -> list[float]:
    """A new game of a person and `bots` statistician bots, with a worker running: the
    delays of `first_bot_delays`."""
    game = core.create_game(seats=bots + 1, options=None, seed=7)
    token = core.join_game(game.id, "Ada").token
    assert token is not None
    for seat in range(bots):
        core.join_game(game.id, f"Bot {seat}", "statistician")
    return first_bot_delays(game.id, token, turns)


def runaway_games(count: int) -> list[uuid.UUID]:
    """`count` games of eight random bots to the highest end score, started at once."""
    ids = []
    for number in range(count):
        game = core.create_game(seats=8, options={"end_score": 100_000}, seed=900 + number)
        for seat in range(8):
            core.join_game(game.id, f"Runaway {seat}", "random")
        ids.append(game.id)
    return ids


def beside_runaways(count: int, turns: int = 30) -> str:
    """The person's delay alone, then beside `count` runaways; their ratio and the
    runaways' events a second while they ran."""
    process = worker()
    alone = statistics.median(person_delays(7, turns))
    start = time.monotonic()
    ids = runaway_games(count)
    beside = statistics.median(person_delays(7, turns))
    while Game.objects.filter(pk__in=ids).exclude(status="finished").exists():
        time.sleep(0.05)
    spent = time.monotonic() - start
    stop(process)
    events = sum(Game.objects.filter(pk__in=ids).values_list("version", flat=True))
    return (
        f"{count} runaway(s): the first bot's move {alone * 1000:.0f} ms alone, "
        f"{beside * 1000:.0f} ms beside them (ratio {beside / alone:.2f}); the runaways: "
        f"{events} events in {spent:.1f} s ({events / spent:.0f} events/s), all ended"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runaway", type=int, default=0, help="runaway games beside a person")
    runaways = parser.parse_args().runaway
    if runaways:
        print(beside_runaways(runaways))
        return
    for line in (bots_alone(2), bots_alone(4), person_and_bots()):
        print(line)


if __name__ == "__main__":
    main()

"""The documentation's examples, run as written against a live server.

README.md: the shell block under "A game with curl" is extracted and run by bash with
`set -euo pipefail`; its `curl --fail-with-body` stops it at the first problem response. So the
README cannot drift from the service: a renamed field, a refused action or a wrong turn fails
here. It is run with seeds where either seat starts, since the walkthrough asks whose turn it is.
The `curl -N` block under "Live: the stream" runs on a finished game.

docs/CLIENTS.md: the stream bot under "A bot on the stream" plays a game to its end.
docs/RULES.md: the bots and clock block under "R13 through the API" runs after the
walkthrough's helpers.

tests/games/test_docs.py checks, without a server, that each of these blocks is where this
module looks for it.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_API = "API=http://127.0.0.1:8000/api/v1"

#: Where each executed example lives: (file, the heading it follows).
WALKTHROUGH = ("README.md", "## A game with curl")
STREAM_COMMANDS = ("README.md", "## Live: the stream")
STREAM_BOT = ("docs/CLIENTS.md", "## A bot on the stream")
BOTS_AND_CLOCK = ("docs/RULES.md", "### R13 through the API")
ACCOUNTS = ("README.md", "## Accounts: a name that lasts")
TOGETHER = ("README.md", "## Playing together")
RATINGS = ("README.md", "## Ratings")

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(shutil.which("curl") is None, reason="the walkthrough needs curl"),
]


def doc_block(where: tuple[str, str], language: str = "sh") -> str:
    """The first ```<language> block after the heading `where[1]` in the file `where[0]`."""
    path, heading = where
    text = (ROOT / path).read_text()
    section = text[text.index(heading) :]
    match = re.search(rf"```{language}\n(.*?)```", section, re.DOTALL)
    assert match is not None, f"no {language} block under {heading!r} in {path}"
    return match.group(1)


def run_walkthrough(live_server: Any, seed: int | None) -> list[str]:
    script = doc_block(WALKTHROUGH)
    assert DEFAULT_API in script
    script = script.replace(DEFAULT_API, f"API={live_server.url}/api/v1")
    if seed is not None:
        script = script.replace('{"seats": 2,', f'{{"seats": 2, "seed": {seed},')
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout.splitlines()


@pytest.mark.parametrize(
    "seed", [None, 42, 2], ids=["secret-seed", "seat-1-starts", "seat-0-starts"]
)
def test_the_curl_walkthrough_runs_as_written(live_server: Any, seed: int | None) -> None:
    legal, held, last, players = (
        ast.literal_eval(line) for line in run_walkthrough(live_server, seed)
    )
    assert legal == [{"action": "draw"}, {"action": "take_discard"}]
    assert isinstance(held["value"], int) and held["source"] == "deck"
    assert last["action"] == "replace" and (last["column"], last["row"]) == (2, 1)
    assert [player["name"] for player in players] == ["Ada", "Bob"]


def test_the_walkthrough_stops_at_a_problem(live_server: Any) -> None:
    """The harness itself: an action out of turn makes the script fail, not pass silently."""
    script = doc_block(WALKTHROUGH).replace(DEFAULT_API, f"API={live_server.url}/api/v1")
    script = script.replace(
        'if [ "$SEAT" = 0 ]; then ME=$ADA; else ME=$BOB; fi', 'ME=$ADA; [ "$SEAT" = 0 ] && ME=$BOB'
    )
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True
    )
    assert done.returncode != 0
    assert '"code":"not_your_turn"' in done.stderr.replace(" ", "")


def _new_game(api: str, seats: int) -> tuple[str, list[str]]:
    import httpx

    game = httpx.post(f"{api}/games", json={"seats": seats, "options": {"end_score": 20}})
    game_id = game.json()["id"]
    tokens = [
        httpx.post(f"{api}/games/{game_id}/players", json={"name": f"P{seat}"}).json()["token"]
        for seat in range(seats)
    ]
    return game_id, tokens


@pytest.fixture
def streamed_game(live_server: Any) -> str:
    """A game played to its end by docs/CLIENTS.md's stream bot, one thread per seat; its id."""
    import threading

    api = f"{live_server.url}/api/v1"
    namespace: dict[str, Any] = {}
    exec(doc_block(STREAM_BOT, "python"), namespace)
    game_id, tokens = _new_game(api, 2)
    players = [
        threading.Thread(target=namespace["play"], args=(api, game_id, token), daemon=True)
        for token in tokens
    ]
    for player in players:
        player.start()
    for player in players:
        player.join(timeout=120)
    assert not any(player.is_alive() for player in players), "a stream bot did not finish"
    return game_id


def test_the_clients_stream_bot_plays_a_game_to_its_end(
    live_server: Any, streamed_game: str
) -> None:
    import httpx

    game = httpx.get(f"{live_server.url}/api/v1/games/{streamed_game}").json()
    assert game["status"] == "finished" and game["winners"]


def test_the_readme_stream_commands_run_as_written(live_server: Any, streamed_game: str) -> None:
    """On a finished game the streams end by themselves after its last event."""
    script = doc_block(STREAM_COMMANDS)
    preamble = f"API={live_server.url}/api/v1\nGAME={streamed_game}\n"
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", preamble + script],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    whole, resumed = done.stdout.split("retry: ")[1:3]
    assert "id: 1\nevent: GameCreated\n" in whole and "event: GameEnded\n" in whole
    assert "id: 12\n" not in resumed and "id: 13\n" in resumed
    feed = json.loads(done.stdout[done.stdout.rindex('{"events"') :])
    assert feed["events"][0]["sequence"] == 13


def test_the_rules_bots_block_runs_as_written(live_server: Any) -> None:
    """docs/RULES.md's bots and clock example (R13), after the walkthrough's helpers (`call`,
    `field`): a game of a person and two bots, its first deadline a minute after the deal."""
    walkthrough = doc_block(WALKTHROUGH)
    helpers = walkthrough[: walkthrough.index("# Create a 2-seat game")]
    helpers = helpers.replace(DEFAULT_API, f"API={live_server.url}/api/v1")
    script = helpers + doc_block(BOTS_AND_CLOCK)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    deadline = datetime.fromisoformat(done.stdout.strip().replace("Z", "+00:00"))
    assert timedelta(seconds=55) < deadline - datetime.now(UTC) <= timedelta(seconds=60)


def test_the_readme_accounts_block_runs_as_written(live_server: Any) -> None:
    """The accounts example, after the walkthrough's helpers: a bot account seated by its
    token, its game listed, its inbox holding the deal and its turn."""
    walkthrough = doc_block(WALKTHROUGH)
    helpers = walkthrough[: walkthrough.index("# Create a 2-seat game")]
    helpers = helpers.replace(DEFAULT_API, f"API={live_server.url}/api/v1")
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", helpers + doc_block(ACCOUNTS)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    handle, games, entries = done.stdout.strip().splitlines()
    assert handle == "my-first-bot"
    (game,) = ast.literal_eval(games)
    assert game["accounts"] == ["greedy", "my-first-bot"] and game["seat"] == 1
    kinds = [entry["type"] for entry in ast.literal_eval(entries)]
    assert kinds[:2] == ["game_started", "your_turn"]


def test_the_readme_playing_together_block_runs_as_written(live_server: Any) -> None:
    """The playing-together example, after the accounts one: a challenge accepted, its game
    dealt, and a word in the players' room read back by the other seat."""
    walkthrough = doc_block(WALKTHROUGH)
    helpers = walkthrough[: walkthrough.index("# Create a 2-seat game")]
    helpers = helpers.replace(DEFAULT_API, f"API={live_server.url}/api/v1")
    script = helpers + doc_block(ACCOUNTS) + doc_block(TOGETHER)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    status, messages = done.stdout.strip().splitlines()[-2:]
    assert status == "accepted"
    (message,) = ast.literal_eval(messages)
    assert (message["name"], message["text"], message["room"]) == (
        "my-rival",
        "Good luck!",
        "players",
    )


def test_the_readme_ratings_block_runs_as_written(live_server: Any) -> None:
    """The ratings example, after the accounts one: a rated game seats the account by its
    token, whose rating is OpenSkill's default until a rated game ends; a leaderboard reads."""
    walkthrough = doc_block(WALKTHROUGH)
    helpers = walkthrough[: walkthrough.index("# Create a 2-seat game")]
    helpers = helpers.replace(DEFAULT_API, f"API={live_server.url}/api/v1")
    script = helpers + doc_block(ACCOUNTS) + doc_block(RATINGS)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    account, rating, entries = done.stdout.strip().splitlines()[-3:]
    assert account == "my-first-bot"
    assert ast.literal_eval(rating) == {
        "mu": 25.0,
        "sigma": 25 / 3,
        "ordinal": 25.0 - 3 * (25 / 3),
        "games": 0,
        "provisional": True,
    }
    assert isinstance(ast.literal_eval(entries), list)

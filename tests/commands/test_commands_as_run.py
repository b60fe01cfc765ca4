"""The management commands the README and docs/ document, run as a user runs them: `python manage.py
...` in a subprocess, on a database of its own that holds games.

`call_command` (tests/commands/test_commands.py) skips what `manage.py` does first, the system
checks among them: a command that broke them (one defining a method `check`) passed every
in-process test and crashed from the shell.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.server

#: Plays two games through the API's own test client, in the database of `DATABASE_URL`.
SEED_GAMES = """
from rest_framework.test import APIClient
from tests.api.support import finished_game, setup_reveals, start_game
api = APIClient()
finished, _ = finished_game(api, 2, seed=3)
playing, tokens = start_game(api, 3, seed=5)
setup_reveals(api, playing, tokens)
print(finished, playing)
"""


@dataclass(frozen=True)
class Database:
    path: Path
    finished: str
    playing: str

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{self.path}", "DEBUG": "true"}
        command = [sys.executable, "manage.py", *args]
        return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Database:
    """A migrated SQLite file holding a finished game and one being played."""
    empty = Database(tmp_path_factory.mktemp("commands") / "db.sqlite3", "", "")
    assert empty.manage("migrate", "--noinput").returncode == 0
    seeded = empty.manage("shell", "--command", SEED_GAMES)
    assert seeded.returncode == 0, seeded.stderr
    finished, playing = seeded.stdout.splitlines()[-1].split()
    return Database(empty.path, finished, playing)


def test_verify_games_replays_every_game(database: Database) -> None:
    done = database.manage("verify_games", "--verbosity", "2")
    assert done.returncode == 0, done.stderr
    assert f"ok   {database.finished}" in done.stdout
    assert f"ok   {database.playing}" in done.stdout
    assert "2 games checked, 0 do not replay." in done.stdout


def test_verify_games_checks_the_games_named(database: Database) -> None:
    done = database.manage("verify_games", database.playing)
    assert done.returncode == 0, done.stderr
    assert "1 games checked, 0 do not replay." in done.stdout


def test_replay_prints_a_game_round_by_round(database: Database) -> None:
    done = database.manage("replay", database.finished)
    assert done.returncode == 0, done.stderr
    assert "== Round 1" in done.stdout
    assert "The game is over: Player 1 wins." in done.stdout


def test_replay_of_no_such_game_fails_cleanly(database: Database) -> None:
    done = database.manage("replay", "00000000-0000-4000-8000-000000000000")
    assert done.returncode == 1
    assert "no game" in done.stderr and "Traceback" not in done.stderr


def test_verify_games_fails_on_a_tampered_log(tmp_path: Path, database: Database) -> None:
    """A copy of the database with one card changed in the log: exit status 1, named game."""
    copy = Database(tmp_path / "tampered.sqlite3", database.finished, database.playing)
    copy.path.write_bytes(database.path.read_bytes())
    with sqlite3.connect(copy.path) as db:
        db.execute(
            "UPDATE games_gameevent SET payload = json_set(payload, '$.value', 13) "
            "WHERE game_id = ? AND type = 'CardRevealed'",
            [database.playing.replace("-", "")],
        )
    done = copy.manage("verify_games")
    assert done.returncode == 1
    assert f"FAIL {database.playing}" in done.stdout
    assert "1 of 2 games do not replay" in done.stderr


@pytest.mark.parametrize("game_id", ["not-a-uuid", "00000000-0000-4000-8000-000000000000"])
def test_verify_games_of_no_such_game_fails_cleanly(database: Database, game_id: str) -> None:
    done = database.manage("verify_games", game_id)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "not a game id" in done.stderr or f"no game {game_id}" in done.stderr

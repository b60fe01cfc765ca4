"""`manage.py verify_games`, run as a user runs it (a subprocess, on a SQLite file of its own),
accepts the games of a declined, a canceled and an expired challenge: each log replays to a
canceled game, and the challenge's letters to its seated invitees are no game's entries."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.server

#: The three challenges, through play's use cases, in the database of `DATABASE_URL`; an
#: invitee accepts each first (its seat is then in the game the challenge calls off).
CHALLENGES = """
from datetime import timedelta
from accounts import services
from games.core import clock
from play import (
    ChallengeRequest, accept_challenge, cancel_challenge, create_challenge, decline_challenge,
)
from play.challenges import expire_challenge

def person(handle):
    return services.session_credential(services.sign_up(handle, "bot", None).account)

ada, bob, cyd = person("ada"), person("bob"), person("cyd")
ask = ChallengeRequest(players=["bob", "cyd"], seats=4, bots=["greedy"], expires_in=10)
declined = create_challenge(ada, ask)
accept_challenge(cyd, declined.id)
decline_challenge(bob, declined.id, "too_slow")
canceled = create_challenge(ada, ask)
accept_challenge(bob, canceled.id)
cancel_challenge(ada, canceled.id)
expired = create_challenge(ada, ask)
accept_challenge(cyd, expired.id)
later = expired.expires_at + timedelta(seconds=1)
clock.now = lambda: later
assert expire_challenge(expired.id)
print(declined.game_id, canceled.game_id, expired.game_id)
"""


def manage(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "true"}
    command = [sys.executable, "manage.py", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


def test_verify_games_accepts_games_called_off(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    assert manage(database, "migrate", "--noinput").returncode == 0
    made = manage(database, "shell", "--command", CHALLENGES)
    assert made.returncode == 0, made.stderr
    games = made.stdout.split()[-3:]
    done = manage(database, "verify_games", "--verbosity", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    for game in games:
        assert f"ok   {game}" in done.stdout
    assert "3 games checked, 0 do not replay." in done.stdout
    shown = manage(database, "replay", games[0])
    assert shown.returncode == 0, shown.stderr
    assert "called off" in shown.stdout

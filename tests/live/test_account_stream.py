"""The account stream and its long poll against real servers: every entry once and in order
from any point, the snapshot a fresh stream starts with, the end of a stream (and of a seat's
stream) once its token is revoked, the refusals, a move through one process reaching an
account stream held by another, and the example bot playing ten games from its stream."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from loadtest.server import ROOT

from .accounts_support import (
    ACCOUNT_EVENTS,
    ACCOUNT_STREAM,
    Frame,
    read_stream,
    revoke,
    seat_account,
    shell,
    sign_up,
)
from .conftest import BOUND, Servers, _environment
from .support import GAMES, bearer, join

BOT = Path(__file__).resolve().parents[2] / "examples" / "account_bot.py"


def _started(client: httpx.Client, token: str, games: int) -> list[str]:
    """`games` games with the account in seat 0, each started (a guest in seat 1): two
    entries each (`game_started`, `your_turn` for the setup's reveals)."""
    made = []
    for seed in range(games):
        game_id = seat_account(client, token, seed=seed)
        join(client, game_id, "Guest")
        made.append(game_id)
    return made


def test_every_entry_once_and_in_order_from_any_point(
    servers: Servers, client: httpx.Client
) -> None:
    token = sign_up(servers.database, "resumer")
    games = _started(client, token, 3)
    everything = read_stream(servers.main.url, token, resume=0, count=6)
    assert [f.id for f in everything if f.id] == [1, 2, 3, 4, 5, 6]
    assert [f.event for f in everything] == ["game_started", "your_turn"] * 3
    assert [f.data["game"] for f in everything] == [g for g in games for _ in (0, 1)]
    assert everything[1].data["seat"] == 0 and everything[1].data["sequence"] == 2
    for after in range(1, 6):
        resumed = read_stream(servers.main.url, token, resume=after, count=6 - after)
        assert resumed == everything[after:]
    queried = _read_after_query(servers.main.url, token, 4)
    assert queried == everything[4:]


def _read_after_query(url: str, token: str, after: int) -> list[Frame]:
    return read_stream(url, token, None, 6 - after, after=after)


def test_a_fresh_stream_starts_with_a_snapshot_then_new_entries(
    servers: Servers, client: httpx.Client
) -> None:
    token = sign_up(servers.database, "snapper")
    games = _started(client, token, 2)
    waiting = seat_account(client, token, seed=9)
    frames: list[Frame] = []
    reader = threading.Thread(
        target=lambda: frames.extend(read_stream(servers.main.url, token, count=2))
    )
    reader.start()
    time.sleep(0.5)
    join(client, waiting, "Late")
    reader.join(timeout=10)
    snapshot = frames[0]
    assert snapshot.event == "snapshot" and snapshot.id is None
    assert snapshot.data["sequence"] == 4
    listed = {game["game"]: game for game in snapshot.data["games"]}
    assert set(listed) == {*games, waiting}
    assert listed[games[0]]["your_turn"] and listed[games[0]]["status"] == "setup"
    assert listed[waiting]["status"] == "waiting" and not listed[waiting]["your_turn"]
    assert [(f.id, f.event) for f in frames[1:]] == [(5, "game_started"), (6, "your_turn")]


def test_streams_end_within_a_second_of_the_token_revoked(
    servers: Servers, client: httpx.Client
) -> None:
    token = sign_up(servers.database, "revoked")
    (game_id,) = _started(client, token, 1)
    ended: dict[str, float] = {}

    def hold(name: str, url: str) -> None:
        with (
            httpx.Client(base_url=servers.other.url, timeout=30) as other,
            other.stream("GET", url, headers=bearer(token)) as answer,
        ):
            assert answer.status_code == 200
            for _ in answer.iter_bytes():
                pass
        ended[name] = time.monotonic()

    urls = {"account": ACCOUNT_STREAM, "seat": f"{GAMES}/{game_id}/stream"}
    threads = [threading.Thread(target=hold, args=item) for item in urls.items()]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    revoke(servers.database, token)
    revoked = time.monotonic()
    for thread in threads:
        thread.join(timeout=10)
    assert set(ended) == {"account", "seat"}
    assert max(ended.values()) - revoked < 2.0, ended
    again = client.get(ACCOUNT_STREAM, headers=bearer(token))
    assert again.status_code == 401


def test_refusals(servers: Servers, client: httpx.Client) -> None:
    bare = client.get(ACCOUNT_STREAM)
    assert bare.status_code == 401 and bare.json()["code"] == "account_token_required"
    seat = client.get(ACCOUNT_EVENTS, headers=bearer("a-seat-token"))
    assert seat.status_code == 401
    narrow = sign_up(servers.database, "narrow", scopes=["account:read"])
    refused = client.get(ACCOUNT_STREAM, headers=bearer(narrow))
    assert refused.status_code == 403 and refused.json()["required_scope"] == "play"
    reader = sign_up(servers.database, "reader", scopes=["challenge:read"])
    assert client.get(ACCOUNT_EVENTS, headers=bearer(reader)).status_code == 200


def test_the_long_poll(servers: Servers, client: httpx.Client) -> None:
    token = sign_up(servers.database, "poller")
    game_id = seat_account(client, token)
    empty = client.get(ACCOUNT_EVENTS, headers=bearer(token)).json()
    assert empty == {"entries": [], "last_sequence": 0}
    later = threading.Timer(0.5, join, (client, game_id, "Guest"))
    began = time.monotonic()
    later.start()
    polled = client.get(ACCOUNT_EVENTS, params={"wait": 10}, headers=bearer(token)).json()
    later.join()
    assert time.monotonic() - began < 0.5 + BOUND
    assert [entry["sequence"] for entry in polled["entries"]] in ([1], [1, 2])
    assert polled["entries"][0]["type"] == "game_started"
    rest = client.get(ACCOUNT_EVENTS, params={"after": 1}, headers=bearer(token)).json()
    assert [entry["type"] for entry in rest["entries"]] == ["your_turn"]


@pytest.mark.usefixtures("listening")
def test_a_move_through_one_process_reaches_an_account_stream_on_another(
    servers: Servers, client: httpx.Client
) -> None:
    token = sign_up(servers.database, "faraway")
    game_id = seat_account(client, token)
    frames: list[Frame] = []
    reader = threading.Thread(
        target=lambda: frames.extend(read_stream(servers.other.url, token, resume=0, count=2))
    )
    reader.start()
    time.sleep(1.0)
    join(client, game_id, "Guest")
    joined = time.monotonic()
    reader.join(timeout=10)
    assert time.monotonic() - joined < BOUND
    assert [(f.id, f.event) for f in frames] == [(1, "game_started"), (2, "your_turn")]


@pytest.fixture
def worker(servers: Servers) -> Iterator[None]:
    """A worker for the built-in bots' moves, on the servers' database."""
    env = _environment(servers.database)
    command = [sys.executable, str(ROOT / "manage.py"), "db_worker", "--interval", "0.05",
               "--no-startup-delay"]  # fmt: skip
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    yield
    process.terminate()
    process.wait(timeout=10)


@pytest.mark.usefixtures("worker")
def test_the_example_bot_plays_ten_games_from_its_account_stream(
    servers: Servers, client: httpx.Client
) -> None:
    token = sign_up(servers.database, "tenfold")
    games = []
    for seed in range(10):
        game_id = seat_account(client, token, seed=100 + seed)
        bot = client.post(f"{GAMES}/{game_id}/players", json={"bot": "greedy"})
        assert bot.status_code == 201, bot.text
        games.append(game_id)
    command = [sys.executable, str(BOT), "--url", servers.main.url, "--token", token,
               "--games", "10"]  # fmt: skip
    playing = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = playing.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        playing.kill()
        out, err = playing.communicate()
        states = [client.get(f"{GAMES}/{g}").json()["status"] for g in games]
        pytest.fail(f"the bot did not finish: {states}\n{out}\n{err}")
    assert playing.returncode == 0, err
    assert "10 games over" in out
    for game_id in games:
        assert client.get(f"{GAMES}/{game_id}").json()["status"] == "finished"
    env = _environment(servers.database)
    verify = [sys.executable, str(ROOT / "manage.py"), "verify_games", *games]
    checked = subprocess.run(verify, env=env, cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    shell(
        servers.database,
        "from accounts.models import InboxEntry\n"
        f"InboxEntry.objects.filter(payload__game={games[0]!r}).order_by('sequence')"
        ".first().delete()",
    )
    broken = subprocess.run(verify, env=env, cwd=ROOT, capture_output=True, text=True)
    assert broken.returncode == 1 and "inbox entries missing" in broken.stdout


def _bot(url: str, token: str, games: int) -> subprocess.Popen[str]:
    """The example bot, playing until `games` games are over."""
    command = [sys.executable, str(BOT), "--url", url, "--token", token, "--games", str(games)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_example_bot_accepts_a_challenge_from_its_account_stream_and_plays_it(
    servers: Servers, client: httpx.Client
) -> None:
    """An account challenges a bot account; the bot hears the `challenge` letter on its
    account stream, accepts, and both play the game to its end (the challenger's seat played
    by a second example bot, as its owner's program would)."""
    invited = sign_up(servers.database, "invited")
    challenger = sign_up(servers.database, "challenger")
    bots = [_bot(servers.main.url, token, 1) for token in (invited, challenger)]
    try:
        time.sleep(2.0)  # both listening: the challenge reaches the bot by its stream
        body = {"players": ["invited"], "seats": 2, "options": {"end_score": 1}}
        made = client.post("/api/v1/challenges", json=body, headers=bearer(challenger))
        assert made.status_code == 201, made.text
        game_id = made.json()["game"]
        outputs = [bot.communicate(timeout=120) for bot in bots]
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.communicate()
    for bot, (out, err) in zip(bots, outputs, strict=True):
        assert bot.returncode == 0, err
        assert "1 games over" in out
    read = client.get(f"/api/v1/challenges/{made.json()['id']}", headers=bearer(invited))
    assert read.json()["status"] == "accepted"
    game = client.get(f"{GAMES}/{game_id}").json()
    assert game["status"] == "finished"
    assert [player["account"] for player in game["players"]] == ["challenger", "invited"]
    frames = read_stream(servers.main.url, invited, resume=0, count=3)
    assert [frame.event for frame in frames][:2] == ["challenge", "challenge_accepted"]
    env = _environment(servers.database)
    verify = [sys.executable, str(ROOT / "manage.py"), "verify_games", game_id]
    checked = subprocess.run(verify, env=env, cwd=ROOT, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr

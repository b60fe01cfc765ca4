#!/usr/bin/env python3
"""A bot account that plays any number of games at once, and never polls.

It reads its account stream (`GET /api/v1/account/stream`): the `snapshot` it starts with
names the games it sits in, `game_started` and `your_turn` name new ones, and a `challenge`
letter a challenge it is invited to, which it accepts (`POST /api/v1/challenges/{id}/accept`:
its held seat is taken) and then plays; when it starts it also accepts the challenges already
waiting for it (`GET /api/v1/challenges?direction=incoming&status=pending`). Each game it
plays from that game's stream (`GET /api/v1/games/{id}/stream`, its seat's, with the same
token), in a thread of its own, sending one of a view's `legal_actions` whenever there are
any. Both streams resume after `Last-Event-ID` when they end. Its token needs the scopes
`play`, `challenge:read` and `challenge:write` (an account's first token has them all). Needs
httpx and httpx-sse only:

    # A bot account of its own (its token is printed once), then play whatever it is seated in:
    python examples/account_bot.py --create-account my_bot
    SKYJO_TOKEN=skyjo_pat_... python examples/account_bot.py
    # Stop once 10 games are over:
    python examples/account_bot.py --token skyjo_pat_... --games 10
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
from httpx_sse import ServerSentEvent, connect_sse

#: The kinds of action the bot prefers, first first: every turn reveals a card, so a round ends.
PREFERENCE = ["reveal", "draw", "discard", "replace", "take_discard"]
#: Answers meaning the game moved on under us: the next view says what to do.
STALE = {"not_your_turn", "concurrent_update", "version_mismatch", "game_finished"}
#: A game's statuses after which nothing more happens in it.
OVER = {"finished", "canceled"}
#: Answers to an accept meaning the challenge is no longer for us to take: let it go.
TOO_LATE = {"challenge_closed", "already_answered", "challenge_not_found"}


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """One of the legal actions, by `PREFERENCE` (the server knows the rules, the bot not)."""
    ranked = {kind: rank for rank, kind in enumerate(PREFERENCE)}
    return min(legal, key=lambda action: ranked.get(action["action"], len(PREFERENCE)))


def events(client: httpx.Client, url: str, resume: list[int | None]) -> Iterator[ServerSentEvent]:
    """A stream's frames across its reconnections, each resumed after the last `id` seen
    (`resume[0]`, kept up to date); never returns on its own."""
    while True:
        headers = {} if resume[0] is None else {"Last-Event-ID": str(resume[0])}
        with connect_sse(client, "GET", url, headers=headers) as source:
            source.response.raise_for_status()
            for sse in source.iter_sse():
                if sse.id:
                    resume[0] = int(sse.id)
                yield sse


class Bot:
    """One account's games, each played by a thread of its own."""

    def __init__(self, base_url: str, token: str, games: int | None) -> None:
        self.base_url, self.token, self.wanted = base_url, token, games
        self.lock = threading.Lock()
        self.playing: set[str] = set()
        self.finished: set[str] = set()
        self.done = threading.Event()

    def client(self) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.token}"}
        timeout = httpx.Timeout(30, read=60)
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout)

    def run(self) -> None:
        """Follow the account stream until `--games` games are over (or for ever)."""
        threading.Thread(target=self.follow, daemon=True).start()
        self.done.wait()

    def follow(self) -> None:
        with self.client() as client:
            for sse in events(client, "/api/v1/account/stream", [None]):
                self.heard(sse.event, json.loads(sse.data) if sse.data else {})

    def heard(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "snapshot":
            for game in data["games"]:
                self.play(game["game"])
            self.accept_waiting()
        elif kind == "challenge":
            self.accept(data["challenge"], data["game"])
        elif kind in ("game_started", "your_turn"):
            self.play(data["game"])
        elif kind == "game_finished":
            self.over(data["game"])

    def accept_waiting(self) -> None:
        """Accept the challenges made while the bot was not listening (none without the
        scope `challenge:read`: a token for playing only)."""
        query = {"direction": "incoming", "status": "pending", "limit": 100}
        with self.client() as client:
            answer = client.get("/api/v1/challenges", params=query)
            if answer.status_code == 403:
                return
            answer.raise_for_status()
            for challenge in answer.json()["results"]:
                self.accept(challenge["id"], challenge["game"])

    def accept(self, challenge_id: str, game_id: str) -> None:
        """Take the seat a challenge holds for the bot, then play its game (a challenge
        answered or called off meanwhile is let go)."""
        with self.client() as client:
            answer = client.post(f"/api/v1/challenges/{challenge_id}/accept")
        if answer.status_code >= 400 and answer.json().get("code") in TOO_LATE:
            return
        answer.raise_for_status()
        self.play(game_id)

    def play(self, game_id: str) -> None:
        """A thread for the game, unless one plays it already or it is over."""
        with self.lock:
            if game_id in self.playing or game_id in self.finished:
                return
            self.playing.add(game_id)
        threading.Thread(target=self.keep_playing, args=(game_id,), daemon=True).start()

    def keep_playing(self, game_id: str) -> None:
        """Play the game, starting again (its stream read afresh) after a failure."""
        while True:
            try:
                return self.play_game(game_id)
            except (httpx.HTTPError, RuntimeError) as error:
                print(f"{game_id}: {error}; again in a second", file=sys.stderr, flush=True)
                time.sleep(1)

    def over(self, game_id: str) -> None:
        with self.lock:
            self.finished.add(game_id)
            if self.wanted is not None and len(self.finished) >= self.wanted:
                self.done.set()

    def play_game(self, game_id: str) -> None:
        """Act on each view of the seat's stream that lists actions, until the game ends."""
        with self.client() as client:
            for sse in events(client, f"/api/v1/games/{game_id}/stream", [None]):
                if sse.event != "view":
                    continue
                view = json.loads(sse.data)
                if view["status"] in OVER:  # played to the end, or called off
                    self.over(game_id)
                    return
                if view.get("legal_actions"):
                    self.act(client, game_id, choose(view["legal_actions"]))

    def act(self, client: httpx.Client, game_id: str, action: dict[str, Any]) -> None:
        """Send `action`; throttled (one account's games share its limits), wait as
        `Retry-After` says and send it again."""
        while True:
            answer = client.post(f"/api/v1/games/{game_id}/actions", json=action)
            if answer.status_code != 429:
                break
            time.sleep(float(answer.headers.get("Retry-After", "1")))
        if answer.status_code >= 400 and answer.json().get("code") not in STALE:
            raise RuntimeError(f"{answer.status_code}: {answer.text}")


def create_account(base_url: str, handle: str) -> str:
    """A new bot account (`POST /api/v1/accounts`): its token, shown this once."""
    answer = httpx.post(f"{base_url}/api/v1/accounts", json={"handle": handle, "kind": "bot"})
    answer.raise_for_status()
    token: str = answer.json()["token"]
    return token


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("SKYJO_TOKEN"))
    parser.add_argument("--create-account", metavar="HANDLE", help="a new bot account")
    parser.add_argument("--games", type=int, help="stop once this many games are over")
    options = parser.parse_args(argv)
    token = options.token
    if options.create_account:
        token = create_account(options.url, options.create_account)
        print(f"token (shown once): {token}", flush=True)
    if not token:
        parser.error("a personal token: --token, SKYJO_TOKEN or --create-account")
    bot = Bot(options.url, token, options.games)
    bot.run()
    print(f"{len(bot.finished)} games over", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

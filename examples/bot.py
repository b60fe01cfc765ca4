#!/usr/bin/env python3
"""A Skyjo bot: creates or joins a game and plays it to the end with a simple greedy strategy.

It never polls: each seat reads its own stream (`GET /games/{id}/stream`, Server-Sent Events,
with httpx-sse) and, whenever a `view` frame lists legal actions, sends one. Actions go through
the Python client generated from `openapi.yaml` with openapi-python-client (package
`skyjo_service_api_client`). From the repository root:

    .venv/bin/openapi-python-client generate --path openapi.yaml --meta none \\
        --output-path build/python-client/skyjo_service_api_client --overwrite
    export PYTHONPATH=build/python-client

    # A game of its own, the bot playing both seats (a server on 127.0.0.1:8000: `make run`):
    .venv/bin/python examples/bot.py --seats 2 --seed 42 --play-all-seats
    # Or create a 3-seat game, take one seat and wait for two more players...
    .venv/bin/python examples/bot.py --seats 3 --name Ada
    # ...who join it by its id:
    .venv/bin/python examples/bot.py --game <game id> --name Bob

The bot never re-implements the rules: each game view lists the viewer's `legal_actions` and the
bot only ever picks one of them (R7: it sees what its seat may see, nothing more).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import httpx
from httpx_sse import connect_sse

try:
    from skyjo_service_api_client import AuthenticatedClient, Client
    from skyjo_service_api_client.api.lobby import create_game, join_game
    from skyjo_service_api_client.api.turns import act
    from skyjo_service_api_client.models import (
        Cell,
        CellState,
        CreateGameRequest,
        DiscardAction,
        DrawAction,
        Game,
        GameStatus,
        Joined,
        JoinRequest,
        OptionsRequest,
        Problem,
        ReplaceAction,
        RevealAction,
        TakeDiscardAction,
    )
    from skyjo_service_api_client.types import Response
except ImportError as error:  # pragma: no cover - a message for people running the example
    raise SystemExit(
        f"{error}: generate the client first (see examples/README.md), e.g.\n"
        "  .venv/bin/openapi-python-client generate --path openapi.yaml --meta none "
        "--output-path build/python-client/skyjo_service_api_client --overwrite\n"
        "  export PYTHONPATH=build/python-client"
    ) from error

T = TypeVar("T")
A = TypeVar("A", DiscardAction, DrawAction, ReplaceAction, RevealAction, TakeDiscardAction)
#: One of a view's `legal_actions`: a typed model per kind, sent as it is to `act`.
LegalAction = DiscardAction | DrawAction | ReplaceAction | RevealAction | TakeDiscardAction

#: Problems that mean "your copy of the game is stale": read it again and choose again.
STALE = {"not_your_turn", "concurrent_update", "version_mismatch"}

#: A face-up card at least this much above the card in hand is worth replacing.
IMPROVEMENT = 2
#: A card this low is worth placing on a face-down card.
LOW_CARD = 3


class ApiError(Exception):
    """The service answered with a problem the bot cannot handle by reading the game again."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(f"{problem.status} {problem.code}: {problem.detail}")
        self.problem = problem


class Stale(Exception):
    """The game moved on under us (or it is not our turn yet)."""


# -- strategy --------------------------------------------------------------------------------


def choose(game: Game) -> LegalAction:
    """Pick one of `game.legal_actions`: keep low cards, complete columns of three.

    * Take the discard if it completes a column, improves a face-up card by IMPROVEMENT or
      more, or is low enough to go on a face-down card; otherwise draw.
    * With a card in hand, place it where it does the same; else discard it (a drawn card) or
      put it where it hurts least (a taken discard must be placed).
    * Reveal in the column with the fewest face-up cards (spreads what we know).
    """
    legal = game.legal_actions
    if not legal or not isinstance(game.you, int):
        raise ValueError("this seat has nothing to do")
    grid = game.players[game.you].grid

    draw = _first(legal, DrawAction)
    if draw is not None:
        top = game.discard_top
        wanted = top is not None and placement(grid, top, must=False) is not None
        take = _first(legal, TakeDiscardAction)
        return take if wanted and take is not None else draw

    held = game.held_card
    replaces = {(a.column, a.row): a for a in legal if isinstance(a, ReplaceAction)}
    discard = _first(legal, DiscardAction)
    if held is not None and held.value is not None and replaces:
        place = placement(grid, held.value, must=discard is None)
        if place in replaces:
            return replaces[place]
        if discard is not None:
            return discard

    reveals = [a for a in legal if isinstance(a, RevealAction)]
    if reveals:

        def shown(action: RevealAction) -> tuple[int, int, int]:
            up = sum(1 for cell in grid[action.column] if cell.state == CellState.FACE_UP)
            return up, action.column, action.row

        return min(reveals, key=shown)
    return legal[0]


def placement(grid: Sequence[Sequence[Cell]], value: int, *, must: bool) -> tuple[int, int] | None:
    """Where a card of `value` should go in `grid` (column, row), or None to keep it out."""
    worst_face_up: tuple[int, int, int] | None = None  # (value, column, row)
    face_down: list[tuple[int, int]] = []
    for column, cells in enumerate(grid):
        if all(cell.state == CellState.REMOVED for cell in cells):
            continue
        matching = [cell.state == CellState.FACE_UP and cell.value == value for cell in cells]
        if sum(matching) == len(cells) - 1:
            return column, matching.index(False)  # the third equal card removes the column
        for row, cell in enumerate(cells):
            if cell.state == CellState.FACE_DOWN:
                face_down.append((column, row))
            elif cell.value is not None and (
                worst_face_up is None or cell.value > worst_face_up[0]
            ):
                worst_face_up = (cell.value, column, row)
    if worst_face_up is not None and worst_face_up[0] - value >= IMPROVEMENT:
        return worst_face_up[1], worst_face_up[2]
    if face_down and value <= LOW_CARD:
        return face_down[0]
    if must:
        if worst_face_up is not None and worst_face_up[0] > value:
            return worst_face_up[1], worst_face_up[2]
        if face_down:
            return face_down[0]
        if worst_face_up is not None:
            return worst_face_up[1], worst_face_up[2]
    return None


def _first(legal: Sequence[LegalAction], kind: type[A]) -> A | None:
    """The first legal action of that kind, if one is legal now."""
    return next((action for action in legal if isinstance(action, kind)), None)


# -- talking to the service ------------------------------------------------------------------


def send(request: Callable[[], Response[T]], *, attempts: int = 5) -> Response[T]:
    """Send a request; when throttled (429), wait as `Retry-After` says and send it again."""
    for _ in range(attempts):
        response = request()
        problem = response.parsed
        if not (isinstance(problem, Problem) and problem.code == "throttled"):
            return response
        time.sleep(problem.retry_after if isinstance(problem.retry_after, int) else 1)
    raise RuntimeError(f"still throttled after {attempts} attempts")


def expect(response: Response[T | Problem]) -> T:
    """The parsed answer, or an exception for a problem."""
    parsed = response.parsed
    if isinstance(parsed, Problem):
        if parsed.code in STALE:
            raise Stale(parsed.code)
        raise ApiError(parsed)
    if parsed is None:
        raise RuntimeError(f"unexpected answer {response.status_code}: {response.content!r}")
    return parsed


def call(request: Callable[[], Response[T | Problem]]) -> T:
    return expect(send(request))


@dataclass
class Seat:
    """One seat the bot plays: its token, its client, and its last view of the game."""

    number: int
    name: str
    token: str
    client: AuthenticatedClient
    view: Game

    def act(self, game_id: uuid.UUID, action: LegalAction) -> Game:
        """Send one legal action as it is listed, only if the game is still at the version we
        chose it from."""
        client, version = self.client, f'"{self.view.version}"'
        self.view = call(
            lambda: act.sync_detailed(game_id, client=client, body=action, if_match=version)
        )
        return self.view


def views(base_url: str, game_id: uuid.UUID, token: str, silence: float) -> Iterator[Game]:
    """The seat's view after every move, from its stream (`GET /games/{id}/stream`): no
    polling. When the server closes the stream (it does every few minutes), reconnect with
    `Last-Event-ID`: the stream goes on after the last event we had, nothing missed."""
    url = f"{base_url}/api/v1/games/{game_id}/stream"
    last_event_id: str | None = None
    with httpx.Client(timeout=httpx.Timeout(10.0, read=silence)) as http:
        while True:
            headers = {"Authorization": f"Bearer {token}"}
            if last_event_id:
                headers["Last-Event-ID"] = last_event_id
            with connect_sse(http, "GET", url, headers=headers) as source:
                if source.response.status_code != 200:
                    source.response.read()
                    raise ApiError(Problem.from_dict(source.response.json()))
                for frame in source.iter_sse():
                    last_event_id = frame.id or last_event_id
                    if frame.event == "view":
                        yield Game.from_dict(frame.json())


class Bot:
    """Plays one or more seats of a game until it is finished, each from its own stream."""

    def __init__(self, base_url: str, *, give_up_after: float) -> None:
        self.base_url = base_url.rstrip("/")
        self.lobby = Client(base_url=self.base_url, raise_on_unexpected_status=True)
        self.give_up_after = give_up_after
        self.seats: list[Seat] = []
        self.actions = 0
        self._count = threading.Lock()

    def create(self, seats: int, seed: int | None, end_score: int | None) -> Game:
        options = OptionsRequest() if end_score is None else OptionsRequest(end_score=end_score)
        body = CreateGameRequest(seats=seats, options=options, seed=seed)
        return call(lambda: create_game.sync_detailed(client=self.lobby, body=body))

    def join(self, game_id: uuid.UUID, name: str, *, attempts: int = 5) -> Seat:
        body = JoinRequest(name=name)
        for attempt in range(attempts):
            try:
                joined: Joined = call(
                    lambda: join_game.sync_detailed(game_id, client=self.lobby, body=body)
                )
                break
            except Stale:  # another player took a seat at the same moment: try again
                time.sleep(0.05 * (attempt + 1))
        else:
            raise RuntimeError(f"could not join {game_id} after {attempts} attempts")
        client = AuthenticatedClient(
            base_url=self.base_url, token=joined.token, raise_on_unexpected_status=True
        )
        seat = Seat(joined.seat, joined.name, joined.token, client, joined.game)
        self.seats.append(seat)
        return seat

    def play(self, game_id: uuid.UUID) -> Game:
        """Play every seat of ours, each in a thread reading its own stream; the final game."""
        with ThreadPoolExecutor(len(self.seats)) as pool:
            games = list(pool.map(lambda seat: self.play_seat(game_id, seat), self.seats))
        return games[0]

    def play_seat(self, game_id: uuid.UUID, seat: Seat) -> Game:
        """Read the seat's views as they come; whenever one lists legal actions, send one."""
        acted_on = -1
        for game in views(self.base_url, game_id, seat.token, self.give_up_after):
            if game.status == GameStatus.FINISHED:
                return game
            if game.legal_actions and game.version > acted_on:
                acted_on, seat.view = game.version, game
                try:
                    seat.act(game_id, choose(game))
                except Stale:  # the game moved on: the next view comes down the stream
                    continue
                with self._count:
                    self.actions += 1
        raise RuntimeError("the stream ended before the game did")


def summary(game: Game) -> str:
    names = {p.seat: p.name or f"seat {p.seat}" for p in game.players}
    totals = ", ".join(f"{names[p.seat]} {p.total}" for p in game.players)
    winners = ", ".join(names[w] for w in game.winners or [])
    return f"Game {game.id} finished after {len(game.rounds)} round(s): {totals}. Won by {winners}."


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Play Skyjo with a greedy bot, through the generated Python client."
    )
    parser.add_argument(
        "--base-url", default="http://127.0.0.1:8000", help="The service's root URL."
    )
    parser.add_argument("--game", type=uuid.UUID, help="Join this game instead of creating one.")
    parser.add_argument("--name", default="Greedy bot", help="The player's name.")
    parser.add_argument(
        "--seats", type=int, default=2, help="Seats of the game to create (default 2)."
    )
    parser.add_argument("--seed", type=int, help="Seed of the game to create (reproducible deals).")
    parser.add_argument("--end-score", type=int, help="End score of the game to create.")
    parser.add_argument(
        "--play-all-seats",
        action="store_true",
        help="Take every open seat of the game and play them all.",
    )
    parser.add_argument(
        "--give-up-after",
        type=float,
        default=600.0,
        help="Stop when the stream is silent this many seconds (it sends a comment every 15 s "
        "while the game waits, so this means the server is gone).",
    )
    args = parser.parse_args(argv)
    if args.game is not None and (args.seed is not None or args.end_score is not None):
        parser.error("--seed and --end-score apply to a game the bot creates, not to --game")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    bot = Bot(args.base_url, give_up_after=args.give_up_after)
    try:
        game_id: uuid.UUID | None = args.game
        if game_id is None:
            created = bot.create(args.seats, args.seed, args.end_score)
            game_id = created.id
            print(f"Created game {game_id} ({created.seats} seats).", flush=True)
        first = bot.join(game_id, args.name)
        if args.play_all_seats:
            for extra in range(first.view.open_seats):
                bot.join(game_id, f"{args.name} {extra + 2}")
        for seat in bot.seats:
            print(f"Joined game {game_id} as seat {seat.number} ({seat.name}).", flush=True)
        waiting = bot.seats[-1].view.open_seats
        if waiting:
            print(f"Waiting for {waiting} more player(s): --game {game_id}", flush=True)
        final = bot.play(game_id)
    except (ApiError, httpx.TransportError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"{summary(final)} ({bot.actions} actions by this bot)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

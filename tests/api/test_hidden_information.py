"""Hidden information (R4, R7), over HTTP, for every viewer: each seat and a spectator.

Nobody may learn a face-down card's value (its owner included), the draw pile's order, or a card
another seat drew from the draw pile and still holds: not from a game view (current or replayed
with `?at=`), not from the event feed, not from an error body. The full history, which holds
everything, is refused until the game is finished.

tests/api/test_full_games.py checks every view of whole games for face-down values. This goes
further, three ways:

- Twin games (non-interference): a game on a rigged deck is played by random legal actions,
  and a twin game on the same deck, except that the cards nobody has seen by the end trade
  places, gets the same actions. Whatever is hidden differs between the twins and everything
  else is equal, so every answer any viewer gets (views at every version, replays, event
  feeds, error bodies) must be identical in both: any trace of a hidden card would differ.
- Structure: every view is checked against the true state (from the engine, on the same
  rigged deck), and every event of a feed against what its type may show.
- Planted states: a deck dealt in a known order, so the test can name the cards each seat has
  face down, the draw pile's first cards and each drawn card, and look for them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Account
from engine import (
    FULL_DECK,
    Action,
    GameState,
    GreedyPlayer,
    Join,
    Options,
    RiggedShuffler,
    SeededShuffler,
    legal_actions,
    replay,
    seats_to_act,
    view,
)
from engine import act as engine_act
from engine import create_game as create_engine_game
from engine.cards import CELLS
from engine.state import DECK, PLAYING, SETUP
from games.core import states
from games.models import Game, GameEvent

from .support import (
    GAMES,
    act,
    assert_problem,
    bearer,
    create_game,
    game_url,
    get_view,
    hidden_leaks,
    join,
    send,
    without_identity,
)

pytestmark = pytest.mark.django_db

END_SCORE = 100
#: Every event type and the fields a viewer may see of it while the game is being played.
VISIBLE_FIELDS = {
    "RoundDealt": {"round", "discard_top", "deck_size"},
    "DrawPileReshuffled": {"deck_size"},
}


# A rigged dealer: the service deals the deck registered for the game's seed.


@pytest.fixture
def decks(monkeypatch: pytest.MonkeyPatch) -> dict[int, tuple[int, ...]]:
    """Register `decks[seed] = order` and a game created with that seed is dealt `order` for
    its first round (reshuffles and later rounds as RiggedShuffler does, alike for all)."""
    registered: dict[int, tuple[int, ...]] = {}

    def shuffler(seed: int) -> Any:
        deck = registered.get(seed)
        return SeededShuffler(seed) if deck is None else rigged(deck)

    monkeypatch.setattr(states, "SeededShuffler", shuffler)
    return registered


def rigged(deck: tuple[int, ...]) -> RiggedShuffler:
    return RiggedShuffler([deck], fallback=SeededShuffler(0))


def new_seed() -> int:
    return random.randrange(1, 2**62)


# The true game, on the engine


@dataclass
class Prefix:
    """A round-one game played on the engine: the actions, the state after the deal and after
    each action, and the deck positions (indices of the deal order) nobody has seen."""

    actions: list[tuple[int, Action]]
    states: list[GameState]
    unseen: list[int]


def seat_join(seat: int, accounts: bool) -> Join:
    """Seat `seat`'s join: a guest's, or (`accounts`) an account's, named by its handle."""
    return Join(handle(seat), account=handle(seat)) if accounts else Join(f"P{seat}")


def handle(seat: int) -> str:
    return f"player{seat}"


def dealt(
    seats: int, deck: tuple[int, ...], end_score: int = END_SCORE, accounts: bool = False
) -> GameState:
    state = replay(create_engine_game(seats, Options(end_score)))
    for seat in range(seats):
        _, state = engine_act(state, None, seat_join(seat, accounts), rigged(deck))
    return state


def play_round_one(
    seats: int, deck: tuple[int, ...], budget: int, rng: random.Random, accounts: bool = False
) -> Prefix:
    """Random legal actions, stopping before the round ends or the draw pile runs out (which
    would show every card, or leave none of the dealt pile unseen)."""
    state = dealt(seats, deck, accounts=accounts)
    prefix = Prefix([], [state], [])
    while len(prefix.actions) < budget:
        seat = rng.choice(seats_to_act(state))
        action = rng.choice(legal_actions(state, seat))
        _, after = engine_act(state, seat, action, rigged(deck))
        if after.round != 1 or after.reshuffles or after.phase not in (SETUP, PLAYING):
            break
        prefix.actions.append((seat, action))
        prefix.states.append(after)
        state = after
    # A card still face down was dealt there and never seen; so were the draw pile's.
    prefix.unseen = [
        seat * CELLS + cell
        for seat, grid in enumerate(state.grids)
        for cell in range(CELLS)
        if not (grid.up >> cell) & 1 and not (grid.gone >> cell) & 1
    ] + list(range(state.deck_pos, len(deck)))
    return prefix


def twin_deck(deck: tuple[int, ...], unseen: list[int], rng: random.Random) -> tuple[int, ...]:
    """`deck` with the unseen cards trading places (the same 150 cards)."""
    values = [deck[index] for index in unseen]
    rng.shuffle(values)
    twin = list(deck)
    for index, value in zip(unseen, values, strict=True):
        twin[index] = value
    return tuple(twin)


# Reading a game as every viewer


@dataclass
class Table:
    game_id: str
    tokens: list[str]

    def viewers(self) -> list[str | None]:
        """The spectator, then each seat."""
        return [None, *self.tokens]


def open_table(
    api: APIClient,
    decks: dict[int, tuple[int, ...]],
    deck: tuple[int, ...],
    seats: int,
    accounts: bool = False,
) -> Table:
    """A game dealt `deck`, its seats taken by guests or (`accounts`) by accounts, whose
    personal tokens then stand for them."""
    seed = new_seed()
    decks[seed] = deck
    game_id = create_game(api, seats, seed=seed, end_score=END_SCORE)["id"]
    if not accounts:
        tokens = [join(api, game_id, f"P{seat}")["token"] for seat in range(seats)]
        return Table(game_id, tokens)
    tokens = [personal_token(handle(seat)) for seat in range(seats)]
    for token in tokens:
        joined = api.post(f"{game_url(game_id)}/players", {}, format="json", **bearer(token))
        assert joined.status_code == 201, joined.content
    return Table(game_id, tokens)


def personal_token(name: str) -> str:
    """A new token of the bot account `name` (signed up the first time: examples share a
    database)."""
    account = Account.objects.filter(handle=name).first()
    if account is None:
        return services.sign_up(name, "bot", None).token.token
    return services.create_token(services.session_credential(account), "test", ["play"]).token


def read(api: APIClient, url: str, token: str | None, **query: Any) -> tuple[int, Any]:
    response = api.get(url, query, **(bearer(token) if token else {}))
    return response.status_code, response.json()


def views(api: APIClient, table: Table) -> list[dict[str, Any]]:
    return [without_identity(get_view(api, table.game_id, token)) for token in table.viewers()]


def feed(api: APIClient, table: Table, token: str | None) -> list[dict[str, Any]]:
    status, body = read(api, f"{game_url(table.game_id)}/events", token, limit=1000)
    assert status == 200, body
    return [{key: value for key, value in event.items() if key != "at"} for event in body["events"]]


def refusals(api: APIClient, table: Table, state: GameState) -> list[Any]:
    """Error bodies: a seat that may not act trying to draw (409), and the seat to act naming
    an old version in If-Match (412)."""
    answers = []
    waiting = [seat for seat in range(state.seats) if seat not in seats_to_act(state)]
    if waiting:
        refused = send(api, table.game_id, table.tokens[waiting[0]], {"action": "draw"})
        answers.append((refused.status_code, refused.json()))
    acting = seats_to_act(state)[0]
    stale = send(api, table.game_id, table.tokens[acting], {"action": "draw"}, HTTP_IF_MATCH='"1"')
    answers.append((stale.status_code, stale.json()))
    return answers


# What a view and a feed may show, against the truth


def check_view(served: dict[str, Any], truth: GameState, seat: int | None) -> None:
    assert hidden_leaks(served) == [], hidden_leaks(served)
    assert served == view(truth, seat).to_data()
    for player, grid in zip(served["players"], truth.grids, strict=True):
        for column, cells in enumerate(player["grid"]):
            for row, cell in enumerate(cells):
                index = column * 3 + row
                if (grid.up >> index) & 1:
                    assert cell == {"state": "face_up", "value": grid.values[index]}
                else:
                    assert cell["value"] is None
    held = served["held_card"]
    if truth.held is not None and truth.held_from == DECK:
        assert held["value"] == (truth.held if seat == truth.current else None)
    assert served["deck_size"] == len(truth.draw_pile)


def check_feed(events: list[dict[str, Any]], seat: int | None) -> None:
    """An unfinished game's events as `seat` (None: a spectator) is served them."""
    for event in events:
        data = event["data"]
        assert "deck" not in data and "order" not in data, event
        if event["type"] in VISIBLE_FIELDS:
            assert set(data) == VISIBLE_FIELDS[event["type"]], event
        if event["type"] == "CardDrawn" and data["seat"] != seat:
            assert data["value"] is None, event


def check_history_refused(api: APIClient, table: Table) -> None:
    for token in (None, table.tokens[0]):
        status, body = read(api, f"{game_url(table.game_id)}/history", token)
        assert status == 409 and body["code"] == "game_not_finished", body


# Twin games


FUZZ = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    # Shrinking twin games over HTTP takes minutes; a failure is reported as found.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)


@FUZZ
@given(
    seats=st.integers(min_value=2, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
    turns=st.integers(min_value=0, max_value=16),
)
def test_twin_games_answer_every_viewer_alike(
    api: APIClient, decks: dict[int, tuple[int, ...]], seats: int, seed: int, turns: int
) -> None:
    play_twins(api, decks, seats, seed, turns, accounts=False)


@FUZZ
@given(
    seats=st.integers(min_value=2, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
    turns=st.integers(min_value=0, max_value=16),
)
def test_twin_games_of_accounts_answer_every_viewer_alike(
    api: APIClient, decks: dict[int, tuple[int, ...]], seats: int, seed: int, turns: int
) -> None:
    """The same with every seat an account's, acted for and read by personal tokens."""
    play_twins(api, decks, seats, seed, turns, accounts=True)


def play_twins(
    api: APIClient,
    decks: dict[int, tuple[int, ...]],
    seats: int,
    seed: int,
    turns: int,
    *,
    accounts: bool,
) -> None:
    """Twin games played alike: every answer to every viewer must be identical."""
    rng = random.Random(seed)
    deck = SeededShuffler(seed).deal_order(1)
    prefix = play_round_one(seats, deck, budget=2 * seats + turns, rng=rng, accounts=accounts)
    twin = twin_deck(deck, prefix.unseen, rng)
    assume(twin != deck)
    first = open_table(api, decks, deck, seats, accounts)
    second = open_table(api, decks, twin, seats, accounts)
    dealt_deck = GameEvent.objects.get(game_id=first.game_id, type="RoundDealt").payload["deck"]
    assert tuple(dealt_deck) == deck  # the rigging took

    seen: list[list[dict[str, Any]]] = []
    for step, truth in enumerate(prefix.states):
        if step:
            seat, action = prefix.actions[step - 1]
            answer = act(api, first.game_id, first.tokens[seat], action)
            twin_answer = act(api, second.game_id, second.tokens[seat], action)
            assert without_identity(answer) == without_identity(twin_answer)
        now = views(api, first)
        assert now == views(api, second), f"a hidden card shows, at version {truth.version}"
        for served, seat in zip(now, [None, *range(seats)], strict=True):
            check_view(served, truth, seat)
        assert refusals(api, first, truth) == refusals(api, second, truth)
        check_history_refused(api, first)
        seen.append(now)

    # Feeds, and replays of earlier versions, as each viewer.
    for seat, (a, b) in enumerate(zip(first.viewers(), second.viewers(), strict=True)):
        events = feed(api, first, a)
        assert events == feed(api, second, b)
        check_feed(events, seat - 1 if seat else None)
    for step in sorted({0, len(seen) // 2, len(seen) - 1}):
        version = prefix.states[step].version
        for index, (a, b) in enumerate(zip(first.viewers(), second.viewers(), strict=True)):
            status, replayed = read(api, game_url(first.game_id), a, at=version)
            assert status == 200
            assert without_identity(replayed) == seen[step][index]
            twin_replayed = read(api, game_url(second.game_id), b, at=version)[1]
            assert without_identity(twin_replayed) == seen[step][index]


# Planted states

#: The deal, in order: seat 0's twelve cards (column by column), seat 1's, the first discard,
#: then the draw pile. Seat 0 is dealt the 12s and seat 1 the -2s and -1s, face down.
SEAT_0 = (12,) * 10 + (11, 11)
SEAT_1 = (-2,) * 5 + (-1,) * 7
FIRST_DISCARD = 0
PILE_TOP = (7, 3, 9, 1, 5, 10, 2, 8, 4, 6)


def planted_deck() -> tuple[int, ...]:
    rest = list(FULL_DECK)
    for card in (*SEAT_0, *SEAT_1, FIRST_DISCARD, *PILE_TOP):
        rest.remove(card)
    return (*SEAT_0, *SEAT_1, FIRST_DISCARD, *PILE_TOP, *sorted(rest))


def runs(data: Any) -> Iterator[list[int]]:
    """Every list of whole numbers anywhere in a JSON document."""
    if isinstance(data, dict):
        for value in data.values():
            yield from runs(value)
    elif isinstance(data, list):
        if data and all(isinstance(item, int) and not isinstance(item, bool) for item in data):
            yield data
        for item in data:
            yield from runs(item)


def shows_pile_order(data: Any) -> bool:
    """Whether any list in `data` holds three of the draw pile's first cards in a row."""
    order = list(PILE_TOP)
    windows = {tuple(order[i : i + 3]) for i in range(len(order) - 2)}
    return any(
        tuple(numbers[i : i + 3]) in windows for numbers in runs(data) for i in range(len(numbers))
    )


def everything_seen(api: APIClient, table: Table) -> list[tuple[str | None, Any]]:
    """Every answer each viewer can read now: the view, the feed, the history refusal."""
    seen: list[tuple[str | None, Any]] = []
    for token in table.viewers():
        for url in (game_url(table.game_id), f"{game_url(table.game_id)}/events"):
            seen.append((token, read(api, url, token)[1]))
        seen.append((token, read(api, f"{game_url(table.game_id)}/history", token)[1]))
    return seen


def test_planted_cards_stay_hidden(api: APIClient, decks: dict[int, tuple[int, ...]]) -> None:
    table = open_table(api, decks, planted_deck(), 2)
    spectator, ada, bob = table.viewers()
    for _, answer in everything_seen(api, table):
        assert not shows_pile_order(answer), answer
        # Nothing of the deal shows but the first discard: no grid value, no deck.
        text = json.dumps(answer)
        assert '"deck"' not in text and '"order"' not in text
    for token in table.viewers():
        game = get_view(api, table.game_id, token)
        assert all(
            cell == {"state": "face_down", "value": None}
            for p in game["players"]
            for c in p["grid"]
            for cell in c
        )
        assert game["discard_top"] == FIRST_DISCARD and game["deck_size"] == 150 - 25

    # Setup: each seat turns two cards; only those show, to everyone alike.
    for token in (ada, bob):
        act(api, table.game_id, token, {"action": "reveal", "column": 0, "row": 0})
        act(api, table.game_id, token, {"action": "reveal", "column": 1, "row": 0})
    game = get_view(api, table.game_id)
    assert game["status"] == "playing" and game["current_seat"] == 0  # 12 + 12 is highest
    for token in table.viewers():
        players = get_view(api, table.game_id, token)["players"]
        shown = [
            [
                (c, r, cell["value"])
                for c, column in enumerate(p["grid"])
                for r, cell in enumerate(column)
                if cell["value"] is not None
            ]
            for p in players
        ]
        assert shown == [[(0, 0, 12), (1, 0, 12)], [(0, 0, -2), (1, 0, -2)]]

    # Ada draws the pile's top card, 7: she sees it; Bob and the spectator do not, in the view,
    # the feed, or the answer to Bob trying to act meanwhile.
    assert act(api, table.game_id, ada, {"action": "draw"})["held_card"] == {
        "seat": 0,
        "source": "deck",
        "value": PILE_TOP[0],
    }
    for token in (spectator, bob):
        assert get_view(api, table.game_id, token)["held_card"] == {
            "seat": 0,
            "source": "deck",
            "value": None,
        }
        drawn = [
            e
            for e in read(api, f"{game_url(table.game_id)}/events", token)[1]["events"]
            if e["type"] == "CardDrawn"
        ]
        assert drawn[0]["data"] == {"seat": 0, "value": None}
    mine = [
        e
        for e in read(api, f"{game_url(table.game_id)}/events", ada)[1]["events"]
        if e["type"] == "CardDrawn"
    ]
    assert mine[0]["data"] == {"seat": 0, "value": PILE_TOP[0]}
    refused = assert_problem(
        send(api, table.game_id, bob, {"action": "draw"}), 409, "not_your_turn"
    )
    assert refused == {
        "type": "/api/v1/problems/not_your_turn",
        "title": "Not your turn",
        "status": 409,
        "detail": "it is seat 0's turn",
        "code": "not_your_turn",
    }
    for _, answer in everything_seen(api, table):
        assert not shows_pile_order(answer), answer

    # Once discarded, the 7 is public; the next card, 3, is Bob's to see only.
    act(api, table.game_id, ada, {"action": "discard"})
    act(api, table.game_id, ada, {"action": "reveal", "column": 2, "row": 0})
    assert get_view(api, table.game_id, bob)["discard_top"] == PILE_TOP[0]
    assert act(api, table.game_id, bob, {"action": "draw"})["held_card"]["value"] == PILE_TOP[1]
    assert get_view(api, table.game_id, ada)["held_card"]["value"] is None
    # Ada's face-down cards are still 12s and 11s she has not seen: no viewer is shown them.
    for token in table.viewers():
        ada_grid = get_view(api, table.game_id, token)["players"][0]["grid"]
        assert sum(cell["value"] is None for column in ada_grid for cell in column) == 9


def test_the_full_history_is_published_only_at_the_end(
    api: APIClient, decks: dict[int, tuple[int, ...]]
) -> None:
    """A game on the planted deck, to its end: until the last action the history is refused to
    everyone; then it holds every card, the deal order included, and the feed shows it too."""
    deck = planted_deck()
    seed = new_seed()
    decks[seed] = deck
    game_id = create_game(api, 2, seed=seed, end_score=1)["id"]
    tokens = [join(api, game_id, f"P{seat}")["token"] for seat in range(2)]
    table = Table(game_id, tokens)
    state = dealt(2, deck, end_score=1)
    player = GreedyPlayer()
    while state.phase in (SETUP, PLAYING):
        check_history_refused(api, table)
        seat = seats_to_act(state)[0]
        action = player.choose(view(state, seat))
        act(api, game_id, tokens[seat], action)
        _, state = engine_act(state, seat, action, rigged(deck))
    assert Game.objects.get(pk=game_id).status == "finished"
    for token in table.viewers():
        status, history = read(api, f"{GAMES}/{game_id}/history", token)
        assert status == 200
        dealt_events = [e for e in history["events"] if e["type"] == "RoundDealt"]
        assert tuple(dealt_events[0]["data"]["deck"]) == deck
        deals = [e for e in feed(api, table, token) if e["type"] == "RoundDealt"]
        assert deals[0]["data"]["deck"] == list(deck)

"""Game histories over HTTP: the event feed (what each viewer may see of each event), replay at
any version (`?at=N`), the full history once finished, and its import (audited event by event).

Games are seeded and played by engine players choosing from the views as served; the truth a
viewer must not learn is read from the stored payloads, so each test knows exactly which
values were hidden from whom.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import GameState, GreedyPlayer, event_from_data, evolve, view
from engine.state import EMPTY
from games.models import Game
from tests.api.history_support import (
    DECK,
    Hoarder,
    drive_over_http,
    engine_game,
    engine_history,
    feed_page,
    stored_history,
    stored_rows,
    visible_data,
    whole_feed,
)
from tests.api.support import (
    GAMES,
    act,
    assert_problem,
    bearer,
    create_game,
    finished_game,
    get_view,
    hidden_leaks,
    join,
    setup_reveals,
    start_game,
    without_identity,
)

pytestmark = pytest.mark.django_db

IMPORT = f"{GAMES}/import"


def history_url(game_id: str) -> str:
    return f"{GAMES}/{game_id}/history"


def view_at(api: APIClient, game_id: str, at: int, token: str | None = None) -> dict[str, Any]:
    response = api.get(f"{GAMES}/{game_id}", {"at": at}, **(bearer(token) if token else {}))
    assert response.status_code == 200, response.content
    assert "ETag" not in response
    data: dict[str, Any] = response.json()
    return data


def states_by_version(game_id: str) -> list[GameState]:
    """The engine's state after each stored event: index n is the state at version n."""
    states = [EMPTY]
    for _, kind, version, payload in stored_rows(game_id):
        states.append(evolve(states[-1], event_from_data(kind, payload, version)))
    return states


def longest_list(value: Any) -> int:
    if isinstance(value, dict):
        return max((longest_list(item) for item in value.values()), default=0)
    if isinstance(value, list):
        return max([len(value), *(longest_list(item) for item in value)])
    return 0


def import_history(api: APIClient, document: Any) -> dict[str, Any]:
    response = api.post(IMPORT, document, format="json")
    assert response.status_code == 201, response.content
    assert response["Location"] == f"{GAMES}/{response.json()['id']}"
    data: dict[str, Any] = response.json()
    return data


# The event feed: redaction


@pytest.mark.parametrize(
    ("seats", "seed", "stall"),
    [
        # Hoarders draw 126 cards and more in round 1: the draw pile runs out (R9).
        pytest.param(2, 3, 63, id="2-seats-with-a-reshuffle"),
        pytest.param(4, 5, 0, id="4-seats-greedy"),
    ],
)
def test_the_feed_shows_each_viewer_only_what_it_may_know_until_the_end(
    api: APIClient, seats: int, seed: int, stall: int
) -> None:
    _, planned = engine_game(seats, seed, 1, lambda: Hoarder(stall))
    game_id, tokens = start_game(api, seats, seed=seed, end_score=1)
    viewers: list[int | None] = [None, *range(seats)]
    seen: dict[int | None, list[dict[str, Any]]] = {viewer: [] for viewer in viewers}

    def poll(sent: int) -> None:
        """Each viewer follows the feed as a client would, from the last sequence it has;
        the last poll is just before the action that ends the game."""
        if sent % 60 and sent != len(planned) - 1:
            return
        for viewer in viewers:
            token = None if viewer is None else tokens[viewer]
            after = seen[viewer][-1]["sequence"] if seen[viewer] else 0
            seen[viewer].extend(whole_feed(api, game_id, token, after=after))

    players = [Hoarder(stall) for _ in range(seats)]
    assert drive_over_http(api, game_id, tokens, players, before_action=poll) == len(planned)
    rows = stored_rows(game_id)
    truth = {sequence: (kind, payload) for sequence, kind, _, payload in rows}
    kinds = Counter(kind for _, kind, _, _ in rows)
    assert kinds["GameEnded"] == 1
    if stall:
        assert kinds["DrawPileReshuffled"] >= 1
    final_action_events = len(rows) - seen[None][-1]["sequence"]
    assert 0 < final_action_events < 10  # only the last action's events came after the end

    for viewer in viewers:
        events = seen[viewer]
        assert [e["sequence"] for e in events] == list(range(1, len(events) + 1))
        hidden: Counter[str] = Counter()
        for event in events:
            kind, payload = truth[event["sequence"]]
            data = event["data"]
            assert event["type"] == kind
            assert isinstance(event["at"], str) and event["at"].endswith("Z")
            # Structurally: no deck order, no other seat's drawn card.
            assert "deck" not in data and "order" not in data
            assert longest_list(data) <= seats  # RoundEnded's lists; never a pile of cards
            if kind == "CardDrawn" and payload["seat"] != viewer:
                assert data["value"] is None
            # Against the truth: exactly the hidden values are missing, nothing else.
            assert data == visible_data(kind, payload, viewer, seats), (viewer, event)
            if data != payload:
                hidden[kind] += 1
        assert hidden["RoundDealt"] == kinds["RoundDealt"]
        assert hidden["DrawPileReshuffled"] == kinds["DrawPileReshuffled"]
        others_draws = sum(
            1 for kind, p in truth.values() if kind == "CardDrawn" and p["seat"] != viewer
        )
        assert hidden["CardDrawn"] == others_draws > 0
        assert set(hidden) <= {"RoundDealt", "DrawPileReshuffled", "CardDrawn"}

    # Once the game is over, nothing is hidden, from anyone.
    for viewer in viewers:
        token = None if viewer is None else tokens[viewer]
        after_end = whole_feed(api, game_id, token)
        assert [(e["sequence"], e["type"], e["data"]) for e in after_end] == [
            (sequence, kind, payload) for sequence, kind, _, payload in rows
        ]
        dealt = next(e for e in after_end if e["type"] == "RoundDealt")
        assert len(dealt["data"]["deck"]) == DECK


def test_a_seat_sees_its_own_draw_in_the_feed_and_nobody_else_does(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=4, end_score=100)
    body = setup_reveals(api, game_id, tokens)
    seat = body["current_seat"]
    drawn = act(api, game_id, tokens[seat], {"action": "draw"})["held_card"]["value"]
    assert isinstance(drawn, int)
    sequence = stored_rows(game_id)[-1][0]
    own = feed_page(api, game_id, tokens[seat], after=sequence - 1)["events"]
    other = feed_page(api, game_id, tokens[1 - seat], after=sequence - 1)["events"]
    spectator = feed_page(api, game_id, after=sequence - 1)["events"]
    assert own == [{**other[0], "data": {"seat": seat, "value": drawn}}]
    assert other[0]["type"] == "CardDrawn"
    assert other[0]["data"] == spectator[0]["data"] == {"seat": seat, "value": None}


# The event feed: paging


@pytest.fixture
def long_finished_game(api: APIClient) -> tuple[str, int]:
    """A finished 2-seat game of more than 100 events: its id and version."""
    game_id, _ = finished_game(api, 2, seed=3)
    version = Game.objects.get(pk=game_id).version
    assert version > 105
    return game_id, version


def test_feed_paging_with_after_and_limit(
    api: APIClient, long_finished_game: tuple[str, int]
) -> None:
    game_id, version = long_finished_game

    def sequences(**query: Any) -> list[int]:
        page = feed_page(api, game_id, **query)
        assert page["version"] == version
        for event in page["events"]:
            assert set(event) == {"sequence", "type", "at", "data"}
        return [event["sequence"] for event in page["events"]]

    assert sequences() == list(range(1, 101))  # after 0, limit 100 by default
    assert sequences(after=37, limit=5) == [38, 39, 40, 41, 42]
    assert sequences(after=5) == list(range(6, 106))
    assert sequences(limit=1) == [1]
    assert sequences(limit=1000) == list(range(1, version + 1))
    assert sequences(after=version - 3, limit=100) == [version - 2, version - 1, version]
    assert sequences(after=version) == []
    assert sequences(after=version + 50) == []
    # Pages of 7 put together are the whole feed.
    pages: list[dict[str, Any]] = []
    while not pages or pages[-1]["sequence"] < version:
        after = pages[-1]["sequence"] if pages else 0
        pages.extend(feed_page(api, game_id, after=after, limit=7)["events"])
    assert pages == feed_page(api, game_id, limit=1000)["events"]


def test_feed_version_follows_the_game(api: APIClient) -> None:
    game = create_game(api, 2, seed=9)
    page = feed_page(api, game["id"])
    assert page["version"] == 1 and [e["type"] for e in page["events"]] == ["GameCreated"]
    join(api, game["id"], "Ada")
    page = feed_page(api, game["id"], after=1)
    assert page["version"] == 2 and [e["type"] for e in page["events"]] == ["PlayerJoined"]
    assert page["events"][0]["data"] == {"seat": 0, "name": "Ada", "bot": None, "account": None}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"limit": 1001}, "limit"),
        ({"limit": -5}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"after": -1}, "after"),
        ({"after": "x"}, "after"),
        ({"after": 2**31}, "after"),
    ],
)
def test_feed_refuses_bad_paging(api: APIClient, query: dict[str, Any], field: str) -> None:
    game = create_game(api, 2, seed=1)
    body = assert_problem(api.get(f"{GAMES}/{game['id']}/events", query), 400, "invalid_request")
    assert field in body["errors"]


def test_feed_of_no_game_and_with_a_foreign_token(api: APIClient) -> None:
    assert_problem(api.get(f"{GAMES}/{'0' * 32}/events"), 404, "game_not_found")
    game_id, _ = start_game(api, 2, seed=1)
    _, other_tokens = start_game(api, 2, seed=2)
    response = api.get(f"{GAMES}/{game_id}/events", **bearer(other_tokens[0]))
    assert_problem(response, 401, "invalid_token")


# The full history


def test_the_history_is_refused_until_the_game_is_finished(api: APIClient) -> None:
    game = create_game(api, 2, seed=5, end_score=1)
    game_id = game["id"]
    assert_problem(api.get(history_url(game_id)), 409, "game_not_finished")  # waiting
    tokens = [join(api, game_id, name)["token"] for name in ("Ada", "Bob")]
    assert_problem(api.get(history_url(game_id)), 409, "game_not_finished")  # setup
    setup_reveals(api, game_id, tokens)
    assert_problem(api.get(history_url(game_id)), 409, "game_not_finished")  # playing
    assert_problem(api.get(history_url(game_id), **bearer(tokens[0])), 409, "game_not_finished")
    assert_problem(api.get(history_url("f" * 32)), 404, "game_not_found")


def test_the_history_of_a_finished_game_holds_every_event_in_full(
    api: APIClient, long_finished_game: tuple[str, int]
) -> None:
    game_id, version = long_finished_game
    response = api.get(history_url(game_id))
    assert response.status_code == 200, response.content
    history = response.json()
    assert history["format"] == "skyjo-history" and history["format_version"] == 1
    game = history["game"]
    spectator = get_view(api, game_id)
    assert game["id"] == game_id and game["created_at"] == spectator["created_at"]
    assert game["seats"] == 2 and game["options"] == spectator["options"]
    assert game["players"] == [{"seat": 0, "name": "Player 0"}, {"seat": 1, "name": "Player 1"}]
    assert game["status"] == "finished" and game["version"] == version
    assert game["winners"] == spectator["winners"]
    assert [
        (e["sequence"], e["type"], e["schema_version"], e["data"]) for e in history["events"]
    ] == stored_rows(game_id)
    assert all(e["at"].endswith("Z") for e in history["events"])
    # The service wrote exactly what the engine writes for this seed.
    engine = engine_history(2, 3, 1)["events"]
    assert [(e["type"], e["data"]) for e in history["events"]] == [
        (e["type"], e["data"]) for e in engine
    ]


# Export, import, and replay at every version


@pytest.mark.parametrize(("seats", "seed"), [(2, 3), (4, 5), (8, 4)])
def test_an_exported_history_imports_as_the_same_game_at_every_version(
    api: APIClient, seats: int, seed: int
) -> None:
    game_id, _ = finished_game(api, seats, seed=seed, end_score=1)
    history = api.get(history_url(game_id)).json()
    imported = import_history(api, history)
    version = history["game"]["version"]
    assert imported["id"] != game_id
    assert imported["status"] == "finished" and imported["version"] == version
    assert imported["seat_tokens"] == []  # nobody acts in a finished game
    assert imported["winners"] == history["game"]["winners"]
    assert history["game"]["seeded"] and not imported["seeded"]  # a new secret seed

    states = states_by_version(game_id)
    for at in range(1, version + 1):
        original = without_identity(view_at(api, game_id, at))
        # A finished game replays with everything shown, face-down cards included.
        assert original == view(states[at], None, reveal_all=True).to_data(), at
        assert without_identity(view_at(api, imported["id"], at)) == original, at
    assert without_identity(get_view(api, imported["id"])) == without_identity(
        get_view(api, game_id)
    )
    again = api.get(history_url(imported["id"])).json()
    assert again["game"] == {
        **history["game"],
        "id": imported["id"],
        "created_at": again["game"]["created_at"],
        "seeded": False,
    }
    assert [{**e, "at": None} for e in again["events"]] == [
        {**e, "at": None} for e in history["events"]
    ]


def test_replay_of_a_finished_game_shows_face_down_cards_to_seats_too(api: APIClient) -> None:
    game_id, tokens = finished_game(api, 2, seed=3)
    states = states_by_version(game_id)
    at = next(n for n, s in enumerate(states) if s.phase == "playing")
    for seat, token in enumerate(tokens):
        seen = without_identity(view_at(api, game_id, at, token))
        assert seen == view(states[at], seat, reveal_all=True).to_data()
        face_down = [
            cell
            for p in seen["players"]
            for column in p["grid"]
            for cell in column
            if cell["state"] == "face_down"
        ]
        assert face_down and all(isinstance(cell["value"], int) for cell in face_down)


def test_replay_of_a_game_in_progress_hides_at_every_version_what_it_hid(
    api: APIClient,
) -> None:
    game_id, tokens = start_game(api, 2, seed=8, end_score=100)
    drive_over_http(api, game_id, tokens, [GreedyPlayer(), GreedyPlayer()], max_actions=40)
    act(api, game_id, tokens[get_view(api, game_id)["current_seat"]], {"action": "draw"})
    version = Game.objects.get(pk=game_id).version
    states = states_by_version(game_id)
    viewers: list[tuple[int | None, str | None]] = [(None, None), (0, tokens[0]), (1, tokens[1])]
    held_hidden = 0
    for at in range(1, version + 1):
        for seat, token in viewers:
            seen = view_at(api, game_id, at, token)
            assert hidden_leaks(seen) == [], (at, seat)
            assert without_identity(seen) == view(states[at], seat).to_data(), (at, seat)
            held = seen["held_card"]
            if held and held["source"] == "deck" and held["seat"] != seat:
                held_hidden += 1
            if seen["round"]:
                values = [c["value"] for p in seen["players"] for col in p["grid"] for c in col]
                assert None in values  # the face-down cards are there, unseen
    assert held_hidden > 0
    # The last version is the current game.
    assert without_identity(view_at(api, game_id, version, tokens[0])) == without_identity(
        get_view(api, game_id, tokens[0])
    )


@pytest.mark.parametrize("at", ["0", "-1", "x", "1.5", "99999"])
def test_replay_refuses_a_version_the_game_does_not_have(api: APIClient, at: str) -> None:
    game_id, _ = start_game(api, 2, seed=1)
    body = assert_problem(api.get(f"{GAMES}/{game_id}", {"at": at}), 400, "invalid_request")
    assert "at" in body["errors"]


def test_replay_just_past_the_last_event_is_refused(api: APIClient) -> None:
    game_id, _ = start_game(api, 2, seed=1)
    version = Game.objects.get(pk=game_id).version
    view_at(api, game_id, version)
    body = assert_problem(
        api.get(f"{GAMES}/{game_id}", {"at": version + 1}), 400, "invalid_request"
    )
    assert "at" in body["errors"]


def test_an_unfinished_history_imports_as_a_playable_game(api: APIClient) -> None:
    game_id, tokens = start_game(api, 3, seed=2, end_score=1)
    drive_over_http(api, game_id, tokens, [GreedyPlayer() for _ in range(3)], max_actions=50)
    version = Game.objects.get(pk=game_id).version
    imported = import_history(api, stored_history(game_id))
    new_id = imported["id"]
    assert imported["status"] == "playing" and imported["version"] == version
    assert [(t["seat"], t["name"]) for t in imported["seat_tokens"]] == [
        (0, "Player 0"),
        (1, "Player 1"),
        (2, "Player 2"),
    ]
    new_tokens = [t["token"] for t in imported["seat_tokens"]]
    assert set(new_tokens).isdisjoint(tokens)
    assert hidden_leaks(imported) == []
    for at in range(1, version + 1):
        assert without_identity(view_at(api, new_id, at)) == without_identity(
            view_at(api, game_id, at)
        ), at
    for old, new in zip(tokens, new_tokens, strict=True):
        assert without_identity(get_view(api, new_id, new)) == without_identity(
            get_view(api, game_id, old)
        )
    # The old seat tokens are not seats of the new game; the new ones act.
    seat = get_view(api, new_id)["current_seat"]
    response = api.post(f"{GAMES}/{new_id}/actions/draw", **bearer(tokens[seat]))
    assert_problem(response, 401, "invalid_token")
    assert assert_problem(api.get(history_url(new_id)), 409, "game_not_finished")
    players = [GreedyPlayer() for _ in range(3)]
    assert drive_over_http(api, new_id, new_tokens, players) > 0
    assert get_view(api, new_id)["status"] == "finished"
    assert api.get(history_url(new_id)).status_code == 200
    assert Game.objects.get(pk=game_id).version == version  # the original is untouched


def test_a_waiting_history_imports_with_its_open_seats(api: APIClient) -> None:
    game = create_game(api, 3, seed=2, end_score=1)
    join(api, game["id"], "Ada")
    join(api, game["id"], "Bob")
    imported = import_history(api, stored_history(game["id"]))
    assert imported["status"] == "waiting" and imported["open_seats"] == 1
    assert [(t["seat"], t["name"]) for t in imported["seat_tokens"]] == [(0, "Ada"), (1, "Bob")]
    tokens = [t["token"] for t in imported["seat_tokens"]]
    tokens.append(join(api, imported["id"], "Cy")["token"])
    assert get_view(api, imported["id"])["status"] == "setup"
    assert drive_over_http(api, imported["id"], tokens, [GreedyPlayer() for _ in range(3)]) > 0
    assert get_view(api, imported["id"])["status"] == "finished"


# Corrupted histories

Events = list[dict[str, Any]]
Corruption = Callable[[Events], tuple[int | None, str]]


def nth(events: Events, kind: str, n: int = 0) -> int:
    """The index of the n-th event of this type."""
    return [i for i, e in enumerate(events) if e["type"] == kind][n]


def renumber(events: Events) -> None:
    for sequence, event in enumerate(events, start=1):
        event["sequence"] = sequence


def card_value_changed(events: Events) -> tuple[int | None, str]:
    i = nth(events, "CardRevealed", 2)
    data = events[i]["data"]
    data["value"] = 12 if data["value"] != 12 else -2
    return i + 1, "event_mismatch"


def float_for_a_card(events: Events) -> tuple[int | None, str]:
    """`5.0 == 5` in Python: the auditor alone would take it, so the parser refuses it."""
    i = nth(events, "CardRevealed", 2)
    events[i]["data"]["value"] = float(events[i]["data"]["value"])
    return i + 1, "malformed_event"


def boolean_for_a_number(events: Events) -> tuple[int | None, str]:
    i = nth(events, "RoundDealt")
    events[i]["data"]["round"] = True  # round 1, but `true`
    return i + 1, "malformed_event"


def event_removed(events: Events) -> tuple[int | None, str]:
    i = nth(events, "TurnPassed", 10)
    del events[i]
    renumber(events)
    return i + 1, "event_mismatch"


def event_removed_leaving_a_gap(events: Events) -> tuple[int | None, str]:
    i = nth(events, "TurnPassed", 10)
    del events[i]
    return i + 1, "sequence_gap"


def second_draw_inserted(events: Events) -> tuple[int | None, str]:
    i = nth(events, "CardDrawn", 3)
    events.insert(i + 1, copy.deepcopy(events[i]))
    renumber(events)
    return i + 2, "card_already_held"


def draw_out_of_turn(events: Events) -> tuple[int | None, str]:
    i = nth(events, "CardDrawn", 3)
    events[i]["data"]["seat"] = 1 - events[i]["data"]["seat"]
    return i + 1, "not_your_turn"


def wrong_sequence_number(events: Events) -> tuple[int | None, str]:
    events[40]["sequence"] = 47
    return 41, "sequence_gap"


def repeated_sequence_number(events: Events) -> tuple[int | None, str]:
    events[40]["sequence"] = 40
    return 41, "sequence_gap"


def boolean_sequence_number(events: Events) -> tuple[int | None, str]:
    events[0]["sequence"] = True
    return 1, "sequence_gap"


def unknown_type(events: Events) -> tuple[int | None, str]:
    events[30]["type"] = "CardStolen"
    return 31, "unknown_event_type"


def missing_field(events: Events) -> tuple[int | None, str]:
    i = nth(events, "CardReplaced")
    del events[i]["data"]["replaced"]
    return i + 1, "malformed_event"


def unknown_field(events: Events) -> tuple[int | None, str]:
    i = nth(events, "CardReplaced")
    events[i]["data"]["peeked"] = 3
    return i + 1, "malformed_event"


def payload_not_an_object(events: Events) -> tuple[int | None, str]:
    events[20]["data"] = [1, 2]
    return 21, "malformed_event"


def event_not_an_object(events: Events) -> tuple[int | None, str]:
    events[20] = "CardDrawn"  # type: ignore[call-overload]
    return 21, "malformed_event"


def unknown_schema_version(events: Events) -> tuple[int | None, str]:
    i = nth(events, "CardDrawn")
    events[i]["schema_version"] = 99
    return i + 1, "malformed_event"


def schema_version_as_text(events: Events) -> tuple[int | None, str]:
    i = nth(events, "CardDrawn")
    events[i]["schema_version"] = "1"
    return i + 1, "malformed_event"


def deck_not_a_permutation(events: Events) -> tuple[int | None, str]:
    i = nth(events, "RoundDealt")
    deck = events[i]["data"]["deck"]
    deck[0] = 12 if deck[0] != 12 else 11  # one card of R1 twice, another missing
    return i + 1, "invalid_deck"


def deck_one_card_short(events: Events) -> tuple[int | None, str]:
    i = nth(events, "RoundDealt")
    events[i]["data"]["deck"].pop()
    return i + 1, "invalid_deck"


def no_game_created(events: Events) -> tuple[int | None, str]:
    del events[0]
    renumber(events)
    return 1, "missing_game_created"


def truncated_inside_an_action(events: Events) -> tuple[int | None, str]:
    events.pop()  # GameEnded, written by the same action as the RoundEnded before it
    return len(events) + 1, "missing_event"


def action_after_the_end(events: Events) -> tuple[int | None, str]:
    draw = copy.deepcopy(events[nth(events, "CardDrawn")])
    events.append(draw)
    renumber(events)
    return len(events), "game_finished"


def event_no_action_begins_with(events: Events) -> tuple[int | None, str]:
    i = nth(events, "TurnPassed", 5)
    events.insert(i + 1, copy.deepcopy(events[i]))
    renumber(events)
    return i + 2, "unexpected_event"


CORRUPTIONS = [
    card_value_changed,
    float_for_a_card,
    boolean_for_a_number,
    event_removed,
    event_removed_leaving_a_gap,
    second_draw_inserted,
    draw_out_of_turn,
    wrong_sequence_number,
    repeated_sequence_number,
    boolean_sequence_number,
    unknown_type,
    missing_field,
    unknown_field,
    payload_not_an_object,
    event_not_an_object,
    unknown_schema_version,
    schema_version_as_text,
    deck_not_a_permutation,
    deck_one_card_short,
    no_game_created,
    truncated_inside_an_action,
    action_after_the_end,
    event_no_action_begins_with,
]


def test_the_uncorrupted_history_imports(api: APIClient) -> None:
    assert import_history(api, engine_history())["status"] == "finished"


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__)
def test_a_corrupted_history_is_refused_at_its_first_offending_event(
    api: APIClient, corrupt: Corruption
) -> None:
    document = engine_history()
    sequence, rule_code = corrupt(document["events"])
    body = assert_problem(api.post(IMPORT, document, format="json"), 400, "invalid_history")
    assert (body["sequence"], body["rule_code"]) == (sequence, rule_code), body["detail"]
    assert body["detail"].startswith(f"event {sequence}: ")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("change", "rule_code"),
    [
        ({"format": "chess-pgn"}, "unknown_format"),
        ({"format": None}, "unknown_format"),
        ({"format_version": 2}, "unknown_format_version"),
        ({"format_version": "1"}, "unknown_format_version"),
        ({"format_version": True}, "unknown_format_version"),
        ({"format_version": 1.0}, "unknown_format_version"),
        ({"events": []}, "malformed_document"),
        ({"events": None}, "malformed_document"),
        ({"events": {"1": {}}}, "malformed_document"),
    ],
)
def test_a_history_in_another_format_is_refused(
    api: APIClient, change: dict[str, Any], rule_code: str
) -> None:
    document = {**engine_history(), **change}
    body = assert_problem(api.post(IMPORT, document, format="json"), 400, "invalid_history")
    assert body["sequence"] is None and body["rule_code"] == rule_code
    assert not Game.objects.exists()


def test_a_history_that_is_not_an_object_is_refused(api: APIClient) -> None:
    body = assert_problem(api.post(IMPORT, [1, 2], format="json"), 400, "invalid_history")
    assert body["rule_code"] == "malformed_document"


def test_an_import_keeps_the_original_games_creation_time(api: APIClient) -> None:
    """The new game is the old one's record: its `created_at` is the original's, before the
    events it holds were stored (at the import), in the view, the list and a re-export."""
    game_id, _ = finished_game(api, 2, seed=3)
    document = api.get(history_url(game_id)).json()
    document["game"]["created_at"] = "2025-06-01T12:30:00Z"
    imported = import_history(api, document)
    assert imported["created_at"] == "2025-06-01T12:30:00Z"
    assert get_view(api, imported["id"])["created_at"] == "2025-06-01T12:30:00Z"
    listed = {g["id"]: g for g in api.get(GAMES, {"limit": 100}).json()["results"]}
    assert listed[imported["id"]]["created_at"] == "2025-06-01T12:30:00Z"
    again = api.get(history_url(imported["id"])).json()
    assert again["game"]["created_at"] == "2025-06-01T12:30:00Z"
    assert all(event["at"] > "2025-06-01T12:30:00Z" for event in again["events"])


def test_an_import_without_a_creation_time_is_created_now(api: APIClient) -> None:
    game_id, _ = finished_game(api, 2, seed=3)
    document = api.get(history_url(game_id)).json()
    del document["game"]["created_at"]
    imported = import_history(api, document)
    assert imported["created_at"] >= document["events"][-1]["at"]


@pytest.mark.parametrize(
    "created_at",
    [
        "yesterday",
        "2025-06-01T12:30:00",
        "2999-01-01T00:00:00Z",
        1717245000,
        "",
        "2020-13-45T00:00:00Z",
        "2020-02-30T00:00:00Z",
        "2020-01-01T25:00:00Z",
        "2020-01-01T00:00:00+99:00",
        "0001-01-01T00:00:00+14:00",
        "1999-12-31T23:59:59Z",
    ],
)
def test_an_import_with_a_bad_creation_time_is_refused(api: APIClient, created_at: Any) -> None:
    game_id, _ = finished_game(api, 2, seed=3)
    document = api.get(history_url(game_id)).json()
    document["game"]["created_at"] = created_at
    problem = assert_problem(api.post(IMPORT, document, format="json"), 400, "invalid_history")
    assert problem["rule_code"] == "malformed_document"
    assert "game.created_at" in problem["detail"]


def test_an_imported_creation_time_is_kept_in_utc(api: APIClient) -> None:
    game_id, _ = finished_game(api, 2, seed=3)
    document = api.get(history_url(game_id)).json()
    document["game"]["created_at"] = "2021-06-01T12:00:00+02:00"
    imported = import_history(api, document)
    assert imported["created_at"] == get_view(api, imported["id"])["created_at"]
    assert imported["created_at"] == "2021-06-01T10:00:00Z"

"""The turn endpoints: each action, the rules refusing, authentication, If-Match and
Idempotency-Key."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine import TURN_ACTION_KINDS
from games import core
from games.models import Game, GameEvent, IdempotentResponse

from .support import (
    GAMES,
    act,
    action_url,
    assert_problem,
    bearer,
    create_game,
    finished_game,
    get_view,
    join,
    send,
    setup_reveals,
    start_game,
)

pytestmark = pytest.mark.django_db

KINDS = list(TURN_ACTION_KINDS)
POSITION = {"column": 0, "row": 0}


def body_for(kind: str) -> dict[str, Any]:
    return {"action": kind, **(POSITION if kind in ("reveal", "replace") else {})}


def event_count(game_id: str) -> int:
    return GameEvent.objects.filter(game_id=game_id).count()


def version(game_id: str) -> int:
    return Game.objects.get(pk=game_id).version


@pytest.fixture
def playing(api: APIClient) -> tuple[str, list[str], int]:
    """A 2-seat game past setup: its id, tokens, and the seat to move."""
    game_id, tokens = start_game(api, 2, seed=1)
    view = setup_reveals(api, game_id, tokens)
    assert view["status"] == "playing"
    return game_id, tokens, view["current_seat"]


# Setup (R4.3, R5)


def test_setup_reveals_then_play_starts(api: APIClient) -> None:
    game_id, tokens = start_game(api, 2, seed=1)
    answer = act(api, game_id, tokens[1], {"action": "reveal", "column": 2, "row": 1})
    assert answer["you"] == 1 and answer["version"] == 5 and answer["status"] == "setup"
    cell = answer["players"][1]["grid"][2][1]
    assert cell["state"] == "face_up" and isinstance(cell["value"], int)
    # The owner and everyone else see the revealed card; the revealed cell is no longer legal.
    assert get_view(api, game_id)["players"][1]["grid"][2][1] == cell
    assert {"action": "reveal", "column": 2, "row": 1} not in answer["legal_actions"]
    assert len(answer["legal_actions"]) == 11
    # Revealing the same card again, or acting otherwise in setup, is refused.
    again = send(api, game_id, tokens[1], {"action": "reveal", "column": 2, "row": 1})
    assert_problem(again, 409, "card_already_face_up")
    assert_problem(send(api, game_id, tokens[0], {"action": "draw"}), 409, "setup_not_finished")
    act(api, game_id, tokens[1], {"action": "reveal", "column": 0, "row": 0})
    third = send(api, game_id, tokens[1], {"action": "reveal", "column": 3, "row": 2})
    assert_problem(third, 409, "setup_reveals_done")
    assert get_view(api, game_id, tokens[1])["legal_actions"] == []
    # The last setup reveal starts play: the highest face-up sum moves first (R5).
    act(api, game_id, tokens[0], {"action": "reveal", "column": 0, "row": 0})
    last = act(api, game_id, tokens[0], {"action": "reveal", "column": 1, "row": 0})
    assert last["status"] == "playing"
    sums = [
        sum(c["value"] for column in p["grid"] for c in column if c["state"] == "face_up")
        for p in last["players"]
    ]
    assert last["current_seat"] == sums.index(max(sums))
    assert Game.objects.get(pk=game_id).current_seat == last["current_seat"]


# A turn (R6)


def test_draw_shows_the_card_to_the_drawer_only(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    game_id, tokens, seat = playing
    other = 1 - seat
    answer = act(api, game_id, tokens[seat], {"action": "draw"})
    held = core.game_state(Game.objects.get(pk=game_id)).held
    assert answer["held_card"] == {"seat": seat, "source": "deck", "value": held}
    assert {a["action"] for a in answer["legal_actions"]} == {"replace", "discard"}
    assert len(answer["legal_actions"]) == 13
    hidden = {"seat": seat, "source": "deck", "value": None}
    assert get_view(api, game_id, tokens[other])["held_card"] == hidden
    assert get_view(api, game_id)["held_card"] == hidden
    assert get_view(api, game_id, tokens[seat])["held_card"]["value"] == held
    # Drawing again or taking the discard while holding a card is refused.
    assert_problem(send(api, game_id, tokens[seat], {"action": "draw"}), 409, "card_already_held")
    refused = send(api, game_id, tokens[seat], {"action": "take_discard"})
    assert_problem(refused, 409, "card_already_held")


def test_draw_then_replace(api: APIClient, playing: tuple[str, list[str], int]) -> None:
    game_id, tokens, seat = playing
    drawn = act(api, game_id, tokens[seat], {"action": "draw"})["held_card"]["value"]
    before = get_view(api, game_id)
    answer = act(api, game_id, tokens[seat], {"action": "replace", "column": 3, "row": 2})
    assert answer["players"][seat]["grid"][3][2] == {"state": "face_up", "value": drawn}
    assert answer["held_card"] is None
    assert answer["discard_size"] == before["discard_size"] + 1
    replaced = core.game_state(Game.objects.get(pk=game_id)).discard[-1]
    assert answer["discard_top"] == replaced
    assert answer["current_seat"] == 1 - seat and answer["legal_actions"] == []
    assert get_view(api, game_id, tokens[1 - seat])["legal_actions"] == [
        {"action": "draw"},
        {"action": "take_discard"},
    ]


def test_draw_then_discard_then_reveal(api: APIClient, playing: tuple[str, list[str], int]) -> None:
    game_id, tokens, seat = playing
    drawn = act(api, game_id, tokens[seat], {"action": "draw"})["held_card"]["value"]
    answer = act(api, game_id, tokens[seat], {"action": "discard"})
    assert answer["discard_top"] == drawn and answer["held_card"] is None
    assert answer["current_seat"] == seat
    assert {a["action"] for a in answer["legal_actions"]} == {"reveal"}
    assert len(answer["legal_actions"]) == 10  # the face-down cards
    refused = send(api, game_id, tokens[seat], {"action": "draw"})
    assert_problem(refused, 409, "must_reveal_after_discard")
    refused = send(api, game_id, tokens[seat], {"action": "replace", **POSITION})
    assert_problem(refused, 409, "must_reveal_after_discard")
    refused = send(api, game_id, tokens[seat], {"action": "reveal", **POSITION})
    assert_problem(refused, 409, "card_already_face_up")
    answer = act(api, game_id, tokens[seat], {"action": "reveal", "column": 2, "row": 2})
    assert answer["players"][seat]["grid"][2][2]["state"] == "face_up"
    assert answer["current_seat"] == 1 - seat


def test_take_discard_then_replace(api: APIClient, playing: tuple[str, list[str], int]) -> None:
    game_id, tokens, seat = playing
    top = get_view(api, game_id)["discard_top"]
    answer = act(api, game_id, tokens[seat], {"action": "take_discard"})
    taken = {"seat": seat, "source": "discard", "value": top}
    assert answer["held_card"] == taken
    # A taken discard is public, and it must replace a card (R6a).
    assert get_view(api, game_id)["held_card"] == taken
    assert get_view(api, game_id, tokens[1 - seat])["held_card"] == taken
    assert {a["action"] for a in answer["legal_actions"]} == {"replace"}
    refused = send(api, game_id, tokens[seat], {"action": "discard"})
    assert_problem(refused, 409, "must_replace_taken_discard")
    answer = act(api, game_id, tokens[seat], {"action": "replace", "column": 1, "row": 1})
    assert answer["players"][seat]["grid"][1][1] == {"state": "face_up", "value": top}


def test_rule_refusals(api: APIClient, playing: tuple[str, list[str], int]) -> None:
    game_id, tokens, seat = playing
    other = 1 - seat
    before = version(game_id)
    assert_problem(send(api, game_id, tokens[other], {"action": "draw"}), 409, "not_your_turn")
    refused = send(api, game_id, tokens[seat], {"action": "replace", **POSITION})
    assert_problem(refused, 409, "no_card_held")
    assert_problem(send(api, game_id, tokens[seat], {"action": "discard"}), 409, "no_card_held")
    assert_problem(send(api, game_id, tokens[seat], body_for("reveal")), 409, "wrong_step")
    assert version(game_id) == before  # a refused action writes nothing


def test_actions_before_the_deal_and_after_the_end(api: APIClient) -> None:
    game = create_game(api, 3)
    token = join(api, game["id"], "Early")["token"]
    for kind in KINDS:
        refused = send(api, game["id"], token, body_for(kind))
        assert_problem(refused, 409, "game_not_started")
    game_id, tokens = finished_game(api)
    for kind in KINDS:
        assert_problem(send(api, game_id, tokens[0], body_for(kind)), 409, "game_finished")


# Authentication


@pytest.mark.parametrize("kind", KINDS)
def test_actions_need_a_seat_token(
    api: APIClient, playing: tuple[str, list[str], int], kind: str
) -> None:
    game_id, _, _ = playing
    _, other_tokens = start_game(api, 2)
    before = version(game_id)
    response = send(api, game_id, None, body_for(kind))
    assert_problem(response, 401, "invalid_token")
    assert response["WWW-Authenticate"].startswith("Bearer")
    response = send(api, game_id, other_tokens[0], body_for(kind))
    assert_problem(response, 401, "invalid_token")
    assert response["WWW-Authenticate"].startswith("Bearer")
    for authorization in ("Bearer", "Basic abc", "Bearer x y"):
        refused = send(api, game_id, None, body_for(kind), HTTP_AUTHORIZATION=authorization)
        assert_problem(refused, 401, "invalid_token")
    assert version(game_id) == before


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game_id", ["00000000-0000-0000-0000-000000000000", "xyz"])
def test_actions_on_an_unknown_game(api: APIClient, kind: str, game_id: str) -> None:
    _, tokens = start_game(api, 2)
    assert_problem(send(api, game_id, tokens[0], body_for(kind)), 404, "game_not_found")
    assert_problem(send(api, game_id, None, body_for(kind)), 404, "game_not_found")


# Invalid input


@pytest.mark.parametrize("kind", ["reveal", "replace"])
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "column"),
        ({"column": 0}, "row"),
        ({"row": 0}, "column"),
        ({"column": "0", "row": 0}, "column"),
        ({"column": 0, "row": 1.0}, "row"),
        ({"column": True, "row": 0}, "column"),
        ({"column": None, "row": 0}, "column"),
        ({"column": [0], "row": 0}, "column"),
        ({"column": {"x": 0}, "row": 0}, "column"),
        ({"column": -1, "row": 0}, "column"),
        ({"column": 4, "row": 0}, "column"),
        ({"column": 0, "row": 3}, "row"),
        ({"column": 0, "row": -1}, "row"),
        ({"column": 10**30, "row": 0}, "column"),
        ({"column": 0, "row": 0, "card": 5}, "card"),
        ({"column": 0, "row": 0, "action": "reveal"}, "action"),
    ],
)
def test_positions_are_validated(
    api: APIClient, playing: tuple[str, list[str], int], kind: str, body: Any, field: str
) -> None:
    game_id, tokens, seat = playing
    before = version(game_id)
    response = api.post(action_url(game_id, kind), body, format="json", **bearer(tokens[seat]))
    problem = assert_problem(response, 400, "invalid_request")
    assert field in problem["errors"], problem
    assert version(game_id) == before


@pytest.mark.parametrize("kind", ["draw", "take_discard", "discard"])
@pytest.mark.parametrize("body", [{"column": 0}, {"x": None}, [], "draw", 1])
def test_actions_without_fields_refuse_any(
    api: APIClient, playing: tuple[str, list[str], int], kind: str, body: Any
) -> None:
    game_id, tokens, seat = playing
    response = api.post(action_url(game_id, kind), body, format="json", **bearer(tokens[seat]))
    assert_problem(response, 400, "invalid_request")


@pytest.mark.parametrize("body", [None, "", "{}", "null"])
def test_actions_without_fields_take_an_empty_body(
    api: APIClient, playing: tuple[str, list[str], int], body: str | None
) -> None:
    game_id, tokens, seat = playing
    url = action_url(game_id, "draw")
    if body is None:
        response = api.post(url, **bearer(tokens[seat]))
    else:
        response = api.post(url, body, content_type="application/json", **bearer(tokens[seat]))
    assert response.status_code == 200, response.content


@pytest.mark.parametrize(
    "raw",
    [
        b"{",
        b'{"column": 0, "row": }',
        b"{'column': 0, 'row': 0}",
        b'{"column": NaN, "row": 0}',
        b'{"column": Infinity, "row": 0}',
        b"\xff\xfe\x00",
        b'{"column": 0, "row": 0}{"x": 1}',
        b"[" * 50_000,
        b'{"\\ud800": 0}',
        b'{"column": 0, "row": "\\udfff"}',
    ],
)
def test_malformed_json_is_a_bad_request(
    api: APIClient, playing: tuple[str, list[str], int], raw: bytes
) -> None:
    game_id, tokens, seat = playing
    for kind in ("reveal", "draw"):
        response = api.post(
            action_url(game_id, kind), raw, content_type="application/json", **bearer(tokens[seat])
        )
        assert_problem(response, 400, "invalid_request")
    created = api.post(GAMES, raw, content_type="application/json")
    assert_problem(created, 400, "invalid_request")


def test_other_media_types_are_refused(api: APIClient, playing: tuple[str, list[str], int]) -> None:
    game_id, tokens, seat = playing
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "application/xml"):
        response = api.post(
            action_url(game_id, "reveal"),
            "column=0&row=0",
            content_type=content_type,
            **bearer(tokens[seat]),
        )
        assert_problem(response, 415, "unsupported_media_type")


# If-Match (optimistic concurrency)


def test_if_match_with_the_current_version(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    game_id, tokens, seat = playing
    current = version(game_id)
    answer = act(api, game_id, tokens[seat], {"action": "draw"}, HTTP_IF_MATCH=f'"{current}"')
    assert answer["version"] == current + 1
    spaced = act(
        api, game_id, tokens[seat], {"action": "discard"}, HTTP_IF_MATCH=f' "{current + 1}"\t'
    )
    assert spaced["version"] == current + 2
    # `*` matches whatever the current version is (RFC 9110).
    act(api, game_id, tokens[seat], {"action": "reveal", "column": 3, "row": 2}, HTTP_IF_MATCH="*")


def test_if_match_with_a_weak_tag_never_matches(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    """`W/"4"` was compared like `"4"`: If-Match compares strongly, and a weak tag matches no
    version (RFC 9110, 13.1.1), so it is always 412, the current version included."""
    game_id, tokens, seat = playing
    current = version(game_id)
    events = event_count(game_id)
    for weak in (f'W/"{current}"', f' W/"{current - 1}"\t'):
        response = send(api, game_id, tokens[seat], {"action": "draw"}, HTTP_IF_MATCH=weak)
        problem = assert_problem(response, 412, "version_mismatch")
        assert problem["current_version"] == current
        assert f'"{current}"' in problem["detail"]
    assert (version(game_id), event_count(game_id)) == (current, events)
    # Checked after the game and the token, as any If-Match is.
    stranger = send(api, game_id, "x" * 43, {"action": "draw"}, HTTP_IF_MATCH=f'W/"{current}"')
    assert_problem(stranger, 401, "invalid_token")
    missing = send(
        api,
        "00000000-0000-4000-8000-000000000000",
        tokens[seat],
        {"action": "draw"},
        HTTP_IF_MATCH='W/"1"',
    )
    assert_problem(missing, 404, "game_not_found")


def test_if_match_with_a_stale_version_does_nothing(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    game_id, tokens, seat = playing
    current = version(game_id)
    events = event_count(game_id)
    for stale in (current - 1, current + 1, 0):
        response = send(api, game_id, tokens[seat], {"action": "draw"}, HTTP_IF_MATCH=f'"{stale}"')
        problem = assert_problem(response, 412, "version_mismatch")
        assert problem["current_version"] == current
    assert version(game_id) == current
    assert event_count(game_id) == events
    assert get_view(api, game_id, tokens[seat])["held_card"] is None


def test_if_match_with_a_list_matches_any_of_its_strong_tags(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    """A list of tags was refused (400), though RFC 9110 makes If-Match a list: it matches
    when any of its tags is the current version, compared strongly (a weak one never is)."""
    game_id, tokens, seat = playing
    current = version(game_id)
    for stale in (f'"{current - 1}", "{current + 1}"', f'W/"{current}", "{current - 1}"'):
        response = send(api, game_id, tokens[seat], {"action": "draw"}, HTTP_IF_MATCH=stale)
        problem = assert_problem(response, 412, "version_mismatch")
        assert problem["current_version"] == current
    assert version(game_id) == current
    listed = f'"{current - 1}",W/"{current + 1}" , "{current}",'
    answer = act(api, game_id, tokens[seat], {"action": "draw"}, HTTP_IF_MATCH=listed)
    assert answer["version"] == current + 1


@pytest.mark.parametrize(
    "header",
    [
        *("abc", '"abc"', "-1", '"' + "9" * 30 + '"', "", 'W/8868"', '"12', '12"', "W/12"),
        *("4", " 4 ", '"1", 2', '"1" "2"', '"1", *', ",", " , "),
    ],
)
def test_a_malformed_if_match_is_a_bad_request(
    api: APIClient, playing: tuple[str, list[str], int], header: str
) -> None:
    """An unquoted version (`4`) was taken for `"4"`, though it is no entity tag: like any
    value that is neither `*` nor a list of quoted versions, it is refused, never guessed."""
    game_id, tokens, seat = playing
    response = send(api, game_id, tokens[seat], {"action": "draw"}, HTTP_IF_MATCH=header)
    problem = assert_problem(response, 400, "invalid_request")
    assert problem["errors"]["If-Match"]
    assert get_view(api, game_id)["held_card"] is None


# Idempotency-Key


def test_an_idempotent_retry_acts_once_and_answers_the_same(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    game_id, tokens, seat = playing
    events = event_count(game_id)
    headers = {"HTTP_IDEMPOTENCY_KEY": "draw-1"}
    first = send(api, game_id, tokens[seat], {"action": "draw"}, **headers)
    assert first.status_code == 200
    retry = send(api, game_id, tokens[seat], {"action": "draw"}, **headers)
    assert retry.status_code == 200
    assert retry.json() == first.json()
    assert retry["ETag"] == first["ETag"]
    assert retry["Idempotent-Replayed"] == "true"
    assert event_count(game_id) == events + 1
    assert IdempotentResponse.objects.filter(game_id=game_id).count() == 1
    # Still the first answer once the game has moved on, even with a stale If-Match.
    act(api, game_id, tokens[seat], {"action": "replace", "column": 3, "row": 0})
    events = event_count(game_id)
    later = send(
        api, game_id, tokens[seat], {"action": "draw"}, HTTP_IF_MATCH=first["ETag"], **headers
    )
    assert later.status_code == 200 and later.json() == first.json()
    assert event_count(game_id) == events


def test_an_idempotency_key_reused_for_another_request(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    game_id, tokens, seat = playing
    headers = {"HTTP_IDEMPOTENCY_KEY": "key-1"}
    act(api, game_id, tokens[seat], {"action": "draw"}, **headers)
    events = event_count(game_id)
    other_body = send(api, game_id, tokens[seat], {"action": "replace", **POSITION}, **headers)
    assert_problem(other_body, 422, "idempotency_key_reused")
    other_kind = send(api, game_id, tokens[seat], {"action": "discard"}, **headers)
    assert_problem(other_kind, 422, "idempotency_key_reused")
    assert event_count(game_id) == events
    # The same key in another position body is another request too.
    act(
        api,
        game_id,
        tokens[seat],
        {"action": "replace", "column": 0, "row": 1},
        HTTP_IDEMPOTENCY_KEY="r",
    )
    reused = send(
        api,
        game_id,
        tokens[seat],
        {"action": "replace", "column": 0, "row": 2},
        HTTP_IDEMPOTENCY_KEY="r",
    )
    assert_problem(reused, 422, "idempotency_key_reused")


def test_idempotency_keys_belong_to_one_seat(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    game_id, tokens, seat = playing
    other = 1 - seat
    act(api, game_id, tokens[seat], {"action": "draw"}, HTTP_IDEMPOTENCY_KEY="same")
    act(api, game_id, tokens[seat], {"action": "replace", **POSITION})
    answer = act(api, game_id, tokens[other], {"action": "draw"}, HTTP_IDEMPOTENCY_KEY="same")
    assert answer["you"] == other and answer["held_card"]["seat"] == other


def test_a_refused_request_is_not_remembered(
    api: APIClient, playing: tuple[str, list[str], int]
) -> None:
    game_id, tokens, seat = playing
    headers = {"HTTP_IDEMPOTENCY_KEY": "early-discard"}
    refused = send(api, game_id, tokens[seat], {"action": "discard"}, **headers)
    assert_problem(refused, 409, "no_card_held")
    assert not IdempotentResponse.objects.filter(game_id=game_id).exists()
    act(api, game_id, tokens[seat], {"action": "draw"})
    answer = act(api, game_id, tokens[seat], {"action": "discard"}, **headers)
    assert answer["legal_actions"][0]["action"] == "reveal"


@pytest.mark.parametrize("key", ["", "   ", "x" * 256, "tab\there", "bell\x07"])
def test_a_malformed_idempotency_key_is_a_bad_request(
    api: APIClient, playing: tuple[str, list[str], int], key: str
) -> None:
    game_id, tokens, seat = playing
    response = send(api, game_id, tokens[seat], {"action": "draw"}, HTTP_IDEMPOTENCY_KEY=key)
    assert_problem(response, 400, "invalid_request")
    assert get_view(api, game_id)["held_card"] is None

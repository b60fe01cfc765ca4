"""`manage.py verify_games` (every stored log replayed through the rules; exit status 1 if one
does not) and `manage.py replay <id>` (a game printed round by round)."""

from __future__ import annotations

import json
import re
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from rest_framework.test import APIClient

from games.models import AppendOnlyError, Game, GameEvent
from tests.api.every_event import history_document, seats_plan
from tests.api.history_support import stored_rows
from tests.api.support import finished_game, setup_reveals, start_game

pytestmark = pytest.mark.django_db


def run(*args: Any, **options: Any) -> str:
    out = StringIO()
    call_command(*args, stdout=out, **options)
    return out.getvalue()


def run_failing(*args: str, **options: Any) -> tuple[str, CommandError]:
    out = StringIO()
    with pytest.raises(CommandError) as raised:
        call_command(*args, stdout=out, **options)
    return out.getvalue(), raised.value


def raw_sql(sql: str, params: list[Any]) -> int:
    """Straight to the database: the model refuses to change or remove an event."""
    table = connection.ops.quote_name(GameEvent._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(sql.format(table=table), params)
        return int(cursor.rowcount)


def tamper_payload(game_id: str, sequence: int, change: dict[str, Any]) -> None:
    event = GameEvent.objects.get(game_id=game_id, sequence=sequence)
    with pytest.raises(AppendOnlyError):
        GameEvent.objects.filter(pk=event.pk).update(payload={**event.payload, **change})
    updated = raw_sql(
        "UPDATE {table} SET payload = %s WHERE id = %s",
        [json.dumps({**event.payload, **change}), event.pk],
    )
    assert updated == 1
    assert GameEvent.objects.get(pk=event.pk).payload == {**event.payload, **change}


@pytest.fixture
def two_games(api: APIClient) -> tuple[str, str]:
    """A finished game and one in play."""
    finished, _ = finished_game(api, 2, seed=3)
    playing, tokens = start_game(api, 3, seed=4)
    setup_reveals(api, playing, tokens)
    return finished, playing


def test_verify_games_reports_every_untampered_game_ok(two_games: tuple[str, str]) -> None:
    out = run("verify_games", verbosity=2)
    for game_id in two_games:
        version = Game.objects.get(pk=game_id).version
        assert f"ok   {game_id} ({version} events)" in out
    assert "FAIL" not in out
    assert out.strip().endswith("2 games checked, 0 do not replay.")
    assert run("verify_games").strip() == "2 games checked, 0 do not replay."


def test_verify_games_finds_a_tampered_card_and_exits_with_status_1(
    two_games: tuple[str, str],
) -> None:
    finished, playing = two_games
    sequence, _, _, payload = next(r for r in stored_rows(finished) if r[1] == "CardRevealed")
    tamper_payload(finished, sequence, {"value": 12 if payload["value"] != 12 else 11})
    out, error = run_failing("verify_games", verbosity=2)
    assert error.returncode == 1
    assert re.search(rf"FAIL {finished}: event {sequence}: .*", out), out
    assert f"ok   {playing}" in out
    assert "2 games checked, 1 do not replay." in out
    # Only the games named are checked.
    assert "1 games checked, 0 do not replay." in run("verify_games", playing)
    _, error = run_failing("verify_games", finished)
    assert error.returncode == 1


def test_verify_games_finds_a_tampered_deck(two_games: tuple[str, str]) -> None:
    _, playing = two_games
    sequence, _, _, payload = next(r for r in stored_rows(playing) if r[1] == "RoundDealt")
    deck = payload["deck"]
    tamper_payload(playing, sequence, {"deck": [deck[1], deck[0], *deck[2:]]})  # a swap
    out, error = run_failing("verify_games")
    assert error.returncode == 1
    assert f"FAIL {playing}: event " in out


def test_verify_games_finds_a_removed_event_and_a_wrong_summary(
    two_games: tuple[str, str],
) -> None:
    finished, playing = two_games
    removed = GameEvent.objects.get(game_id=finished, sequence=20).pk
    assert raw_sql("DELETE FROM {table} WHERE id = %s", [removed]) == 1
    Game.objects.filter(pk=playing).update(version=Game.objects.get(pk=playing).version + 1)
    out, error = run_failing("verify_games")
    assert error.returncode == 1
    assert f"FAIL {finished}: event 20: " in out
    assert f"FAIL {playing}: the log has " in out
    assert "2 games checked, 2 do not replay." in out


def test_replay_prints_rounds_scores_and_the_winner(api: APIClient) -> None:
    game_id, _ = finished_game(api, 2, seed=4, end_score=30)
    rows = stored_rows(game_id)
    ended = [payload for _, kind, _, payload in rows if kind == "RoundEnded"]
    final = next(payload for _, kind, _, payload in rows if kind == "GameEnded")
    assert len(ended) >= 2
    out = run("replay", game_id)
    assert out.startswith("A game for 2 players is created: end score 30, closer penalty on.\n")
    assert "Player 0 took seat 1." in out and "Player 1 took seat 2." in out
    for number, result in enumerate(ended, start=1):
        assert f"== Round {number} is dealt." in out
        assert f"-- Round {number} scored (closer: Player {result['closer_seat']} " in out
        for seat in range(2):
            doubled = (
                " doubled" if result["closer_doubled"] and seat == result["closer_seat"] else ""
            )
            assert (
                f"Player {seat} ({seat}): raw {result['raw_scores'][seat]}, "
                f"round {result['round_scores'][seat]}{doubled}, total {result['totals'][seat]}"
            ) in out
    winners = " and ".join(f"Player {seat}" for seat in final["winners"])
    verb = "wins" if len(final["winners"]) == 1 else "win"
    assert f"The game is over: {winners} {verb}." in out
    assert out.rstrip().endswith(f"-- finished at version {len(rows)}")


def test_replay_of_no_game(api: APIClient) -> None:
    for game_id in ("not-a-uuid", "0" * 32):
        _, error = run_failing("replay", game_id)
        assert "no game" in str(error)


def test_replay_and_verify_a_game_whose_seats_changed_hands(api: APIClient) -> None:
    """The seats' events (R13) read in the replay, and such a game verifies."""
    document = history_document(seats_plan())
    game_id = api.post("/api/v1/games/import", document, format="json").json()["id"]
    out = run("replay", game_id)
    assert "Ann left: seat 1 is open again." in out
    assert "Player 3 took seat 4 (a greedy bot)." in out
    assert "Player 1 ran out of time." in out
    assert "Player 1 ran out of time too often: the greedy bot plays the seat now." in out
    assert "Player 2 left: the random bot plays the seat now." in out
    assert run("verify_games", game_id).strip() == "1 games checked, 0 do not replay."

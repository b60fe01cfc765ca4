"""The example bot (examples/bot.py) plays whole games against a live server.

It imports the generated Python client, so it runs after the `python_client` fixture has
generated it and put it on sys.path, exactly as a user runs it after generating the client.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import threading
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BOT = Path(__file__).resolve().parents[2] / "examples" / "bot.py"


@pytest.fixture
def bot(python_client: ModuleType, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """examples/bot.py imported as a module (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("skyjo_example_bot", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _spectate(game_id: uuid.UUID, base_url: str) -> Any:
    from skyjo_service_api_client import Client
    from skyjo_service_api_client.api.lobby import get_game

    return get_game.sync(game_id, client=Client(base_url=base_url))  # type: ignore[arg-type]


@pytest.mark.django_db(transaction=True)
def test_the_bot_creates_a_game_and_plays_every_seat(
    bot: ModuleType, live_server: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--base-url", live_server.url, "--seats", "2", "--seed", "42", "--end-score", "25"]
    assert bot.main([*argv, "--name", "Solo", "--play-all-seats"]) == 0

    out = capsys.readouterr().out
    created = re.search(r"Created game ([0-9a-f-]{36})", out)
    assert created, out
    game = _spectate(uuid.UUID(created.group(1)), live_server.url)
    assert game.status == "finished"
    assert [p.name for p in game.players] == ["Solo", "Solo 2"]
    assert game.winners and max(p.total for p in game.players) >= 25
    assert f"Game {game.id} finished after {len(game.rounds)} round(s)" in out


@pytest.mark.django_db(transaction=True)
def test_two_bots_join_a_game_and_play_it_out(bot: ModuleType, live_server: Any) -> None:
    """Two clients at once against a live server's threads: its test database is a file, so
    overlapping requests wait on SQLite's busy timeout as real workers do."""
    from skyjo_service_api_client import Client
    from skyjo_service_api_client.api.lobby import create_game
    from skyjo_service_api_client.models import CreateGameRequest, Game, OptionsRequest

    lobby = Client(base_url=live_server.url)
    body = CreateGameRequest(seats=2, options=OptionsRequest(end_score=40), seed=7)
    game = create_game.sync(client=lobby, body=body)
    assert isinstance(game, Game)

    results: dict[str, int] = {}

    def run(name: str) -> None:
        argv = ["--base-url", live_server.url, "--game", str(game.id), "--name", name]
        results[name] = bot.main([*argv, "--give-up-after", "30"])

    threads = [threading.Thread(target=run, args=(name,)) for name in ("Ada", "Bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a bot did not finish"
    assert results == {"Ada": 0, "Bob": 0}

    final = _spectate(game.id, live_server.url)
    assert final.status == "finished"
    assert sorted(p.name for p in final.players) == ["Ada", "Bob"]
    assert final.winners

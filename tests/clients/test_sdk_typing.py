"""Code written against the generated Python SDK type-checks under `mypy --strict`: the
SDK snippet of docs/CLIENTS.md as it stands, and a spectator's calls with a plain `Client`.

mypy reads the generated package (the `python_client` fixture) through MYPYPATH and checks
only the snippet, with its own empty configuration (the project's mypy settings are for the
project's code). The three runs share one mypy cache (`mypy_cache`): mypy's incremental mode
reads again what changed, so only the first one checks the standard library and the SDK.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCED_PYTHON = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)

SPECTATOR = """
from skyjo_service_api_client import Client
from skyjo_service_api_client.api.history import list_events
from skyjo_service_api_client.api.lobby import get_game
from skyjo_service_api_client.models import EventFeed, Game, Problem
from uuid import UUID

Seen = tuple[Game | Problem | None, EventFeed | Problem | None]

def watch(client: Client, game_id: UUID) -> Seen:
    return get_game.sync(game_id, client=client), list_events.sync(game_id, client=client)
"""


#: The document that shows the SDK snippet.
CLIENTS = ROOT / "docs" / "CLIENTS.md"


def clients_sdk_snippet() -> str:
    """docs/CLIENTS.md's Python block that uses the generated SDK (whatever it says)."""
    blocks = FENCED_PYTHON.findall(CLIENTS.read_text(encoding="utf-8"))
    snippets = [block for block in blocks if "skyjo_service_api_client" in block]
    assert len(snippets) == 1, "expected one Python SDK snippet in docs/CLIENTS.md"
    return str(snippets[0])


#: mypy starts no server and opens no database.
pytestmark = pytest.mark.no_db


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for this module's mypy runs, which check the same SDK."""
    return tmp_path_factory.mktemp("mypy-cache")


def strict_mypy(source: str, python_client: ModuleType, workdir: Path, cache: Path) -> str:
    """mypy --strict's report on `source`, or "" when it passes."""
    package_root = Path(str(python_client.__file__)).parents[1]
    (workdir / "snippet.py").write_text(source, encoding="utf-8")
    (workdir / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--strict",
        "--follow-imports=silent",
        "--config-file",
        str(workdir / "mypy.ini"),
        "--cache-dir",
        str(cache),
        str(workdir / "snippet.py"),
    ]
    env = {**os.environ, "MYPYPATH": str(package_root)}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    return "" if result.returncode == 0 else result.stdout + result.stderr


def test_the_clients_sdk_snippet_type_checks_strictly(
    python_client: ModuleType, tmp_path: Path, mypy_cache: Path
) -> None:
    report = strict_mypy(clients_sdk_snippet(), python_client, tmp_path, mypy_cache)
    assert report == "", report


def test_a_spectator_calls_with_a_plain_client(
    python_client: ModuleType, tmp_path: Path, mypy_cache: Path
) -> None:
    report = strict_mypy(SPECTATOR, python_client, tmp_path, mypy_cache)
    assert report == "", report


def test_the_check_fails_on_a_type_error(
    python_client: ModuleType, tmp_path: Path, mypy_cache: Path
) -> None:
    broken = SPECTATOR + "\nwatch(Client(base_url='http://x'), 'not a uuid')\n"
    assert "incompatible type" in strict_mypy(broken, python_client, tmp_path, mypy_cache)

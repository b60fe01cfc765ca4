"""The README's curl walkthrough, run as written against a live server.

The shell block under "A game with curl" is extracted from README.md and run by bash with
`set -euo pipefail`; its `curl --fail-with-body` stops it at the first problem response. So the
README cannot drift from the service: a renamed field, a refused action or a wrong turn fails
here. It is run with seeds where either seat starts, since the walkthrough asks whose turn it is.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_API = "API=http://127.0.0.1:8000/api/v1"

pytestmark = [
    pytest.mark.server,
    pytest.mark.skipif(shutil.which("curl") is None, reason="the walkthrough needs curl"),
]


def readme_block(heading: str) -> str:
    """The first ```sh block after `heading` in README.md."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index(heading) :]
    match = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert match is not None, f"no shell block under {heading!r}"
    return match.group(1)


def run_walkthrough(live_server: Any, seed: int | None) -> list[str]:
    script = readme_block("## A game with curl")
    assert DEFAULT_API in script
    script = script.replace(DEFAULT_API, f"API={live_server.url}/api/v1")
    if seed is not None:
        script = script.replace('{"seats": 2,', f'{{"seats": 2, "seed": {seed},')
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout.splitlines()


@pytest.mark.parametrize(
    "seed", [None, 42, 2], ids=["secret-seed", "seat-1-starts", "seat-0-starts"]
)
def test_the_curl_walkthrough_runs_as_written(live_server: Any, seed: int | None) -> None:
    legal, held, last, players = (
        ast.literal_eval(line) for line in run_walkthrough(live_server, seed)
    )
    assert legal == [{"action": "draw"}, {"action": "take_discard"}]
    assert isinstance(held["value"], int) and held["source"] == "deck"
    assert last["action"] == "replace" and (last["column"], last["row"]) == (2, 1)
    assert [player["name"] for player in players] == ["Ada", "Bob"]


def test_the_walkthrough_stops_at_a_problem(live_server: Any) -> None:
    """The harness itself: an action out of turn makes the script fail, not pass silently."""
    script = readme_block("## A game with curl").replace(
        DEFAULT_API, f"API={live_server.url}/api/v1"
    )
    script = script.replace(
        'if [ "$SEAT" = 0 ]; then ME=$ADA; else ME=$BOB; fi', 'ME=$ADA; [ "$SEAT" = 0 ] && ME=$BOB'
    )
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True
    )
    assert done.returncode != 0
    assert '"code":"not_your_turn"' in done.stderr.replace(" ", "")

"""TypeScript types generated from `openapi.yaml` (openapi-typescript) type-check a typed client.

The project in clients/typescript pins openapi-typescript and typescript (package-lock.json);
`npm ci` installs them into clients/typescript/node_modules and `npm run generate` writes
src/generated/schema.d.ts (both gitignored). Then:

* the client (src/client.ts, src/play.ts) compiles in strict mode;
* each deliberately wrong use in type-errors/wrong-usage.ts fails with the error it names, and
  nothing else fails, so the generated types are real types and not `any`;
* the compiled client plays a whole game against the live server.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "clients" / "typescript"
WRONG_USAGE = "type-errors/wrong-usage.ts"
EXPECTED_ERROR = re.compile(r"//\s*(TS\d+)\s*$")
TSC_ERROR = re.compile(r"^(?P<file>[^(\s]+)\((?P<line>\d+),\d+\): error (?P<code>TS\d+):", re.M)

pytestmark = pytest.mark.skipif(
    shutil.which("npm") is None or shutil.which("node") is None,
    reason="npm and node (Node.js 20+) are needed to check the TypeScript client",
)


def run(
    *command: str, check: bool = True, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        command, cwd=PROJECT, capture_output=True, text=True, timeout=timeout, check=False
    )
    if check:
        assert result.returncode == 0, (
            f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
        )
    return result


@pytest.fixture(scope="module")
def typescript_project() -> Path:
    """The pinned toolchain installed from package-lock.json and the types generated afresh."""
    run("npm", "ci", "--no-audit", "--no-fund")
    generated = PROJECT / "src" / "generated" / "schema.d.ts"
    generated.unlink(missing_ok=True)
    run("npm", "run", "--silent", "generate")  # npx openapi-typescript ../../openapi.yaml ...
    assert "export interface paths" in generated.read_text()
    return PROJECT


def test_the_client_type_checks_in_strict_mode(typescript_project: Path) -> None:
    run("npm", "run", "--silent", "typecheck")  # npx tsc --noEmit -p .


def test_wrong_usage_fails_to_compile_exactly_where_marked(typescript_project: Path) -> None:
    source = (typescript_project / WRONG_USAGE).read_text().splitlines()
    expected = {
        (number, match.group(1))
        for number, line in enumerate(source, start=1)
        if (match := EXPECTED_ERROR.search(line))
    }
    assert len(expected) >= 10

    tsc = ["npx", "--no-install", "tsc", "--noEmit", "--pretty", "false"]
    result = run(*tsc, "-p", "tsconfig.type-errors.json", check=False)
    assert result.returncode != 0, "the wrong usages compiled: the generated types are too loose"
    errors = [m.groupdict() for m in TSC_ERROR.finditer(result.stdout)]
    elsewhere = [e for e in errors if e["file"] != WRONG_USAGE]
    assert not elsewhere, result.stdout
    found = {(int(e["line"]), e["code"]) for e in errors}
    assert found == expected, result.stdout


@pytest.mark.django_db(transaction=True)
def test_the_compiled_client_plays_a_game(
    typescript_project: Path, live_server: Any, tmp_path: Path
) -> None:
    run("npx", "--no-install", "tsc", "-p", ".", "--outDir", str(tmp_path))
    (tmp_path / "package.json").write_text('{"type": "module"}\n')  # the output is ES modules

    node = subprocess.run(
        ["node", str(tmp_path / "play.js"), live_server.url, "3", "40", "11"],  # seats, end, seed
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert node.returncode == 0, node.stderr
    outcome = json.loads(node.stdout.strip().splitlines()[-1])
    assert outcome["status"] == "finished"
    assert outcome["winners"] and max(outcome["totals"]) >= 40
    assert outcome["notYourTurn"] == "not_your_turn"
    assert set(outcome["actions"]) == {"reveal", "draw", "take_discard", "replace", "discard"}

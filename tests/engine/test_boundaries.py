"""The engine is pure Python: it knows nothing of Django, DRF or the `games` app. The import
rule is import-linter's contract `pure-engine` (pyproject.toml, `make lint`), run here as
`make lint` runs it; and importing every engine module, subpackages included, loads none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
FORBIDDEN = ("django", "rest_framework", "games")


def test_the_engine_contract_is_kept() -> None:
    result = subprocess.run(
        [str(LINT_IMPORTS), "--contract", "pure-engine", "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "The engine is pure Python: no Django, no games KEPT" in result.stdout


def test_importing_the_engine_loads_no_django() -> None:
    script = (
        "import importlib, pkgutil, sys\n"
        "import engine\n"
        "for module in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    importlib.import_module(module.name)\n"
        "assert 'engine.strategies.greedy' in sys.modules\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert result.stdout.strip() == ""

"""The engine is pure Python: it knows nothing of Django, DRF or the `games` app."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("django", "rest_framework", "games")


def imported_modules(path: Path) -> list[str]:
    """Every module an `import` or `from ... import` statement in `path` names."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


ENGINE_FILES = sorted(ENGINE.glob("*.py"))


def test_engine_files_found() -> None:
    assert {"decide.py", "evolve.py", "state.py", "__init__.py"} <= {p.name for p in ENGINE_FILES}


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: p.name)
def test_engine_module_imports_nothing_of_the_web_service(path: Path) -> None:
    for name in imported_modules(path):
        top = name.split(".")[0]
        assert top not in FORBIDDEN, f"{path.name} imports {name}"


def test_importing_the_engine_loads_no_django() -> None:
    script = (
        "import importlib, pkgutil, sys\n"
        "import engine\n"
        "for module in pkgutil.iter_modules(engine.__path__):\n"
        "    importlib.import_module('engine.' + module.name)\n"
        f"loaded = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ENGINE.parent,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ENGINE.parent)},
    )
    assert result.stdout.strip() == ""

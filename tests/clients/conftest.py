"""Fixtures for the generated-client tests: a Python SDK generated from `openapi.yaml`.

The client is generated once per test session with openapi-python-client (pinned in
requirements-dev.txt) into a temporary directory and imported from there: nothing generated is
committed, so these tests prove that the committed schema, as it is now, yields a working SDK.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "openapi.yaml"
#: The package name openapi-python-client derives from the schema's title.
PACKAGE = "skyjo_service_api_client"


def generate_python_client(output: Path) -> subprocess.CompletedProcess[str]:
    """Run the generator as a user would; `--fail-on-warning` makes any schema warning fatal.

    Its post hooks run `ruff` on the generated code, so the interpreter's own `bin` directory
    (the virtualenv's, where ruff is installed) goes first on the subprocess's PATH.
    """
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": os.pathsep.join([bin_dir, os.environ.get("PATH", "")])}
    command = [
        sys.executable,
        "-m",
        "openapi_python_client",
        "generate",
        "--path",
        str(SCHEMA),
        "--meta",
        "none",
        "--output-path",
        str(output / PACKAGE),
        "--fail-on-warning",
    ]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)


@pytest.fixture(scope="session")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The generated package, importable as `skyjo_service_api_client` while the session lasts."""
    output = tmp_path_factory.mktemp("python-client")
    result = generate_python_client(output)
    assert result.returncode == 0, (
        f"openapi-python-client failed on {SCHEMA.name} (exit {result.returncode}):\n"
        f"{result.stdout}\n{result.stderr}"
    )
    sys.path.insert(0, str(output))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(output))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]

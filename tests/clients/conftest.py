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
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "openapi.yaml"
#: The package name openapi-python-client derives from the schema's title.
PACKAGE = "skyjo_service_api_client"


@pytest.fixture
def one_request_at_a_time(live_server: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The live server, serving one request at a time when the test database is in memory.

    The SQLite test database is a shared-cache in-memory database: its locks are table locks
    that ignore the busy timeout, so two overlapping requests fail at once with "database table
    is locked" (a 500). Clients that run at the same time (two bots) need a server that
    serialises them, like a single-worker server. On a real database (DATABASE_URL pointing
    at PostgreSQL) nothing changes.
    """
    thread = live_server.thread
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        return live_server
    app = thread.httpd.get_app()
    lock = threading.Lock()

    def serialised(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        with lock:
            response = app(environ, start_response)
            try:
                return [b"".join(response)]
            finally:
                getattr(response, "close", lambda: None)()

    monkeypatch.setattr(thread.httpd, "application", serialised)
    return live_server


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

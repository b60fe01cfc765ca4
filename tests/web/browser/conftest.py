"""The browser tests' world: the development server as `make run` serves it (migrate, then
`manage.py run`, the development server with its worker, DEBUG on, SQLite in a file of
its own), and Debian's chromium driven by
Playwright's sync API (the Playwright browser download does not work here).

Without chromium (a developer's machine) every test here is skipped, saying why: never
passed silently. Every test here is marked `server` (tests/conftest.py: by folder).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from loadtest.server import ROOT, free_port, stop, wait_until_ready

#: Where the test run writes the screenshots the README shows.
SCREENSHOTS = ROOT / "docs" / "img"
#: How chromium is started: headless, and nothing that reaches the network by itself.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NO_BROWSER = (
    "the browser tests need Debian's chromium (apt-get install chromium) or CHROMIUM=<path>; "
    "none was found, so they are skipped, not passed"
)


def chromium_path() -> str | None:
    """CHROMIUM if set, else Debian's /usr/bin/chromium, else `chromium` on the PATH."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        pytest.skip(NO_BROWSER)
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the browser tests need playwright (requirements-dev.txt)"
    )
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


#: Turns' clocks in the tests: a 5-second clock (the shortest) runs out in 1.5 s.
CLOCK_SCALE = 0.3


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`make run`'s server on a free port (`serve_site`)."""
    yield from serve_site(tmp_path_factory)


def serve_site(tmp_path_factory: pytest.TempPathFactory, **extra: str) -> Iterator[str]:
    """`manage.py migrate`, then `manage.py run` (the development server with a worker beside
    it, for the bots' moves and the clocks; without the autoreloader, so that code edited
    during a run does not restart it), DEBUG on, a new SQLite file, clocks scaled by
    `CLOCK_SCALE`, and `extra` in its environment. Stopped as a terminal's Ctrl-C stops it
    (SIGINT to its process group), then killed if it lingers."""
    database = tmp_path_factory.mktemp("site") / "db.sqlite3"
    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{database}",
        "LOG_LEVEL": "CRITICAL",
        "SKYJO_CLOCK_SCALE": str(CLOCK_SCALE),
        "SKYJO_WORKER_INTERVAL": "0.05",
        # Bots at once unless a test says otherwise (tests/web/browser/test_pace.py): at the
        # service's default pace (700 ms an action) every game against bots would crawl.
        "SKYJO_BOT_PACE_MS": "0",
        **extra,
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, cwd=ROOT, check=True)
    port = free_port()
    server = subprocess.Popen(
        [*manage, "run", "--noreload", f"127.0.0.1:{port}"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(url, server, timeout=60)
        yield url
    finally:
        _interrupt(server)


def _interrupt(server: subprocess.Popen[bytes]) -> None:
    """Ctrl-C (the server stops its worker), then SIGKILL to the group if it lingers."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGINT)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        stop(server)


def is_policy_violation(message: Any) -> bool:
    """Chromium's console error for what the page's Content-Security-Policy refused."""
    return message.type == "error" and "Content Security Policy" in message.text


@pytest.fixture
def new_page(browser: Any, site: str) -> Iterator[Any]:
    """Open pages, each in a browser context of its own (its own cookies: another player).
    Every test fails if a page logged an error to its console or threw (htmx logs every error
    event it handles: a swap that missed its target, a stream that failed), unless the test
    expects it (`allow`, a pattern of the errors it provokes on purpose); and if the page's
    Content-Security-Policy refused anything it holds (an inline style htmx added, say): the
    pages must work under their policy, not around it."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(width: int = 1000, height: int = 800, allow: str | None = None) -> Any:
        context = browser.new_context(
            base_url=site, viewport={"width": width, "height": height}, device_scale_factor=1
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        expected = re.compile(allow) if allow else None

        def console(message: Any) -> None:
            policy = is_policy_violation(message)
            if message.type == "error" and (
                policy or not (expected and expected.search(message.text))
            ):
                errors.append(message.text)

        page.on("console", console)
        page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert not errors, errors

"""The production configuration: `check --deploy` is clean, and the production server (gunicorn,
DEBUG off) serves the API and the static assets (whitenoise) from collected, hashed files."""

from __future__ import annotations

import re
import subprocess
import sys

import httpx
import pytest

from loadtest.server import ROOT, RunningServer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("redirect", ["true", "false"])
def test_check_deploy_is_clean(redirect: str) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "DEBUG": "false",
        "SECRET_KEY": "a-production-secret-of-fifty-characters-or-more-0123456789",
        "SECURE_SSL_REDIRECT": redirect,  # false: a proxy redirects (or loopback only)
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_server_serves_the_api_and_static_assets(
    servers: list[RunningServer], http: list[httpx.Client]
) -> None:
    games = http[0].get("/api/v1/games")
    assert games.status_code == 200 and games.json()["results"] == []
    css = http[0].get("/static/admin/css/base.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    docs = http[1].get("/api/docs/")
    assert docs.status_code == 200
    assets = re.findall(r'/static/drf_spectacular_sidecar/[^"\']+\.(?:js|css)', docs.text)
    assert assets, docs.text
    for asset in assets:  # hashed names (manifest storage), cached forever, compressed
        answer = http[1].get(asset, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200, asset
        assert "immutable" in answer.headers.get("cache-control", "")


def test_the_server_serves_the_web_pages_and_their_assets(
    servers: list[RunningServer], http: list[httpx.Client]
) -> None:
    """The lobby and its stylesheet and scripts (htmx from django-htmx's static files), from
    hashed, compressed files: the pages need nothing from elsewhere."""
    lobby = http[0].get("/")
    assert lobby.status_code == 200 and "Create game" in lobby.text
    assets = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:js|css))"', lobby.text)
    assert any("htmx-2.min" in asset for asset in assets), assets
    assert any("hx-sse-2.min" in asset for asset in assets), assets
    assert not re.search(r'(?:href|src)="(?:https?:)?//', lobby.text)  # no CDN
    for asset in assets:
        answer = http[1].get(asset, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200, asset
        assert "immutable" in answer.headers.get("cache-control", ""), asset

"""Production settings: security headers are sent (HSTS and the HTTPS redirect when DEBUG is
off), a secret key is required, and browser clients are let in by a configurable CORS allow-list.
(`check --deploy` is checked clean by tests/production/test_serving.py.)

Settings are read once, when Django starts: the production ones are checked in a fresh process
with the environment production would have.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from .support import GAMES, action_url, game_url, start_game

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "https://play.example.org"


def production_environment(**extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("SECURE_", "CORS_", "DJANGO_"))
        and key not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}
    }
    env.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="api.example.org,testserver",
        DJANGO_SETTINGS_MODULE="skyjo_service.settings",
    )
    env.update(extra)
    return env


def run(args: list[str], **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        env=production_environment(**extra),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_a_secret_key() -> None:
    done = run(["-c", "import django; django.setup()"], SECRET_KEY="")
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


PROBE = """
import json
from skyjo_service.asgi import application  # what the production server loads
from django.test import Client
client = Client()
secure = client.get("/api/v1/rules", secure=True)
plain = client.get("/api/v1/rules")
print(json.dumps({
    "headers": dict(secure.headers),
    "status": secure.status_code,
    "plain": [plain.status_code, plain.headers.get("Location")],
}))
"""


def test_production_starts_sends_security_headers_and_redirects_to_https(tmp_path: Path) -> None:
    # A database with the tables the production rate limits count in (`make serve` migrates).
    database = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    assert run(["manage.py", "migrate", "--noinput", "-v", "0"], **database).returncode == 0
    done = run(["-c", PROBE], **database)
    assert done.returncode == 0, done.stderr
    seen: dict[str, Any] = json.loads(done.stdout)
    headers = seen["headers"]
    assert seen["status"] == 200
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert seen["plain"] == [301, "https://testserver/api/v1/rules"]


def test_security_headers_in_every_answer(api: APIClient) -> None:
    """Headers that do not depend on HTTPS are sent whatever DEBUG is: to games, errors, and
    problems answered outside DRF."""
    game_id, _ = start_game(api, 2)
    for response in (
        api.get(game_url(game_id)),
        api.post(GAMES, {"seats": 1}, format="json"),
        api.get("/api/v1/nowhere"),
    ):
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Frame-Options"] == "DENY"
        assert "Strict-Transport-Security" not in response  # only with HTTPS, in production


# CORS


@override_settings(CORS_ALLOWED_ORIGINS=[ORIGIN])
def test_an_allowed_origin_reads_games_and_their_etag(api: APIClient) -> None:
    game_id, _ = start_game(api, 2)
    response = api.get(game_url(game_id), HTTP_ORIGIN=ORIGIN)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {h.strip().lower() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "location", "retry-after"} <= exposed
    assert "Access-Control-Allow-Credentials" not in response  # bearer tokens, no cookies
    # Errors too, so that a browser client can read the problem.
    refused = api.post(action_url(game_id, "draw"), HTTP_ORIGIN=ORIGIN)
    assert refused.status_code == 401
    assert refused["Access-Control-Allow-Origin"] == ORIGIN


@override_settings(CORS_ALLOWED_ORIGINS=[ORIGIN])
def test_another_origin_is_not_let_in(api: APIClient) -> None:
    game_id, _ = start_game(api, 2)
    for origin in ("https://evil.example.com", "http://play.example.org", "null"):
        response = api.get(game_url(game_id), HTTP_ORIGIN=origin)
        assert "Access-Control-Allow-Origin" not in response
        preflight = api.options(
            action_url(game_id, "draw"),
            HTTP_ORIGIN=origin,
            HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
            HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization",
        )
        assert "Access-Control-Allow-Origin" not in preflight


@override_settings(CORS_ALLOWED_ORIGINS=[ORIGIN])
def test_a_preflight_for_an_action_allows_its_headers(api: APIClient) -> None:
    game_id, _ = start_game(api, 2)
    response = api.options(
        action_url(game_id, "replace"),
        HTTP_ORIGIN=ORIGIN,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS=(
            "authorization, content-type, if-match, idempotency-key"
        ),
    )
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ORIGIN
    allowed = {h.strip().lower() for h in response["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= allowed
    assert "POST" in response["Access-Control-Allow-Methods"]


def test_no_origin_is_allowed_unless_configured(api: APIClient) -> None:
    response = api.get(GAMES, HTTP_ORIGIN=ORIGIN)
    assert "Access-Control-Allow-Origin" not in response


def test_the_allow_list_comes_from_the_environment() -> None:
    script = (
        "import json; from django.conf import settings; "
        "print(json.dumps(settings.CORS_ALLOWED_ORIGINS))"
    )
    done = run(["-c", script], CORS_ALLOWED_ORIGINS=f"{ORIGIN}, https://other.example.org")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [ORIGIN, "https://other.example.org"]

"""What both HTTP servers answer to requests the service will not read (issue 12, items 7 and
9c), checked on the development server (`manage.py runserver`, as `make run`) and on gunicorn
(as `make serve`), over raw sockets and httpx:

- a chunked body (`Transfer-Encoding: chunked`) was read as no body at all (`{"name": "Ada"}`
  answered `400 name: This field is required`, a 3 MB body 400 rather than 413): now 411
  `length_required` on both, and the connection stays usable;
- a request line or headers over a server's limits came back as an HTML page: now a problem
  document (`uri_too_long` 414, `headers_too_large` 431).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from django.db import connection

from loadtest.server import (
    ROOT,
    free_port,
    running_server,
    server_environment,
    stop,
    wait_until_ready,
)

from .conftest import database_url

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = "/api/v1/games"


@dataclass(frozen=True)
class Server:
    url: str
    line_limit: int  # bytes of a request line the server reads
    field_limit: int  # bytes of one header line


@pytest.fixture(scope="module")
def gunicorn(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Server]:
    with django_db_blocker.unblock():
        env = server_environment(database_url(connection.settings_dict))
    with running_server(env, workers=1, threads=2) as server:
        yield Server(server.url, 4094, 8190)


@pytest.fixture(scope="module")
def runserver(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Server]:
    with django_db_blocker.unblock():
        url = database_url(connection.settings_dict)
    env = {**os.environ, "DEBUG": "true", "DATABASE_URL": url, "LOG_LEVEL": "CRITICAL"}
    port = free_port()
    command = [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
    quiet = subprocess.DEVNULL
    process = subprocess.Popen(command, env=env, cwd=ROOT, stdout=quiet, stderr=quiet)
    try:
        wait_until_ready(f"http://127.0.0.1:{port}", process, timeout=30)
        yield Server(f"http://127.0.0.1:{port}", 65536, 65536)
    finally:
        stop(process)


@pytest.fixture(params=["runserver", "gunicorn"])
def server(request: pytest.FixtureRequest) -> Server:
    found: Server = request.getfixturevalue(request.param)
    return found


@dataclass(frozen=True)
class RawAnswer:
    status: int
    headers: dict[str, str]
    body: bytes

    def problem(self) -> dict[str, Any]:
        assert self.headers["content-type"] == "application/problem+json", self
        document: dict[str, Any] = json.loads(self.body)
        assert document["status"] == self.status
        assert document["type"] == f"/api/v1/problems/{document['code']}"
        return document


def raw_request(server: Server, data: bytes) -> RawAnswer:
    """Send `data` as it is and read one answer (of a `Content-Length`, or chunked)."""
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        # Refused before it was all read (the server closed): the answer is still there to read.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(data)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            assert chunk, received
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin1").split("\r\n")
        headers = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in lines[1:])
        }
        while not complete(body, headers):
            chunk = sock.recv(65536)
            if not chunk:
                assert "content-length" not in headers, body  # else read to the close
                break
            body += chunk
    if headers.get("transfer-encoding") == "chunked":
        body = dechunked(body)
    return RawAnswer(int(lines[0].split(" ")[1]), headers, body)


def complete(body: bytes, headers: dict[str, str]) -> bool:
    if headers.get("transfer-encoding") == "chunked":
        return body.endswith(b"0\r\n\r\n")
    return "content-length" in headers and len(body) >= int(headers["content-length"])


def dechunked(framed: bytes) -> bytes:
    body = b""
    while True:
        size_line, _, framed = framed.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            return body
        body, framed = body + framed[:size], framed[size + 2 :]


def new_game(server: Server) -> str:
    created = httpx.post(f"{server.url}{GAMES}", json={"seats": 2}, timeout=30)
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    return game_id


def chunks(body: bytes, size: int = 65536) -> Iterator[bytes]:
    for start in range(0, len(body), size):
        yield body[start : start + size]


def test_a_chunked_join_is_refused_with_411_not_read_as_no_body(server: Server) -> None:
    game_id = new_game(server)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        response = client.post(
            f"{GAMES}/{game_id}/players",
            content=chunks(b'{"name": "Ada"}'),  # an iterator: httpx sends it chunked
            headers={"Content-Type": "application/json"},
        )
        assert response.status_code == 411, response.text
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["code"] == "length_required"
        # The same client goes on: nothing of the chunks is taken for a next request.
        joined = client.post(f"{GAMES}/{game_id}/players", json={"name": "Ada"})
        assert joined.status_code == 201, joined.text
        assert joined.json()["seat"] == 0  # the refused join took no seat


def test_a_3_mb_chunked_body_is_refused_unread(server: Server) -> None:
    body = json.dumps({"name": "x" * 3_000_000}).encode()
    head = (
        f"POST {GAMES}/{new_game(server)}/players HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()
    framed = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in chunks(body)) + b"0\r\n\r\n"
    answer = raw_request(server, head + framed)
    assert answer.status == 411
    assert answer.problem()["code"] == "length_required"


def test_a_request_line_over_the_limit_is_a_414_problem(server: Server) -> None:
    path = f"{GAMES}?status=" + "a" * server.line_limit
    answer = raw_request(server, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    assert answer.status == 414
    assert answer.problem()["code"] == "uri_too_long"
    # Under the limit, the same kind of path reaches the API (and is refused there).
    short = f"{GAMES}?status=" + "a" * 1000
    assert httpx.get(f"{server.url}{short}").json()["code"] == "invalid_request"


@pytest.mark.parametrize("shape", ["long", "many"])
def test_headers_over_the_limit_are_a_431_problem(server: Server, shape: str) -> None:
    if shape == "long":
        headers = f"X-Padding: {'a' * server.field_limit}\r\n"
    else:
        headers = "".join(f"X-Padding-{n}: a\r\n" for n in range(101))
    request = f"GET {GAMES} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n".encode()
    answer = raw_request(server, request)
    assert answer.status == 431
    assert answer.problem()["code"] == "headers_too_large"


def test_a_request_the_server_cannot_parse_is_a_400_problem(server: Server) -> None:
    answer = raw_request(server, b"GET /api/v1/games extra HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer.status == 400
    assert answer.problem()["code"] == "invalid_request"


def test_the_documented_limits_are_the_configured_ones() -> None:
    """docs/OPERATIONS.md and the problem documents state gunicorn's limits: its config's."""
    config: dict[str, Any] = {}
    exec((ROOT / "skyjo_service" / "gunicorn.conf.py").read_text(), config)
    operations = " ".join((ROOT / "docs" / "OPERATIONS.md").read_text().split())
    for setting in ("limit_request_line", "limit_request_field_size", "limit_request_fields"):
        assert f"`{setting}` {config[setting]}" in operations, setting

"""The HTTP servers' own refusals as problem documents, not HTML pages.

A request line or headers over a server's limits (414, 431), or a request it cannot parse
(400), is refused by the server before Django sees it: gunicorn (`make serve`) writes it with
`gunicorn.util.write_error`, the development server (`make run`) with its request handler's
`send_error`. Both are replaced (by skyjo_service/gunicorn.conf.py's `post_worker_init`, and by
games.apps) with writers of an `application/problem+json` answer carrying the problem table's
code; any other status keeps the server's own answer.
"""

from __future__ import annotations

import json
import socket
from http.server import BaseHTTPRequestHandler
from typing import Any

#: The statuses a server answers by itself, with their problem codes (games.api.problems).
SERVER_PROBLEM_CODES = {400: "invalid_request", 414: "uri_too_long", 431: "headers_too_large"}
PROBLEM_CONTENT_TYPE = "application/problem+json"
_MAX_DETAIL = 200  # the server's message may echo the client's bytes: enough to recognise them


def problem_document(status: int, detail: str) -> bytes:
    """The problem for a status of SERVER_PROBLEM_CODES, as the API's own problems are."""
    from games.api.problems import problem_body  # not at the top: games.apps imports this module

    code = SERVER_PROBLEM_CODES[status]
    return json.dumps(problem_body(status, code, detail[:_MAX_DETAIL])).encode()


def write_problem_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's `util.write_error`, answering a problem document for the statuses above."""
    from gunicorn import util

    if status_int not in SERVER_PROBLEM_CODES:
        _GUNICORN_WRITE_ERROR(sock, status_int, reason, mesg)
        return
    body = problem_document(status_int, mesg)
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
        f"Content-Type: {PROBLEM_CONTENT_TYPE}\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin1") + body)


def install_in_gunicorn() -> None:
    """Called in each gunicorn worker (skyjo_service/gunicorn.conf.py, `post_worker_init`)."""
    global _GUNICORN_WRITE_ERROR
    from gunicorn import util

    if util.write_error is not write_problem_error:
        _GUNICORN_WRITE_ERROR = util.write_error
        util.write_error = write_problem_error


_GUNICORN_WRITE_ERROR: Any = None


def send_problem_error(
    handler: BaseHTTPRequestHandler,
    code: int,
    message: str | None = None,
    explain: str | None = None,
) -> None:
    """The development server's `send_error`, answering a problem document for the statuses
    above (as BaseHTTPRequestHandler.send_error does otherwise: logged, then the connection
    closed)."""
    if code not in SERVER_PROBLEM_CODES:
        BaseHTTPRequestHandler.send_error(handler, code, message, explain)
        return
    reason = message or handler.responses[code][0]
    body = problem_document(code, f"{reason}: {explain or handler.responses[code][1]}")
    handler.log_error("code %d, message %s", code, reason)
    handler.send_response(code, reason)
    handler.send_header("Connection", "close")
    handler.send_header("Content-Type", PROBLEM_CONTENT_TYPE)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    if handler.command != "HEAD":
        handler.wfile.write(body)

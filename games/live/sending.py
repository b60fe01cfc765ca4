"""Bounded writes to a stream's client, so that one that stopped reading cannot keep its
stream (and its thread and place) for ever.

A stream checks its deadline between writes, and a write to a client that reads nothing
blocks once the socket's buffers are full. Under gunicorn the client's socket is in the WSGI
environ (`gunicorn.socket`): with a timeout on it a blocked write fails, gunicorn closes the
connection and the response's iterator, and the stream's place is given back. A small send
buffer finds such a client after kilobytes rather than megabytes. Other servers (the
development server, the tests' client) give no socket: their writes stay unbounded.
"""

from __future__ import annotations

import socket
from typing import Any

from django.conf import settings


def bound_sends(meta: dict[str, Any]) -> None:
    """Make the writes of this request's answer fail past `LIVE_SEND_TIMEOUT_SECONDS`, its
    send buffer `LIVE_SEND_BUFFER_BYTES`; under gunicorn (HTTP/1: a connection of its own)."""
    sock = meta.get("gunicorn.socket")
    if not isinstance(sock, socket.socket) or not _own_connection(meta):
        return
    if settings.LIVE_SEND_BUFFER_BYTES:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, settings.LIVE_SEND_BUFFER_BYTES)
    if settings.LIVE_SEND_TIMEOUT_SECONDS:
        # gunicorn makes the socket blocking again (no timeout) for the connection's next request.
        sock.settimeout(settings.LIVE_SEND_TIMEOUT_SECONDS)


def _own_connection(meta: dict[str, Any]) -> bool:
    """Whether the request has its connection to itself (HTTP/2 shares one between requests:
    a timeout there would cut them all)."""
    return str(meta.get("SERVER_PROTOCOL", "")).startswith("HTTP/1")

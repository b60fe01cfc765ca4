"""HTTP details shared by the views: ETags, If-Match, Idempotency-Key."""

from __future__ import annotations

import re

from rest_framework.request import Request

from .auth import InvalidCredential, SeatCredential
from .problems import CHALLENGE, Problem

#: A version as an ETag, `"12"` (weak or unquoted too); ASCII digits only (`\d` would take
#: any Unicode digit, which the schema's pattern does not allow).
_ETAG = re.compile(r'^[ \t]*(?:W/)?"?([0-9]{1,12})"?[ \t]*$')
MAX_IDEMPOTENCY_KEY = 255
#: Visible ASCII, spaces inside: exactly what the schema's pattern documents.
_IDEMPOTENCY_KEY = re.compile(rf"[!-~](?:[ -~]{{0,{MAX_IDEMPOTENCY_KEY - 2}}}[!-~])?")


def seat_credential(request: Request) -> SeatCredential | None:
    """The bearer token presented, if any (checked against a game by the services); 401 for
    an `Authorization` header that is not a well-formed bearer token."""
    if isinstance(request.auth, InvalidCredential):
        raise Problem(401, "invalid_token", request.auth.reason, headers=CHALLENGE)
    return request.auth if isinstance(request.auth, SeatCredential) else None


def etag(version: int) -> str:
    return f'"{version}"'


def parse_version_header(request: Request, header: str) -> int | None:
    """A version from If-Match (`"12"`); None when the header is absent, or `*` (any current
    version: RFC 9110, 13.1.1)."""
    raw = request.headers.get(header)
    if raw is None or raw.strip(" \t") == "*":
        return None
    match = _ETAG.match(raw)
    if match is None:
        raise Problem(
            400,
            "invalid_request",
            f'{header} takes a game version as an ETag, e.g. "12".',
            errors={header: ["Expected a quoted version number."]},
        )
    return int(match.group(1))


def if_none_match(request: Request) -> set[str]:
    """The versions named by If-None-Match (`*` matches any)."""
    raw = request.headers.get("If-None-Match")
    if not raw:
        return set()
    tags = set()
    for part in raw.split(","):
        part = part.strip()
        if part == "*":
            tags.add("*")
            continue
        match = _ETAG.match(part)
        if match:
            tags.add(match.group(1))
    return tags


def idempotency_key(request: Request) -> str | None:
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        return None
    key = raw.strip(" \t")
    if _IDEMPOTENCY_KEY.fullmatch(key) is None:
        raise Problem(
            400,
            "invalid_request",
            f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters "
            "(spaces inside allowed).",
            errors={"Idempotency-Key": ["Invalid key."]},
        )
    return key

"""HTTP details shared by the views: ETags, If-Match, Idempotency-Key."""

from __future__ import annotations

import re
from enum import Enum

from rest_framework.request import Request

from ..auth import InvalidCredential, SeatCredential
from ..errors import InvalidRequest, InvalidToken

#: A version as an entity tag (RFC 9110, 8.8.3): strong `"12"`, weak `W/"12"`, or unquoted
#: `12` (from clients that drop the quotes), spaces or tabs around; ASCII digits only (`\d`
#: would take any Unicode digit). Exactly the schema's If-Match pattern (games.schema).
_ETAG = re.compile(
    r'[ \t]*(?:W/"(?P<weak>[0-9]{1,12})"|"(?P<strong>[0-9]{1,12})"|(?P<bare>[0-9]{1,12}))[ \t]*'
)


class WeakTag(Enum):
    """If-Match named a weak tag: under the strong comparison If-Match uses, it matches no
    version (RFC 9110, 13.1.1), so the request is refused with 412."""

    WEAK = "weak"


MAX_IDEMPOTENCY_KEY = 255
#: Visible ASCII, spaces inside: exactly what the schema's pattern documents.
_IDEMPOTENCY_KEY = re.compile(rf"[!-~](?:[ -~]{{0,{MAX_IDEMPOTENCY_KEY - 2}}}[!-~])?")


def seat_credential(request: Request) -> SeatCredential | None:
    """The bearer token presented, if any (checked against a game by the services); 401 for
    an `Authorization` header that is not a well-formed bearer token."""
    if isinstance(request.auth, InvalidCredential):
        raise InvalidToken(request.auth.reason)
    return request.auth if isinstance(request.auth, SeatCredential) else None


def etag(version: int) -> str:
    return f'"{version}"'


def parse_version_header(request: Request, header: str) -> int | WeakTag | None:
    """A version from If-Match (`"12"`); None when the header is absent, or `*` (any current
    version: RFC 9110, 13.1.1); `WeakTag.WEAK` for a weak tag, which matches none."""
    raw = request.headers.get(header)
    if raw is None or raw.strip(" \t") == "*":
        return None
    match = _ETAG.fullmatch(raw)
    if match is None:
        raise InvalidRequest(
            f'{header} takes a game version as an ETag, e.g. "12".',
            errors={header: ["Expected a quoted version number."]},
        )
    if match["weak"] is not None:
        return WeakTag.WEAK
    return int(match["strong"] or match["bare"])


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
        match = _ETAG.fullmatch(part)
        if match:  # weak or strong alike: If-None-Match compares weakly (RFC 9110, 13.1.2)
            tags.add(match["weak"] or match["strong"] or match["bare"])
    return tags


def idempotency_key(request: Request) -> str | None:
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        return None
    key = raw.strip(" \t")
    if _IDEMPOTENCY_KEY.fullmatch(key) is None:
        raise InvalidRequest(
            f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} visible ASCII characters "
            "(spaces inside allowed).",
            errors={"Idempotency-Key": ["Invalid key."]},
        )
    return key


_SEQUENCE = re.compile(r"[ \t]*([0-9]{1,10})[ \t]*")


def last_event_id(request: Request) -> int | None:
    """The sequence a reconnecting stream client last received (`Last-Event-ID`), if any."""
    raw = request.headers.get("Last-Event-ID")
    if raw is None or not raw.strip(" \t"):
        return None
    match = _SEQUENCE.fullmatch(raw)
    if match is None or int(match[1]) > 2**31 - 1:
        raise InvalidRequest(
            "Last-Event-ID takes the sequence of the last event received, e.g. 12.",
            errors={"Last-Event-ID": ["Expected a whole number from 0 to 2147483647."]},
        )
    return int(match[1])

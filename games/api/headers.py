"""HTTP details shared by the views: ETags, If-Match, Idempotency-Key, Last-Event-ID."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from rest_framework.request import Request

from accounts.credentials import AccountCredential
from games.core.cursors import Cursor, parse_cursor
from games.core.errors import InvalidRequest, InvalidToken
from games.core.tokens import Credential, InvalidCredential, SeatCredential

T = TypeVar("T")

#: A version as an entity tag (RFC 9110, 8.8.3): strong `"12"` or weak `W/"12"`, quoted as
#: the syntax wants (an unquoted `12` is no entity tag); ASCII digits only (`\d` would take
#: any Unicode digit).
_ETAG = re.compile(r'(?P<weak>W/)?"(?P<version>[0-9]{1,12})"')
_TAG = r'(W/)?"[0-9]{1,12}"'
#: What `if_match` accepts, as the schema documents it: `*`, or a list of tags (empty
#: elements allowed, at least one tag), spaces or tabs around each.
IF_MATCH_PATTERN = rf"^[ \t]*(\*|([ \t]*,)*[ \t]*{_TAG}([ \t]*,([ \t]*{_TAG})?)*)[ \t]*$"


MAX_IDEMPOTENCY_KEY = 255
#: Visible ASCII, spaces inside: exactly what the schema's pattern documents.
_IDEMPOTENCY_KEY = re.compile(rf"[!-~](?:[ -~]{{0,{MAX_IDEMPOTENCY_KEY - 2}}}[!-~])?")


def seat_credential(request: Request) -> Credential | None:
    """The bearer token presented, if any (checked against a game by the services); 401 for
    an `Authorization` header that is not a well-formed bearer token."""
    if isinstance(request.auth, InvalidCredential):
        raise InvalidToken(request.auth.reason)
    return request.auth if isinstance(request.auth, SeatCredential | AccountCredential) else None


def account_credential(request: Request) -> AccountCredential | None:
    """The account a personal token presented stands for (None: none presented, or a seat
    token, which an operation open to guests ignores); 401 for a revoked or unknown one."""
    presented = request.auth
    if isinstance(presented, InvalidCredential) and presented.personal:
        raise InvalidToken(presented.reason)
    return presented if isinstance(presented, AccountCredential) else None


def etag(version: int) -> str:
    return f'"{version}"'


def if_match(request: Request) -> frozenset[int] | None:
    """The versions If-Match (`"*" / 1#entity-tag`, RFC 9110, 13.1.1) lets an action apply
    to: None sets no condition (no header, or `*`). If-Match compares strongly, so a weak tag
    matches no version and is left out: a header of weak tags only matches none (412). A
    value that is no such list is refused (400), never taken for some other version."""
    raw = request.headers.get("If-Match")
    if raw is None or raw.strip(" \t") == "*":
        return None
    tags = _entity_tags(raw)
    if tags is None:
        raise InvalidRequest(
            'If-Match takes game versions as ETags, e.g. "12" or "12", "13".',
            errors={"If-Match": ['Expected "*" or quoted version numbers, comma-separated.']},
        )
    return frozenset(int(tag["version"]) for tag in tags if tag["weak"] is None)


def _entity_tags(raw: str) -> list[re.Match[str]] | None:
    """The tags of a comma-separated list (RFC 9110, 5.6.1: spaces or tabs around each,
    empty elements ignored), or None unless every element is one and there is at least one."""
    elements = [element.strip(" \t") for element in raw.split(",")]
    tags = [_ETAG.fullmatch(element) for element in elements if element]
    if not tags or None in tags:
        return None
    return [tag for tag in tags if tag is not None]


def if_none_match(request: Request) -> set[str]:
    """The versions named by If-None-Match (`*` matches any); an element that is no tag
    names none, so at worst the full answer is sent."""
    raw = request.headers.get("If-None-Match")
    if not raw:
        return set()
    tags = set()
    for part in raw.split(","):
        part = part.strip(" \t")
        if part == "*":
            tags.add("*")
            continue
        match = _ETAG.fullmatch(part)
        if match:  # weak or strong alike: If-None-Match compares weakly (RFC 9110, 13.1.2)
            tags.add(match["version"])
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
    """The sequence a reconnecting account stream client last received (`Last-Event-ID`), if
    any."""
    return _last_event_id(
        request,
        _sequence,
        "Last-Event-ID takes the sequence of the last event received, e.g. 12.",
        "Expected a whole number from 0 to 2147483647.",
    )


def last_frame_id(request: Request) -> Cursor | None:
    """The id of the frame a reconnecting game stream client last received (`Last-Event-ID`:
    an event's sequence, and the chat's once the stream has passed a message), if any."""
    return _last_event_id(
        request,
        parse_cursor,
        "Last-Event-ID takes the id of the last frame received, e.g. 12 or 12:3.",
        "Expected a whole number from 0 to 2147483647, or two joined by a colon (12:3).",
    )


def _last_event_id(
    request: Request, parse: Callable[[str], T | None], detail: str, expected: str
) -> T | None:
    """`Last-Event-ID` as `parse` reads it (None: absent or blank, a fresh start); 400 with
    `detail` and `expected` when it reads nothing."""
    raw = request.headers.get("Last-Event-ID")
    if raw is None or not raw.strip(" \t"):
        return None
    parsed = parse(raw)
    if parsed is None:
        raise InvalidRequest(detail, errors={"Last-Event-ID": [expected]})
    return parsed


def _sequence(text: str) -> int | None:
    """A sequence (spaces or tabs around), None if it is none."""
    match = _SEQUENCE.fullmatch(text)
    return None if match is None or int(match[1]) > 2**31 - 1 else int(match[1])

"""What a handle may be: 3 to 20 of `[A-Za-z0-9_-]`, starting with a letter, unique whatever
its case, and none of the reserved words (the built-in bots' names among them)."""

from __future__ import annotations

import re

from engine.strategies import STRATEGIES

HANDLE_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]{2,19}$"
_HANDLE = re.compile(HANDLE_PATTERN)

#: Words no account may take: they would read as the service's own, or as a page.
RESERVED = frozenset(
    {"admin", "administrator", "account", "accounts", "anonymous", "api", "bot", "bots", "guest"}
    | {"login", "logout", "me", "moderator", "null", "none", "root", "signup", "skyjo"}
    | {"support", "system", "undefined"}
)


def is_well_formed(handle: str) -> bool:
    return bool(_HANDLE.match(handle))


def handle_key(handle: str) -> str:
    """The form two handles are compared in (`Ada` and `ada` are one handle)."""
    return handle.lower()


def is_reserved(handle: str) -> bool:
    """Reserved words are refused to new accounts, and so are the built-in bots' names."""
    return handle_key(handle) in RESERVED or handle_key(handle) in STRATEGIES


def builtin_handles() -> tuple[str, ...]:
    return tuple(STRATEGIES)

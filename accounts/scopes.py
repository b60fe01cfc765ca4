"""The scopes a personal token may hold: the one table that the tokens, the checks, the schema
(`x-required-scopes`) and the pages derive from."""

from __future__ import annotations

SCOPES: dict[str, str] = {
    "play": "Join games as the account, act, leave, and stream or long-poll a seat.",
    "challenge:read": "Read the account's challenges and its account stream.",
    "challenge:write": "Challenge other accounts, accept, decline and cancel challenges.",
    "chat:write": "Write in games' chats.",
    "account:read": "Read the account's profile, games and tokens.",
    "account:write": "Create and revoke tokens, and delete the account.",
}

ALL_SCOPES: tuple[str, ...] = tuple(SCOPES)

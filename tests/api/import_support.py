"""Small history documents for the import tests: a waiting game (its `GameCreated` and some
joins), cheap to audit, and its events at the schema versions an export writes."""

from __future__ import annotations

from typing import Any

from tests.api.support import GAMES

IMPORT = f"{GAMES}/import"


def waiting_history(
    *names: str, seats: int = 3, options: Any = None, game: Any = None
) -> dict[str, Any]:
    """A history of a game not yet dealt: created with `options` (default: the defaults),
    joined by `names` (fewer than `seats`, so no card is dealt)."""
    created = {"seats": seats, "options": options or {"end_score": 100, "closer_penalty": True}}
    events = [{"type": "GameCreated", "schema_version": 2, "data": created}]
    events += [
        {"type": "PlayerJoined", "schema_version": 1, "data": {"seat": seat, "name": name}}
        for seat, name in enumerate(names)
    ]
    document = {
        "format": "skyjo-history",
        "format_version": 1,
        "events": [{"sequence": n, **event} for n, event in enumerate(events, start=1)],
    }
    if game is not None:
        document["game"] = game
    return document

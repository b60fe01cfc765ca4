"""What an append tells the accounts seated in its game: the entries of their inboxes (their
account streams), delivered in the append's own transaction (`append.append_events`).

`game_started` when round 1 is dealt, `your_turn` when a seat an account plays itself comes to
act (a new turn, or a round's setup reveals), `game_finished` at the end. A game of guests
alone costs one look at its seats' accounts.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from accounts.inbox import Letter
from engine import Event, GameState, seats_to_act
from engine.events import GameEnded, RoundDealt
from engine.strategies import STRATEGIES
from games.core.resources import iso_time

#: The letters a game's log calls for (the other entries naming a game, a challenge's or a
#: rematch offered, come from elsewhere: `inboxes.inbox_mismatch` checks these alone against
#: the log).
GAME_LETTERS = ("game_started", "your_turn", "game_finished")


def letters_of(
    game_id: uuid.UUID,
    before: GameState,
    events: Sequence[Event],
    after: GameState,
    deadline: datetime | None,
) -> list[Letter]:
    """The inbox entries an append from `before` to `after` (by `events`) causes."""
    if not any(after.accounts):
        return []
    game = str(game_id)
    letters = [
        Letter(handle, "game_started", {"game": game, "seat": seat})
        for seat, handle in _people(after)
        if any(isinstance(e, RoundDealt) and e.round == 1 for e in events)
    ]
    letters += _turns(game, before, after, deadline)
    for ended in (e for e in events if isinstance(e, GameEnded)):
        finished = {"game": game, "totals": list(ended.totals), "winners": list(ended.winners)}
        letters += [
            Letter(handle, "game_finished", {**finished, "seat": seat})
            for seat, handle in _people(after)
        ]
    return letters


def _people(state: GameState) -> list[tuple[int, str]]:
    """The seats of accounts other than the built-in bots (which no one reads for)."""
    return [
        (seat, handle)
        for seat, handle in enumerate(state.accounts)
        if handle is not None and handle not in STRATEGIES
    ]


def _turns(
    game: str, before: GameState, after: GameState, deadline: datetime | None
) -> list[Letter]:
    """`your_turn` for each account's seat (played by no bot) that is to act after the append
    and was not before it, in the same turn."""
    was_to_act = set(seats_to_act(before)) if before.turn == after.turn else set()
    when = None if deadline is None else iso_time(deadline)
    return [
        Letter(
            handle,
            "your_turn",
            {"game": game, "seat": seat, "version": after.version, "turn_deadline": when},
        )
        for seat in seats_to_act(after)
        if seat not in was_to_act
        and (handle := after.accounts[seat]) is not None
        and after.bots[seat] is None
    ]

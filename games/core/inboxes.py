"""What the account stream needs of the games: the account's unfinished games and whose turn
it is (the `snapshot` a stream starts with when it resumes from nothing), and the check that
every inbox entry of a game's seats is the one its log calls for (`manage.py verify_games`).
"""

from __future__ import annotations

from collections import Counter
from itertools import groupby
from typing import Any

from accounts.handles import handle_key
from accounts.models import InboxEntry
from engine import EMPTY, replay, seats_to_act
from games.core.letters import APPEND_LETTER_TYPES, letters_of
from games.core.resources import iso_time
from games.core.states import game_state
from games.models import ENDED, Game, Seat, Status
from games.store import log


def unfinished_games(account_id: int) -> list[dict[str, Any]]:
    """The account's waiting and playing games, oldest first: each with its seat, status,
    the seats to act now, whether the account is one of them, and the turn's deadline."""
    seats = (
        Seat.objects.filter(account_id=account_id)
        .exclude(game__status__in=ENDED)
        .select_related("game")
        .order_by("game__created_at")
    )
    return [_unfinished(seat.game, seat.seat) for seat in seats]


def _unfinished(game: Game, seat: int) -> dict[str, Any]:
    to_act = list(seats_to_act(game_state(game))) if game.status != Status.WAITING else []
    deadline = None if game.turn_deadline is None else iso_time(game.turn_deadline)
    return {
        "game": str(game.id),
        "seat": seat,
        "status": game.status,
        "version": game.version,
        "seats_to_act": to_act,
        "your_turn": seat in to_act,
        "turn_deadline": deadline,
    }


#: An inbox entry as the check compares it: its account, type and payload without the turn's
#: deadline (the clock's, at the time of the append: the log does not keep it).
_Compared = tuple[int, str, str]


def inbox_mismatch(game: Game) -> str | None:
    """Why the inbox entries its appends wrote naming `game` are not exactly the letters its
    log calls for (replayed append by append: an append's events share their time), or None
    if they are."""
    accounts = dict(
        Seat.objects.filter(game=game, account__deleted_at__isnull=True).values_list(
            "account__handle_key", "account_id"
        )
    )
    if not accounts:
        return None
    expected = _expected(game, accounts)
    stored = Counter(
        _compared(account_id, kind, payload)
        for account_id, kind, payload in InboxEntry.objects.filter(
            account_id__in=accounts.values(),
            payload__game=str(game.id),
            type__in=APPEND_LETTER_TYPES,
        ).values_list("account_id", "type", "payload")
    )
    missing, extra = expected - stored, stored - expected
    if missing:
        return f"{sum(missing.values())} inbox entries missing, e.g. {next(iter(missing))}"
    if extra:
        return f"{sum(extra.values())} inbox entries without their event, e.g. {next(iter(extra))}"
    return None


def _expected(game: Game, accounts: dict[str, int]) -> Counter[_Compared]:
    """The letters of every append of the log, to the accounts still live."""
    state, expected = EMPTY, Counter[_Compared]()
    for _, stored in groupby(log.events(game), key=lambda row: row.at):
        events = [row.event for row in stored]
        after = replay(events, state)
        for letter in letters_of(game.id, state, events, after, None):
            account_id = accounts.get(handle_key(letter.handle))
            if account_id is not None:
                expected[_compared(account_id, letter.type, letter.payload)] += 1
        state = after
    return expected


def _compared(account_id: int, kind: str, payload: dict[str, Any]) -> _Compared:
    kept = {key: value for key, value in payload.items() if key != "turn_deadline"}
    return account_id, kind, repr(sorted(kept.items()))

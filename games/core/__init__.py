"""The use cases over the log: what the entrypoints (the API, the pages, the commands, the
workers) may call. No DRF, no drf-spectacular, no push: a committed append is announced with
`signals.game_moved`.

Its rooms: reading a game and its seats (`reading`), the state at a version (`states`), the
one append (`append`), the lobby (`lobby`), seats held for someone (`holds`), the accounts'
games (`players`), turns (`turns`), the service's own moves (`service_moves`), histories
(`history`), idempotent answers (`idempotency`), seat tokens (`tokens`), what a viewer is
shown (`resources`), what the account stream needs of the games (`inboxes`), errors, names,
bots and the clock.
"""

from games.core.append import append_events, retry_on_conflict
from games.core.history import AuditedHistory, export_history, import_history
from games.core.holds import held_handles, hold_seats
from games.core.inboxes import inbox_mismatch, unfinished_games
from games.core.lobby import (
    cancel_game,
    create_game,
    free_reserved_seat,
    is_stale,
    join_game,
    leave_seat,
    listed_games,
    own_seat,
    rotate_token,
)
from games.core.players import (
    ACCOUNT_GAME_STATUSES,
    account_profile,
    my_games,
    player_games,
    player_profile,
)
from games.core.reading import (
    SeatBinding,
    game_and_seat,
    game_uuid,
    get_game,
    replay_data,
    seat_binding,
    seat_bindings,
)
from games.core.service_moves import expire_turn, play_bots, sweep
from games.core.states import (
    STATUS_OF_PHASE,
    checkpoint_every,
    game_state,
    seat_state,
    snapshot_text,
    state_at,
)
from games.core.turns import ActionResult, action_fingerprint, perform_action, seat_key
from games.store.log import StoredEvent, engine_events
from games.store.log import events as logged_events

__all__ = [
    "ACCOUNT_GAME_STATUSES",
    "STATUS_OF_PHASE",
    "ActionResult",
    "AuditedHistory",
    "SeatBinding",
    "StoredEvent",
    "account_profile",
    "action_fingerprint",
    "append_events",
    "cancel_game",
    "checkpoint_every",
    "create_game",
    "engine_events",
    "expire_turn",
    "export_history",
    "free_reserved_seat",
    "game_and_seat",
    "game_state",
    "game_uuid",
    "get_game",
    "held_handles",
    "hold_seats",
    "import_history",
    "inbox_mismatch",
    "is_stale",
    "join_game",
    "leave_seat",
    "listed_games",
    "logged_events",
    "my_games",
    "own_seat",
    "perform_action",
    "play_bots",
    "player_games",
    "player_profile",
    "replay_data",
    "retry_on_conflict",
    "rotate_token",
    "seat_binding",
    "seat_bindings",
    "seat_key",
    "seat_state",
    "snapshot_text",
    "state_at",
    "sweep",
    "unfinished_games",
]

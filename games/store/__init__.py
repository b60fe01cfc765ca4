"""The database: the statements every action and every read runs (`sql`), the log reader
(`log`), this process's memory of warm games (`warm`), what a database error means for a
write (`errors`). Only the use cases (`games.core`) and the push (`games.live`) come here.

The names below are the statements' door; `from games import store` then `store.append(...)`.
"""

from games.store.sql import (
    NOTIFY_CHANNEL,
    NewEvent,
    Summary,
    append,
    atomic,
    fetch_game,
    lock_game,
    nearest_checkpoint,
    read_events,
    read_payloads,
    reader,
    save_checkpoints,
    write_alias,
    writer,
)

__all__ = [
    "NOTIFY_CHANNEL",
    "NewEvent",
    "Summary",
    "append",
    "atomic",
    "fetch_game",
    "lock_game",
    "nearest_checkpoint",
    "read_events",
    "read_payloads",
    "reader",
    "save_checkpoints",
    "write_alias",
    "writer",
]

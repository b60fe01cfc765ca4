"""A game stream's place, and how clients send it back: the vocabulary the stream (`games.live`)
writes in its frames' ids and the API reads from `Last-Event-ID` and `?after=`.

A stream's place is two numbers: the last event sent and the last chat message looked at. Its
frames' ids say both, `<event>:<message>` (`17:3`), and only the event while the stream has
looked at no message (`17`), so a game without chat streams exactly as before it had one.
Plain values, below every room that reads or writes them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A frame's id as clients send it back: an event's sequence, then the chat's, each at most
#: 2**31 - 1 (ten digits, checked again as numbers).
_CURSOR = re.compile(r"([0-9]{1,10})(?::([0-9]{1,10}))?")
_MAX = 2**31 - 1
CURSOR_PATTERN = r"^[0-9]{1,10}(:[0-9]{1,10})?$"


@dataclass(frozen=True)
class Cursor:
    """Where a stream stands: after event `events` of the log and message `chat` of the chat."""

    events: int = 0
    chat: int = 0

    @property
    def frame_id(self) -> str:
        """The id of a frame sent at this point: `<events>`, or `<events>:<chat>`."""
        return str(self.events) if not self.chat else f"{self.events}:{self.chat}"


def parse_cursor(text: str) -> Cursor | None:
    """A frame's id sent back (`17`, `17:3`; spaces or tabs around), None if it is none."""
    match = _CURSOR.fullmatch(text.strip(" \t"))
    if match is None:
        return None
    events, chat = int(match[1]), int(match[2] or 0)
    return Cursor(events, chat) if events <= _MAX and chat <= _MAX else None

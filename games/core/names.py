"""The rule for a player's name, as one regular expression the schema carries and the server
applies: what a client validates with the schema's `pattern` is exactly what is accepted.

A name is 1 to 40 characters (code points), none of them a control, format, surrogate,
private-use or unassigned character, nor a line or paragraph separator (Unicode categories Cc,
Cf, Cs, Co, Cn, Zl, Zp in the server's Unicode database), nor one that Unicode normalization
(NFC) turns into several (U+FB2C...), with at least one character that is not a space. The
name is stored NFC-normalized with the spaces around it removed; that can only shorten it.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterator

MAX_NAME_LENGTH = 40
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


REFUSED, SPACE, VISIBLE = 0, 1, 2


def kind(char: str) -> int:
    """Whether a name may hold the character, and as a space or a visible character."""
    if unicodedata.category(char) in REFUSED_CATEGORIES:
        return REFUSED
    if len(unicodedata.normalize("NFC", char)) != 1:
        return REFUSED
    return SPACE if char.isspace() else VISIBLE


def _runs(kinds: bytes, wanted: set[int]) -> Iterator[tuple[int, int]]:
    """The code points whose kind is wanted, as (first, last) runs."""
    start = None
    for point, found in enumerate(kinds):
        if found in wanted:
            start = point if start is None else start
        elif start is not None:
            yield start, point - 1
            start = None
    if start is not None:
        yield start, len(kinds) - 1


def _escape(point: int) -> str:
    """A code point in a character class, the same in ECMA-262 (the schema's dialect) and in
    Python: `\\uXXXX` in the BMP, the character itself beyond (no surrogate is allowed)."""
    return f"\\u{point:04X}" if point <= 0xFFFF else chr(point)


def _character_class(kinds: bytes, wanted: set[int]) -> str:
    runs = (
        _escape(first) if first == last else f"{_escape(first)}-{_escape(last)}"
        for first, last in _runs(kinds, wanted)
    )
    return "[" + "".join(runs) + "]"


def _build_pattern() -> str:
    """Computed once, from one pass over every code point (about half a second)."""
    kinds = bytes(kind(chr(point)) for point in range(sys.maxunicode + 1))
    spaces = _character_class(kinds, {SPACE})
    visible = _character_class(kinds, {VISIBLE})
    anything = _character_class(kinds, {SPACE, VISIBLE})
    return f"^{spaces}*{visible}{anything}*$"


#: The name rule as a regular expression (its length, 1 to 40, is the schema's min/maxLength).
NAME_PATTERN = _build_pattern()
_NAME = re.compile(NAME_PATTERN)


def is_valid_name(value: str) -> bool:
    """Whether the name, as sent, follows the rule. `fullmatch`: the schema's `$` is
    ECMA-262's end of string, where Python's `$` would also match before a final newline."""
    return 1 <= len(value) <= MAX_NAME_LENGTH and _NAME.fullmatch(value) is not None


def normalized_name(value: str) -> str:
    """The stored form of a valid name: NFC, without the spaces around it."""
    return unicodedata.normalize("NFC", value).strip()

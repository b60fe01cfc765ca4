"""The request body parser: DRF's JSON parser, answering 400 (not 500) for every malformed body."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """Also refuses, as a parse error, two kinds of body DRF's parser lets through to a 500:

    - nesting deeper than Python's decoder can follow (`[[[[...` raises RecursionError);
    - strings that are not Unicode text: a lone surrogate escape such as `"\\ud800"` decodes
      to a `str` that cannot be encoded again, so echoing it in an error (an unknown field's
      name) or storing it would fail.
    """

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ParseError("JSON parse error - strings must be valid Unicode.") from None
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
        return data

"""The request body parser: DRF's JSON parser, answering 400 (not 500) for every malformed body
and 413 for a body over the size limit."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import parsers
from rest_framework.exceptions import ParseError

from games.api.problems import Problem, payload_too_large_detail


class JSONParser(parsers.JSONParser):
    """Also refuses, as a parse error, two kinds of body DRF's parser lets through to a 500:

    - nesting deeper than Python's decoder can follow (`[[[[...` raises RecursionError);
    - strings that are not Unicode text: a lone surrogate escape such as `"\\ud800"` decodes
      to a `str` that cannot be encoded again, so echoing it in an error (an unknown field's
      name) or storing it would fail.

    And it reads at most `DATA_UPLOAD_MAX_MEMORY_SIZE` bytes: DRF's parser reads the whole
    stream, which Django's limit does not guard (it applies to `request.body` only). A body
    over the limit is refused with 413 before it is parsed (the middleware refuses one whose
    `Content-Length` says so before it is read at all).
    """

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None:
            raw = stream.read(limit + 1)
            if len(raw) > limit:
                raise Problem(413, "payload_too_large", payload_too_large_detail(limit))
            stream = io.BytesIO(raw)
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

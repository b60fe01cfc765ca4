"""OpenAPI pieces shared by the views: the problem schema, error responses, headers, auth.

The committed `openapi.yaml` is generated from these; SDK generators name their types after the
components declared here, so names are chosen for the reader of a generated client.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from engine import ALL_RULE_ERRORS

PROBLEM_JSON = "application/problem+json"
LOBBY_CODES = ["game_full", "game_not_started", "game_finished"]
RULE_CODES = sorted(
    error.code
    for error in ALL_RULE_ERRORS
    if error.code not in {"invalid_options", "spectator_cannot_act", *LOBBY_CODES}
)


# Security requirements (drf-spectacular types `auth` as strings but emits these objects as-is);
# the SeatToken scheme itself is declared in settings (SPECTACULAR_SETTINGS APPEND_COMPONENTS).
SEAT_ONLY: Any = [{"SeatToken": []}]
SEAT_OR_SPECTATOR: Any = [{"SeatToken": []}, {}]


class ProblemSerializer(serializers.Serializer):
    """RFC 9457 problem details, with a stable machine `code`."""

    type = serializers.CharField(help_text="A URI naming the kind of problem.")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.CharField(help_text="Stable machine code: switch on this.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Field errors of an `invalid_request`, by field name.",
    )
    current_version = serializers.IntegerField(
        required=False, help_text="With `version_mismatch`: the game's current version."
    )
    retry_after = serializers.IntegerField(
        required=False, help_text="With `throttled`: seconds to wait."
    )


def _problem(
    description: str, codes: list[str], examples: list[OpenApiExample] | None = None
) -> OpenApiResponse:
    return OpenApiResponse(
        ProblemSerializer,
        description=f"{description} Codes: {', '.join(f'`{c}`' for c in codes)}.",
        examples=examples,
    )


BAD_REQUEST = _problem("The request is malformed or a field is not valid.", ["invalid_request"])
UNAUTHORIZED = _problem("No seat token, or not a seat of this game.", ["invalid_token"])
NOT_FOUND = _problem("There is no such game.", ["game_not_found"])
NOT_YOUR_TURN_EXAMPLE = OpenApiExample(
    "not_your_turn",
    summary="Not your turn",
    value={
        "type": "/api/v1/problems/not_your_turn",
        "title": "Not your turn",
        "status": 409,
        "detail": "it is seat 1's turn",
        "code": "not_your_turn",
    },
)


CONFLICT = _problem(
    "The request is well-formed but the game's state refuses it.",
    ["concurrent_update", *LOBBY_CODES, *RULE_CODES],
    examples=[NOT_YOUR_TURN_EXAMPLE],
)
PRECONDITION_FAILED = _problem("`If-Match` named an older version.", ["version_mismatch"])
UNPROCESSABLE = _problem(
    "The `Idempotency-Key` was used for another request.", ["idempotency_key_reused"]
)
THROTTLED = _problem("Too many requests; see `Retry-After`.", ["throttled"])
TOO_LARGE = _problem("The request body is too large.", ["payload_too_large"])


def problems(*statuses: int) -> dict[Any, Any]:
    """Error responses for an operation, as application/problem+json."""
    table = {
        400: BAD_REQUEST,
        401: UNAUTHORIZED,
        404: NOT_FOUND,
        409: CONFLICT,
        412: PRECONDITION_FAILED,
        413: TOO_LARGE,
        422: UNPROCESSABLE,
        429: THROTTLED,
    }
    return {(status, PROBLEM_JSON): table[status] for status in (*statuses, 429)}


ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The game version this answer shows, quoted: `"12"`.',
    response=[200, 201, 304],
)
LOCATION = OpenApiParameter(
    "Location",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="The new game's URL.",
    response=[201],
)
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    description="Seconds to wait before retrying.",
    response=[429],
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='A version you already have, as an ETag (`"12"`): answered 304 if current.',
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='Act only if the game is still at this version (`"12"`); else 412.',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="A unique key (at most 255 characters) making a retry safe: a retried request "
    "with the same key and body gets the first answer and acts once.",
)
GAME_ID = OpenApiParameter(
    "game_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The game's id."
)

POSITION_EXAMPLE = OpenApiExample(
    "position", summary="Column 2, row 1", value={"column": 2, "row": 1}, request_only=True
)
CREATE_EXAMPLE = OpenApiExample(
    "two_seats",
    summary="Two seats, official rules",
    value={"seats": 2, "options": {"end_score": 100, "closer_penalty": True}},
    request_only=True,
)
JOIN_EXAMPLE = OpenApiExample(
    "player", summary="A player", value={"name": "Ada"}, request_only=True
)

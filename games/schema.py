"""OpenAPI pieces shared by the views: the problem schema, error responses, headers, auth.

The committed `openapi.yaml` is generated from these; SDK generators name their types after the
components declared here, so names are chosen for the reader of a generated client.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from engine import ALL_RULE_ERRORS, TURN_ACTION_KINDS

PROBLEM_JSON = "application/problem+json"
LOBBY_CODES = ["game_full", "game_not_started", "game_finished"]
RULE_CODES = sorted(
    error.code
    for error in ALL_RULE_ERRORS
    if error.code not in {"invalid_options", "spectator_cannot_act", *LOBBY_CODES}
)


class StrictSerializerExtension(OpenApiSerializerExtension):
    """Request bodies that refuse unknown fields say so: `additionalProperties: false`.

    Without it the schema allows extra properties the service answers 400 to, so a client (or
    a fuzzer) that trusts the schema is refused for a request the schema calls valid.
    """

    target_class = "games.serializers.StrictSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        return schema


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
        help_text="Field errors of an `invalid_request`, by field name; a nested field by its "
        "dotted path (`options.end_score`).",
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
FORBIDDEN = _problem("The seat token may not do this (another seat's token).", ["forbidden"])
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
        403: FORBIDDEN,
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
    {"type": "string", "pattern": r'^[ \t]*(\*|(W/)?"?[0-9]{1,12}"?)[ \t]*$'},
    OpenApiParameter.HEADER,
    description='Act only if the game is still at this version (`"12"`); else 412.',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "pattern": r"^[ \t]*[!-~]([ -~]{0,253}[!-~])?[ \t]*$"},
    OpenApiParameter.HEADER,
    description="A unique key (1 to 255 visible ASCII characters, spaces inside allowed) "
    "making a retry safe: a retried request with the same key and body gets the first answer "
    "and acts once.",
)
GAME_ID = OpenApiParameter(
    "game_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The game's id."
)
MAX_SEQUENCE = 2**31 - 1


def whole_number(minimum: int, maximum: int = MAX_SEQUENCE) -> dict[str, Any]:
    """The schema of an integer query or path parameter the service bounds."""
    return {"type": "integer", "minimum": minimum, "maximum": maximum}


SEAT = OpenApiParameter(
    "seat",
    {"type": "integer", "minimum": 0},  # no maximum: a seat the game lacks is refused (403)
    OpenApiParameter.PATH,
    description="The seat, numbered from 0: your own.",
)

POSITION_EXAMPLE = OpenApiExample(
    "position", summary="Column 2, row 1", value={"column": 2, "row": 1}, request_only=True
)
LEGAL_ACTION_EXAMPLES = [
    OpenApiExample(
        "replace",
        summary="Place the held card at column 2, row 1",
        value={"action": "replace", "column": 2, "row": 1},
        request_only=True,
    ),
    OpenApiExample(
        "take_discard",
        summary="Take the top discard",
        value={"action": "take_discard"},
        request_only=True,
    ),
]
CREATE_EXAMPLE = OpenApiExample(
    "two_seats",
    summary="Two seats, official rules",
    value={"seats": 2, "options": {"end_score": 100, "closer_penalty": True}},
    request_only=True,
)
JOIN_EXAMPLE = OpenApiExample(
    "player", summary="A player", value={"name": "Ada"}, request_only=True
)


# OpenAPI links: how one operation's answer feeds the next, for readers of the schema and for
# tools that chain calls (schemathesis' stateful tests follow them: create -> join -> act).

ACTION_OPERATIONS = ("act", *TURN_ACTION_KINDS)
_METHODS = {"get", "put", "post", "delete", "patch"}


def _links_table() -> dict[tuple[str, str], dict[str, tuple[str, str, dict[str, str]]]]:
    """(source operation, status) -> link name -> (target operation, description, parameters)."""

    def as_seat(game: str, token: str) -> dict[str, str]:
        return {"path.game_id": game, "header.Authorization": f"Bearer {{{token}}}"}

    def seat_links(game: str, token: str, seat: str) -> dict[str, tuple[str, str, dict[str, str]]]:
        seat_params = as_seat(game, token)
        links = {
            "GetGameAsSeat": ("get_game", "The game as this seat sees it.", seat_params),
            "ListEventsAsSeat": ("list_events", "The events as this seat sees them.", seat_params),
            "RotateToken": (
                "rotate_token",
                "Replace this seat's token.",
                {**seat_params, "path.seat": seat},
            ),
        }
        for action in ACTION_OPERATIONS:
            name = "".join(part.capitalize() for part in action.split("_"))
            links[name] = (action, f"Act for this seat: `{action}`.", seat_params)
        return links

    def game_links(game: str) -> dict[str, tuple[str, str, dict[str, str]]]:
        params = {"path.game_id": game}
        return {
            "GetGame": ("get_game", "The game, as a spectator.", params),
            "ListEvents": ("list_events", "Its events, as a spectator.", params),
            "GetHistory": ("get_history", "Its full history, once finished.", params),
        }

    created = "$response.body#/id"
    joined_game = "$response.body#/game/id"
    table = {
        ("create_game", "201"): {
            "JoinGame": ("join_game", "Take a seat.", {"path.game_id": created}),
            **game_links(created),
        },
        ("join_game", "201"): {
            "JoinGame": ("join_game", "Take another seat.", {"path.game_id": joined_game}),
            **seat_links(joined_game, "$response.body#/token", "$response.body#/seat"),
        },
        ("rotate_token", "200"): seat_links(
            "$request.path.game_id", "$response.body#/token", "$response.body#/seat"
        ),
        ("import_history", "201"): game_links(created),
    }
    for action in ACTION_OPERATIONS:
        table[(action, "200")] = {
            **{
                "".join(part.capitalize() for part in target.split("_")): (
                    target,
                    f"The next action in this game (`{target}`), with a seat token.",
                    {"path.game_id": created},
                )
                for target in ACTION_OPERATIONS
            },
            **game_links(created),
        }
    return table


def add_links(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: add the OpenAPI links of `_links_table`."""
    operations = {
        operation["operationId"]: operation
        for item in result.get("paths", {}).values()
        for method, operation in item.items()
        if method in _METHODS
    }
    for (source, status), links in _links_table().items():
        if source not in operations:
            continue
        response = operations[source]["responses"][status]
        response["links"] = {
            name: {"operationId": target, "description": description, "parameters": parameters}
            for name, (target, description, parameters) in links.items()
            if target in operations
        }
    return result


def require_action_bodies(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: `POST .../actions` must have a body.

    Its body is declared as a raw `$ref` to `LegalAction` (the very component `legal_actions`
    lists, so a generated client passes a legal action to it as it is), and drf-spectacular
    marks raw bodies optional."""
    for item in result.get("paths", {}).values():
        body = item.get("post", {}).get("requestBody", {})
        schema = body.get("content", {}).get("application/json", {}).get("schema")
        if schema == {"$ref": "#/components/schemas/LegalAction"}:
            body["required"] = True
    return result

"""OpenAPI pieces shared by the views: the problem schema, error responses, headers, auth.

The committed `openapi.yaml` is generated from these; SDK generators name their types after the
components declared here, so names are chosen for the reader of a generated client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from accounts.scopes import SCOPES
from engine import TURN_ACTION_KINDS
from games.api.headers import IF_MATCH_PATTERN
from games.api.problems import TITLES, codes_with_status
from play.models import Answer, ChallengeStatus

PROBLEM_JSON = "application/problem+json"


class ClosedShapeExtension(OpenApiSerializerExtension):
    """Shapes that hold exactly their fields say so: `additionalProperties: false`.

    Without it the schema allows extra properties the service answers 400 to, so a client (or
    a fuzzer) that trusts the schema is refused for a request the schema calls valid.
    """

    target_class = "games.api.closed.ClosedShape"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        return schema


# Security requirements (drf-spectacular types `auth` as strings but emits these objects as-is);
# the SeatToken scheme itself is declared in settings (SPECTACULAR_SETTINGS APPEND_COMPONENTS).
SEAT_ONLY: Any = [{"SeatToken": []}]
# Optional authentication (a seat's token, or none for a spectator). `optional_auth_by_default`
# moves it to the document's default security, which these operations inherit.
SEAT_OR_SPECTATOR: Any = [{}, {"SeatToken": []}]
# An account's operations: its personal token (the AccountToken scheme, also in settings).
ACCOUNT_ONLY: Any = [{"AccountToken": []}]
# A seat's operations that an account's seat makes with its personal token.
SEAT_OR_ACCOUNT: Any = [{"SeatToken": []}, {"AccountToken": []}]

#: The extensions that name the scopes an operation's personal token needs: every one listed
#: in `x-required-scopes`, any one of those listed in `x-required-scopes-any`.
EVERY_SCOPE = "x-required-scopes"
ANY_SCOPE = "x-required-scopes-any"


@dataclass(frozen=True)
class Scopes:
    """The scopes (`accounts.scopes`, the one vocabulary) a personal token needs for an
    operation: every one of `names`, or any one of them (`any_one`); with a single name the
    two are the same, said as every."""

    names: tuple[str, ...]
    any_one: bool = False

    def __post_init__(self) -> None:
        assert self.names and all(scope in SCOPES for scope in self.names), self.names

    @property
    def either(self) -> bool:
        """Whether any one of several scopes will do."""
        return self.any_one and len(self.names) > 1

    @property
    def extension(self) -> dict[str, list[str]]:
        """The operation's extension: `x-required-scopes`, or `x-required-scopes-any`."""
        return {ANY_SCOPE if self.either else EVERY_SCOPE: list(self.names)}

    @property
    def words(self) -> str:
        """What a description says the token needs: "scope `play`", "scopes `a` and `b`"
        (every one), "scope `a` or `b`" (any one)."""
        quoted = [f"`{scope}`" for scope in self.names]
        if self.either:
            return "scope " + " or ".join(quoted)
        return ("scope " if len(quoted) == 1 else "scopes ") + " and ".join(quoted)


def every_scope(*names: str) -> Scopes:
    """A personal token needs every one of these scopes."""
    return Scopes(names)


def any_scope(*names: str) -> Scopes:
    """A personal token needs any one of these scopes."""
    return Scopes(names, any_one=True)


def scoped(description: str, scopes: Scopes, details: str = "") -> dict[str, Any]:
    """`extend_schema` arguments of an account's operation (a personal token only): its
    security, its description ending with the scopes it needs (then `details`, a paragraph of
    their own), and their extension."""
    missing = ", naming the first missing," if len(scopes.names) > 1 and not scopes.either else ""
    needs = (
        f"Needs a personal token with the {scopes.words} (403 `missing_scope`{missing} "
        "without; 401 `account_token_required` with a seat token or none)."
    )
    return {
        "auth": ACCOUNT_ONLY,
        "description": f"{description} {needs}" + (f"\n\n{details}" if details else ""),
        "extensions": scopes.extension,
    }


def token_scoped(description: str, scopes: Scopes, auth: Any) -> dict[str, Any]:
    """`extend_schema` arguments of an operation that a seat token (or no token) may call as
    well as a personal token with `scopes`: its security (`auth`), its description, which says
    which tokens do and so names the scopes itself (`scopes.words`), and their extension."""
    assert scopes.words in description, description
    return {"auth": auth, "description": description, "extensions": scopes.extension}


class ProblemSerializer(serializers.Serializer):
    """RFC 9457 problem details, with a stable machine `code`: `GET /api/v1/problems/{code}`
    (the `type`) explains each code and says what to do."""

    type = serializers.CharField(
        help_text="A URI naming the kind of problem: its document, `/api/v1/problems/{code}`."
    )
    title = serializers.CharField(help_text="A short summary of the kind of problem.")
    status = serializers.IntegerField(help_text="The HTTP status, repeated.")
    detail = serializers.CharField(help_text="What went wrong with this request, for humans.")
    code = serializers.CharField(help_text="Stable machine code: switch on this.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="With `invalid_request`: the messages by field name; a nested field by its "
        "dotted path (`options.end_score`), a header by its name (`If-Match`). With "
        "`invalid_history`, when a field is at fault: its dotted path in the document "
        "(`events.0.data.options.end_score`, `game.seats`).",
    )
    bot = serializers.CharField(
        required=False,
        help_text="With `seat_played_by_bot`: the strategy of the bot that plays the seat.",
    )
    current_version = serializers.IntegerField(
        required=False, help_text="With `version_mismatch`: the game's current version."
    )
    retry_after = serializers.IntegerField(
        required=False, help_text="With `throttled`: seconds to wait (as `Retry-After`)."
    )
    sequence = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="With `invalid_history`: the sequence of the first event that does not "
        "replay; null when the document's envelope (`format`, `events`...) is at fault.",
    )
    challenge_status = serializers.ChoiceField(
        choices=list(ChallengeStatus.values),
        required=False,
        help_text="With `challenge_closed`: the challenge's status (never `pending`).",
    )
    answer = serializers.ChoiceField(
        choices=list(Answer.values),
        required=False,
        help_text="With `already_answered`: your answer (`accepted` or `declined`).",
    )
    seek = serializers.UUIDField(
        required=False, help_text="With `already_seeking`: the account's searching seek."
    )
    rule_code = serializers.CharField(
        required=False,
        help_text="With `invalid_history`: why it does not replay, a rule's problem code "
        "(`not_your_turn`...) or a format code (`malformed_event`, `sequence_gap`...).",
    )


def _problem(
    description: str, status: int, examples: list[OpenApiExample] | None = None
) -> OpenApiResponse:
    """An error response whose codes (with their titles) come from the problem table."""
    codes = "; ".join(f"`{code}` ({TITLES[code]})" for code in codes_with_status(status))
    return OpenApiResponse(
        ProblemSerializer,
        description=f"{description} Codes: {codes}. `GET /api/v1/problems/{{code}}` explains "
        "each and says what to do.",
        examples=examples,
    )


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

#: Every documented error response, by status.
ERROR_RESPONSES: dict[int, OpenApiResponse] = {
    400: _problem("The request is malformed or a field, parameter or header is not valid.", 400),
    401: _problem("No seat token, or not a seat of this game.", 401),
    403: _problem("The seat token may not do this (another seat's token).", 403),
    404: _problem("There is no such game (or resource).", 404),
    405: _problem("The path does not take this method (see `Allow`).", 405),
    406: _problem("`Accept` names no media type this operation answers with.", 406),
    409: _problem(
        "The request is well-formed but the game's state refuses it.",
        409,
        examples=[NOT_YOUR_TURN_EXAMPLE],
    ),
    412: _problem("`If-Match` named another version than the game's.", 412),
    411: _problem("A body in chunks (`Transfer-Encoding`), without `Content-Length`.", 411),
    413: _problem("The request body is too large.", 413),
    415: _problem("The request body is not JSON (`Content-Type`).", 415),
    422: _problem("The `Idempotency-Key` was used for another request.", 422),
    429: _problem(
        "Too many requests, or streams and long polls from this address; see `Retry-After`.",
        429,
    ),
    503: _problem(
        "The server holds all the streams and long polls it can; see `Retry-After`.", 503
    ),
}
#: What any operation may answer: another method on its path, an `Accept` it cannot satisfy, a
#: body without a length or over the limit (checked before any view runs), the rate limit.
ANY_OPERATION = (405, 406, 411, 413, 429)


def problems(*statuses: int) -> dict[Any, Any]:
    """Error responses for an operation, as application/problem+json: the given statuses and
    those of `ANY_OPERATION`."""
    wanted = sorted({*statuses, *ANY_OPERATION})
    return {(status, PROBLEM_JSON): ERROR_RESPONSES[status] for status in wanted}


ETAG = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The game version this answer shows, quoted: `"12"`.',
    response=[200, 201, 304],
)
STREAM_LINK = OpenApiParameter(
    "Link",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Where to open the game's stream: `<https://…/api/v1/games/{id}/stream>; "
    'rel="stream"`. It may name another server than this one (the stream tier, '
    "docs/SCALING.md); a relative address is this server's.",
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
    {"type": "string", "pattern": IF_MATCH_PATTERN},
    OpenApiParameter.HEADER,
    description="Act only if the game is still at this version; else 412 `version_mismatch` "
    "(with `current_version`) and nothing is done. The version is the `ETag` of your last "
    'answer, sent as it came, quoted: `"12"` (RFC 9110, 13.1.1: `*` or a list of entity '
    'tags). A list, `"12", "13"`, matches if any of its versions is the current one; spaces or '
    'tabs around are ignored. A weak tag, `W/"12"`, is well-formed but never matches (If-Match '
    "compares strongly): a list of weak tags only is always 412. 1 to 12 ASCII digits a "
    "version. `*` (or no header) sets no condition. Anything else (unquoted `12`, `W/12`, "
    '`"12`, `"abc"`) is a 400 `invalid_request` (`errors.If-Match`).',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "pattern": r"^[ \t]*[!-~]([ -~]{0,253}[!-~])?[ \t]*$"},
    OpenApiParameter.HEADER,
    description="A unique key (1 to 255 visible ASCII characters, spaces inside allowed; "
    "spaces or tabs around are ignored; best a random UUID) making a retry safe: a retried "
    "request with the same key and the same request gets the first answer, byte for byte (with "
    "`Idempotent-Replayed: true`), and acts once, even when the retries overlap; the same key "
    "with another request (another body, path, action or token) is refused (422 "
    "`idempotency_key_reused`). A key belongs to one seat of one game for the requests made "
    "with its token (actions, token rotation), to the client's address for the others "
    "(create, import, join); the first answer is kept as long as its game exists (it never "
    "expires), so a key can be retried at any time but never reused for a new request. An "
    "answer holding a seat token (join, rotate, import) is replayed with a new token in its "
    "place (tokens are never stored): the seat is the same, the token that answer gave stops "
    "working. A retry that overlaps the request that acted is then refused (409 "
    "`idempotency_key_in_use`; retry it), and a key whose seat's token was rotated since is "
    "spent (409 `idempotency_key_spent`).",
)
IDEMPOTENT_REPLAYED = OpenApiParameter(
    "Idempotent-Replayed",
    {"type": "string", "enum": ["true"]},
    OpenApiParameter.HEADER,
    description="`true` when this answer is the stored first answer to an earlier request "
    "with the same `Idempotency-Key` (nothing was done this time, except a new seat token in "
    "place of one the first answer held); absent otherwise.",
    response=[200, 201],
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
BOT_JOIN_EXAMPLE = OpenApiExample(
    "bot", summary="A bot (R13)", value={"bot": "greedy"}, request_only=True
)


# OpenAPI links: how one operation's answer feeds the next, for readers of the schema and for
# tools that chain calls (schemathesis' stateful tests follow them: create -> join -> act).

ACTION_OPERATIONS = ("act", *TURN_ACTION_KINDS)
_METHODS = {"get", "put", "post", "delete", "patch"}


def _link_name(operation: str) -> str:
    """`take_discard` -> `TakeDiscard`: an OpenAPI link's name for the operation it leads to."""
    return operation.title().replace("_", "")


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
            name = _link_name(action)
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
                _link_name(target): (
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


def join_needs_a_name_or_a_bot(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: a join names a person or a bot (R13), or both.

    An account's join, with its personal token, may send `{}` (the server names its seat by
    its handle), which this leaves outside the schema: guests' clients keep the contract they
    were written against, and an account that validates its bodies sends its handle as `name`.

    Each field is optional on its own (`JoinSerializer.validate` requires one), which a
    serializer's fields cannot say; with no other field allowed, `minProperties: 1` says it
    (an `anyOf` of the two requirements would say it too, but SDK generators then lose the
    request's model: openapi-python-client 0.29 writes a join that does not compile). And
    the body is required, which drf-spectacular infers only from a required field."""
    join = result.get("components", {}).get("schemas", {}).get("JoinRequest")
    if join is not None:
        join["minProperties"] = 1
    for item in result.get("paths", {}).values():
        body = item.get("post", {}).get("requestBody", {})
        schema = body.get("content", {}).get("application/json", {}).get("schema")
        if schema == {"$ref": "#/components/schemas/JoinRequest"}:
            body["required"] = True
    return result


def optional_auth_by_default(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: optional authentication as the document's default.

    openapi-python-client 0.29 makes any operation with a non-empty `security` take an
    `AuthenticatedClient` only, even `[{}, {SeatToken: []}]`, so a spectator's plain `Client`
    does not type-check. It reads the operation's own `security` only; so the operations with
    optional authentication declare none and inherit the root's `[{}, {SeatToken: []}]` (the
    same meaning by OpenAPI's rules), and the public ones say `security: []` explicitly.
    """
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in _METHODS:
                continue
            if operation.get("security") == SEAT_OR_SPECTATOR:
                del operation["security"]
            else:
                operation.setdefault("security", [])
    result["security"] = SEAT_OR_SPECTATOR
    return result


#: The operations an account's seat uses with the account's personal token.
PLAY_OPERATIONS = frozenset(
    {"join_game", "leave_game", "stream_game", "list_events", "rematch"}
) | set(ACTION_OPERATIONS)
#: What that token needs for them.
PLAY = every_scope("play")


def play_scope_on_seat_operations(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the seat operations say that an account's seat
    is used with the account's personal token, scope `play` (`PLAY`'s extension). Their
    `security` stays as it was (the seat token, or none), so guests' clients are unchanged."""
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method in _METHODS and operation.get("operationId") in PLAY_OPERATIONS:
                operation.update(PLAY.extension)
                operation["description"] = (
                    f"{operation.get('description', '')} For an account's seat, send the "
                    f"account's personal token (`AccountToken`, {PLAY.words}) in place of a "
                    "seat token."
                ).strip()
    return result


#: A feed's and a stream's start and a feed's page size: the game's and the account's alike.
AFTER = OpenApiParameter(
    "after", whole_number(0), description="Sequence to start after (default 0)."
)
LIMIT = OpenApiParameter(
    "limit", whole_number(1, 1000), description="At most this many (default 100)."
)

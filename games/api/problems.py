"""Every error is an RFC 9457 problem: `application/problem+json` with `type`, `title`,
`status`, `detail` and a stable machine `code` (and `errors` for field errors)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.response import Response

from accounts.errors import Refusal
from engine import ALL_RULE_ERRORS, RuleError

PROBLEM_CONTENT_TYPE = "application/problem+json"
#: A 401 names the scheme it wants (RFC 9110, 11.6.1).
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="skyjo"'}
#: Problem types are documented by the API itself: `GET /api/v1/problems/{code}`.
PROBLEM_TYPE_BASE = "/api/v1/problems/"


@dataclass(frozen=True)
class ProblemType:
    """One problem code as a client author needs it: what happened and why (`explanation`)
    and what to do about it (`advice`). The problem documents, their index and the schema's
    error descriptions are all derived from `PROBLEM_TYPES`."""

    status: int
    title: str
    explanation: str
    advice: str


_READ_THE_VIEW = (
    "Read the game (`GET /api/v1/games/{id}` with your token): `legal_actions` lists exactly "
    "the actions the rules allow you now (empty when it is not your turn), `current_seat` whose "
    "turn it is, `held_card` the card in hand and `players[].grid` which cards are face down or "
    "removed. Send one of `legal_actions`."
)

#: Every problem code the service's own layer answers with.
SERVICE_PROBLEMS: dict[str, ProblemType] = {
    "invalid_request": ProblemType(
        400,
        "The request is not valid",
        "The request could not be read (malformed JSON, a body that is not an object) or a "
        "field, query parameter or header is missing, unknown, of the wrong type or out of "
        "range. `errors` lists the messages by field (a nested field by its dotted path, "
        "`options.end_score`; a header by its name, `If-Match`). A replay `?at=` past the "
        "game's `version` is refused this way too (`errors.at`).",
        "Fix the request as `errors` and the schema say, then send it again; sending it "
        "unchanged gets the same answer.",
    ),
    "invalid_history": ProblemType(
        400,
        "The history does not replay",
        "An imported history is not a `skyjo-history` document of `format_version` 1, or one "
        "of its events is malformed or refused by the rules when replayed, or what its "
        "creator and players chose is outside what create and join accept. `sequence` names "
        "the first offending event (null when the document's envelope is at fault) and "
        "`rule_code` the reason: a rule problem code (`not_your_turn`...) or one of "
        "`malformed_document`, `unknown_format`, `unknown_format_version`, `too_many_events`, "
        "`malformed_event`, `sequence_gap`, `unknown_event_type`, `invalid_options` (seats or "
        "options outside create's limits), `invalid_name` (a name join would refuse, or not "
        "in the form join stores it), `invalid_bot` (a bot's strategy that `GET /api/v1/bots` "
        "does not list), `game_mismatch` (the `game` object says otherwise than "
        "the events) and the auditor's codes. A field at fault is named in `detail` and under "
        "`errors` by its dotted path in the document (`events.0.data.options.end_score`, "
        "`game.seats`).",
        "Import a history exported by `GET /api/v1/games/{id}/history`, unchanged; fix the "
        "event at `sequence` (or the field under `errors`) if you built the document yourself.",
    ),
    "invalid_token": ProblemType(
        401,
        "Missing or invalid seat token",
        "The operation needs a seat's token (`Authorization: Bearer <token>`) and none was "
        "sent, the header is malformed, or the token is not one of this game's seats (never "
        "issued, or replaced by a rotation).",
        "Send the token your join answer (or your last token rotation) gave for this game. A "
        "lost token cannot be recovered: watch the game as a spectator (no token) instead.",
    ),
    "forbidden": ProblemType(
        403,
        "Forbidden",
        "The token is a seat of this game but may not do this: a seat may rotate its own "
        "token, and leave its own seat, only.",
        "Use the `seat` your token belongs to (your join answer's `seat`).",
    ),
    "game_not_found": ProblemType(
        404,
        "No such game",
        "No game has this id (or the id is not a UUID).",
        "Check the id (the `id` of the create or join answer, or of `GET /api/v1/games`).",
    ),
    "not_found": ProblemType(
        404,
        "Not found",
        "No resource at this path (or no such problem code).",
        "Check the path against the schema (`/api/schema/`).",
    ),
    "method_not_allowed": ProblemType(
        405,
        "Method not allowed",
        "The path exists but does not take this HTTP method; the `Allow` header lists the "
        "methods it takes.",
        "Use one of the methods in `Allow` (actions are POST, reads GET).",
    ),
    "not_acceptable": ProblemType(
        406,
        "Not acceptable",
        "The `Accept` header asks for a media type this operation cannot answer with.",
        "Accept `application/json` (and `application/problem+json` for errors), or send no "
        "`Accept` header; `GET /api/v1/rules` answers `text/markdown`.",
    ),
    "concurrent_update": ProblemType(
        409,
        "Another action changed the game at the same time",
        "Another request changed this game while yours was being applied; yours was not "
        "applied (nothing changed on its account).",
        "Read the game again and retry if the action is still one of your `legal_actions`; "
        "with an `Idempotency-Key` the retry is always safe.",
    ),
    "seat_played_by_bot": ProblemType(
        409,
        "A bot plays this seat",
        "The seat timed out `options.max_timeouts` turns in a row, so a bot took it over for "
        "the rest of the game (R13; the log's `SeatAbandoned` event, the view's "
        "`players[].bot`). Its token still reads the game but no longer acts, nor leaves the "
        "seat (a bot already plays it); `bot` names the strategy playing it.",
        "Watch the game to its end with your token (or as a spectator). Next time, act before "
        "`turn_deadline`: each turn you play yourself sets your `timeouts` back to 0.",
    ),
    "game_not_finished": ProblemType(
        409,
        "The game is not finished",
        "The full history reveals every hidden card, so it is published only once the game "
        "is over; and a rematch is the next game of a finished one.",
        "Follow the game with `GET /api/v1/games/{id}/events` meanwhile; ask for the history "
        "(or the rematch) again once the game's `status` is `finished`.",
    ),
    "version_mismatch": ProblemType(
        412,
        "The game has moved on",
        '`If-Match` named no version that is the game\'s current one (a weak tag, `W/"12"`, '
        "never matches): another action came first, so the view you decided on is stale. "
        "Nothing was applied; `current_version` is the game's version now.",
        "Read the game again (its view and its `ETag`), decide again on what it shows, and "
        "send the new decision with the new version in `If-Match`.",
    ),
    "length_required": ProblemType(
        411,
        "Content-Length required",
        "The request body was sent in chunks (`Transfer-Encoding: chunked`) or another transfer "
        "coding, without a `Content-Length`. The service reads only bodies of a declared length "
        "(up to `MAX_BODY_BYTES`), on every server; this one was not read, nothing was done.",
        "Send the body whole, with its `Content-Length` (HTTP clients do for a body held in "
        "memory: do not stream it).",
    ),
    "payload_too_large": ProblemType(
        413,
        "Request body too large",
        "The request body is over the server's limit (`MAX_BODY_BYTES`); it was not read.",
        "Send a smaller body; a history to import must fit the limit too.",
    ),
    "uri_too_long": ProblemType(
        414,
        "URI too long",
        "The request line (method, path and query) is over the HTTP server's limit: 4094 bytes "
        "under `make serve` (gunicorn), 65536 under `make run`. The server refused it before "
        "reading the rest of the request.",
        "Send a shorter path and query: every documented path and parameter fits well within "
        "the limit.",
    ),
    "unsupported_media_type": ProblemType(
        415,
        "Unsupported media type",
        "The request body's `Content-Type` is not one the operation reads.",
        "Send the body as JSON with `Content-Type: application/json` (or send no body where "
        "the operation takes none).",
    ),
    "idempotency_key_reused": ProblemType(
        422,
        "Idempotency key reused with another request",
        "This `Idempotency-Key` was already used for a different request (another action or "
        "position, another body, path or seat token) by the same seat, or for a request without "
        "a token by the same client address; keys are kept for the life of their game.",
        "Use a new key for every new request; reuse a key only to retry the very same request.",
    ),
    "idempotency_key_in_use": ProblemType(
        409,
        "Idempotency key in use",
        "Another request with this `Idempotency-Key` acted while this one was being processed, "
        "and its answer holds a seat token: replaying it here would replace the token that "
        "answer is delivering. Nothing was done by this request.",
        "Retry the same request with the same key: the retry answers the same seat with a "
        "new token (the one of the concurrent answer stops working).",
    ),
    "idempotency_key_spent": ProblemType(
        409,
        "Idempotency key spent",
        "This `Idempotency-Key` answered a seat token, and that seat's token has been replaced "
        "since (rotated): the answer was received, so it is not given again.",
        "Use the token you hold now; to replace it, rotate it with a new key.",
    ),
    "throttled": ProblemType(
        429,
        "Too many requests",
        "The client sent more requests than its rate limit allows; the request was not processed. "
        "A game's chat also counts each sender's messages in that game "
        "(`SKYJO_CHAT_BURST` in any `SKYJO_CHAT_BURST_SECONDS`).",
        "Wait the number of seconds in the `Retry-After` header (also `retry_after` in the "
        "body), then send the request again.",
    ),
    "headers_too_large": ProblemType(
        431,
        "Request header fields too large",
        "A request header is over the HTTP server's limit, or there are too many: under `make "
        "serve` (gunicorn) 8190 bytes a header and 100 headers, under `make run` 65536 bytes a "
        "line and 100 headers. The server refused the request before reading its body.",
        "Send fewer or shorter headers: a seat token is 43 characters, an `Idempotency-Key` at "
        "most 255.",
    ),
    "too_many_streams": ProblemType(
        503,
        "Too many streams",
        "This server process holds as many live streams and long polls (`/events?wait=`, "
        "while they wait) as it is configured to (`LIVE_MAX_STREAMS`, both together): each "
        "holds a thread, and the others are kept for the other requests. The stream was not "
        "opened, the long poll did not wait.",
        "Reconnect after the number of seconds in `Retry-After` (an EventSource does so by "
        "itself), or follow the game meanwhile with `GET /api/v1/games/{id}/events` without "
        "`wait` (a plain poll, never refused this way).",
    ),
    "too_many_streams_from_address": ProblemType(
        429,
        "Too many streams from your address",
        "Your client address holds as many live streams and waiting long polls on this server "
        "process as one address may (`LIVE_MAX_STREAMS_PER_ADDRESS`), so that one address "
        "cannot take the places every other client needs. The stream was not opened, the long "
        "poll did not wait.",
        "Close a stream you no longer read (one per game and viewer is enough), or retry after "
        "the number of seconds in `Retry-After`; a plain poll (`GET /api/v1/games/{id}/events` "
        "without `wait`) is never refused this way.",
    ),
    "invalid_account": ProblemType(
        400,
        "The account cannot be made so",
        "A person's account needs a password (it logs in to the pages); a bot's account has "
        "none (it never logs in: its tokens are its only credential).",
        "Send `password` for `kind` `person`, and none for `kind` `bot`.",
    ),
    "weak_password": ProblemType(
        400,
        "The password is too weak",
        "Django's password validators refused the password: too short (under 8 characters), "
        "too common, entirely numeric, or too like the handle. `errors.password` lists why.",
        "Choose a longer password unlike the handle (a passphrase of a few words does).",
    ),
    "handle_taken": ProblemType(
        409,
        "The handle is taken",
        "Another account has this handle, in this case or another (`Ada` and `ada` are one "
        "handle), or had it (a deleted account's handle is never reused), or it is reserved "
        "(the built-in bots' names, and words such as `admin` or `api`).",
        "Choose another handle: 3 to 20 letters, digits, `_` or `-`, starting with a letter.",
    ),
    "account_token_required": ProblemType(
        401,
        "A personal token is needed",
        "This operation is an account's: it needs `Authorization: Bearer skyjo_pat_...`, a "
        "personal token (a seat token is not one, nor is no token).",
        "Create an account (`POST /api/v1/accounts`, which answers its first token) or a "
        "token (`POST /api/v1/account/tokens`), and send it.",
    ),
    "missing_scope": ProblemType(
        403,
        "The token lacks a scope",
        "The personal token presented is valid but was not given the scope this operation "
        "needs; `required_scope` names it (each operation's `x-required-scopes` in the "
        "schema lists the scopes it needs every one of, `x-required-scopes-any` those any "
        "one of which will do).",
        "Use a token with that scope, or create one (`POST /api/v1/account/tokens`).",
    ),
    "player_not_found": ProblemType(
        404,
        "No such player",
        "No account has this handle (handles are compared whatever their case), or its "
        "account was deleted.",
        "Check the handle; the leaderboard and games' `players[].account` name existing ones.",
    ),
    "token_not_found": ProblemType(
        404,
        "No such token",
        "The account has no token with this id: it was revoked already, or is another account's.",
        "List the account's tokens (`GET /api/v1/account/tokens`) for their ids.",
    ),
    "account_seat_token": ProblemType(
        409,
        "An account's seat has no seat token",
        "The seat belongs to an account: the account's personal tokens act for it, and there "
        "is no seat token to rotate.",
        "Revoke the personal token you fear is known (`DELETE /api/v1/account/tokens/{id}`) "
        "and create another.",
    ),
    "seat_reserved": ProblemType(
        409,
        "The open seats are reserved",
        "Every open seat of this game is held for someone else: a handle its creator "
        "reserved, a challenge's invitee, or a player of the game it is the rematch of. A "
        "hold lasts until its person takes the seat, the creator frees it, it expires (a "
        "rematch's, after `REMATCH_HOLD_SECONDS`) or the game starts.",
        "Join another game (`GET /api/v1/games?status=waiting&open_seats=1`), or ask the "
        "creator to free a seat.",
    ),
    "not_creator": ProblemType(
        403,
        "Not the game's creator",
        "Only the account that created the game may free the seats it reserved.",
        "Ask the creator (the game's `created_by`) to free the seat.",
    ),
    "not_a_player": ProblemType(
        403,
        "Not a player of this game",
        "The personal token's account holds no seat of this game, and only its players may "
        "ask for its rematch.",
        "Ask with the account (or the seat token) that played the game; anyone may join the "
        "rematch's open seats (`POST /api/v1/games/{id}/players`) once its players' seats are "
        "no longer kept for them.",
    ),
    "reservation_not_found": ProblemType(
        404,
        "No such reservation",
        "No seat of this game is held for this handle: it was never reserved, it was taken "
        "or freed already, or the game has started.",
        "Read the game's `reserved` list.",
    ),
    "challenge_not_found": ProblemType(
        404,
        "No such challenge",
        "No challenge has this id, or you are neither its challenger nor one of its invitees "
        "(a challenge is its parties' business: to anyone else it does not exist).",
        "List your challenges (`GET /api/v1/challenges`) for their ids.",
    ),
    "not_invited": ProblemType(
        403,
        "Not invited",
        "Only the challenge's invitees accept or decline it; its challenger cancels it.",
        "As the challenger, cancel it (`POST /api/v1/challenges/{id}/cancel`).",
    ),
    "not_challenger": ProblemType(
        403,
        "Not the challenger",
        "Only the account that made the challenge cancels it; an invitee declines it.",
        "As an invitee, decline it (`POST /api/v1/challenges/{id}/decline`).",
    ),
    "challenge_closed": ProblemType(
        409,
        "The challenge is closed",
        "The challenge is no longer pending, so it takes no more answers: every invitee "
        "accepted, one declined, its challenger canceled it, or its `expires_at` passed "
        "(`challenge_status` says which: `accepted`, `declined`, `canceled` or `expired`).",
        "Read it (`GET /api/v1/challenges/{id}`); an accepted challenge's game is played at "
        "`/api/v1/games/{game}`. For another game, make a new challenge.",
    ),
    "already_answered": ProblemType(
        409,
        "You answered already",
        "You have answered this challenge (`answer` says how); it waits for its other "
        "invitees' answers.",
        "Wait for the others: your account stream tells you when the challenge is accepted "
        "or called off.",
    ),
    "bot_account_required": ProblemType(
        403,
        "Only bots climb the ladder",
        "The bot ladder is for bot accounts (`kind: bot`); a person's account plays rated "
        "games by creating, challenging or seeking them.",
        "Create a bot account (`POST /api/v1/accounts` with `kind: bot`) and join the ladder "
        "with its token.",
    ),
    "seek_not_found": ProblemType(
        404,
        "No such seek",
        "Your account has no seek with this id: it is another account's, or it never was "
        "(seeks are only ever read by their own account).",
        "Use the `id` of your `POST /api/v1/seeks` answer (or the `seek` of an "
        "`already_seeking` problem), with a token of the account that made it.",
    ),
    "already_seeking": ProblemType(
        409,
        "You are seeking a game already",
        "An account has one searching seek at a time, and yours is still searching; `seek` "
        "names it. Nothing was made.",
        "Read that seek (`GET /api/v1/seeks/{seek}`) to follow it, or withdraw it (`DELETE "
        "/api/v1/seeks/{seek}`) and seek again with what you want now.",
    ),
    "seek_already_matched": ProblemType(
        409,
        "The seek is matched",
        "The matcher has seated you: the seek is your seat in its game, and cannot be withdrawn.",
        "Read the seek for its `game` and `seat`, and play; to give the seat up, leave the "
        "game (`POST /api/v1/games/{id}/players/{seat}/leave`: a bot plays it once started).",
    ),
    "chat_room_forbidden": ProblemType(
        403,
        "Not your chat room",
        "The players' room of a game is its seats': only they write there, and only they read "
        "it until the game is over (finished or canceled; then everyone does). Only a seat "
        "mutes a room, for itself.",
        "Read and write in the spectators' room (`room=spectators`), or take a seat; read the "
        "players' room once the game is over.",
    ),
    "room_muted": ProblemType(
        409,
        "You muted this room",
        "Your seat muted this room: it does not read it, so it may not write there either "
        "(`room` names it).",
        "Unmute it (`DELETE /api/v1/games/{id}/chat/mutes/{room}`), then write again.",
    ),
    "chat_limit_reached": ProblemType(
        429,
        "Enough said in this game",
        "You wrote as many messages in this game's chat as one sender may "
        "(`SKYJO_CHAT_MAX_PER_GAME`, 200 by default). It does not pass with time.",
        "Say the rest in another game; read the chat as before.",
    ),
    "server_error": ProblemType(
        500,
        "Internal server error",
        "The server failed on its side; this is a bug, not your request's fault.",
        "Retry later (with an `Idempotency-Key` for actions) and report it if it persists.",
    ),
}

#: The rules' refusals of a seat's action (409), beyond the engine's one-line reason.
_RULE_ADVICE: dict[str, str] = {
    "game_full": "Every seat is taken: join another game (`GET /api/v1/games?status=waiting`) "
    "or watch this one without a token.",
    "game_not_started": "Wait until every seat has joined (`open_seats` is 0 and `status` is "
    "`setup`), then act.",
    "game_finished": "The game is over: read its result (`winners`, `rounds`) or its history.",
    "unknown_seat": _READ_THE_VIEW,
    "not_your_turn": "Wait for your turn: poll the game (or its events) until `current_seat` "
    "is your seat (`you`) and `legal_actions` is not empty.",
    "account_required": "The game is rated (its `rated` is true): join with a personal token "
    "(`POST /api/v1/accounts` makes an account and gives one; scope `play`), or with `bot` to "
    "seat a built-in bot (its own account), or join a casual game "
    "(`GET /api/v1/games?status=waiting` lists each game's `rated`).",
}
RULE_PROBLEMS: dict[str, ProblemType] = {
    error.code: ProblemType(
        409,
        error.code.replace("_", " ").capitalize(),
        f"The rules refuse this action now: {' '.join((error.__doc__ or '').split())} The "
        "game did not change.",
        _RULE_ADVICE.get(error.code, _READ_THE_VIEW),
    )
    for error in ALL_RULE_ERRORS
    if error.code != "invalid_options"  # a create's options are checked as fields first (400)
}

#: Every problem code the service answers with, the rules' included: the one table.
PROBLEM_TYPES: dict[str, ProblemType] = {**SERVICE_PROBLEMS, **RULE_PROBLEMS}
TITLES: dict[str, str] = {code: problem.title for code, problem in PROBLEM_TYPES.items()}


def codes_with_status(status: int) -> list[str]:
    """The problem codes an answer of this status may carry, in the table's order."""
    return [code for code, problem in PROBLEM_TYPES.items() if problem.status == status]


def problem_type(code: str) -> str:
    return PROBLEM_TYPE_BASE + code


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": problem_type(code),
        "title": TITLES.get(code) or code.replace("_", " ").capitalize(),
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }


class Problem(exceptions.APIException):
    """An HTTP-level error with a stable code, raised by the plumbing below the services
    (parsers, the problem index); the services raise `games.errors` instead."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail=detail, code=code)
        self.status_code = status
        self.problem_code = code
        self.problem_detail = detail
        self.extra = extra
        self.headers = headers or {}


def problem_response(
    status: int, code: str, detail: str, headers: dict[str, str] | None = None, **extra: Any
) -> Response:
    return Response(
        problem_body(status, code, detail, **extra),
        status=status,
        headers=headers,
        content_type=PROBLEM_CONTENT_TYPE,
    )


NON_FIELD_ERRORS = "non_field_errors"


def field_errors(detail: Any) -> dict[str, list[str]]:
    """DRF's error details, however nested, as the documented flat shape: a list of messages
    per field, a nested field named by its dotted path (`options.end_score`, `events.0.type`).

    DRF nests the errors of a nested serializer as an object (and of a list as a list), which
    the `Problem` schema (and so every generated client) does not allow.
    """
    errors: dict[str, list[str]] = {}

    def add(where: str | None, message: Any) -> None:
        errors.setdefault(NON_FIELD_ERRORS if where is None else where, []).append(str(message))

    def walk(node: Any, where: str | None) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                name = str(key)
                if name == NON_FIELD_ERRORS and where is not None:
                    walk(value, where)  # an error of the nested object itself
                else:
                    walk(value, name if where is None else f"{where}.{name}")
        elif isinstance(node, list):
            if all(not isinstance(item, dict | list) for item in node):
                for item in node:
                    add(where, item)
            else:  # a list's errors: one entry per item, empty for the valid ones
                for index, item in enumerate(node):
                    if item:
                        walk(item, str(index) if where is None else f"{where}.{index}")
        else:
            add(where, node)

    walk(detail, None)
    return errors


def _throttled(exc: Any) -> Response:
    wait = max(1, int(exc.wait or 1))
    detail = f"Too many requests; retry in {wait} s."
    return problem_response(429, "throttled", detail, {"Retry-After": str(wait)}, retry_after=wait)


def _other_api_exception(exc: Any) -> Response:
    code = exc.get_codes() if isinstance(exc.get_codes(), str) else "error"
    return problem_response(exc.status_code, str(code), str(exc.detail))


#: Each kind of exception and the problem it is answered with, the first that matches winning
#: (so the catch-all `APIException` comes last).
_PROBLEMS: tuple[tuple[type | tuple[type, ...], Callable[[Any], Response]], ...] = (
    (
        Problem,
        lambda e: problem_response(
            e.status_code, e.problem_code, e.problem_detail, e.headers, **e.extra
        ),
    ),
    (Refusal, lambda e: service_problem(e)),
    (RuleError, lambda e: problem_response(409, e.code, e.message)),
    (
        exceptions.ValidationError,
        lambda e: problem_response(
            400, "invalid_request", "Some fields are not valid.", errors=field_errors(e.detail)
        ),
    ),
    (
        exceptions.ParseError,
        lambda e: problem_response(400, "invalid_request", f"Malformed request body: {e.detail}"),
    ),
    (
        (exceptions.AuthenticationFailed, exceptions.NotAuthenticated),
        lambda e: problem_response(401, "invalid_token", str(e.detail), CHALLENGE),
    ),
    (exceptions.Throttled, _throttled),
    ((Http404, exceptions.NotFound), lambda e: problem_response(404, "not_found", "Not found.")),
    (
        exceptions.MethodNotAllowed,
        lambda e: problem_response(405, "method_not_allowed", str(e.detail)),
    ),
    (
        exceptions.UnsupportedMediaType,
        lambda e: problem_response(415, "unsupported_media_type", str(e.detail)),
    ),
    (exceptions.NotAcceptable, lambda e: problem_response(406, "not_acceptable", str(e.detail))),
    (
        (exceptions.PermissionDenied, DjangoPermissionDenied),
        lambda e: problem_response(403, "forbidden", "You may not do this."),
    ),
    (exceptions.APIException, _other_api_exception),
)


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering problem details for every error (`_PROBLEMS`)."""
    # Imported here: rest_framework.views loads the parser classes (games.api.parsers), which
    # import this module; at the top, importing this module first (as the body-size
    # middleware does when the server starts) would be a circular import.
    from rest_framework.views import set_rollback

    set_rollback()
    answer = next((problem for kind, problem in _PROBLEMS if isinstance(exc, kind)), None)
    return None if answer is None else answer(exc)


#: Headers a problem code's answers carry.
_HEADERS: dict[str, dict[str, str]] = {
    "invalid_token": CHALLENGE,
    "account_token_required": CHALLENGE,
    "too_many_streams": {"Retry-After": "5"},
    "too_many_streams_from_address": {"Retry-After": "5"},
}


def service_problem(error: Refusal) -> Response:
    """A service's refusal as its problem: the status from the problem table, its fields
    (with `retry_after`, a chat's limit, its `Retry-After` too)."""
    status = PROBLEM_TYPES[error.code].status
    headers = _HEADERS.get(error.code)
    if "retry_after" in error.extra:
        headers = {**(headers or {}), "Retry-After": str(error.extra["retry_after"])}
    return problem_response(status, error.code, error.detail, headers, **error.extra)


def _json_problem(status: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse(
        problem_body(status, code, detail), status=status, content_type=PROBLEM_CONTENT_TYPE
    )


@csrf_exempt
def not_found_view(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """handler404: problem details outside DRF views too.

    Exempt from CSRF like the API's views: else a POST to an unknown API path is refused by the
    CSRF middleware first, with a 403 HTML page instead of this 404 problem."""
    return _json_problem(404, "not_found", "Not found.")


def payload_too_large_detail(limit: int) -> str:
    return f"The request body is over the limit of {limit} bytes."


def length_required_response() -> JsonResponse:
    """411 for a body without a declared length (games.api.middleware)."""
    return _json_problem(
        411,
        "length_required",
        "Send the body with a Content-Length: a body in chunks (Transfer-Encoding) is not read.",
    )


def payload_too_large_response(limit: int) -> JsonResponse:
    """413 for a request body over the limit (games.api.middleware, games.api.parsers)."""
    return _json_problem(413, "payload_too_large", payload_too_large_detail(limit))


def server_error_view(request: HttpRequest) -> JsonResponse:
    """handler500: never a bare HTML page."""
    return _json_problem(500, "server_error", "An unexpected error occurred.")


def bad_request_view(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """handler400, e.g. a request body over the size limit."""
    return _json_problem(400, "invalid_request", "Bad request.")

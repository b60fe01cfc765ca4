"""Every error is an RFC 9457 problem: `application/problem+json` with `type`, `title`,
`status`, `detail` and a stable machine `code` (and `errors` for field errors)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.response import Response

from engine import ALL_RULE_ERRORS, RuleError

PROBLEM_CONTENT_TYPE = "application/problem+json"
#: A 401 names the scheme it wants (RFC 9110, 11.6.1).
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="skyjo"'}
#: Problem types are documented by the API itself: `GET /api/v1/problems/{code}`.
PROBLEM_TYPE_BASE = "/api/v1/problems/"

#: Every problem code the service's own layer answers with: (status, title).
SERVICE_PROBLEMS: dict[str, tuple[int, str]] = {
    "invalid_request": (400, "The request is not valid"),
    "invalid_history": (400, "The history does not replay"),
    "invalid_token": (401, "Missing or invalid seat token"),
    "forbidden": (403, "Forbidden"),
    "game_not_found": (404, "No such game"),
    "not_found": (404, "Not found"),
    "method_not_allowed": (405, "Method not allowed"),
    "not_acceptable": (406, "Not acceptable"),
    "concurrent_update": (409, "Another action changed the game at the same time"),
    "game_not_finished": (409, "The game is not finished"),
    "version_mismatch": (412, "The game has moved on"),
    "payload_too_large": (413, "Request body too large"),
    "unsupported_media_type": (415, "Unsupported media type"),
    "idempotency_key_reused": (422, "Idempotency key reused with another request"),
    "throttled": (429, "Too many requests"),
    "server_error": (500, "Internal server error"),
}

#: Every problem code, the rules' included (status 409), with its status and title.
PROBLEM_TYPES: dict[str, tuple[int, str]] = {
    **SERVICE_PROBLEMS,
    **{
        error.code: (409, error.code.replace("_", " ").capitalize())
        for error in ALL_RULE_ERRORS
        if error.code != "invalid_options"
    },
}
TITLES: dict[str, str] = {code: title for code, (_, title) in PROBLEM_TYPES.items()}
RULE_ERROR_DOCS: dict[str, str] = {
    error.code: (error.__doc__ or "").strip() for error in ALL_RULE_ERRORS
}


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
    """An API error with a stable code. Raise it from services and views."""

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


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler, answering problem details for every error."""
    # Imported here: rest_framework.views loads the parser classes (games.parsers), which
    # import this module; at the top, importing this module first (as the body-size
    # middleware does when the server starts) would be a circular import.
    from rest_framework.views import set_rollback

    set_rollback()
    if isinstance(exc, Problem):
        return problem_response(
            exc.status_code, exc.problem_code, exc.problem_detail, exc.headers, **exc.extra
        )
    if isinstance(exc, RuleError):
        return problem_response(409, exc.code, exc.message)
    if isinstance(exc, exceptions.ValidationError):
        errors = field_errors(exc.detail)
        return problem_response(400, "invalid_request", "Some fields are not valid.", errors=errors)
    if isinstance(exc, exceptions.ParseError):
        return problem_response(400, "invalid_request", f"Malformed request body: {exc.detail}")
    if isinstance(exc, exceptions.AuthenticationFailed | exceptions.NotAuthenticated):
        return problem_response(401, "invalid_token", str(exc.detail), CHALLENGE)
    if isinstance(exc, exceptions.Throttled):
        wait = max(1, int(exc.wait or 1))
        return problem_response(
            429,
            "throttled",
            f"Too many requests; retry in {wait} s.",
            {"Retry-After": str(wait)},
            retry_after=wait,
        )
    if isinstance(exc, Http404 | exceptions.NotFound):
        return problem_response(404, "not_found", "Not found.")
    if isinstance(exc, exceptions.MethodNotAllowed):
        return problem_response(405, "method_not_allowed", str(exc.detail))
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return problem_response(415, "unsupported_media_type", str(exc.detail))
    if isinstance(exc, exceptions.NotAcceptable):
        return problem_response(406, "not_acceptable", str(exc.detail))
    if isinstance(exc, exceptions.PermissionDenied | DjangoPermissionDenied):
        return problem_response(403, "forbidden", "You may not do this.")
    if isinstance(exc, exceptions.APIException):
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else "error"
        return problem_response(exc.status_code, str(code), str(exc.detail))
    return None


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


def payload_too_large_response(limit: int) -> JsonResponse:
    """413 for a request body over the limit (games.middleware, games.parsers)."""
    return _json_problem(413, "payload_too_large", payload_too_large_detail(limit))


def server_error_view(request: HttpRequest) -> JsonResponse:
    """handler500: never a bare HTML page."""
    return _json_problem(500, "server_error", "An unexpected error occurred.")


def bad_request_view(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """handler400, e.g. a request body over the size limit."""
    return _json_problem(400, "invalid_request", "Bad request.")

"""The `turns` tag: a seat's actions, one endpoint taking any legal action as it is and one
per kind, all derived from the engine's action table (`engine.TURN_ACTIONS`)."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)
from rest_framework.request import Request
from rest_framework.response import Response

from engine import POSITION_KINDS, TURN_ACTION_KINDS, TURN_ACTIONS, action_from_data
from games import core
from games.api.headers import (
    idempotency_key,
    if_match,
    seat_credential,
)
from games.api.inputs import (
    ACTION_DESCRIPTIONS,
    AnyActionSerializer,
    PositionSerializer,
    action_component_name,
    typed_action_body,
)
from games.api.schema import (
    ETAG,
    GAME_ID,
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    IF_MATCH,
    LEGAL_ACTION_EXAMPLES,
    POSITION_EXAMPLE,
    RETRY_AFTER,
    SEAT_ONLY,
    problems,
)
from games.api.shapes import (
    LEGAL_ACTION_REF,
    GameSerializer,
)
from games.api.views.common import (
    PerViewerView,
    answer_response,
    authenticated_before_bad_request,
    with_etag,
)
from games.core import idempotency
from games.core.tokens import Credential


class ActionView(PerViewerView):
    """A turn action by the seat whose token is presented; answers that seat's new view.

    Subclasses say how the body names the action (`action_data`); everything after that, the
    headers, the answers and the errors, is the same for every way of sending an action."""

    def action_data(self, body: Any) -> dict[str, Any]:
        """The action in `legal_actions`' shape (`{"action", "column"?, "row"?}`), or 400."""
        raise NotImplementedError

    def post(self, request: Request, game_id: str) -> Response:
        credential = seat_credential(request)
        with authenticated_before_bad_request(request, game_id):
            data = self.action_data(request.data if request.data not in (None, "") else {})
            expected_versions = if_match(request)
            key = idempotency_key(request)
        fingerprint = core.action_fingerprint(data)
        keyed = None if key is None else core.seat_key(game_id, credential, key, fingerprint)
        answer = idempotency.run(
            keyed, lambda _: _acted(game_id, credential, data, expected_versions)
        )
        return with_etag(answer_response(answer), answer.version or 0)


def _acted(
    game_id: str,
    credential: Credential | None,
    data: dict[str, Any],
    expected_versions: frozenset[int] | None,
) -> idempotency.Answer:
    """The action performed: the seat's new view, as every POST answers (stored for a key)."""
    action = action_from_data(data)
    result = core.perform_action(game_id, credential, action, expected_versions=expected_versions)
    return idempotency.Answer(200, result.body, result.version, result.game.id)


def _action_schema(
    operation_id: str, summary: str, description: str, request: Any, examples: list[Any]
) -> Any:
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            summary=summary,
            description=description + " Answers the acting seat's new view.",
            tags=["turns"],
            auth=SEAT_ONLY,
            request=request,
            examples=examples,
            parameters=[GAME_ID, IF_MATCH, IDEMPOTENCY_KEY, ETAG, IDEMPOTENT_REPLAYED, RETRY_AFTER],
            responses={200: GameSerializer, **problems(400, 401, 404, 409, 412, 413, 415, 422)},
        )
    )


@_action_schema(
    "act",
    "Send one of your legal actions",
    "Any object of the view's `legal_actions`, sent as it is: "
    '`{"action": "take_discard"}`, `{"action": "replace", "column": 2, "row": 1}`. '
    "The same action as the typed endpoint of its kind (`/actions/take-discard`...), with the "
    "same headers, answers and errors: a client needs no table of paths.",
    request={"application/json": LEGAL_ACTION_REF},
    examples=LEGAL_ACTION_EXAMPLES,
)
class AnyActionView(ActionView):
    def action_data(self, body: Any) -> dict[str, Any]:
        form = AnyActionSerializer(data=body)
        form.is_valid(raise_exception=True)
        return dict(form.validated_data)


class TypedActionView(ActionView):
    """One kind of action at a path of its own: the body holds the position, if any."""

    kind: ClassVar[str]

    def action_data(self, body: Any) -> dict[str, Any]:
        return {"action": self.kind, **typed_action_body(self.kind in POSITION_KINDS, body)}


def action_segment(kind: str) -> str:
    """The typed endpoint's last path segment: `take_discard` -> `take-discard`."""
    return kind.replace("_", "-")


def _typed_action_view(kind: str) -> type[TypedActionView]:
    view = type(f"{action_component_name(kind)}View", (TypedActionView,), {"kind": kind})
    positioned = kind in POSITION_KINDS
    request, examples = (PositionSerializer, [POSITION_EXAMPLE]) if positioned else (None, [])
    schema = _action_schema(
        kind, TURN_ACTIONS[kind].title, ACTION_DESCRIPTIONS[kind], request, examples
    )
    return schema(view)


#: One view per turn action, in the engine's order; `games.urls` mounts each at its path.
TYPED_ACTION_VIEWS: dict[str, type[TypedActionView]] = {
    kind: _typed_action_view(kind) for kind in TURN_ACTION_KINDS
}

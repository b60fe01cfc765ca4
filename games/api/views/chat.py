"""The `chat` tag: each game's chat, its two rooms, and the rooms a seat muted. Thin: the use
cases are `play`'s (`play/chat.py`); what a request may send and what it is answered are
declared here, beside the views, as the schema shows them."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponseBase
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response

import play
from games.api.headers import idempotency_key, seat_credential
from games.api.inputs import QueryChoiceField, QueryIntegerField, StrictCharField, StrictSerializer
from games.api.schema import (
    GAME_ID,
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    RETRY_AFTER,
    SEAT_OR_SPECTATOR,
    problems,
    whole_number,
)
from games.api.views.accounts import NO_CONTENT
from games.api.views.common import PerViewerView, answer_response
from games.core import idempotency

#: The rooms (the schema's enum `ChatRoom`).
CHAT_ROOMS = list(play.ROOMS)
#: A writer presents a seat's token or a personal token (scope `chat:write`).
SEAT_OR_ACCOUNT: Any = [{"SeatToken": []}, {"AccountToken": []}]

_WHO = (
    "The players' room is read by the game's seats, and by everyone once the game is over "
    "(finished or canceled); the spectators' room by everyone. A seat writes in both rooms "
    "under its seat's name; anyone else with an account writes in the spectators' room under "
    "their handle. A seat is its seat token, or its account's personal token; a spectator's "
    "account its personal token."
)


@extend_schema_field({"type": "string", "minLength": 1, "maxLength": play.MAX_TEXT})
class ChatTextField(StrictCharField):
    """A message's text, checked once normalized (`play.clean_text`)."""


class PostChatMessageSerializer(StrictSerializer):
    """A message to write in one of the game's rooms."""

    room = serializers.ChoiceField(choices=CHAT_ROOMS, help_text="The room to write in.")
    text = ChatTextField(
        trim_whitespace=False,  # normalized by the use case, which counts what it keeps
        help_text=f"1 to {play.MAX_TEXT} characters once normalized: NFC, the spaces around "
        "removed. Control characters (line breaks, tabs...) and the bidirectional overrides "
        "and isolates are refused.",
    )


class ChatQuerySerializer(serializers.Serializer):
    room = QueryChoiceField(choices=CHAT_ROOMS, required=False)
    after = QueryIntegerField(min_value=0, max_value=2**31 - 1, default=0)
    limit = QueryIntegerField(min_value=1, max_value=play.MAX_PAGE, default=play.PAGE)


class ChatMessageSerializer(serializers.Serializer):
    """One message of a game's chat, as every reader sees it."""

    sequence = serializers.IntegerField(
        help_text="Its place in the game's chat, across both rooms: 1, 2, 3..."
    )
    room = serializers.ChoiceField(choices=CHAT_ROOMS)
    name = serializers.CharField(
        help_text="Who wrote it: the seat's name, or the account's handle for a spectator."
    )
    account = serializers.CharField(
        allow_null=True, help_text="The writer's account handle; null for a guest's seat."
    )
    text = serializers.CharField(
        help_text="What was written (plain text: show it as text, never as HTML)."
    )
    at = serializers.DateTimeField(help_text="When it was written.")


class ChatMessagesSerializer(serializers.Serializer):
    messages = ChatMessageSerializer(many=True, help_text="Oldest first.")
    muted = serializers.ListField(
        child=serializers.ChoiceField(choices=CHAT_ROOMS),
        help_text="The rooms the caller's seat muted, left out of `messages` (a spectator: none).",
    )


ROOM = OpenApiParameter(
    "room", str, OpenApiParameter.PATH, enum=CHAT_ROOMS, description="The room."
)
MESSAGE_EXAMPLE = OpenApiExample(
    "message",
    summary="Good luck",
    value={"room": "players", "text": "Good luck!"},
    request_only=True,
)


class ChatView(PerViewerView):
    """A game's chat: read the rooms you may, write in one."""

    @extend_schema(
        operation_id="list_chat_messages",
        summary="Read a game's chat",
        description="The messages after `after`, oldest first, at most `limit`: of `room`, or "
        "without it of every room the caller may read. "
        + _WHO
        + " Naming a room you may not read is refused with 403 `chat_room_forbidden`. A "
        "seat's muted rooms are left out (listed in `muted`). Page on with `after` set to the "
        "last `sequence` received. The chat is a log of its own: the game's events, history "
        "and replays never hold it. A game's stream carries the same messages as `chat` "
        "frames. A personal token reads as its account (its account's seat, or a spectator) "
        "with the scope `chat:write` or `play`; one with neither reads as anyone may without "
        "a token (an anonymous spectator).",
        tags=["chat"],
        auth=SEAT_OR_SPECTATOR,
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "room", str, enum=CHAT_ROOMS, description="Only this room's messages."
            ),
            OpenApiParameter(
                "after", whole_number(0), default=0, description="Sequence to start after."
            ),
            OpenApiParameter(
                "limit",
                whole_number(1, play.MAX_PAGE),
                default=play.PAGE,
                description="At most this many.",
            ),
            RETRY_AFTER,
        ],
        responses={200: ChatMessagesSerializer, **problems(400, 401, 403, 404)},
        extensions={"x-required-scopes": list(play.READ_SCOPES)},
    )
    def get(self, request: Request, game_id: str) -> Response:
        credential = seat_credential(request)
        query = ChatQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(play.read_messages(game_id, credential, **query.validated_data))

    @extend_schema(
        operation_id="post_chat_message",
        summary="Write in a game's chat",
        description=_WHO
        + " A spectator without an account is refused (401 `account_token_required`); a "
        "spectator writing in the players' room with 403 `chat_room_forbidden`; a seat "
        "writing in a room it muted with 409 `room_muted` (unmute it first). A sender writes "
        "at most `SKYJO_CHAT_BURST` messages (5) in any `SKYJO_CHAT_BURST_SECONDS` (10) in a "
        "game, else 429 `throttled` with `Retry-After`, and `SKYJO_CHAT_MAX_PER_GAME` (200) "
        "in all, else 429 `chat_limit_reached`. Answers the message as the list shows it. "
        "With a personal token, scope `chat:write`.",
        tags=["chat"],
        auth=SEAT_OR_ACCOUNT,
        request=PostChatMessageSerializer,
        examples=[MESSAGE_EXAMPLE],
        parameters=[GAME_ID, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={
            201: ChatMessageSerializer,
            **problems(400, 401, 403, 404, 409, 413, 415, 422),
        },
        extensions={"x-required-scopes": [play.WRITE_SCOPE]},
    )
    def post(self, request: Request, game_id: str) -> HttpResponseBase:
        author = play.writer(game_id, seat_credential(request))
        form = PostChatMessageSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        room, text = form.validated_data["room"], form.validated_data["text"]
        keyed = _chat_key(request, author, room, text)
        answer = idempotency.run(keyed, lambda _: _posted(author, room, text))
        return answer_response(answer)


def _chat_key(
    request: Request, author: play.Speaker, room: str, text: str
) -> idempotency.Idempotency | None:
    """A seat's key belongs to the seat (as its actions' do), a spectator's to its account."""
    key = idempotency_key(request)
    if key is None:
        return None
    game = author.game.id
    if author.seat is not None:
        scope = idempotency.seat_scope(game, author.seat)
    else:
        scope = idempotency.account_scope(int(author.account_id or 0))
    what = idempotency.fingerprint("post_chat_message", game, room, text)
    return idempotency.Idempotency(scope, key, what)


def _posted(author: play.Speaker, room: str, text: str) -> idempotency.Answer:
    message = play.post_message(author, room, text)
    return idempotency.Answer(201, message, None, author.game.id)


class ChatMuteView(PerViewerView):
    """A seat's mute of one room, for itself."""

    @extend_schema(
        operation_id="mute_chat_room",
        summary="Mute a chat room",
        description="Your seat stops reading `room`: `GET .../chat` and your stream's `chat` "
        "frames leave it out, and writing there is refused (409 `room_muted`) until you unmute "
        "it. Kept by the service for the seat, so it follows you across devices; muting a "
        "muted room changes nothing. A seat only (its token, or its account's personal token "
        "with `chat:write` or `play`): anyone else is refused with 403 `chat_room_forbidden`.",
        tags=["chat"],
        auth=SEAT_OR_ACCOUNT,
        request=None,
        parameters=[GAME_ID, ROOM, RETRY_AFTER],
        responses={204: NO_CONTENT, **problems(401, 403, 404)},
        extensions={"x-required-scopes": list(play.READ_SCOPES)},
    )
    def put(self, request: Request, game_id: str, room: str) -> Response:
        play.mute_room(game_id, seat_credential(request), room)
        return Response(status=http.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="unmute_chat_room",
        summary="Unmute a chat room",
        description="Your seat reads `room` again (and may write there); unmuting a room that "
        "is not muted changes nothing. A seat only, as for muting.",
        tags=["chat"],
        auth=SEAT_OR_ACCOUNT,
        parameters=[GAME_ID, ROOM, RETRY_AFTER],
        responses={204: NO_CONTENT, **problems(401, 403, 404)},
        extensions={"x-required-scopes": list(play.READ_SCOPES)},
    )
    def delete(self, request: Request, game_id: str, room: str) -> Response:
        play.unmute_room(game_id, seat_credential(request), room)
        return Response(status=http.HTTP_204_NO_CONTENT)

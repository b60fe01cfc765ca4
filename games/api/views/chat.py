"""The `chat` tag: each game's chat, its two rooms, and the rooms a seat muted. Thin: the use
cases are `play`'s (`play/chat.py`); what a request may send is in `games.api.inputs`, what it
is answered in `games.api.shapes`."""

from __future__ import annotations

from django.http import HttpResponseBase
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response

import play
from games.api.headers import seat_credential
from games.api.inputs import ChatQuerySerializer, PostChatMessageSerializer
from games.api.schema import (
    GAME_ID,
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    RETRY_AFTER,
    SEAT_OR_ACCOUNT,
    SEAT_OR_SPECTATOR,
    any_scope,
    every_scope,
    problems,
    token_scoped,
    whole_number,
)
from games.api.shapes import CHAT_ROOMS, ChatMessageSerializer, ChatMessagesSerializer
from games.api.views.accounts import NO_CONTENT
from games.api.views.common import (
    PerViewerView,
    answer_response,
    keyed_by_account,
    keyed_by_seat,
)
from games.core import idempotency

#: What a personal token needs to read the rooms (and mute them), and to write.
READ = any_scope(*play.READ_SCOPES)
WRITE = every_scope(play.WRITE_SCOPE)

_WHO = (
    "The players' room is read by the game's seats, and by everyone once the game is over "
    "(finished or canceled); the spectators' room by everyone. A seat writes in both rooms "
    "under its seat's name; anyone else with an account writes in the spectators' room under "
    "their handle. A seat is its seat token, or its account's personal token; a spectator's "
    "account its personal token."
)
#: Who mutes: a seat, by either of its tokens.
_SEAT_ONLY = f"A seat only (its token, or its account's personal token with the {READ.words})"


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
        description="The messages after `after`, oldest first, at most `limit`: of `room`, "
        f"or without it of every room the caller may read. {_WHO} Naming a room you may not "
        "read is refused with 403 `chat_room_forbidden`. A seat's muted rooms are left out "
        "(listed in `muted`). Page on with `after` set to the last `sequence` received. The "
        "chat is a log of its own: the game's events, history and replays never hold it. A "
        "game's stream carries the same messages as `chat` frames. A personal token reads as "
        f"its account (an account's seat, or a spectator) with the {READ.words}; one with "
        "neither reads as anyone may without a token (an anonymous spectator): no scope is "
        "required.",
        auth=SEAT_OR_SPECTATOR,
        tags=["chat"],
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
    )
    def get(self, request: Request, game_id: str) -> Response:
        credential = seat_credential(request)
        query = ChatQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(play.read_messages(game_id, credential, **query.validated_data))

    @extend_schema(
        operation_id="post_chat_message",
        summary="Write in a game's chat",
        **token_scoped(
            f"{_WHO} A spectator without an account is refused (401 "
            "`account_token_required`); a spectator writing in the players' room with 403 "
            "`chat_room_forbidden`; a seat writing in a room it muted with 409 `room_muted` "
            "(unmute it first). A sender writes at most `SKYJO_CHAT_BURST` messages (5) in any "
            "`SKYJO_CHAT_BURST_SECONDS` (10) in a game, else 429 `throttled` with "
            "`Retry-After`, and `SKYJO_CHAT_MAX_PER_GAME` (200) in all, else 429 "
            "`chat_limit_reached`. Answers the message as the list shows it. With a personal "
            f"token, {WRITE.words}.",
            WRITE,
            SEAT_OR_ACCOUNT,
        ),
        tags=["chat"],
        request=PostChatMessageSerializer,
        examples=[MESSAGE_EXAMPLE],
        parameters=[GAME_ID, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={
            201: ChatMessageSerializer,
            **problems(400, 401, 403, 404, 409, 413, 415, 422),
        },
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
    game = author.game.id
    what = ("post_chat_message", game, room, text)
    if author.seat is not None:
        return keyed_by_seat(request, game, author.seat, *what)
    return keyed_by_account(request, int(author.account_id or 0), *what)


def _posted(author: play.Speaker, room: str, text: str) -> idempotency.Answer:
    message = play.post_message(author, room, text)
    return idempotency.Answer(201, message, None, author.game.id)


class ChatMuteView(PerViewerView):
    """A seat's mute of one room, for itself."""

    @extend_schema(
        operation_id="mute_chat_room",
        summary="Mute a chat room",
        **token_scoped(
            "Your seat stops reading `room`: `GET .../chat` and your stream's `chat` frames "
            "leave it out, and writing there is refused (409 `room_muted`) until you unmute "
            "it. Kept by the service for the seat, so it follows you across devices; muting a "
            f"muted room changes nothing. {_SEAT_ONLY}: anyone else is refused with 403 "
            "`chat_room_forbidden`.",
            READ,
            SEAT_OR_ACCOUNT,
        ),
        tags=["chat"],
        request=None,
        parameters=[GAME_ID, ROOM, RETRY_AFTER],
        responses={204: NO_CONTENT, **problems(401, 403, 404)},
    )
    def put(self, request: Request, game_id: str, room: str) -> Response:
        play.mute_room(game_id, seat_credential(request), room)
        return Response(status=http.HTTP_204_NO_CONTENT)

    @extend_schema(
        operation_id="unmute_chat_room",
        summary="Unmute a chat room",
        **token_scoped(
            "Your seat reads `room` again (and may write there); unmuting a room that is not "
            f"muted changes nothing. {_SEAT_ONLY}, as for muting.",
            READ,
            SEAT_OR_ACCOUNT,
        ),
        tags=["chat"],
        parameters=[GAME_ID, ROOM, RETRY_AFTER],
        responses={204: NO_CONTENT, **problems(401, 403, 404)},
    )
    def delete(self, request: Request, game_id: str, room: str) -> Response:
        play.unmute_room(game_id, seat_credential(request), room)
        return Response(status=http.HTTP_204_NO_CONTENT)

"""The live stream of a game, per viewer, as Server-Sent Events."""

from __future__ import annotations

import weakref
from collections.abc import Iterator

from django.core.handlers.asgi import ASGIRequest
from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.credentials import AccountCredential
from games import core
from games.api.headers import last_frame_id, seat_credential
from games.api.inputs import GameStreamQuerySerializer
from games.api.renderers import EventStreamRenderer, JSONRenderer
from games.api.schema import GAME_ID, RETRY_AFTER, SEAT_OR_SPECTATOR, problems
from games.api.shapes import StreamFrameSerializer
from games.api.views.common import client_address
from games.core.cursors import CURSOR_PATTERN, Cursor
from games.core.tokens import Credential
from games.live import streams
from games.live.astreams import HeldStream, astream
from games.live.fanout import STREAM, Place, hub, release_connections
from games.live.sending import bound_sends
from games.live.sse import EVENT_STREAM
from games.models import Game

_FRAMES = """\
One frame per event of the log, in order, each exactly as `GET /api/v1/games/{id}/events` \
shows it to this viewer (same redaction, same JSON; a finished game hides nothing):

    id: <sequence>
    event: <type, e.g. CardDrawn>
    data: {"sequence": ..., "type": ..., "at": ..., "data": {...}}

**The chat.** Each message of the game's chat (`GET /api/v1/games/{id}/chat`) in a room the \
viewer may read comes as a `chat` frame, in order, its data the message as that list shows \
it: the players' room to the seats (to everyone once the game is over), the spectators' room \
to everyone, less the rooms a seat muted. Once the stream has passed a message, its frames' \
ids carry two numbers, the event's and the chat's, `<sequence>:<chat sequence>`:

    id: 17:3
    event: chat
    data: {"sequence": 3, "room": "players", "name": "Ada", "account": "ada", "text": ..., \
"at": ...}

A game without chat streams as before, its ids plain sequences. An id is the stream's place: \
send the last one back as it came (`Last-Event-ID`, or `after`), and neither an event nor a \
message is missed or repeated; a plain number resumes after that event with no message seen.

After the events of each move, and once first of all, a `view` frame (no `id`) carries the \
viewer's view, the body of `GET /api/v1/games/{id}`: play from its `legal_actions`. The \
stream starts with `retry:` (milliseconds before reconnecting), sends a comment line \
(`: keep-alive`) when idle, and ends after the game's last event, after a few minutes \
(`LIVE_STREAM_SECONDS`) or when the server restarts: reconnect with `Last-Event-ID` and no \
event is missed or repeated.

**A finished game's rematch.** When the stream of a finished game ends and one of its \
players has asked for a rematch (`POST /api/v1/games/{id}/rematch`), its last frame is a \
`rematch` frame (no `id`) whose data `{"game"}` is the rematch's id; a client reconnecting to \
such a game gets the view and that frame again, then the end.

**A bounded catch-up.** A stream sends at most `LIVE_STREAM_BACKLOG` (500) events before its \
first view: asked to start further back, it starts that many events before the game's \
version, after a `skipped` frame (no `id`) whose data `{"first", "last", "events"}` names the \
events left out and the `/events` page that starts them (page on with `after`).

**A seat's stream follows its credential.** Each frame is what the token may see when it is \
sent: once the seat's token is rotated, the seat left (and perhaps taken by someone else) or \
handed to a bot after its timeouts, the stream ends before it sends anything more. \
Reconnecting with the old token answers 401 (a seat handed to a bot still reads).

A stream holds one of the server's places for streams and long polls: when there is none it \
is refused with 503 `too_many_streams`, and past the places one client address may hold with \
429 `too_many_streams_from_address` (both with `Retry-After`). Read what it sends: a stream \
whose client takes nothing for a few seconds (`LIVE_SEND_TIMEOUT_SECONDS`) is closed."""

_EXAMPLE = (
    "retry: 1000\n\n"
    'id: 17\nevent: CardDrawn\ndata: {"sequence":17,"type":"CardDrawn",'
    '"at":"2026-12-01T10:00:00.000000Z","data":{"seat":1,"value":null}}\n\n'
    'event: view\ndata: {"id":"…","version":17,"status":"playing","current_seat":1,'
    '"legal_actions":[],"…":"…"}\n\n'
    ": keep-alive\n\n"
)

LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    description="The `id` of the last frame received: the stream resumes after it (an "
    "EventSource sends it by itself when it reconnects). Wins over `after`.",
)
#: A game stream's place: its frames' ids, `17` or `17:3` (the event's and the chat's).
STREAM_LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    {"type": "string", "pattern": CURSOR_PATTERN},
    OpenApiParameter.HEADER,
    description="The `id` of the last frame received, as it came (`17`, or `17:3` once the "
    "stream has passed a chat message): the stream resumes after it (an EventSource sends it "
    "by itself when it reconnects). Wins over `after`.",
)
STREAM_AFTER = OpenApiParameter(
    "after",
    {"type": "string", "pattern": CURSOR_PATTERN},
    description="Where to start: after this event's sequence (default 0), or after a frame's "
    "`id` (`17:3`: after event 17 and chat message 3).",
)


class StreamView(APIView):
    """A viewer's push channel: the log as it grows, and the viewer's view after each move."""

    renderer_classes = [EventStreamRenderer, JSONRenderer]

    @extend_schema(
        operation_id="stream_game",
        summary="Stream a game's events (Server-Sent Events)",
        description="With a seat token, that seat's stream; without one, a spectator's. "
        "Starts after `Last-Event-ID`, else after `after`, else from the first event. "
        "Errors before the stream starts are problem documents.\n\n" + _FRAMES,
        tags=["history"],
        auth=SEAT_OR_SPECTATOR,
        parameters=[
            GAME_ID,
            STREAM_AFTER,
            STREAM_LAST_EVENT_ID,
            RETRY_AFTER,
        ],
        responses={
            (200, EVENT_STREAM): OpenApiResponse(
                StreamFrameSerializer,
                description="The stream: `text/event-stream` frames as described above.",
                examples=[OpenApiExample("A stream", value=_EXAMPLE)],
            ),
            **problems(400, 401, 404, 503),
        },
    )
    def get(self, request: Request, game_id: str) -> StreamingHttpResponse:
        credential = seat_credential(request)
        game, seat = core.game_and_seat(game_id, credential, required=False)
        after = _start(request)
        viewer = _viewer(game, seat, credential)
        place = hub.reserve(STREAM, client_address(request))
        release_connections()
        response = StreamingHttpResponse(_held(request, game, viewer, after, place), EVENT_STREAM)
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # nginx: pass each frame on at once
        response["Vary"] = "Authorization"
        return response


def _held(
    request: Request, game: Game, viewer: streams.Viewer, after: Cursor, place: Place
) -> Holding | HeldStream:
    """The stream's bytes, the place's keeper now: a coroutine's on the stream tier (ASGI),
    a thread's on the API servers (WSGI), whose writes are bounded here."""
    if isinstance(request._request, ASGIRequest):
        return HeldStream(astream(game, viewer, after), place)
    bound_sends(request.META)
    return Holding(streams.stream(game, viewer, after), place)


def _viewer(game: Game, seat: int | None, credential: Credential | None) -> streams.Viewer:
    """Who the stream is for, with the seat's binding as it is now (the stream ends when it
    changes)."""
    if seat is None or credential is None:
        return streams.Viewer()
    account = credential if isinstance(credential, AccountCredential) else None
    return streams.Viewer(seat, core.seat_binding(game.id, seat, credential), account)


class Holding:
    """A stream's bytes, holding the stream's place until they end or the response is closed,
    even one closed before it started (a generator not yet started runs no `finally` when
    closed), or dropped unclosed (no WSGI server does: the tests' client may)."""

    def __init__(self, chunks: Iterator[bytes], place: Place) -> None:
        self._chunks, self._place = chunks, place
        weakref.finalize(self, place.release)

    def __iter__(self) -> Iterator[bytes]:
        return self._chunks

    def close(self) -> None:
        """Called by the response's `close`, which the WSGI server calls at the end."""
        try:
            getattr(self._chunks, "close", lambda: None)()
        finally:
            self._place.release()


def _start(request: Request) -> Cursor:
    """Where the stream starts: after `Last-Event-ID`, else `?after=`, else the start."""
    query = GameStreamQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    resumed = last_frame_id(request)
    started: Cursor = query.validated_data.get("after", Cursor())
    return resumed if resumed is not None else started

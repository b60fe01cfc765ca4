"""An account's stream (Server-Sent Events) and its long poll: the account's inbox as it
grows, resumable after any entry."""

from __future__ import annotations

from django.conf import settings
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import play
from accounts import inbox
from accounts.credentials import AccountCredential
from accounts.errors import AccountRequired, MissingScope
from games.api.headers import account_credential, last_event_id
from games.api.inputs import MAX_WAIT_SECONDS, EventsQuerySerializer, StreamQuerySerializer
from games.api.renderers import EventStreamRenderer, JSONRenderer
from games.api.schema import AFTER, LIMIT, RETRY_AFTER, any_scope, problems, scoped, whole_number
from games.api.shapes import AccountEventsSerializer, AccountStreamFrameSerializer
from games.api.views.common import client_address
from games.api.views.live import LAST_EVENT_ID, Holding
from games.core.errors import InvalidToken
from games.live import inbox_streams
from games.live.fanout import LONG_POLL, STREAM, hub, release_connections
from games.live.sending import bound_sends
from games.live.sse import EVENT_STREAM
from ratings import ladder

#: Either scope reads the account's stream.
STREAM_SCOPES = any_scope("play", "challenge:read")

_FRAMES = """\
One frame per entry of the account's inbox, in order:

    id: <sequence>
    event: <type: game_started, your_turn, game_finished, seek_matched, rematch_offered,
    rating_changed, or a challenge's letter>
    data: {"game": ..., "seat": ..., "sequence": ..., "type": ..., "at": ..., ...}

`game_started` `{"game", "seat"}` when round 1 of a game the account sits in is dealt; \
`your_turn` `{"game", "seat", "version", "turn_deadline"}` when one of its seats comes to act; \
`game_finished` `{"game", "seat", "totals", "winners"}`. A challenge's letters: `challenge` (to \
each invitee: the challenge as `GET /api/v1/challenges/{id}` shows it, and `challenge`, its id), \
`challenge_accepted` `{"challenge", "game", "handle"}`, `challenge_declined` `{"challenge", \
"game", "handle", "reason"}` and `challenge_canceled` `{"challenge", "game", "reason"}` (who \
gets which: the operations of the `challenges` tag); `seek_matched` `{"seek", "game", "seat"}` \
when the matcher seats one of its seeks (quick play). While it is open, the account's \
searching seek stays alive (`SEEK_IDLE_SECONDS`). `rematch_offered` `{"game", "next_game"}` \
when another player of a finished game it sat in asked for its rematch (a seat is kept for it \
in `next_game`, unless it had left the game). `rating_changed` `{"game", "rank", "seats", \
"before", "rating"}` when a rated game it played is rated (R14): its rank among how many seats, \
its rating before and after. It resumes after `Last-Event-ID` (else \
`after`) exactly: no entry missed or repeated. Without either it starts at the inbox's end with \
one `snapshot` frame (no `id`): `{"sequence", "games"}`, the inbox's last sequence and the \
account's unfinished games (`game`, `seat`, `status`, `version`, `seats_to_act`, `your_turn`, \
`turn_deadline`). The stream starts with `retry:`, sends a comment line when idle, and ends \
after a few minutes (`LIVE_STREAM_SECONDS`), when the server restarts, or within a second of its \
token being revoked (or its account deleted): reconnect with `Last-Event-ID`. It holds one of \
the server's places for streams, as a game's stream does (503 `too_many_streams`, 429 \
`too_many_streams_from_address`)."""

_EXAMPLE = (
    "retry: 1000\n\n"
    'event: snapshot\ndata: {"sequence":4,"games":[{"game":"…","seat":0,"status":"playing",'
    '"version":12,"seats_to_act":[0],"your_turn":true,"turn_deadline":null}]}\n\n'
    'id: 5\nevent: your_turn\ndata: {"game":"…","seat":0,"version":14,"turn_deadline":null,'
    '"sequence":5,"type":"your_turn","at":"2026-12-01T10:00:00.000000Z"}\n\n'
    ": keep-alive\n\n"
)


def reader(request: Request) -> AccountCredential:
    """The account whose inbox is read: 401 without a personal token, 403 `missing_scope`
    unless it holds `play` or `challenge:read`."""
    credential = account_credential(request)
    if credential is None:
        raise AccountRequired()
    if not credential.holds_any(*STREAM_SCOPES.names):
        raise MissingScope(STREAM_SCOPES.names[0])
    return credential


class AccountStreamView(APIView):
    """An account's push channel: its inbox's entries as they come."""

    renderer_classes = [EventStreamRenderer, JSONRenderer]

    @extend_schema(
        operation_id="stream_account",
        summary="Stream an account's news (Server-Sent Events)",
        tags=["accounts"],
        **scoped("Errors before the stream starts are problem documents.", STREAM_SCOPES, _FRAMES),
        parameters=[
            OpenApiParameter(
                "after", whole_number(0), description="Sequence to start after (no snapshot)."
            ),
            LAST_EVENT_ID,
            RETRY_AFTER,
        ],
        responses={
            (200, EVENT_STREAM): OpenApiResponse(
                AccountStreamFrameSerializer,
                description="The stream: `text/event-stream` frames as described above.",
                examples=[OpenApiExample("A stream", value=_EXAMPLE)],
            ),
            **problems(400, 401, 403, 404, 503),
        },
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        credential = reader(request)
        after, first = inbox_streams.start(credential, _start(request))
        place = hub.reserve(STREAM, client_address(request))
        chunks = Holding(inbox_streams.stream(credential, after, first), place)
        release_connections()
        bound_sends(request.META)
        response = StreamingHttpResponse(chunks, EVENT_STREAM)
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"
        response["Vary"] = "Authorization"
        return response


def _start(request: Request) -> int | None:
    """After `Last-Event-ID`, else `?after=`, else None (the inbox's end, with a snapshot)."""
    query = StreamQuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    resumed = last_event_id(request)
    return resumed if resumed is not None else query.validated_data.get("after")


class AccountEventsView(APIView):
    """The account's inbox, entry by entry: its long poll."""

    @extend_schema(
        operation_id="list_account_events",
        summary="Follow an account's news",
        tags=["accounts"],
        **scoped(
            "The inbox's entries after `after`, at most `limit`, each as the account stream's "
            "`data` shows it; with `wait`, answered as soon as there is one (the stream's long "
            "poll: `GET /api/v1/account/stream`). A token revoked while it waits is refused "
            "with 401. Each poll (and a long poll while it waits) keeps the account's "
            "searching seek alive, as an open account stream does (quick play, "
            "`SEEK_IDLE_SECONDS`).",
            STREAM_SCOPES,
        ),
        parameters=[
            AFTER,
            LIMIT,
            OpenApiParameter(
                "wait",
                whole_number(0, MAX_WAIT_SECONDS),
                description="Long poll: when there is no entry after `after` yet, wait up to "
                "this many seconds for one. A waiting long poll holds one of the places "
                "streams hold (503 `too_many_streams`, 429 `too_many_streams_from_address`).",
            ),
            RETRY_AFTER,
        ],
        responses={200: AccountEventsSerializer, **problems(400, 401, 403, 503)},
    )
    def get(self, request: Request) -> Response:
        credential = reader(request)
        query = EventsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        after, limit, wait = (query.validated_data[name] for name in ("after", "limit", "wait"))
        play.seen(credential.account_id)  # a poll is a sign of presence: its seek lives on,
        ladder.seen(credential.account_id)  # and a laddered bot is dealt ladder games
        if wait and inbox.last_sequence(credential.account_id) <= after:
            with hub.reserve(LONG_POLL, client_address(request)):
                seconds = min(wait, settings.LIVE_LONG_POLL_SECONDS)
                inbox_streams.long_poll(credential, after, seconds)
            _refuse_if_revoked(credential)
        rows = inbox.entries(credential.account_id, after, limit)
        body = {
            "entries": [inbox_streams.entry_data(row) for row in rows],
            "last_sequence": inbox.last_sequence(credential.account_id),
        }
        return Response(body)


def _refuse_if_revoked(credential: AccountCredential) -> None:
    """401 for a token revoked (or an account deleted) while its long poll waited."""
    if not inbox_streams.still_valid(credential):
        raise InvalidToken("This personal token is revoked, or of no account.")

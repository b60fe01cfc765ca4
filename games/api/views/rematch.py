"""The rematch: a finished game's players ask for the next game, one for all of them
(`play.rematch`)."""

from __future__ import annotations

from functools import partial
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request

import play
from accounts.credentials import AccountCredential
from games import core
from games.api.headers import idempotency_key, seat_credential
from games.api.inputs import EmptySerializer
from games.api.schema import (
    GAME_ID,
    IDEMPOTENCY_KEY,
    IDEMPOTENT_REPLAYED,
    RETRY_AFTER,
    SEAT_OR_ACCOUNT,
    problems,
)
from games.api.shapes import RematchSerializer
from games.api.views.common import (
    PerViewerView,
    answer_response,
    authenticated_before_bad_request,
    keyed_by_account,
)
from games.core import idempotency
from games.core.tokens import Credential

_DESCRIPTION = """\
By a seat of a finished game: its seat token (or, for an account's seat, the account's \
personal token). The first call, whoever makes it, creates the game's rematch and answers \
201; every later call answers 200 with the same game (idempotent across the seats, as \
boardgame.io's `playAgain`): a game has one rematch. The rematch has the same seats and \
options, a new secret seed and the same `listed`; its `rematch_of` names the old game (and \
the old game's `rematch` names it). The old game's bots (seats joined with `bot`) sit in it at \
once with their strategies; every other player still seated (not one who left the game) has \
a seat kept for them (an account by its account, a guest by its old seat token) for \
`REMATCH_HOLD_SECONDS` (5 minutes), which then opens to anyone. Every account of the old \
game but the caller gets `rematch_offered` `{"game", "next_game"}` on its account stream.

Every call seats its caller in the rematch (the first one too): an account by its account \
(no token: its personal tokens act for the seat); a guest under its old name, with a new seat \
token in `token`, shown this once (the old game's token does not act in the rematch). An \
account seated already gets its seat again. A guest seated already (a retry whose answer was \
lost, without `Idempotency-Key`) gets its seat again with another new token, and the token \
answered before stops working; a guest who left its seat in the rematch is seated anew, if a \
seat is left for it. A rematch may itself be rematched (a chain, followed through \
`rematch_of`).

Refused with 401 `invalid_token` without a token of one of the game's seats (a spectator, a \
seat whose player left: its token is gone), 403 `not_a_player` for an account holding no seat \
of the game (never seated, or its seat left), 409 `game_not_finished` before the game's end \
and `game_canceled` for a game called off (it never was played), and with the join's answers \
when no seat is left for the caller: 409 `game_full` (its seat was not taken in time and \
others filled the rematch), `seat_reserved` (every open seat is kept for others)."""


class RematchView(PerViewerView):
    """A finished game's players ask for the next game, one for all of them."""

    @extend_schema(
        operation_id="rematch",
        summary="Rematch a finished game",
        description=_DESCRIPTION,
        tags=["lobby"],
        auth=SEAT_OR_ACCOUNT,
        request=None,
        parameters=[GAME_ID, IDEMPOTENCY_KEY, IDEMPOTENT_REPLAYED, RETRY_AFTER],
        responses={
            201: RematchSerializer,
            200: RematchSerializer,
            **problems(400, 401, 403, 404, 409, 413, 415, 422),
        },
    )
    def post(self, request: Request, game_id: str) -> Any:
        credential = seat_credential(request)
        caller = partial(_caller, game_id, credential)
        with authenticated_before_bad_request(request, game_id, caller):
            raw = request.data if request.data not in (None, "") else {}
            EmptySerializer(data=raw).is_valid(raise_exception=True)
            key = idempotency_key(request)
        keyed = _rematch_key(request, game_id, credential, key)
        answer = idempotency.run(keyed, lambda _: _rematched(game_id, credential))
        response = answer_response(answer)
        response["Cache-Control"] = "no-store"
        return response


def _caller(game_id: str, credential: Credential | None) -> None:
    """Who asks, checked before what it sent: a seat's token of the game (401), or an account
    by its personal token (scope `play`, 403; whether it sat in the game is the rematch's to
    say, 403 `not_a_player`), in a game that exists (404)."""
    if isinstance(credential, AccountCredential):
        credential.require("play")
        core.game_and_seat(game_id, None, required=False)
    else:
        core.game_and_seat(game_id, credential, required=True)


def _rematch_key(
    request: Request, game_id: str, credential: Credential | None, key: str | None
) -> idempotency.Idempotency | None:
    """A rematch's key belongs to its caller: the account, or the old game's seat (as its
    actions' keys do; 401 for a token of none of its seats)."""
    if key is None:
        return None
    what = ("rematch", str(core.game_uuid(game_id)))
    if isinstance(credential, AccountCredential):
        return keyed_by_account(request, credential.account_id, *what)
    return core.seat_key(game_id, credential, key, idempotency.fingerprint(*what))


def _rematched(game_id: str, credential: Credential | None) -> idempotency.Answer:
    done = play.rematch(game_id, credential)
    body: dict[str, Any] = {"game": str(done.game.id), "seat": done.seat}
    tokens: list[tuple[int, str]] = []
    if done.token is not None:
        body["token"] = done.token
        tokens.append((done.seat, done.token))
    status = 201 if done.created else 200
    return idempotency.Answer(status, body, None, done.game.id, tokens)

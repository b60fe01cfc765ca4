"""`Idempotency-Key` on every POST: a retried request gets the first answer, and acts once.

A key belongs to a scope: a seat of a game for the requests made with that seat's token (its
actions, its token rotation), the client's address for the requests made without one (create,
import, join). The same key with the same request (`fingerprint`) answers the first answer,
byte for byte, marked replayed; with another request, 422 `idempotency_key_reused`. The answer
is stored in the transaction that acts, so of concurrent requests with one key exactly one acts
(the others' insert of the answer collides with its unique (scope, key) and is rolled back).

Seat tokens are never stored, so an answer that holds one (join, rotate, import) cannot be
replayed as it was. It is stored with its tokens cut out; a replay rotates each of those seats'
tokens (only while a seat's token is still the one the key's last answer gave) and puts the new
ones where the old ones were. A client whose answer was lost gets its seat back with a token
that works, and the token it never saw stops working. A request that overlapped the one that
acted is refused (409 `idempotency_key_in_use`) rather than replayed: replaying would retire the
token the concurrent answer is delivering.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.errors import RuleError
from games.core.errors import (
    ConcurrentUpdate,
    IdempotencyKeyInUse,
    IdempotencyKeyReused,
    IdempotencyKeySpent,
    ServiceError,
)
from games.core.resources import render_json
from games.core.tokens import hash_token, new_token
from games.models import GameEvent, IdempotentResponse, Seat
from games.store.errors import is_unique_violation

T = TypeVar("T")

#: Tries of a keyed request: a second one finds the answer of the concurrent request that won.
ATTEMPTS = 3
#: How long after its first answer a request that was answered a seat token may be retried
#: for a new one: long enough for a client to retry a lost answer, too short for a key to
#: become a way into a seat.
TOKEN_REPLAY_WINDOW = timedelta(minutes=2)


@dataclass(frozen=True)
class Idempotency:
    """A request's `Idempotency-Key`, the scope it belongs to, and what the request was."""

    scope: str
    key: str
    fingerprint: str
    arrived: datetime = field(default_factory=timezone.now)


@dataclass(frozen=True)
class Answer:
    """A successful answer: its body as data, or as the bytes rendered (stored or replayed).

    `tokens` are the (seat, token) pairs the body holds, cut out of what is stored."""

    status: int
    body: Any
    version: int | None
    game_id: uuid.UUID | str | None  # None: an answer about no game (a seek)
    tokens: Sequence[tuple[int, str]] = ()
    replayed: bool = False


def seat_scope(game_id: object, seat: int) -> str:
    """The scope of a seat's keys: the game (its canonical id) and the seat."""
    with suppress(ValueError):  # no such game: the service answers 404
        game_id = uuid.UUID(str(game_id))
    return f"seat:{game_id}:{seat}"


def account_scope(account_id: int) -> str:
    """The scope of the keys of an account's requests that no seat holds yet (a join)."""
    return f"account:{account_id}"


def address_scope(address: str | None) -> str:
    """The scope of the keys of requests without a token: the client's address."""
    return f"address:{address or ''}"


def fingerprint(*request: Any) -> str:
    """What tells a retried request from another under one key (canonical JSON, hashed)."""
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _nothing() -> None:
    """No work before the writes: the key is then looked up once, in the write's transaction."""


def run(
    idempotency: Idempotency | None,
    perform: Callable[[T], Answer],
    *,
    prepare: Callable[[], T] = _nothing,  # type: ignore[assignment]
    authorize: Callable[[], object] | None = None,
) -> Answer:
    """`perform` once per key: its answer stored with its writes in one transaction, or the
    stored answer replayed. `prepare` is the work before any write (an import's audit), done
    outside the transaction (on SQLite a transaction holds the write lock of every game) and
    only for a new key: so with one, the key is looked up first on its own. `authorize` (a
    seat's requests) runs before a mismatch is told, so that only the key's owner learns it
    was used."""
    if idempotency is None:
        return perform(prepare())
    if prepare is not _nothing:
        with transaction.atomic():
            earlier = earlier_answer(idempotency, authorize=authorize)
        if earlier is not None:
            return earlier
    prepared = prepare()
    for _ in range(ATTEMPTS):
        try:
            with transaction.atomic():
                earlier = earlier_answer(idempotency, authorize=authorize)
                return earlier if earlier is not None else store(idempotency, perform(prepared))
        except IntegrityError as error:
            if not _is_key_collision(error):
                raise
        except (ServiceError, RuleError):
            answered = _answered_meanwhile(idempotency, authorize)
            if answered is None:
                raise
            return answered
    raise ConcurrentUpdate()


def _answered_meanwhile(
    idempotency: Idempotency, authorize: Callable[[], object] | None
) -> Answer | None:
    """The answer a concurrent request with the same key stored while this one performed: its
    own attempt, decided on the state that answer left, was refused (a card already held,
    say), and its retry gets the first answer, as a retry after it would."""
    with transaction.atomic():
        return earlier_answer(idempotency, authorize=authorize)


def _is_key_collision(error: IntegrityError) -> bool:
    return is_unique_violation(error)


def earlier_answer(
    idempotency: Idempotency, *, authorize: Callable[[], object] | None = None
) -> Answer | None:
    """The stored answer to this key, replayed; None if the key is new; 422 if it answered
    another request."""
    record = IdempotentResponse.objects.filter(scope=idempotency.scope, key=idempotency.key).first()
    if record is None:
        return None
    if record.request_hash != idempotency.fingerprint:
        if authorize is not None:
            authorize()
        raise IdempotencyKeyReused()
    body = _with_new_tokens(record, idempotency) if record.token_slots else record.body
    return Answer(record.status_code, body.encode(), record.version, record.game_id, replayed=True)


def store(idempotency: Idempotency, answer: Answer) -> Answer:
    """Keep `answer` for the key (in the caller's transaction); answer it rendered."""
    content = render_json(answer.body).decode()
    text, slots = _cut_tokens(content, answer.tokens)
    IdempotentResponse.objects.create(
        game_id=answer.game_id,
        scope=idempotency.scope,
        key=idempotency.key,
        request_hash=idempotency.fingerprint,
        status_code=answer.status,
        body=text,
        version=answer.version or 0,
        token_slots=slots,
    )
    return replace(answer, body=content.encode())


def _cut_tokens(content: str, tokens: Sequence[tuple[int, str]]) -> tuple[str, list[Any]]:
    """`content` without the tokens, and their slots: `[offset in the cut text, seat, hash]`."""
    found = sorted((content.index(f'"{token}"') + 1, seat, token) for seat, token in tokens)
    pieces, slots, last, removed = [], [], 0, 0
    for offset, seat, token in found:
        pieces.append(content[last:offset])
        slots.append([offset - removed, seat, hash_token(token)])
        last, removed = offset + len(token), removed + len(token)
    pieces.append(content[last:])
    return "".join(pieces), slots


def _with_new_tokens(record: IdempotentResponse, idempotency: Idempotency) -> str:
    """The stored answer with a new token in each slot, each seat's token rotated to it (all
    or none, in the caller's transaction)."""
    if record.updated_at > idempotency.arrived:
        raise IdempotencyKeyInUse()
    if not _token_replay_allowed(record, idempotency):
        raise IdempotencyKeySpent()
    pieces, slots, last = [], [], 0
    for offset, seat, old_hash in record.token_slots:
        token = new_token()
        seat_row = Seat.objects.filter(game_id=record.game_id, seat=seat, token_hash=old_hash)
        if seat_row.update(token_hash=hash_token(token)) != 1:
            raise _spent_or_in_use(record, idempotency)
        pieces += [record.body[last:offset], token]
        slots.append([offset, seat, hash_token(token)])
        last = offset
    pieces.append(record.body[last:])
    answered = IdempotentResponse.objects.filter(pk=record.pk, updated_at=record.updated_at)
    if answered.update(token_slots=slots, updated_at=timezone.now()) != 1:
        raise IdempotencyKeyInUse()
    return "".join(pieces)


def _token_replay_allowed(record: IdempotentResponse, idempotency: Idempotency) -> bool:
    """A lost answer's seat is given back only soon after it was first answered, and only
    while none of its seats has acted since: a seat that acted holds a working token, and a
    retry of its key must not take the seat from it."""
    if idempotency.arrived - record.created_at > TOKEN_REPLAY_WINDOW:
        return False
    seats = [seat for _, seat, _ in record.token_slots]
    acted = GameEvent.objects.filter(
        game_id=record.game_id, created_at__gt=record.created_at, payload__seat__in=seats
    )
    return not acted.exclude(type="PlayerJoined").exists()


def _spent_or_in_use(
    record: IdempotentResponse, idempotency: Idempotency
) -> IdempotencyKeyInUse | IdempotencyKeySpent:
    """A seat's token is not the one the key's last answer gave: another replay of the key is
    giving one right now (in use), or the seat has rotated it since (spent)."""
    now = IdempotentResponse.objects.filter(pk=record.pk).values_list("updated_at", flat=True)
    if now.first() != record.updated_at:
        return IdempotencyKeyInUse()
    return IdempotencyKeySpent()

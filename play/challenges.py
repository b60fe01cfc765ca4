"""Challenges: an account invites others (by handle) to a game it creates for them, as
lichess's challenges do. The game is created waiting, its challenger and bots seated and each
invitee's seat held (`SeatHold`) until the challenge's `expires_at`; the invitees answer. When
every one accepted, the game deals as any full game (it does by itself when its last seat is
taken). A decline, the challenger's cancel or the expiry close the challenge and call its game
off (`GameCanceled`). Each step writes its letters to the parties' inboxes (their account
streams) in its own transaction, run again if another writer took a letter's number
(`play.conflicts`).

A challenge changes status only from `pending`, under its row's lock (`select_for_update` on
PostgreSQL; SQLite's write lock, taken at the transaction's start): of an accept, a decline, a
cancel and any number of expiry jobs racing for one challenge, the first closes it and the
others find it closed.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet

from accounts.credentials import AccountCredential
from accounts.handles import builtin_handles, handle_key
from accounts.inbox import Letter, deliver
from accounts.models import Account
from accounts.services import find_player
from engine import Options, RuleError
from games import core
from games.core import clock
from games.core.errors import InvalidRequest
from games.core.resources import iso_time
from games.models import Game, Seat, Status
from play.conflicts import retried
from play.errors import (
    AlreadyAnswered,
    ChallengeClosed,
    ChallengeNotFound,
    NotChallenger,
    NotInvited,
)
from play.models import Answer, Challenge, ChallengeStatus, DeclineReason, Invitation

#: How long a challenge waits for its answers, in seconds: by default, and its bounds.
DEFAULT_EXPIRES_IN = 600
MIN_EXPIRES_IN = 10
MAX_EXPIRES_IN = 86_400

#: The letters a challenge writes to its parties' inboxes (their account streams).
CHALLENGE_LETTERS = ("challenge", "challenge_accepted", "challenge_declined", "challenge_canceled")


@dataclass(frozen=True)
class ChallengeRequest:
    """What a challenger asks for: the handles it invites, the game's seats and options, the
    bots seated with it, whether the game is listed in the lobby, the time to answer, and
    whether the game is rated (R14: accounts only, each once; the built-in bots are
    accounts too)."""

    players: Sequence[str]
    seats: int
    options: dict[str, Any] | None = None
    bots: Sequence[str] = ()
    listed: bool = False
    expires_in: int = DEFAULT_EXPIRES_IN
    rated: bool = False


@retried
def create_challenge(challenger: AccountCredential, request: ChallengeRequest) -> Challenge:
    """The challenge and its game, all in one transaction: the game created waiting, the
    challenger seated (its account's seat: the token needs `play` as well), the bots seated,
    each invitee's seat held until the expiry, the invitations, the `challenge` letters and
    the expiry's job. 400 `invalid_request` for the challenger among the players, a handle
    named twice, a built-in bot's handle (seat those with `bots`), too few seats, or a bot
    named twice in a rated game; 404 `player_not_found` for a handle of no live account."""
    challenger.require("challenge:write")
    challenger.require("play")
    invitees = _invitees(challenger, request.players)
    _check_seats(request)
    _check_bots(request)
    expires_at = clock.now() + timedelta(seconds=request.expires_in)
    with transaction.atomic():
        game = _seated_game(challenger, request)
        core.hold_seats(game, [account.id for account in invitees], expires_at=expires_at)
        challenge = Challenge.objects.create(
            game=game,
            challenger_id=challenger.account_id,
            expires_at=expires_at,
            bots=list(request.bots),
            rated=request.rated,
        )
        challenge = _invite(challenge, invitees)
        _schedule_expiry(challenge)
    return challenge


def _invite(challenge: Challenge, invitees: list[Account]) -> Challenge:
    """The invitations, and to each invitee the `challenge` letter: the challenge as its
    parties read it, and its id as `challenge`, as in its other letters."""
    Invitation.objects.bulk_create(
        Invitation(challenge=challenge, account=account) for account in invitees
    )
    challenge = _read(challenge.id)
    body = {"challenge": str(challenge.id), **challenge_data(challenge)}
    deliver([Letter(account.handle, "challenge", body) for account in invitees])
    return challenge


def _invitees(challenger: AccountCredential, handles: Sequence[str]) -> list[Account]:
    """The accounts the challenge invites, in the order named: each once, none the
    challenger's own or a built-in bot's (400, naming `players`); 404 for an unknown one."""
    keys = [handle_key(handle) for handle in handles]
    errors = []
    if handle_key(challenger.handle) in keys:
        errors.append("You cannot challenge yourself: you take your seat as the challenger.")
    if len(set(keys)) != len(keys):
        errors.append("Name each player once.")
    if set(keys) & set(builtin_handles()):
        errors.append("The built-in bots are seated with `bots`, not challenged.")
    if errors:
        raise InvalidRequest("These players cannot be challenged.", errors={"players": errors})
    return [find_player(handle) for handle in handles]


def _check_seats(request: ChallengeRequest) -> None:
    """The game seats the challenger, each invitee and each bot (400 `invalid_request`, naming
    `seats`, otherwise); seats beyond those are open to anyone with the game's link."""
    needed = 1 + len(request.players) + len(request.bots)
    if request.seats < needed:
        raise InvalidRequest(
            "The game has too few seats for the challenger, its players and its bots.",
            errors={"seats": [f"Ensure this value is at least {needed}."]},
        )


def _check_bots(request: ChallengeRequest) -> None:
    """A rated game seats each account once, and a built-in bot is its strategy's account
    (R14): each strategy once (400 `invalid_request`, naming `bots`, otherwise)."""
    if request.rated and len(set(request.bots)) != len(request.bots):
        raise InvalidRequest(
            "A rated game seats each built-in bot once: it is one account.",
            errors={"bots": ["Name each bot once in a rated challenge."]},
        )


def _seated_game(challenger: AccountCredential, request: ChallengeRequest) -> Game:
    """The challenge's game, waiting, with the challenger in seat 0 and the bots after it."""
    game = core.create_game(
        seats=request.seats,
        options=request.options,
        seed=None,
        listed=request.listed,
        created_by=challenger,
        rated=request.rated,
    )
    game = core.join_game(game.id, challenger.handle, account=challenger).game
    for bot in request.bots:
        game = core.join_game(game.id, None, bot).game
    return game


def _schedule_expiry(challenge: Challenge) -> None:
    """The job that expires the challenge at its `expires_at`, queued in its transaction (the
    workers' sweep expires any a job missed: `expire_due_challenges`)."""
    from play import tasks  # the task's body imports this module: not at load time

    tasks.expire_challenge.using(run_after=challenge.expires_at).enqueue(str(challenge.id))


@retried
def accept_challenge(invitee: AccountCredential, challenge_id: object) -> Challenge:
    """The invitee takes its held seat (the token needs `play` as well); once every invitee
    has, the challenge is `accepted` (the game dealt when its last seat was taken). Letters
    `challenge_accepted` to every party. 403 `not_invited` for its challenger, 409
    `already_answered` for an invitee who answered, 409 `challenge_closed` once it is not
    pending."""
    invitee.require("challenge:write")
    invitee.require("play")
    with transaction.atomic():
        challenge = _locked(challenge_id, invitee)
        invitation = _open_invitation(challenge, invitee)
        _answer(invitation, Answer.ACCEPTED)
        payload = {"handle": invitee.handle}  # told before the game's own letters, if it deals
        deliver(_letters(challenge, _parties(challenge), "challenge_accepted", payload))
        seated = Seat.objects.filter(game_id=challenge.game_id, account_id=invitee.account_id)
        if not seated.exists():  # one that joined the game itself sits already: it answers
            core.join_game(challenge.game_id, invitee.handle, account=invitee)
        if not challenge.invitations.exclude(answer=Answer.ACCEPTED).exists():
            _close(challenge, ChallengeStatus.ACCEPTED)
        return _read(challenge.id)


@retried
def decline_challenge(
    invitee: AccountCredential, challenge_id: object, reason: str = "generic"
) -> Challenge:
    """The invitee declines, for `reason` (`DeclineReason`): the challenge is `declined` and
    its game called off (`GameCanceled`, reason `declined`). Letters: `challenge_declined`
    (`handle`, `reason`) to the challenger and to the invitee, `challenge_canceled` (reason
    `declined`) to the other invitees. Refusals as for `accept_challenge`."""
    invitee.require("challenge:write")
    if reason not in DeclineReason.values:
        choices = ", ".join(DeclineReason.values)
        raise InvalidRequest("No such reason.", errors={"reason": [f"One of: {choices}."]})
    with transaction.atomic():
        challenge = _locked(challenge_id, invitee)
        invitation = _open_invitation(challenge, invitee)
        _answer(invitation, Answer.DECLINED, reason)
        _close(challenge, ChallengeStatus.DECLINED)
        _call_off(challenge, "declined")
        told = [challenge.challenger.handle, invitee.handle]
        others = [handle for handle in _parties(challenge) if handle not in told]
        payload = {"handle": invitee.handle, "reason": reason}
        deliver(
            _letters(challenge, told, "challenge_declined", payload)
            + _letters(challenge, others, "challenge_canceled", {"reason": "declined"})
        )
        return _read(challenge.id)


@retried
def cancel_challenge(challenger: AccountCredential, challenge_id: object) -> Challenge:
    """The challenger calls its challenge off: `canceled`, its game too (`GameCanceled`,
    reason `canceled`); `challenge_canceled` to every party. 403 `not_challenger` for an
    invitee, 409 `challenge_closed` once it is not pending."""
    challenger.require("challenge:write")
    with transaction.atomic():
        challenge = _locked(challenge_id, challenger)
        if challenge.challenger_id != challenger.account_id:
            raise NotChallenger()
        _refuse_unless_pending(challenge)
        _close(challenge, ChallengeStatus.CANCELED)
        _call_off(challenge, "canceled")
        payload = {"reason": "canceled"}
        deliver(_letters(challenge, _parties(challenge), "challenge_canceled", payload))
        return _read(challenge.id)


@retried
def expire_challenge(challenge_id: uuid.UUID) -> bool:
    """The challenge `expired`, if it is still pending at its `expires_at`, its game called off
    (reason `expired`) and `challenge_canceled` sent to every party; answers whether it acted.
    Exactly once however many workers try at once: the first holds the row, the others find
    it closed. A game that dealt meanwhile (its invitees joined it rather than accept) is
    under way: its challenge is closed `accepted`, as `status_of` already said."""
    with transaction.atomic():
        due = Challenge.objects.filter(
            pk=challenge_id, status=ChallengeStatus.PENDING, expires_at__lte=clock.now()
        )
        challenge = due.select_related("game").select_for_update(of=("self",)).first()
        if challenge is None:
            return False
        if status_of(challenge) == ChallengeStatus.ACCEPTED:
            _close(challenge, ChallengeStatus.ACCEPTED)
            return True
        _close(challenge, ChallengeStatus.EXPIRED)
        _call_off(challenge, "expired")
        payload = {"reason": "expired"}
        deliver(_letters(challenge, _parties(challenge), "challenge_canceled", payload))
        return True


def expire_due_challenges() -> int:
    """The workers' sweep step (`play.sweep`): expire every pending challenge whose time is
    up and whose job has not (a worker down at its time, say); answers how many it expired."""
    due = Challenge.objects.filter(status=ChallengeStatus.PENDING, expires_at__lte=clock.now())
    return sum(expire_challenge(pk) for pk in list(due.values_list("pk", flat=True)[:500]))


def challenge_of(account: AccountCredential, challenge_id: object) -> Challenge:
    """The challenge, for its challenger or an invitee (404 for anyone else)."""
    challenge = _read(_challenge_uuid(challenge_id))
    if not _is_party(challenge, account.account_id):
        raise ChallengeNotFound(challenge_id)
    return challenge


def challenges_of(
    account_id: int, direction: str | None = None, status: str | None = None
) -> QuerySet[Challenge]:
    """The account's challenges, newest first: those it received (`incoming`), sent
    (`outgoing`) or both, in `status` (as `status_of` says it: a pending one past its time
    is `expired`)."""
    incoming = Q(id__in=Invitation.objects.filter(account_id=account_id).values("challenge_id"))
    outgoing = Q(challenger_id=account_id)
    where = {"incoming": incoming, "outgoing": outgoing}.get(direction or "", incoming | outgoing)
    rows = _with_parties(Challenge.objects.filter(where))
    if status is not None:
        rows = rows.filter(_in_status(status))
    return rows.order_by("-created_at", "-id")


def _in_status(status: str) -> Q:
    """Challenges whose `status_of` is `status`."""
    pending = Q(status=ChallengeStatus.PENDING)
    dealt = pending & ~Q(game__status=Status.WAITING)
    late = pending & Q(game__status=Status.WAITING, expires_at__lte=clock.now())
    if status == ChallengeStatus.PENDING:
        return pending & ~dealt & ~late
    if status == ChallengeStatus.ACCEPTED:
        return Q(status=status) | dealt
    if status == ChallengeStatus.EXPIRED:
        return Q(status=status) | late
    return Q(status=status)


def status_of(challenge: Challenge) -> str:
    """The challenge's status as its parties see it, whether or not its expiry's job has run
    yet: a pending one whose game has dealt is `accepted` (its invitees took their held seats
    by joining it), one past its `expires_at` `expired`."""
    if challenge.status != ChallengeStatus.PENDING:
        return str(challenge.status)
    if challenge.game.status != Status.WAITING:
        return ChallengeStatus.ACCEPTED
    if challenge.expires_at <= clock.now():
        return ChallengeStatus.EXPIRED
    return ChallengeStatus.PENDING


def challenge_data(challenge: Challenge) -> dict[str, Any]:
    """The challenge as its parties read it (`GET /api/v1/challenges/{id}`, the `challenge`
    letter): plain data, the shapes `games.api.shapes` documents."""
    game = challenge.game
    return {
        "id": str(challenge.id),
        "game": str(game.id),
        "status": status_of(challenge),
        "challenger": challenge.challenger.handle,
        "invitees": [
            {"handle": row.account.handle, "answer": row.answer, "reason": row.reason}
            for row in challenge.invitations.all()
        ],
        "seats": game.seats,
        "options": Options.from_data(game.options).to_data(),
        "bots": list(challenge.bots),
        "listed": game.listed,
        "rated": challenge.rated,
        "created_at": iso_time(challenge.created_at),
        "expires_at": iso_time(challenge.expires_at),
    }


def _with_parties(rows: QuerySet[Challenge]) -> QuerySet[Challenge]:
    return rows.select_related("challenger", "game").prefetch_related("invitations__account")


def _read(challenge_id: uuid.UUID) -> Challenge:
    challenge = _with_parties(Challenge.objects.filter(pk=challenge_id)).first()
    if challenge is None:
        raise ChallengeNotFound(challenge_id)
    return challenge


def _challenge_uuid(challenge_id: object) -> uuid.UUID:
    """The id as a UUID (404 for anything else)."""
    try:
        return uuid.UUID(str(challenge_id))
    except ValueError:
        raise ChallengeNotFound(challenge_id) from None


def _locked(challenge_id: object, account: AccountCredential) -> Challenge:
    """The challenge, its row locked to the end of the transaction, for one of its parties
    (404 for anyone else)."""
    rows = Challenge.objects.select_related("challenger", "game").select_for_update(of=("self",))
    challenge = rows.filter(pk=_challenge_uuid(challenge_id)).first()
    if challenge is None or not _is_party(challenge, account.account_id):
        raise ChallengeNotFound(challenge_id)
    return challenge


def _is_party(challenge: Challenge, account_id: int) -> bool:
    if challenge.challenger_id == account_id:
        return True
    return challenge.invitations.filter(account_id=account_id).exists()


def _open_invitation(challenge: Challenge, invitee: AccountCredential) -> Invitation:
    """The invitee's invitation, while the challenge is pending and it has not answered."""
    invitation = challenge.invitations.filter(account_id=invitee.account_id).first()
    if invitation is None:
        raise NotInvited()
    _refuse_unless_pending(challenge)
    if invitation.answer != Answer.PENDING:
        raise AlreadyAnswered(str(invitation.answer))
    return invitation


def _refuse_unless_pending(challenge: Challenge) -> None:
    status = status_of(challenge)
    if status != ChallengeStatus.PENDING:
        raise ChallengeClosed(status)


def _answer(invitation: Invitation, answer: str, reason: str | None = None) -> None:
    invitation.answer, invitation.reason, invitation.answered_at = answer, reason, clock.now()
    invitation.save(update_fields=["answer", "reason", "answered_at"])


def _close(challenge: Challenge, status: str) -> None:
    """The challenge leaves `pending` for `status` (its row is locked: no one else can)."""
    closed = Challenge.objects.filter(pk=challenge.pk, status=ChallengeStatus.PENDING)
    if closed.update(status=status) != 1:  # never, under the lock: the guard of last resort
        raise ChallengeClosed(status_of(_read(challenge.pk)))
    challenge.status = status


def _call_off(challenge: Challenge, reason: str) -> None:
    """The challenge's game canceled for `reason`, if it still waits: one that started (its
    seats taken once their holds expired, say) is played out."""
    if core.get_game(challenge.game_id).status != Status.WAITING:
        return
    try:
        core.cancel_game(challenge.game_id, reason)
    except RuleError:  # it started meanwhile: played out, as above
        return


def _parties(challenge: Challenge) -> list[str]:
    """The handles of the challenger and of every invitee."""
    invitees = challenge.invitations.select_related("account").order_by("id")
    return [challenge.challenger.handle, *(row.account.handle for row in invitees)]


def _letters(
    challenge: Challenge, handles: Sequence[str], kind: str, payload: dict[str, Any]
) -> list[Letter]:
    """A letter of `kind` about the challenge to each of `handles`."""
    about = {"challenge": str(challenge.id), "game": str(challenge.game_id), **payload}
    return [Letter(handle, kind, about) for handle in handles]

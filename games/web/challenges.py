"""The challenges on the pages: the lobby's "Challenge players" (a challenge instead of an
open game), a logged-in person's challenges in the lobby (Accept, Decline with a reason,
Cancel), through play's use cases as the API's are. Accepting opens the table."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

import play
from accounts.credentials import AccountCredential
from accounts.errors import Refusal
from engine.errors import RuleError
from games.api.throttling import challenge_wait
from games.web.forms import CreateGameForm, DeclineForm
from games.web.limits import rate_limited
from games.web.seats import person_credential

View = Callable[..., HttpResponse]


def challenges_context(person: AccountCredential | None) -> dict[str, Any]:
    """The person's pending challenges for the lobby: those to answer (`incoming`, each with
    its decline form) and those made (`outgoing`); none for a guest."""
    if person is None:
        return {"incoming": [], "outgoing": []}
    incoming = play.challenges_of(person.account_id, "incoming", "pending")
    outgoing = play.challenges_of(person.account_id, "outgoing", "pending")
    return {
        "incoming": [
            {**play.challenge_data(c), "decline_form": DeclineForm(auto_id=f"decline-{c.id}-%s")}
            for c in incoming
        ],
        "outgoing": [play.challenge_data(c) for c in outgoing],
    }


def may_challenge(request: HttpRequest, person: AccountCredential, bots: int) -> bool:
    """The API's limits hold for the pages, counted as the API counts them (`challenge_wait`):
    challenges per account, bot seats per address; asked once the form is valid, before the
    challenge is made."""
    return challenge_wait(request, person, bots) is None


def create_challenge(person: AccountCredential, form: CreateGameForm) -> str | None:
    """The form's challenge, made: its game's id; None when refused (the refusal is then on
    the form: an unknown handle, too few seats...)."""
    asked = play.ChallengeRequest(
        players=form.cleaned_data["challenge"],
        seats=form.cleaned_data["seats"],
        options=form.options(),
        bots=form.chosen_bots(),
    )
    try:
        made = play.create_challenge(person, asked)
    except Refusal as refused:
        field = "seats" if "seats" in refused.extra.get("errors", {}) else "challenge"
        form.add_error(field, refused.detail)
        return None
    return str(made.game_id)


def person_only(view: View) -> View:
    """A challenge's page action, for a logged-in person (a guest is sent to log in)."""

    @wraps(view)
    def page(request: HttpRequest, challenge_id: str) -> HttpResponse:
        person = person_credential(request)
        if person is None:
            messages.error(request, "Log in to answer challenges.")
            return redirect("web:login")
        try:
            return view(request, person, challenge_id)
        except (Refusal, RuleError) as refused:
            detail = refused.detail if isinstance(refused, Refusal) else refused.message
            messages.error(request, detail)
            return redirect("web:lobby")

    return page


@require_POST
@rate_limited
@person_only
def accept(request: HttpRequest, person: AccountCredential, challenge_id: str) -> HttpResponse:
    """Take the seat held for the person, and open the game's table."""
    challenge = play.accept_challenge(person, challenge_id)
    return redirect("web:table", game_id=challenge.game_id)


@require_POST
@rate_limited
@person_only
def decline(request: HttpRequest, person: AccountCredential, challenge_id: str) -> HttpResponse:
    """Decline, with the reason chosen (the challenger reads it); back to the lobby."""
    form = DeclineForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else "generic"
    challenge = play.decline_challenge(person, challenge_id, reason)
    messages.info(request, f"You declined {challenge.challenger.handle}'s challenge.")
    return redirect("web:lobby")


@require_POST
@rate_limited
@person_only
def cancel(request: HttpRequest, person: AccountCredential, challenge_id: str) -> HttpResponse:
    """Call the person's challenge off (its game too); back to the lobby."""
    play.cancel_challenge(person, challenge_id)
    messages.info(request, "Your challenge is canceled.")
    return redirect("web:lobby")

"""The accounts' pages: sign up, log in and out (Django's auth views), and `/account` (the
profile, the person's games, their personal tokens).

A session's guest seats (`games.web.seats`) belong to the browser: a login or logout keeps
them, though Django's `login` and `logout` give the session a new key (and `logout`, or a login
as someone else, empties it). Logins are throttled per address and, apart, per handle by
django-axes (settings `AXES_*`); a locked-out login answers like a wrong password, with
`Retry-After` (`locked_out`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services
from accounts.credentials import AccountCredential
from accounts.errors import TokenNotFound
from accounts.handles import handle_key
from accounts.models import Account
from games.api.throttling import AddressRateThrottle, CountingThrottle
from games.web.account_forms import LoginForm, SignupForm, TokenForm
from games.web.limits import rate_limited
from games.web.seats import games_of, kept_seats, person_credential, restore_seats

#: The backend a new account is logged in with (it proved its password by choosing it).
SIGNUP_BACKEND = "django.contrib.auth.backends.ModelBackend"


class SignupThrottle(CountingThrottle):
    """New accounts per address per hour: the API's `account_create` limit, counted alike."""

    scope = "account_create"

    def page_key(self, request: HttpRequest, credential: Any) -> str | None:
        return self.key_of(self.get_ident(request))


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the rate limits see it (`NUM_PROXIES`), for axes; None for a
    request that has none (a test's `force_login`): an address column holds no "None"."""
    ident = AddressRateThrottle().get_ident(request)
    return str(ident) if ident else None


def login_handle(request: HttpRequest, credentials: Mapping[str, Any] | None) -> str:
    """The handle a login tried, in lower case (as `LoginForm` looks it up), for axes."""
    typed = (credentials or {}).get("username") or request.POST.get("username", "")
    return handle_key(str(typed))


def locked_out(
    request: HttpRequest, response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """A login refused by the lockout: the page a wrong password gets (the login form with its
    error: the backend refused before any password was checked), plus `Retry-After`, the
    cool-off's seconds. The middleware always passes the view's answer; a bare form stands in
    for a caller that does not."""
    answer = response or render(request, LoginPage.template_name, {"form": LoginForm(request)})
    cool_off = get_cool_off(request)
    answer["Retry-After"] = str(math.ceil(cool_off.total_seconds()) if cool_off else 3600)
    return answer


class LoginPage(LoginView):
    """Django's login, by handle, keeping the browser's guest seats across the new session."""

    template_name = "games/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_valid(self, form: LoginForm) -> HttpResponse:
        held = kept_seats(self.request)
        response = super().form_valid(form)
        restore_seats(self.request, held)
        return response


class LogoutPage(LogoutView):
    """Django's logout (a POST), keeping the browser's guest seats in the new session."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        held = kept_seats(request)
        response = super().post(request, *args, **kwargs)
        restore_seats(request, held)
        return response


@require_http_methods(["GET", "POST"])
@never_cache
@rate_limited
def signup(request: HttpRequest) -> HttpResponse:
    """A person's new account, logged in at once; its first token (every scope) shown once."""
    if person_credential(request) is not None:
        return redirect("web:account")
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "GET" or not form.is_valid():
        return _signup_page(request, form)
    if settings.THROTTLING and not SignupThrottle().allow_key(
        SignupThrottle().page_key(request, None)
    ):
        form.add_error(None, "Too many accounts created from your address: wait a while.")
        return _signup_page(request, form, status=429)
    signed = form.sign_up()
    if signed is None:
        return _signup_page(request, form)
    held = kept_seats(request)
    login(request, signed.account.user, backend=SIGNUP_BACKEND)
    restore_seats(request, held)
    return _account_page(request, signed.account, new_token=signed.token.token)


def _signup_page(request: HttpRequest, form: SignupForm, status: int | None = None) -> HttpResponse:
    status = status or (400 if form.is_bound else 200)
    return render(request, "games/signup.html", {"form": form}, status=status)


def _person(request: HttpRequest) -> tuple[AccountCredential, Account]:
    """The logged-in person's credential and account (the views are `login_required`)."""
    credential = person_credential(request)
    assert credential is not None, "a User without a live account is never logged in"
    return credential, services.live_account(credential)


@require_http_methods(["GET"])
@login_required
@never_cache
@rate_limited
def account(request: HttpRequest) -> HttpResponse:
    """The profile, the person's games (their turn first) and their tokens."""
    return _account_page(request, _person(request)[1])


def _account_page(
    request: HttpRequest,
    account: Account,
    *,
    new_token: str = "",
    form: TokenForm | None = None,
    status: int = 200,
) -> HttpResponse:
    credential = services.session_credential(account)
    games = games_of(credential)
    context = {
        "account": account,
        "games": games,
        "tokens": services.tokens_of(credential),
        "token_form": form or TokenForm(),
        "new_token": new_token,
    }
    return render(request, "games/account.html", context, status=status)


@require_POST
@login_required
@never_cache
@rate_limited
def create_token(request: HttpRequest) -> HttpResponse:
    """A new token with the scopes checked, shown this once (never kept in the session)."""
    credential, person = _person(request)
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _account_page(request, person, form=form, status=400)
    made = services.create_token(
        credential, form.cleaned_data["description"], form.cleaned_data["scopes"]
    )
    return _account_page(request, person, new_token=made.token)


@require_POST
@login_required
@rate_limited
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    """The token stops working at once (within a second in every process)."""
    credential, _ = _person(request)
    try:
        services.revoke_token(credential, token_id)
    except TokenNotFound:
        messages.error(request, "You have no such token.")
    else:
        messages.info(request, "The token is revoked.")
    return redirect("web:account")


def person(request: HttpRequest) -> dict[str, Any]:
    """A context processor: the logged-in person's credential (`person.handle`), or None."""
    return {"person": person_credential(request)}

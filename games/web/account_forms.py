"""The accounts' forms: signing up (through `accounts.services.sign_up`), logging in by handle
in any case (Django's `AuthenticationForm`), and a new token's description and scopes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from accounts import services
from accounts.errors import HandleTaken, PasswordNotAllowed, WeakPassword
from accounts.handles import handle_key, is_well_formed
from accounts.models import Kind
from accounts.scopes import SCOPES

HANDLE_RULE = "3 to 20 letters, digits, _ or -, starting with a letter."


class SignupForm(forms.Form):
    """A person's new account: a handle and a password typed twice."""

    handle = forms.CharField(
        max_length=20,
        label="Handle",
        help_text=HANDLE_RULE,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    password = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password_again = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean_handle(self) -> str:
        handle = str(self.cleaned_data["handle"])
        if not is_well_formed(handle):
            raise ValidationError(f"Handles are {HANDLE_RULE}")
        return handle

    def clean(self) -> dict[str, Any] | None:
        data = super().clean() or {}
        if data.get("password") != data.get("password_again"):
            self.add_error("password_again", "The two passwords differ.")
        return data

    def sign_up(self) -> services.SignedUp | None:
        """The new account, or None with the service's refusal put on its field."""
        try:
            return services.sign_up(
                self.cleaned_data["handle"], Kind.PERSON, self.cleaned_data["password"]
            )
        except HandleTaken as taken:
            self.add_error("handle", taken.detail)
        except (WeakPassword, PasswordNotAllowed) as weak:
            self.add_error("password", weak.detail)
        return None


class LoginForm(AuthenticationForm):
    """Django's login form, by handle in any case (a person's `User` is named by the handle in
    lower case); a login without a live person's account (a bot has none) is refused as a
    wrong password is."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "Wrong handle or password.",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["username"].label = "Handle"
        self.fields["username"].widget.attrs["autocapitalize"] = "none"

    def clean_username(self) -> str:
        return handle_key(str(self.cleaned_data["username"]))

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        if services.account_of_user(user) is None:
            raise self.get_invalid_login_error()


class TokenForm(forms.Form):
    """A new personal token: what it is for, and its scopes (at least one)."""

    description = forms.CharField(
        max_length=100, required=False, label="What it is for", help_text="Optional."
    )
    scopes = forms.MultipleChoiceField(
        choices=[(scope, f"{scope}: {words}") for scope, words in SCOPES.items()],
        widget=forms.CheckboxSelectMultiple,
        label="Scopes",
        initial=["play"],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

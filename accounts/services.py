"""The accounts' use cases: sign up a person or a bot, its tokens, deletion, and finding an
account by its handle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import credentials
from accounts.credentials import AccountCredential
from accounts.errors import (
    HandleTaken,
    PasswordNotAllowed,
    PlayerNotFound,
    TokenNotFound,
    WeakPassword,
)
from accounts.handles import builtin_handles, handle_key, is_reserved
from accounts.models import Account, Kind, PersonalToken
from accounts.scopes import ALL_SCOPES


@dataclass(frozen=True)
class NewToken:
    """A token just made: its row, and the token itself, shown this once."""

    row: PersonalToken
    token: str


@dataclass(frozen=True)
class SignedUp:
    account: Account
    token: NewToken


def sign_up(
    handle: str, kind: str, password: str | None, creator: AccountCredential | None = None
) -> SignedUp:
    """A new account and its first token (every scope). A person needs a password that
    Django's validators accept; a bot has none. A bot made with a person's token records that
    person as its owner. 409 `handle_taken` for a handle taken in any case, or reserved."""
    _check_password(kind, handle, password)
    if is_reserved(handle):
        raise HandleTaken(handle)
    owner = creator.account_id if creator is not None and creator.kind == Kind.PERSON else None
    try:
        with transaction.atomic():
            account = _new_account(handle, kind, password, owner)
            token = _new_token(account, "first token", list(ALL_SCOPES))
    except IntegrityError:
        raise HandleTaken(handle) from None
    return SignedUp(account, token)


def _check_password(kind: str, handle: str, password: str | None) -> None:
    if kind == Kind.BOT and password is not None:
        raise PasswordNotAllowed("A bot account has no password: it never logs in to the pages.")
    if kind == Kind.PERSON and not password:
        raise PasswordNotAllowed("A person's account needs a password.")
    if kind == Kind.PERSON:
        try:
            validate_password(password or "", get_user_model()(username=handle))
        except ValidationError as error:
            raise WeakPassword(list(error.messages)) from None


def _new_account(handle: str, kind: str, password: str | None, owner: int | None) -> Account:
    user = None
    if kind == Kind.PERSON:
        user = get_user_model().objects.create_user(username=handle_key(handle), password=password)
    return Account.objects.create(
        handle=handle, handle_key=handle_key(handle), kind=kind, user=user, owner_id=owner
    )


def _new_token(account: Account, description: str, scopes: list[str]) -> NewToken:
    token = credentials.new_personal_token()
    row = PersonalToken.objects.create(
        account=account,
        token_hash=credentials.hash_personal_token(token),
        prefix=token[: credentials.SHOWN_PREFIX_LENGTH],
        description=description,
        scopes=[scope for scope in ALL_SCOPES if scope in scopes],
    )
    return NewToken(row, token)


def create_token(credential: AccountCredential, description: str, scopes: list[str]) -> NewToken:
    """Another token of the account, with `scopes` (validated by the caller)."""
    return _new_token(live_account(credential), description, scopes)


def tokens_of(credential: AccountCredential) -> list[PersonalToken]:
    return list(PersonalToken.objects.filter(account_id=credential.account_id))


def revoke_token(credential: AccountCredential, token_id: int) -> None:
    """The token stops working at once here, and within a second in every process."""
    deleted, _ = PersonalToken.objects.filter(
        account_id=credential.account_id, pk=token_id
    ).delete()
    if not deleted:
        raise TokenNotFound(token_id)
    credentials.REMEMBERED.forget()


def delete_account(credential: AccountCredential) -> None:
    """Tokens, password (the `User`) and profile removed; the handle kept, never reused."""
    with transaction.atomic():
        account = live_account(credential)
        account.tokens.all().delete()
        account.inbox.all().delete()
        user = account.user
        account.user, account.owner, account.deleted_at = None, None, timezone.now()
        account.save(update_fields=["user", "owner", "deleted_at"])
        if user is not None:
            user.delete()
    credentials.REMEMBERED.forget()


def live_account(credential: AccountCredential) -> Account:
    return Account.objects.get(pk=credential.account_id, deleted_at__isnull=True)


def find_player(handle: str) -> Account:
    """The live account with this handle (any case): 404 `player_not_found` otherwise."""
    builtin_account_id(handle_key(handle))
    account = (
        Account.objects.select_related("owner")
        .filter(handle_key=handle_key(handle), deleted_at__isnull=True)
        .first()
    )
    if account is None:
        raise PlayerNotFound(handle)
    return account


def account_of_user(user: Any) -> Account | None:
    """The account a logged-in person (a Django `User`) is, if any."""
    if user is None or not user.is_authenticated:
        return None
    return Account.objects.filter(user=user, deleted_at__isnull=True).first()


def session_credential(account: Account) -> AccountCredential:
    """What a logged-in person's pages act with: the account, every scope (a session is the
    person themself, not a token they handed out). No token: `token_id` 0."""
    scopes = frozenset(ALL_SCOPES)
    return AccountCredential(account.id, account.handle, account.kind, scopes, 0, "")


def acting_for(account_id: int) -> AccountCredential:
    """What the service acts with when it seats an account on the account's own earlier
    request (a seek matched, a challenge's game): the account, with the `play` scope that
    request needed. No token: `token_id` 0."""
    account = Account.objects.get(pk=account_id)
    return AccountCredential(account.id, account.handle, account.kind, frozenset({"play"}), 0, "")


def builtin_account_id(strategy: str) -> int | None:
    """The id of the system bot account of a built-in strategy, None for a name of no
    strategy (the rules refuse it). The migrations create them; one found missing (a database
    emptied since) is made again."""
    if strategy not in builtin_handles():
        return None
    account, _ = Account.objects.get_or_create(
        handle_key=strategy, defaults={"handle": strategy, "kind": Kind.BOT, "builtin": True}
    )
    return account.id

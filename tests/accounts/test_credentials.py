"""Personal tokens as a process remembers them: no query a request, every token checked again
in one query once a second at most, a revocation elsewhere seen within that second."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings

from accounts import credentials, services
from accounts.models import PersonalToken

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_memory() -> None:
    credentials.REMEMBERED.forget()


def test_a_known_token_costs_no_query() -> None:
    token = services.sign_up("ada", "bot", None).token.token
    assert credentials.resolve(token) is not None
    with CaptureQueriesContext(connection) as queries:
        for _ in range(50):
            assert credentials.resolve(token) is not None
    assert len(queries) == 0


@override_settings(ACCOUNT_TOKEN_FRESH_SECONDS=0.2)
def test_a_token_revoked_by_another_process_is_refused_within_the_interval() -> None:
    tokens = [services.sign_up(handle, "bot", None).token.token for handle in ("ada", "bob")]
    assert all(credentials.resolve(token) for token in tokens)
    # Revoked behind this process's back, as another server process would.
    PersonalToken.objects.filter(token_hash=credentials.hash_personal_token(tokens[0])).delete()
    assert credentials.resolve(tokens[0]) is not None  # within the interval: as remembered
    time.sleep(0.25)
    with CaptureQueriesContext(connection) as queries:
        assert credentials.resolve(tokens[0]) is None
        assert credentials.resolve(tokens[1]) is not None
    rechecks = [q for q in queries if "token_hash" in q["sql"] and " IN " in q["sql"]]
    assert len(rechecks) == 1  # every remembered token in one query


@override_settings(ACCOUNT_TOKEN_FRESH_SECONDS=5.0)
def test_the_interval_is_a_second_at_most() -> None:
    token = services.sign_up("ada", "bot", None).token.token
    assert credentials.resolve(token) is not None
    PersonalToken.objects.all().delete()
    time.sleep(1.05)
    assert credentials.resolve(token) is None


def test_a_deleted_accounts_tokens_are_refused() -> None:
    signed = services.sign_up("ada", "bot", None)
    assert credentials.resolve(signed.token.token) is not None
    services.delete_account(services.session_credential(signed.account))
    assert credentials.resolve(signed.token.token) is None

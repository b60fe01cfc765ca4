"""The import document fuzzed (issue 12, item 1): a valid history mutated field by field
(values of other JSON types, huge integers, long or odd strings, keys missing or added) is
imported (201) or refused with a problem (400 `invalid_history`), never a 500.

The histories: an exported finished game (every field an export writes, its `game` object
included) and a waiting game (its `GameCreated` and joins, where create's and join's limits
apply). A few dozen examples run in the suite; `slow` runs search longer. Run it on
PostgreSQL too (`DATABASE_URL=postgres://...`): it is where over-long names and `\\u0000`
failed.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.api.import_support import IMPORT, waiting_history
from tests.api.support import GAMES, PROBLEM_JSON, finished_game

pytestmark = pytest.mark.django_db

Path = tuple[str | int, ...]

HUGE_INTEGERS = [2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**20, -(10**20), 10**400]
ODD_STRINGS = [
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\u202eevil",
    "\u2067",
    "\x07",
    "\ud7ff\ue000",
    "\ufb2c" * 40,
    "A" * 65,
    "A" * 100_000,
    "Zoe\u0301",
    "2",
    "true",
    "null",
    "GameCreated",
    "finished",
    "2999-01-01T00:00:00Z",
    "2025-13-45T25:61:00Z",
]
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from(HUGE_INTEGERS)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(ODD_STRINGS)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=6,
)


def paths(value: Any, prefix: Path = ()) -> Iterator[Path]:
    """Every place in a JSON document: the keys of objects and the items of lists."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*prefix, key)
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*prefix, index)
            yield from paths(item, (*prefix, index))


def container(document: Any, path: Path) -> Any:
    """The object or list holding `path`'s last step, if an earlier mutation left it there."""
    for step in path[:-1]:
        if not _holds(document, step):
            return None
        document = document[step]
    return document if _holds(document, path[-1]) else None


def _holds(value: Any, step: str | int) -> bool:
    if isinstance(value, dict):
        return step in value
    return isinstance(value, list) and isinstance(step, int) and step < len(value)


@st.composite
def mutation(draw: st.DrawFn, document: dict[str, Any], places: list[Path]) -> None:
    """Change `document` in one place: replace a value, remove it, or add a key or an item."""
    path = draw(st.sampled_from(places))
    parent = container(document, path)
    if parent is None:
        return  # changed by an earlier mutation of the same example
    kind = draw(st.sampled_from(["replace", "replace", "remove", "add"]))
    if kind == "replace":
        parent[path[-1]] = draw(JSON_VALUES)
    elif kind == "remove":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[draw(st.text(max_size=8) | st.sampled_from(["seed", "seeded", "extra"]))] = draw(
            JSON_VALUES
        )
    else:
        parent.append(draw(JSON_VALUES))


def mutated(base: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Copies of `base` with one to three mutations."""
    places = [path for path in paths(base) if _interesting(path)]

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        document = copy.deepcopy(base)
        for _ in range(draw(st.integers(1, 3))):
            draw(mutation(document, places))
        return document

    return build()


def _interesting(path: Path) -> bool:
    """Leave out most of the cards of decks and reshuffles, which are all alike (the first
    few stay): the search then spends its examples on the fields that differ."""
    return not (len(path) >= 5 and path[3] in ("deck", "order") and path[4] not in (0, 1, 149))


def assert_imported_or_refused(api: APIClient, document: dict[str, Any]) -> None:
    response = api.post(IMPORT, document, format="json")
    assert response.status_code in (201, 400), response.content[:2000]
    if response.status_code == 400:
        assert response["Content-Type"].startswith(PROBLEM_JSON)
        body = response.json()
        assert body["code"] == "invalid_history", body
        assert isinstance(body["rule_code"], str) and body["rule_code"]


def _exported_history() -> dict[str, Any]:
    api = APIClient()
    game_id, _ = finished_game(api, 2, seed=3)
    document: dict[str, Any] = api.get(f"{GAMES}/{game_id}/history").json()
    return document


def fuzz(examples: int) -> settings:
    """Bounded searches; the database (a test's transaction) is the same in every example."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )


WAITING = waiting_history(
    "Ada",
    "Bob",
    seats=3,
    game={
        "id": "5f0c6a43-8a7e-4d3b-9d1e-8a6f1f3c9b2a",
        "created_at": "2025-06-01T12:30:00Z",
        "seats": 3,
        "options": {"end_score": 100, "closer_penalty": True},
        "players": [{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bob"}],
        "status": "waiting",
        "version": 3,
        "winners": None,
        "seeded": False,
    },
)


def test_the_fuzzed_histories_are_valid_before_they_are_mutated(api: APIClient) -> None:
    assert api.post(IMPORT, WAITING, format="json").status_code == 201
    assert api.post(IMPORT, _exported_history(), format="json").status_code == 201


@fuzz(60)
@given(data=st.data())
def test_a_mutated_waiting_history_is_imported_or_refused(api: APIClient, data: Any) -> None:
    assert_imported_or_refused(api, data.draw(mutated(WAITING)))


@pytest.fixture(scope="module")
def exported_history(django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Played once for the module, in a transaction rolled back at once."""
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        document = _exported_history()
        transaction.set_rollback(True)
    yield document


@fuzz(25)
@given(data=st.data())
def test_a_mutated_finished_history_is_imported_or_refused(
    api: APIClient, exported_history: dict[str, Any], data: Any
) -> None:
    assert_imported_or_refused(api, data.draw(mutated(exported_history)))


@pytest.mark.slow
@fuzz(1500)
@given(data=st.data())
def test_a_long_search_of_mutated_waiting_histories(api: APIClient, data: Any) -> None:
    assert_imported_or_refused(api, data.draw(mutated(WAITING)))


@pytest.mark.slow
@fuzz(400)
@given(data=st.data())
def test_a_long_search_of_mutated_finished_histories(
    api: APIClient, exported_history: dict[str, Any], data: Any
) -> None:
    assert_imported_or_refused(api, data.draw(mutated(exported_history)))

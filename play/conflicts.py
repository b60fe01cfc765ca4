"""Play's use cases against lost races: each that writes letters runs again when another
transaction took the number one of them was given (an account's inbox numbers its letters
after its last: `accounts.inbox.deliver`), as core's use cases do."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from games import core

P = ParamSpec("P")
T = TypeVar("T")


def retried(use_case: Callable[P, T]) -> Callable[P, T]:
    """`use_case` (one transaction) run again, reading afresh, after it lost a race on a unique
    index; after a few lost races, 409 `concurrent_update` (`core.retry_on_conflict`)."""

    @functools.wraps(use_case)
    def again_if_raced(*args: P.args, **kwargs: P.kwargs) -> T:
        return core.retry_on_conflict(lambda: use_case(*args, **kwargs))

    return again_if_raced

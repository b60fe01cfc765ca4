"""The database tables of the production rate limits (settings.CACHES without Redis): the
cache's table, and the counts' own (games.window_counter: the cache's `incr` is not atomic).

Created by every `migrate` (games.apps connects it to `post_migrate`), so `make serve`, `make
run`, the test databases and the benchmark's databases have it without a separate
`createcachetable` step; it exists whichever cache the settings select, so turning DEBUG off
(or REDIS_URL off) later needs nothing more. Not models: their rows are the cache's and the
counter's own.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.commands.createcachetable import Command as CreateCacheTable
from django.db import DEFAULT_DB_ALIAS

from games.api.window_counter import create_table


def create_rate_limit_table(using: str = DEFAULT_DB_ALIAS, **_: Any) -> None:
    """`manage.py createcachetable` for the rate limits' table, and the counts' table, on the
    migrated database; a table that exists is left as it is."""
    command = CreateCacheTable()
    command.verbosity = 0
    command.create_table(using, settings.RATE_LIMIT_CACHE_TABLE, dry_run=False)
    create_table(using)

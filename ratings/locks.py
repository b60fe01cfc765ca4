"""The ratings' one-row locks (`RatingsLock`, `LadderLock`): a transaction that updates the row
first runs alone among those that do (a row lock on PostgreSQL, the write lock on SQLite)."""

from __future__ import annotations

from django.db import models
from django.db.models import F


def hold(lock: type[models.Model]) -> None:
    """Wait for any other transaction holding `lock` to end, then hold it until this one ends
    (the row is made on first use)."""
    while not lock._default_manager.filter(pk=1).update(runs=F("runs") + 1):
        lock._default_manager.get_or_create(pk=1)

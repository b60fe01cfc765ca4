"""The bare endpoint's table: one row per request, nothing else."""

from __future__ import annotations

from django.db import models


class Ping(models.Model):
    created_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=64, blank=True)

    def __str__(self) -> str:
        return f"Ping {self.pk}"

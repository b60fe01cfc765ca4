"""Browse games and their logs; the log is read-only here as everywhere."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Game, GameEvent, Seat


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("seat", "name", "bot", "joined_at")
    readonly_fields = fields


class GameEventInline(ReadOnlyInline):
    model = GameEvent
    fields = ("sequence", "type", "schema_version", "payload", "created_at")
    readonly_fields = fields
    ordering = ("sequence",)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "seats", "players_joined", "round", "version", "created_at")
    list_filter = ("status", "seats", "listed")
    readonly_fields = (
        "id",
        "created_at",
        "updated_at",
        "seats",
        "options",
        "status",
        "version",
        "round",
        "current_seat",
        "players_joined",
        "totals",
        "winners",
        "turn_deadline",
        "bots_to_move",
        "listed",
        "created_by",
        "rematch_of",
    )
    exclude = ("seed",)
    inlines = (SeatInline, GameEventInline)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ("game", "sequence", "type", "schema_version", "created_at")
    list_filter = ("type",)
    readonly_fields = ("game", "sequence", "type", "schema_version", "payload", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

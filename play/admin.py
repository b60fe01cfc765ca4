"""Browse challenges, seeks and chats: read-only, as the games' logs are (moderation deletes a
game's chat with its game, never a message alone)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from play.models import Challenge, ChatMessage, Invitation, Seek


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    can_delete = False
    fields = ("account", "answer", "reason", "answered_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ("id", "challenger", "status", "created_at", "expires_at")
    list_filter = ("status",)
    inlines = (InvitationInline,)


@admin.register(Seek)
class SeekAdmin(ReadOnlyAdmin):
    list_display = ("id", "account", "status", "seats_min", "seats_max", "created_at")
    list_filter = ("status",)


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ("game", "sequence", "room", "name", "text", "created_at")
    list_filter = ("room",)

"""Rate limits per client address and per seat token (DRF throttles; off with THROTTLING=off)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:
    from rest_framework.views import APIView

from ..auth import SeatCredential


class AddressRateThrottle(SimpleRateThrottle):
    """Every request, counted per client address."""

    scope = "address"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SeatTokenRateThrottle(SimpleRateThrottle):
    """Requests that carry a seat token, counted per token (hashed)."""

    scope = "seat"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        credential = request.auth
        if not isinstance(credential, SeatCredential):
            return None
        return self.cache_format % {"scope": self.scope, "ident": credential.token_hash}


class GameCreationThrottle(SimpleRateThrottle):
    """Games one address may create per hour."""

    scope = "game_create"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.method != "POST":
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class BotSeatThrottle(SimpleRateThrottle):
    """Bot seats one address may take per hour: each is a seat the service plays (R13), so
    the address's games of bots alone cost the workers at most this many seats' rounds of
    `BOT_ONLY_MAX_ROUNDS` an hour. A person's join is not counted."""

    scope = "bot_seat"

    def get_cache_key(self, request: Request, view: APIView | None) -> str | None:
        data = getattr(request, "data", None) if request.method == "POST" else None
        if not isinstance(data, dict) or data.get("bot") is None:
            return None
        return self.address_key(request)

    def address_key(self, request: Request) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class PageBotSeatThrottle(BotSeatThrottle):
    """The same limit for the pages' creation form, which seats its bots in one request:
    each of its bot seats is one call of `allow_request`."""

    def get_cache_key(self, request: Request, view: APIView | None) -> str | None:
        return self.address_key(request)

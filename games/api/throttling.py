"""Rate limits per client address and per seat token (DRF throttles; off with THROTTLING=off).

DRF's interface (scopes, rates from the settings, `wait()` as the Retry-After) over our own
counting: DRF's `SimpleRateThrottle` reads a key's history from the cache and writes it back,
so requests served at once by several threads or workers overwrote each other's counts and a
parallel client walked through its limit. Each request is counted by one atomic step instead
(games.window_counter: fixed windows). The pages count with the same throttles (`page_key`),
and a challenge, on the API and the pages, with `challenge_wait`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:
    from rest_framework.views import APIView

from accounts.credentials import AccountCredential
from games.api.window_counter import take
from games.core.tokens import Credential, SeatCredential


class CountingThrottle(SimpleRateThrottle):
    """A DRF throttle whose counts are atomic (games.window_counter)."""

    retry_after: float | None = None

    def allow_request(self, request: Request, view: APIView | None) -> bool:
        return self.allow_key(self.get_cache_key(request, view))

    def allow_key(self, key: str | None) -> bool:
        """Count a request under `key` (None: this throttle does not apply to it)."""
        if self.rate is None or key is None:
            return True
        self.retry_after = take(key, self.num_requests, self.duration)
        return self.retry_after is None

    def wait(self) -> float | None:
        return self.retry_after

    def key_of(self, ident: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def page_key(self, request: HttpRequest, credential: Credential | None) -> str | None:
        """The key a page request counts under: the page's seat is the one its session holds,
        not a header's (None: not limited by this throttle)."""
        return None


class AddressRateThrottle(CountingThrottle):
    """Every request, counted per client address."""

    scope = "address"

    def get_cache_key(self, request: Request, view: APIView | None) -> str | None:
        return self.key_of(self.get_ident(request))

    def page_key(self, request: HttpRequest, credential: Credential | None) -> str | None:
        return self.key_of(self.get_ident(request))


class SeatTokenRateThrottle(CountingThrottle):
    """Requests that carry a seat token, counted per token (hashed), or an account's token,
    counted per account (all its tokens together)."""

    scope = "seat"

    def get_cache_key(self, request: Request, view: APIView | None) -> str | None:
        credential = request.auth
        if not isinstance(credential, SeatCredential | AccountCredential):
            return None
        return self.key_of(credential.throttle_key)

    def page_key(self, request: HttpRequest, credential: Credential | None) -> str | None:
        return None if credential is None else self.key_of(credential.throttle_key)


class GameCreationThrottle(CountingThrottle):
    """Games one address may create per hour."""

    scope = "game_create"

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str | None:
        if request.method != "POST":
            return None
        return self.key_of(self.get_ident(request))


class BotSeatThrottle(CountingThrottle):
    """Bot seats one address may take per hour: each is a seat the service plays (R13), so
    the address's games of bots alone cost the workers at most this many seats' rounds of
    `BOT_ONLY_MAX_ROUNDS` an hour. A person's join is not counted."""

    scope = "bot_seat"

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str | None:
        data = getattr(request, "data", None) if request.method == "POST" else None
        if not isinstance(data, dict) or data.get("bot") is None:
            return None
        return self.key_of(self.get_ident(request))

    def take_seats(self, request: Request | HttpRequest, seats: int) -> float | None:
        """Count `seats` bot seats that one request takes (a challenge's bots), one each, as
        a join with `bot` counts: the seconds to wait once one is refused (those after it
        are not counted), else None."""
        key = self.key_of(self.get_ident(request))
        for _ in range(seats):
            if not self.allow_key(key):
                return self.wait()
        return None


class PageBotSeatThrottle(BotSeatThrottle):
    """The same limit for the pages' creation form, which seats its bots in one request:
    each of its bot seats is one call of `allow_request`."""

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str | None:
        return self.key_of(self.get_ident(request))


class AccountCreationThrottle(CountingThrottle):
    """Accounts one address may create per hour: each holds a handle for good (handles are
    never reused), so a flood of sign-ups would take names from everyone else."""

    scope = "account_create"

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str | None:
        if request.method != "POST":
            return None
        return self.key_of(self.get_ident(request))


class ChallengeCreationThrottle(CountingThrottle):
    """Challenges one account may make per hour (all its tokens together, and its pages):
    each creates a game and writes to its invitees' inboxes, so a flood of them would fill
    other people's account streams. Counted per challenge made (`challenge_wait`), not per
    request."""

    scope = "challenge_create"

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str | None:
        return None  # no request's throttle: `challenge_wait` counts the challenges


def limits_on() -> bool:
    """Whether the limits counted outside DRF's throttles (a challenge's) count: `THROTTLING`,
    the switch that also gives the API its throttle classes."""
    return bool(settings.THROTTLING)


def challenge_wait(
    request: Request | HttpRequest, challenger: AccountCredential, bots: int
) -> float | None:
    """Count a challenge made, by the API or the pages alike: against its challenger's
    `challenge_create` limit, then each of its `bots` against the address's `bot_seat` (as a
    join with `bot` counts). The seconds to wait when a limit refuses it, else None (and
    None with the limits off). Called once per challenge, once it is validated: the API's
    after the use case has made it, in its transaction (never for an idempotent replay, nor
    for a challenge refused on its merits); the pages' once their form is valid."""
    if not limits_on():
        return None
    made = ChallengeCreationThrottle()
    if not made.allow_key(made.key_of(challenger.throttle_key)):
        return made.wait()
    return BotSeatThrottle().take_seats(request, bots) if bots else None

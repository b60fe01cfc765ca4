"""The pages: lobby, table and replay, server-rendered, over the same use cases as the API
(`games.services`), never over HTTP to it and never around it.

A browser's seat is its token kept in the session (`games.web.seats`), or, for a logged-in
person, their account's seat (`games.web.accounts`); the API itself stays cookie-free. Every
POST is CSRF-checked (Django's middleware). Without JavaScript every form posts and the page
redirects to itself; with htmx (`request.htmx`) a move answers the table's partial, which
also re-renders when the game's stream says the game moved on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

import play
from engine import action_from_data
from engine.errors import AccountRequired, RuleError
from games import core
from games.api.throttling import GameCreationThrottle, PageBotSeatThrottle
from games.core import clock
from games.core.errors import GameNotFound, InvalidToken, ServiceError
from games.core.resources import game_data, game_summary, next_game, seen_data
from games.core.tokens import Credential, SeatCredential
from games.models import Game, Status
from games.web import quick_play
from games.web.challenges import challenges_context, create_challenge, may_challenge
from games.web.chat_panel import chat_context
from games.web.forms import CreateGameForm, JoinForm, PlayBotsForm, parse_move
from games.web.limits import rate_limited
from games.web.rating_pages import seat_ratings
from games.web.rematches import invite_url, page_tag, rematch_context
from games.web.seats import (
    drop_seat,
    games_of,
    held_credential,
    held_games,
    hold_seat,
    person_credential,
)
from games.web.table import Live, table_context
from games.web.words import Names, Seen, event_words, idle_words
from ratings.reading import ratings_settled

#: Games each list of the lobby shows, the most recently active first.
LOBBY_GAMES = 20

View = Callable[..., HttpResponse]


def game_page(view: View) -> View:
    """An unknown game is the page's own 404, not the API's problem document."""

    @wraps(view)
    def page(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except GameNotFound:
            return render(request, "games/not_found.html", status=404)

    return page


@dataclass(frozen=True)
class Viewer:
    """A game as this browser sees it: the seat it holds in it (None: a spectator)."""

    game: Game
    seat: int | None
    credential: Credential | None


def viewer(request: HttpRequest, game_id: str) -> Viewer:
    """The game and this browser's seat in it; a seat whose token stopped working (rotated
    through the API) is forgotten and the browser watches, as does a logged-in person with no
    seat in the game."""
    key = str(core.game_uuid(game_id))
    credential = held_credential(request, key)
    try:
        game, seat = core.game_and_seat(key, credential, required=False)
    except InvalidToken:
        if isinstance(credential, SeatCredential):
            drop_seat(request, key)
        game, seat = core.game_and_seat(key, None, required=False)
        return Viewer(game, None, None)
    return Viewer(game, seat, credential)


def viewer_log(game: Game, seat: int | None, upto: int) -> tuple[list[Seen], datetime | None]:
    """The whole log up to version `upto` as `seat` may see it (the move log's), in one query,
    and when its last round ended (None before any did): the table holds that round's
    results a while after it."""
    stored = core.logged_events(game, upto=upto)
    ended = next((event.at for event in reversed(stored) if event.type == "RoundEnded"), None)
    return [(event.type, seen_data(game, event, seat)) for event in stored], ended


def _listed(viewer: int | None, *statuses: str) -> list[dict[str, Any]]:
    """The lobby's entries of games in `statuses`, the most recently active first, as the API
    lists them to the account `viewer` (its private games too; None: a guest)."""
    query = {"ordering": "-updated_at"}
    games = [
        game
        for status in statuses
        for game in core.listed_games({**query, "status": status}, viewer)[:LOBBY_GAMES]
    ]
    games.sort(key=lambda game: game.updated_at, reverse=True)
    return [_entry(game_summary(game)) for game in games[:LOBBY_GAMES]]


def _entry(summary: dict[str, Any]) -> dict[str, Any]:
    """A lobby entry (the API's, `game_summary`) with its players' totals and winners by
    name, as the page lists them (seats are taken in order: a name's index is its seat), its
    clock and how long it has waited, in words."""
    winners = summary["winners"] or ()
    turn_seconds = summary["options"].get("turn_seconds")
    summary["clock"] = f"{turn_seconds} s a turn" if turn_seconds else "no clock"
    created = datetime.fromisoformat(summary["created_at"])
    summary["waited"] = idle_words((clock.now() - created).total_seconds())
    summary["entries"] = [
        {
            "name": name,
            "total": summary["totals"][seat] if summary["totals"] else 0,
            "winner": seat in winners,
            "bot": summary["bots"][seat],
        }
        for seat, name in enumerate(summary["players"])
    ]
    summary["bot_count"] = sum(bot is not None for bot in summary["bots"])
    return summary


def _render_lobby(
    request: HttpRequest,
    form: CreateGameForm | None = None,
    status: int = 200,
    bots_form: PlayBotsForm | None = None,
) -> HttpResponse:
    person = person_credential(request)
    viewer = None if person is None else person.account_id
    lists = {
        "waiting": _listed(viewer, Status.WAITING),
        "playing": _listed(viewer, Status.SETUP, Status.PLAYING),
        "finished": _listed(viewer, Status.FINISHED),
    }
    yours = _your_games(request)
    held = held_games(request) | {game["id"] for game in yours}
    for game in lists["waiting"]:
        game["held"] = game["id"] in held
        game["join_form"] = JoinForm(auto_id=f"join-{game['id']}-%s")
    kept = remembered(request)
    name = person.handle if person else kept.get("name")
    creator = form or CreateGameForm(initial={"name": name} if name else None)
    handle = None if person is None else person.handle
    context = {
        "form": creator,
        "bots_form": bots_form or PlayBotsForm(initial=kept, person=handle),
        "more_options": form is not None and _beyond_the_first_fields(form),
        "yours": yours,
        "play_now": quick_play.lobby_context(),
        **lists,
        **challenges_context(person),
    }
    return render(request, "games/lobby.html", context, status=status)


#: The create form's fields shown above "More options"; the rest fold behind it.
FIRST_FIELDS = frozenset({"name", "seats"})


def _beyond_the_first_fields(form: CreateGameForm) -> bool:
    """Whether a form sent back holds an error "More options" would hide (its folded fields'
    or the whole form's, which mostly concern the seats' choices): then it opens."""
    return bool(form.non_field_errors()) or any(field not in FIRST_FIELDS for field in form.errors)


#: The session's key for the lobby's remembered choices: "Play against bots" (how many, which
#: strategy) and a guest's name.
REMEMBERED = "lobby_choices"


def remembered(request: HttpRequest) -> dict[str, Any]:
    """The choices this browser made last (`PlayBotsForm.remembered`), to prefill the lobby."""
    kept = request.session.get(REMEMBERED, {})
    return kept if isinstance(kept, dict) else {}


def remember(request: HttpRequest, choices: dict[str, Any]) -> None:
    """Keep this browser's latest choices in its session, over the ones it made before."""
    request.session[REMEMBERED] = {**remembered(request), **choices}


def _your_games(request: HttpRequest) -> list[dict[str, Any]]:
    """A logged-in person's games as lobby entries with `seat` and `your_turn` (their turn
    first); none for a guest."""
    person = person_credential(request)
    if person is None:
        return []
    return [_entry(entry) for entry in games_of(person)]


@require_GET
@cache_control(max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    """The icon, where a browser asks for it whatever the page's icon link says."""
    return HttpResponsePermanentRedirect(static("games/favicon.svg"))


@require_GET
@rate_limited
@cache_control(private=True, no_cache=True)
def lobby(request: HttpRequest) -> HttpResponse:
    """Games waiting for players, being played and finished, and the form to create one."""
    return _render_lobby(request)


def _may_create(request: HttpRequest) -> bool:
    """The API's limit on games created per address per hour holds for the pages too."""
    return not settings.THROTTLING or GameCreationThrottle().allow_request(request, None)


def _may_seat_bots(request: HttpRequest, seats: Sequence[str | None]) -> bool:
    """The API's limit on bot seats per address per hour holds for the pages too."""
    throttle = PageBotSeatThrottle()
    bots_asked = sum(1 for bot in seats if bot is not None)
    return not settings.THROTTLING or all(
        throttle.allow_request(request, None) for _ in range(bots_asked)
    )


@require_POST
@rate_limited
def create(request: HttpRequest) -> HttpResponse:
    """Create a game, seat its bots and (with a name) its creator, in seat order, through the
    service the API joins with; then show its table."""
    form = CreateGameForm(request.POST)
    if not form.is_valid():
        return _render_lobby(request, form, status=400)
    if form.cleaned_data["challenge"]:
        return _challenge(request, form)
    if form.cleaned_data["rated"] and person_credential(request) is None:
        form.add_error(None, "Log in to create a rated game: only accounts sit at it.")
        return _render_lobby(request, form, status=400)
    if not _may_create(request) or not _may_seat_bots(request, form.bots() or ()):
        messages.error(request, "Too many games created from your address: wait a while.")
        return _render_lobby(request, form, status=429)
    game = core.create_game(
        seats=form.cleaned_data["seats"],
        options=form.options(),
        seed=None,
        listed=not form.cleaned_data["private"],
        created_by=person_credential(request),
        rated=form.cleaned_data["rated"],
    )
    for bot in form.bots() or ():
        if bot is None:
            _join(request, str(game.id), form.cleaned_data["name"])
        else:
            core.join_game(game.id, None, bot)  # as the API seats a bot: a distinct name
    if form.cleaned_data["name"] and person_credential(request) is None:
        remember(request, {"name": form.cleaned_data["name"]})
    return redirect("web:table", game_id=game.id)


@require_POST
@rate_limited
def play_bots(request: HttpRequest) -> HttpResponse:
    """ "Play against bots" in one click: a game of the person (seat 1) and the bots chosen,
    dealt at once, through the API's use cases and limits; the choice is remembered for the
    lobby's next visit. Then the table."""
    person = person_credential(request)
    form = PlayBotsForm(request.POST, person=None if person is None else person.handle)
    if not form.is_valid():
        return _render_lobby(request, status=400, bots_form=form)
    count, strategy = form.cleaned_data["bots"], form.cleaned_data["strategy"]
    remember(request, form.remembered())
    if not _may_create(request) or not _may_seat_bots(request, [strategy] * count):
        messages.error(request, "Too many games created from your address: wait a while.")
        return _render_lobby(request, status=429, bots_form=form)
    with transaction.atomic():  # the game with its seats, or nothing
        game = core.create_game(seats=count + 1, options=None, seed=None, created_by=person)
        joined = core.join_game(game.id, form.cleaned_data.get("name", ""), account=person)
        for _ in range(count):
            core.join_game(game.id, None, strategy)
    if joined.token is not None:  # a guest's seat
        hold_seat(request, str(game.id), joined.token)
    return redirect("web:table", game_id=game.id)


def _challenge(request: HttpRequest, form: CreateGameForm) -> HttpResponse:
    """The form's challenge instead of an open game (a logged-in person's): its table."""
    person = person_credential(request)
    if person is None:
        form.add_error(None, "Log in to challenge players.")
        return _render_lobby(request, form, status=400)
    if not may_challenge(request, person, len(form.chosen_bots())):
        messages.error(request, "Too many challenges made: wait a while.")
        return _render_lobby(request, form, status=429)
    game_id = create_challenge(person, form)
    if game_id is None:
        return _render_lobby(request, form, status=400)
    return redirect("web:table", game_id=game_id)


#: What a guest is told who tries to join a rated game (R14): accounts only.
RATED_JOIN = "This game is rated: only accounts sit at it. Log in, or sign up, to join it."


def _join(request: HttpRequest, game_id: str, name: str) -> None:
    """Take the next open seat: a logged-in person's account takes it (under its handle), a
    guest's token is kept in the session; a refusal (the game is full, or started, or rated
    and the person a guest) is said on the next page."""
    try:
        joined = core.join_game(game_id, name, account=person_credential(request))
    except AccountRequired:
        messages.error(request, RATED_JOIN)
        return
    except RuleError as error:
        messages.error(request, error.message)
        return
    except ServiceError as error:
        messages.error(request, error.detail)
        return
    if joined.token is not None:  # a person's seat (a bot's has no token)
        hold_seat(request, game_id, joined.token)


@require_POST
@game_page
@rate_limited
def join(request: HttpRequest, game_id: str) -> HttpResponse:
    """Take the next open seat under the name given (a logged-in person's: their handle); one
    seat per browser and game (the session keeps one token per game), and per account."""
    seen = viewer(request, game_id)
    key = str(seen.game.id)
    form = JoinForm(request.POST)
    if seen.seat is not None:
        messages.error(request, "You already hold a seat at this table.")
    elif person_credential(request) is not None:
        _join(request, key, "")
    elif not form.is_valid():
        messages.error(request, " ".join(form.errors.get("name", ["Give a name to join."])))
    else:
        _join(request, key, form.cleaned_data["name"])
    return redirect("web:table", game_id=key)


def _table_context(request: HttpRequest, seen: Viewer, data: dict[str, Any]) -> dict[str, Any]:
    """The table's context for the viewer's game resource `data`, with its stream, its links
    (a waiting game's invite link, a finished game's rematch) and, for a browser not yet
    seated at a waiting game, the form to join it."""
    events, ended_at = viewer_log(seen.game, seen.seat, data["version"])
    context = table_context(data, events, Live(clock.now(), ended_at))
    context["leave"] = _leave_words(seen) if not _played_by_bot(seen, data) else ""
    context["stream"] = reverse("stream", args=[seen.game.id])  # the spectator's: no token
    context["stale"] = _stale_words(seen.game)
    _show_ratings(context, seen.game, data)
    rematch = next_game(seen.game)  # read with the view's data: kept on the game
    context["page_tag"] = page_tag(seen.game, rematch, rated=_rated(seen.game))
    context["rematch"] = rematch_context(request, seen.game, seen.seat, rematch)
    if data["status"] == Status.WAITING:
        context["invite_url"] = invite_url(request, seen.game)
    if data["status"] == Status.WAITING and seen.seat is None:
        form = context["join_form"] = JoinForm(auto_id="join-%s")
        form.fields["name"].widget.attrs["hx-preserve"] = "true"  # a name being typed stays
    return context


def _show_ratings(context: dict[str, Any], game: Game, data: dict[str, Any]) -> None:
    """A rated table's badge, and each seat's rating, win chance and change on its panel
    (a casual table's panels stay as they are)."""
    context["rated"] = bool(data["options"].get("rated"))
    if not context["rated"]:
        return
    ratings = seat_ratings(game)
    for panel in [*context["others"], *([context["mine"]] if context["mine"] else [])]:
        panel["rating"] = ratings.get(panel["seat"])


def _stale_words(game: Game) -> str:
    """Said on the table of a game the lobby leaves out as stale: whoever finds it by its
    link learns that no one may come back to it ("" for a game that moves)."""
    if not core.is_stale(game):
        return ""
    idle = (clock.now() - game.updated_at).total_seconds()
    return f"No one has moved in this game for {idle_words(idle)}."


def _view_data(seen: Viewer) -> dict[str, Any]:
    """The game as the viewer may see it now: the API's game resource (`GET /games/{id}`)."""
    state = core.seat_state(seen.game, seen.credential, seen.seat)
    return game_data(seen.game, state, seen.seat)


@require_GET
@game_page
@rate_limited
@cache_control(private=True, no_cache=True)
def table(request: HttpRequest, game_id: str) -> HttpResponse:
    """The table: every grid, the piles, the viewer's moves as buttons, the last action in
    words, the round's results and the final standings."""
    seen = viewer(request, game_id)
    data = _view_data(seen)
    context = _table_context(request, seen, data)
    context["chat"] = chat_context(seen.game, seen.seat, chat_credential(request, seen))
    return render(request, "games/table.html", context)


def chat_credential(request: HttpRequest, seen: Viewer) -> Credential | None:
    """Who the page is in the game's chat: its seat's credential, else a logged-in person's
    account (a spectator who may write in the spectators' room), else None (a guest)."""
    return seen.credential or person_credential(request)


def _played_by_bot(seen: Viewer, data: dict[str, Any]) -> bool:
    """The browser's seat went to a bot after its timeouts: it watches, and may not leave."""
    return seen.seat is not None and data["players"][seen.seat]["bot"] is not None


def _leave_words(seen: Viewer) -> str:
    """What leaving the seat does, said beside its button ("" when there is none to leave)."""
    if seen.seat is None or seen.game.ended:
        return ""
    if seen.game.status == Status.WAITING:
        return "Your seat opens again for someone else."
    return "A bot plays your seat to the end."


@require_POST
@game_page
@rate_limited
def leave(request: HttpRequest, game_id: str) -> HttpResponse:
    """Give the browser's seat up through the API's use case (a waiting game's seat opens
    again, a started game's goes to a bot); the session forgets its token, the page watches.
    Asked first: a post without `confirm=yes` (the table's "Leave seat") answers a page that
    says what leaving does, with "Yes, leave my seat" and "Cancel"."""
    seen = viewer(request, game_id)
    if seen.seat is None:
        messages.error(request, "You hold no seat at this table.")
        return redirect("web:table", game_id=seen.game.id)
    if request.POST.get("confirm") != "yes":
        words = _leave_words(seen)
        if not words:
            messages.error(request, "There is no seat to leave: the game is over.")
            return redirect("web:table", game_id=seen.game.id)
        return render(request, "games/leave.html", {"game": seen.game, "leave": words})
    try:
        core.leave_seat(seen.game.id, seen.seat, seen.credential)
    except RuleError as refused:
        messages.error(request, refused.message)
    except ServiceError as refused:
        messages.error(request, refused.detail)
    else:
        drop_seat(request, str(seen.game.id))
        messages.info(request, "You left your seat. " + _leave_words(seen))
    return redirect("web:table", game_id=seen.game.id)


@require_POST
@game_page
@rate_limited
def rematch(request: HttpRequest, game_id: str) -> HttpResponse:
    """Take the browser's seat in the finished game's rematch, which the first of its players
    to ask creates (`play.rematch`, the API's use case); then show the rematch's table. A
    guest's new seat token is kept in the session, as a join's is."""
    seen = viewer(request, game_id)
    if seen.seat is None:
        messages.error(request, "Only the game's players may ask for its rematch.")
        return redirect("web:table", game_id=seen.game.id)
    try:
        done = play.rematch(seen.game.id, seen.credential)
    except RuleError as refused:
        messages.error(request, refused.message)
    except ServiceError as refused:
        messages.error(request, refused.detail)
    else:
        if done.token is not None:
            hold_seat(request, str(done.game.id), done.token)
        return redirect("web:table", game_id=done.game.id)
    return redirect("web:table", game_id=seen.game.id)


def _rated(game: Game) -> bool:
    """A finished game whose ratings have moved since its last event (R14)."""
    return game.status == Status.FINISHED and ratings_settled(game)


@require_GET
@game_page
@rate_limited
@cache_control(private=True, no_cache=True)
def table_partial(request: HttpRequest, game_id: str) -> HttpResponse:
    """The table's region alone, for htmx to swap in; 204 when the page already shows the
    game's version (`?since=`), so a poll or a late stream frame costs one read."""
    seen = viewer(request, game_id)
    if request.GET.get("since") == page_tag(
        seen.game, next_game(seen.game), rated=_rated(seen.game)
    ):
        return HttpResponse(status=204)
    context = _table_context(request, seen, _view_data(seen))
    return render(request, "games/_table.html", {**context, "partial": True})


@require_POST
@game_page
@rate_limited
def act(request: HttpRequest, game_id: str) -> HttpResponse:
    """One move of the browser's seat (the button's `move`), through the API's use case."""
    seen = viewer(request, game_id)
    try:
        (seen, data), error = _perform(seen, request.POST.get("move", "")), ""
    except Refused as refused:
        data, error = _view_data(seen), str(refused)
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect("web:table", game_id=seen.game.id)
    context = _table_context(request, seen, data)
    return render(request, "games/_table.html", {**context, "partial": True, "error": error})


class Refused(Exception):
    """A move the page could not make, in words for the player."""


def _perform(seen: Viewer, move: str) -> tuple[Viewer, dict[str, Any]]:
    """The move through the API's use case: the viewer's game after it and its new view; or
    `Refused`, in the rules' or the service's words."""
    action = parse_move(move)
    if action is None:
        raise Refused("That is not a move.")
    if seen.credential is None:
        raise Refused("You hold no seat at this table.")
    try:
        result = core.perform_action(seen.game.id, seen.credential, action_from_data(action))
    except RuleError as refused:
        raise Refused(refused.message) from None
    except ServiceError as refused:
        raise Refused(refused.detail) from None
    return Viewer(result.game, seen.seat, seen.credential), result.body


def _step(request: HttpRequest, game: Game) -> int:
    """The replay's version (`?at=`), 1 to the game's version (the first when unreadable)."""
    text = request.GET.get("at", "")
    at = int(text) if text.isascii() and text.isdigit() and len(text) < 10 else 1
    return min(max(at, 1), game.version)


@require_GET
@game_page
@rate_limited
@cache_control(private=True, no_cache=True)
def replay(request: HttpRequest, game_id: str) -> HttpResponse:
    """The game at any version (`?at=`), step by step: every card of a finished game shown,
    the event of each step in words."""
    seen = viewer(request, game_id)
    at = _step(request, seen.game)
    data = {**core.replay_data(seen.game, seen.seat, at), "legal_actions": []}
    events, _ = viewer_log(seen.game, seen.seat, at)  # whole: who played a seat taken over
    names = Names([p["name"] for p in data["players"]], data["you"])
    context = {
        **table_context(data, events),
        "at": at,
        "last": seen.game.version,
        "previous": at - 1 if at > 1 else None,
        "next": at + 1 if at < seen.game.version else None,
        "step": event_words(*events[-1], names),
        "finished": seen.game.status == Status.FINISHED,
    }
    template = "games/_replay.html" if request.htmx else "games/replay.html"
    return render(request, template, context)

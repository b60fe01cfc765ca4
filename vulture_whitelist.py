"""What vulture (`make lint`) cannot see used, each with where it is used.

The framework hooks that Django, DRF and drf-spectacular call by their names (`handle`,
`Meta`, `has_add_permission`...) are ignored by name in pyproject.toml ([tool.vulture]); this
file lists the rest: what the settings, the URLconf or gunicorn's configuration name by a
dotted path, and fields only ever read by reflection. (Vulture parses it; it is never run.)
"""

# ruff: noqa: B018

import play
from accounts import apps as accounts_apps
from engine.state import GameState, Grid
from engine.view import LastAction
from games import apps
from games.api import (
    authentication,
    event_shapes,
    middleware,
    problems,
    rate_limit_table,
    renderers,
    schema,
    shapes,
    throttling,
)
from games.api import urls as api_urls
from games.api.inputs import GameListQuerySerializer, StreamCursorField
from games.api.server_errors import install_in_gunicorn
from games.api.shapes import (
    AccountGameSerializer,
    GameListSerializer,
    GameSummarySerializer,
    HistorySerializer,
    LastActionSerializer,
    PlayerProfileSerializer,
)
from games.api.views import chat as chat_views
from games.core import bots
from games.live.fanout import hub
from games.models import Seat
from games.web import accounts as web_accounts
from games.web.account_forms import LoginForm, SignupForm
from games.web.forms import CreateGameForm
from loadtest import apps as loadtest_apps
from loadtest import profiling
from play import apps as play_apps
from play.models import DeclineReason
from ratings import apps as ratings_apps
from ratings import reading as ratings_reading
from ratings.models import LadderEntry, RatedGame
from skyjo_service import asgi
from skyjo_service.env import env_bool, env_float, env_int, env_list

# Named in skyjo_service/settings.py (INSTALLED_APPS, MIDDLEWARE, REST_FRAMEWORK,
# SPECTACULAR_SETTINGS), which vulture does not read, like gunicorn.conf.py.
apps.GamesConfig
accounts_apps.AccountsConfig
play_apps.PlayConfig
ratings_apps.RatingsConfig
loadtest_apps.LoadtestConfig
middleware.RequestBodyLimitMiddleware
authentication.SeatTokenAuthentication
renderers.JSONRenderer
throttling.AddressRateThrottle
throttling.SeatTokenRateThrottle
problems.problem_exception_handler
schema.add_links
schema.require_action_bodies
schema.optional_auth_by_default
schema.join_needs_a_name_or_a_bot
schema.play_scope_on_seat_operations
bots.STRATEGY_NAMES  # the schema's enum `Strategy` (ENUM_NAME_OVERRIDES)
env_bool, env_float, env_int, env_list
install_in_gunicorn
hub.drain  # gunicorn.conf.py's post_worker_init: a stopping worker ends its streams
# Named in skyjo_service/urls.py (handler400, handler500).
problems.bad_request_view
problems.server_error_view
# drf-spectacular registers every subclass of its extension classes.
schema.ClosedShapeExtension
event_shapes.OneOfShapesExtension

# Set for their frameworks to read: socketserver; a management command run from code.
apps.WSGIRequestHandler.disable_nagle_algorithm
rate_limit_table.CreateCacheTable.verbosity  # set on the command; create_table reads it

# Fields only read by reflection: a NamedTuple's `_asdict()`, a serializer's declared fields
# (output shapes that document the answers), a model's column shown by the admin.
LastAction.removed_column, LastAction.final_turns_began
LastAction.ended_round, LastAction.ended_game
LastActionSerializer.removed_column, LastActionSerializer.final_turns_began
LastActionSerializer.ended_round, LastActionSerializer.ended_game
GameListSerializer.previous
HistorySerializer.format_version
schema.ProblemSerializer.current_version, schema.ProblemSerializer.rule_code
Seat.joined_at
PlayerProfileSerializer.games_played, PlayerProfileSerializer.games_won
AccountGameSerializer.your_turn
GameListQuerySerializer.stale  # read from the validated query by services.listed_games
GameSummarySerializer.duplicate_set  # filled by ratings.ladder.with_duplicate_sets
LadderEntry.last_seen  # written and filtered by keyword (ratings.ladder.seen, eligible)
shapes.SeatRatingSerializer.predicted_win

# The engine's inspection API, used by the engine's tests (a cell's state; every card in play,
# to check that none is ever lost or duplicated).
Grid.is_up, Grid.is_gone
GameState.cards_in_play

# The create form's seat choices, read by the lobby's template; its private game, read from
# its cleaned data.
CreateGameForm.seat_fields
CreateGameForm.private

# The accounts' pages: axes' callables named in settings (AXES_*); Django's form hooks
# (`clean_<field>`) and auth views' attributes; a form field read by `clean`.
web_accounts.login_handle, web_accounts.locked_out
web_accounts.LoginPage.authentication_form, web_accounts.LoginPage.redirect_authenticated_user
SignupForm.password_again, SignupForm.clean_handle, LoginForm.clean_username

# Playing together: its door's module `__getattr__` (PEP 562: Python calls it), the lobby
# form's `clean_<field>` hook, the problem's `challenge_status` (a documented field), and the
# choices read through `.choices` and `.values` (the API's enums, the decline form).
play.__getattr__
CreateGameForm.clean_challenge
schema.ProblemSerializer.challenge_status
DeclineReason.GENERIC, DeclineReason.LATER, DeclineReason.TOO_FAST, DeclineReason.TOO_SLOW
DeclineReason.RATED, DeclineReason.CASUAL, DeclineReason.NO_BOT, DeclineReason.ONLY_BOT
# Django reads a path converter's `regex` and calls `to_python` and `to_url`; DRF reads a
# field's `default_error_messages` and dispatches PUT to `put`.
api_urls.RoomConverter.regex, api_urls.RoomConverter.to_python, api_urls.RoomConverter.to_url
StreamCursorField.default_error_messages
chat_views.ChatMuteView.put
# An audit column: when a finished game was rated (the rows' own `at` is what is shown).
RatedGame.rated_at

# The ratings' reading side: a whole history at once, for the profile page's chart (the API
# pages it: `history_changes`, `history_point`).
ratings_reading.rating_history

# `bench_load --profile`: settings.py names the middleware that profiles the server's requests.
profiling.ProfileMiddleware

# The stream tier (skyjo_service/asgi.py): Django reads a request's `urlconf` and a handler's
# `request_class`; uvicorn loads `stream_tier` by name (skyjo_service/stream_tier.py).
asgi.StreamTierRequest.urlconf, asgi.StreamTierHandler.request_class, asgi.stream_tier

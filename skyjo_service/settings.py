"""Settings for the Skyjo service, all from the environment.

Defaults are for development (`make run`): DEBUG on, a placeholder secret key, SQLite in the
project folder. Production sets DEBUG=false, SECRET_KEY, ALLOWED_HOSTS and DATABASE_URL.
"""

from __future__ import annotations

import importlib.util
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from engine import EVENT_TYPES, TURN_ACTIONS

from .env import env_bool, env_float, env_int, env_list

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-development-only-not-a-secret"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "corsheaders",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_tasks",
    "django_tasks_db",
    "django_htmx",  # htmx 2 and its SSE extension as static files, and `request.htmx`
    "csp",  # its system checks of CONTENT_SECURITY_POLICY
    "axes",  # login throttled per address and per handle (AXES_* below)
    "accounts",
    "games",
    "play",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "games.api.middleware.RequestBodyLimitMiddleware",  # 413 for API bodies over the limit
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django_htmx.middleware.HtmxMiddleware",  # `request.htmx`: the pages answer htmx with partials
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",  # CONTENT_SECURITY_POLICY on every answer
    "axes.middleware.AxesMiddleware",  # a locked-out login: games.web.accounts.locked_out
]

ROOT_URLCONF = "skyjo_service.urls"
WSGI_APPLICATION = "skyjo_service.wsgi.application"
ASGI_APPLICATION = "skyjo_service.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.accounts.person",  # `person`: the logged-in person's handle
            ],
        },
    },
]

# SQLite by default; DATABASE_URL (postgres://...) selects another database.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=env_int("CONN_MAX_AGE", 0)
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several workers at once: WAL lets readers run beside the writer, IMMEDIATE takes the
    # write lock when a transaction starts (no upgrade deadlock), and a busy timeout waits.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests use a file, not shared-cache memory: a live server's threads then wait on the
    # busy timeout like real workers instead of failing at once with "table is locked".
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Parameters bound by the server, not quoted into the SQL by Python, and each connection's
    # frequent statements prepared once (from their 5th run): both cut the CPU an action costs
    # the app server and PostgreSQL (docs/PERFORMANCE.md). Behind a pooler in transaction
    # mode that does not track prepared statements (PgBouncer before 1.21), set
    # DB_PREPARE_THRESHOLD=off.
    prepare_threshold = os.environ.get("DB_PREPARE_THRESHOLD", "5")
    # Tests make a database of their own (`test_<name>_<pid>`), so that two suites on one
    # server never collide; TEST_DATABASE_NAME names another.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get(
            "TEST_DATABASE_NAME", f"test_{DATABASES['default']['NAME']}_{os.getpid()}"
        )
    }
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True,
        prepare_threshold=None if prepare_threshold == "off" else int(prepare_threshold),
    )
    # DB_POOL_SIZE (connections per process, 0: none): a request borrows a connection from the
    # process's pool and gives it back when it ends (psycopg_pool; Django wants CONN_MAX_AGE 0
    # with it). `make serve` sets it: its workers have a thread per open stream, and threads
    # that each kept a connection would outnumber PostgreSQL's max_connections.
    if pool_size := env_int("DB_POOL_SIZE", 0):
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": min(2, pool_size),
            "max_size": pool_size,
            "timeout": env_float("DB_POOL_TIMEOUT", 10.0),  # seconds a request waits for one
        }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")  # collectstatic
# whitenoise serves the admin's and the API docs' assets (drf-spectacular-sidecar) itself.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Browser clients: origins allowed by CORS (comma-separated, e.g. https://play.example.org).
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", [])
CORS_ALLOW_HEADERS = (
    "accept",
    "authorization",
    "content-type",
    "if-match",
    "if-none-match",
    "idempotency-key",
)
CORS_EXPOSE_HEADERS = ("etag", "link", "location", "retry-after", "idempotent-replayed")

if not DEBUG:  # production serves static files itself (`make serve` collects them first)
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

# The pages' cookies (games.web): the session that keeps a browser's seat tokens server-side
# and the CSRF token of their forms. Neither is readable by page scripts (the CSRF token is put
# in each form), and neither goes with a request started by another site. The API never sets
# or reads a cookie: it authenticates by bearer token only.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"

# Security headers; HTTPS-only settings apply when DEBUG is off (production).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# What a page may load and run: its own site's files only. No inline script or style (the
# templates keep theirs in games/static; htmx's indicator style is off, see base.html), no
# eval, no plug-ins, no framing, forms posting only back here. A script injected into a page
# would not run. The API docs' third-party pages relax it (skyjo_service/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],  # the pages' favicon is an empty data: URL
        "connect-src": ["'self'"],  # htmx's requests and the game's stream
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    if not SECURE_SSL_REDIRECT:
        # Turned off on purpose: the proxy in front redirects to HTTPS, or the server listens on
        # loopback only (benchmarks). `check --deploy` would warn about exactly that choice.
        SILENCED_SYSTEM_CHECKS = ["security.W008"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# Request bodies: a game action is tiny; an imported history is the largest body we accept.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MAX_BODY_BYTES", 2 * 1024 * 1024)

# The cache the rate limits (games.api.throttling) count in: one that every worker process shares,
# so a limit holds whatever the number of workers. Redis when REDIS_URL is set (it needs the
# `redis` package); else, in production, a table of the database (no other service: created by
# `migrate`, see games.apps); in development (DEBUG, `make run`) the process's memory, since the
# development server is a single process and so counts alike, without a write per request.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
RATE_LIMIT_CACHE_TABLE = "skyjo_rate_limits"
#: With the database cache the counts go in a table of their own (games.window_counter): the
#: cache's `incr` reads and then writes, so concurrent requests overwrote each other's counts.
RATE_COUNT_TABLE = "skyjo_rate_counts"
CACHES: dict[str, dict[str, object]]
if REDIS_URL:
    if importlib.util.find_spec("redis") is None:
        raise ImproperlyConfigured("REDIS_URL needs the redis package (requirements.txt)")
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # Before every key: services (or test runs) sharing one Redis keep apart.
            "KEY_PREFIX": os.environ.get("REDIS_KEY_PREFIX", ""),
        }
    }
elif DEBUG:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": RATE_LIMIT_CACHE_TABLE,
            # Past MAX_ENTRIES (Django's default: 300) each write culls a third of the entries,
            # live counts included; there is an entry per address and token active in the last
            # hour (games created per address), so a busier service should use Redis.
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }

#: A replay (`?at=`) starts from the nearest checkpoint of the state, kept every this many
#: events, so it folds fewer than that many events whatever the log's length; 0: none are
#: written or read (every replay folds the log from its start).
REPLAY_CHECKPOINT_EVERY = env_int("REPLAY_CHECKPOINT_EVERY", 100)

#: Games each process remembers (row, state and the seats' token hashes, a few kilobytes
#: each) to decide their next action without reading them first (games.warm); 0: none, every
#: action reads its game. Cheaper, never different: CI runs the API tests both ways.
SKYJO_WARM_GAMES = env_int("SKYJO_WARM_GAMES", 2048)

# Live play (games.live, games.streams): streams and long polls.
#: Where clients open the game streams, named by the games' `Link: <…>; rel="stream"`: the
#: stream tier's public address (`make run` and `make serve` set it to theirs), or "" when one
#: address serves both (a balancer sending `/api/v1/games/*/stream` to the tier).
STREAM_BASE_URL = os.environ.get("STREAM_BASE_URL", "").rstrip("/")
#: Seconds between comment lines on an idle stream (proxies close silent connections).
LIVE_HEARTBEAT_SECONDS = env_float("LIVE_HEARTBEAT_SECONDS", 15.0)
#: Seconds a stream lasts before it closes cleanly (deploys drain; clients resume).
LIVE_STREAM_SECONDS = env_float("LIVE_STREAM_SECONDS", 300.0)
#: Milliseconds a client waits before reconnecting (the stream's `retry:`).
LIVE_RETRY_MS = env_int("LIVE_RETRY_MS", 1000)
#: Seconds a long poll (`/events?wait=`) is held at most: a larger `wait` is cut to this
#: (lower it below a proxy's read timeout).
LIVE_LONG_POLL_SECONDS = env_float("LIVE_LONG_POLL_SECONDS", 30.0)
#: Events a stream sends at most before its first view: a stream asked to start further back
#: starts this many events before the game's version, with a `skipped` frame (read the rest
#: from `/events`), so one request never costs the whole log of a long game.
LIVE_STREAM_BACKLOG = env_int("LIVE_STREAM_BACKLOG", 500)
#: Streams and long polls one process holds at most, together (each holds a thread: under
#: gunicorn, the threads beyond THREADS); more are refused with 503 `too_many_streams`.
LIVE_MAX_STREAMS = env_int("LIVE_MAX_STREAMS", 1000)
#: Of those, the most one client address (as the throttles see it: NUM_PROXIES) holds; more
#: are refused with 429 `too_many_streams_from_address` (0: no limit per address).
LIVE_MAX_STREAMS_PER_ADDRESS = env_int("LIVE_MAX_STREAMS_PER_ADDRESS", 50)
#: Seconds a stream's client has to take what it is sent (under gunicorn): past them the stream
#: ends and frees its place, as a client that stopped reading would hold it for ever (0: none).
LIVE_SEND_TIMEOUT_SECONDS = env_float("LIVE_SEND_TIMEOUT_SECONDS", 10.0)
#: A stream's socket send buffer (SO_SNDBUF; the kernel doubles it): a client that stopped
#: reading is found once this much waits for it (0: the kernel's, which grows to megabytes).
LIVE_SEND_BUFFER_BYTES = env_int("LIVE_SEND_BUFFER_BYTES", 65536)
#: Threads per process that read what streams send (each holds a database connection).
LIVE_READERS = env_int("LIVE_READERS", 2)
#: The stream tier's threads per process that make its streams' steps after each move (one
#: call per game and move; the reads themselves are the readers').
LIVE_FANOUT_THREADS = env_int("LIVE_FANOUT_THREADS", 2)
#: Steps a stream tier's stream may have waiting for a client that stopped reading before it
#: is dropped (its memory bounded).
LIVE_QUEUE_LIMIT = env_int("LIVE_QUEUE_LIMIT", 64)
#: Seconds between polls of the watched games' versions (0: 0.1 on SQLite, where it is the
#: only way to hear of other processes' writes; 2 on PostgreSQL, a net under the notifications).
LIVE_POLL_SECONDS = env_float("LIVE_POLL_SECONDS", 0.0)

# The service's own moves (R13): bots' moves and timed-out turns, run by workers
# (`manage.py worker`, started by `make run`) from a queue kept in the games' database
# (django-tasks' database backend), each job queued in the transaction of the append that
# calls for it.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}
#: Seconds a worker waits before looking at the queue again when it found nothing: bots move
#: within about this long of their turn.
SKYJO_WORKER_INTERVAL = env_float("SKYJO_WORKER_INTERVAL", 0.15)
#: Seconds between a worker's sweeps for games owed a move that no job will make (a worker
#: killed mid-job, a job that failed); a bot's move or a deadline is owed once overdue by
#: SKYJO_SWEEP_GRACE seconds. A worker also sweeps when it starts (with no grace).
SKYJO_SWEEP_SECONDS = env_float("SKYJO_SWEEP_SECONDS", 10.0)
SKYJO_SWEEP_GRACE = env_float("SKYJO_SWEEP_GRACE", 30.0)
#: Rounds the service plays of a game in which no person holds a seat (bots from the start,
#: or every person gone: left, or handed to a bot after timeouts); it then ends the game on
#: its totals (`GameEnded`, reason `round_limit`, R13). Counted from the first round dealt with
#: no person seated; a game of bots to the default end score rarely needs more.
BOT_ONLY_MAX_ROUNDS = env_int("BOT_ONLY_MAX_ROUNDS", 20)
#: Milliseconds between two of a game's bots' actions while a person plays a seat, unless its
#: creator chose `options.bot_pace_ms` (R15): a person can follow each move. A game of bots
#: alone plays at once (0). The sweep's grace (30 s) is far above any pace (10 s at most), so
#: a paced game is never taken for one owed a move before its next job is due.
SKYJO_BOT_PACE_MS = env_int("SKYJO_BOT_PACE_MS", 700)
#: For tests only: every turn's clock is multiplied by this (0.05: a 5-second clock runs out
#: in a quarter of a second). The views' `turn_deadline` is the scaled one.
SKYJO_CLOCK_SCALE = env_float("SKYJO_CLOCK_SCALE", 1.0)
#: Seconds after its last event an unfinished game counts as stale: the lobby's lists leave it
#: out (`?stale=true` shows it), so seats taken by clients that never came back (a join whose
#: answer was lost, in a game without a clock) do not sit in the lobby for ever.
LOBBY_STALE_AFTER_SECONDS = env_int("LOBBY_STALE_AFTER_SECONDS", 3600)
#: Seconds a rematch keeps each player's seat for them (`POST /api/v1/games/{id}/rematch`):
#: after that a seat none of them took opens to anyone.
REMATCH_HOLD_SECONDS = env_int("REMATCH_HOLD_SECONDS", 300)

# Quick play (play.seeks, play.matcher): an account's seek, and the matcher (a worker's job and
# sweep step) that seats compatible seekers together.
#: Seconds a seek lives without a sign of its account: its account stream open (which says so
#: every few seconds) or a read of the seek (`GET /api/v1/seeks/{id}`); then it expires.
SEEK_IDLE_SECONDS = env_int("SEEK_IDLE_SECONDS", 30)
#: Seconds a seek lives at most, seen or not (then it expires); also the largest `bots_after`.
SEEK_MAX_SECONDS = env_int("SEEK_MAX_SECONDS", 600)
#: Seconds after which a group of compatible seekers that has reached its common minimum of
#: seats starts with the seekers it has, rather than wait for its largest common count.
SEEK_SMALLEST_AFTER_SECONDS = env_int("SEEK_SMALLEST_AFTER_SECONDS", 20)
#: The lobby's "Play now" (a logged-in person's seek of 2 to 4 seats): seconds before bots fill
#: the empty seats, so that a person alone still plays.
PLAY_NOW_BOTS_AFTER_SECONDS = env_int("PLAY_NOW_BOTS_AFTER_SECONDS", 20)

# Each game's chat (play.chat): its own log, never the game's.
#: Messages one sender (a seat, or a spectator's account) may write in one game within
#: SKYJO_CHAT_BURST_SECONDS; one more is refused with 429 `throttled` and `Retry-After`.
SKYJO_CHAT_BURST = env_int("SKYJO_CHAT_BURST", 5)
SKYJO_CHAT_BURST_SECONDS = env_float("SKYJO_CHAT_BURST_SECONDS", 10.0)
#: Messages one sender may write in one game in all: one more is refused with 429
#: `chat_limit_reached` (it never passes: a game's chat is no forum).
SKYJO_CHAT_MAX_PER_GAME = env_int("SKYJO_CHAT_MAX_PER_GAME", 200)

# Accounts (accounts): people's passwords are Django's, hashed with Argon2 first.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The pages' login (games.web.accounts): the axes backend first, so that it refuses a locked-out
# address or handle before any password is checked; the API never authenticates this way.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:account"
LOGOUT_REDIRECT_URL = "web:lobby"
#: Failed logins before a lockout, counted per client address and, apart, per handle (a
#: handle is locked whatever the address tried it, an address whatever handles it tried).
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
#: A lockout lasts this long after the last failed attempt (each attempt during it restarts it).
AXES_COOLOFF_TIME = timedelta(minutes=env_float("LOGIN_COOLOFF_MINUTES", 15.0))
AXES_RESET_ON_SUCCESS = True  # a handle's failures are forgotten once its person logs in
#: A locked-out login answers like a wrong password, with Retry-After (games.web.accounts).
AXES_LOCKOUT_CALLABLE = "games.web.accounts.locked_out"
AXES_USERNAME_CALLABLE = "games.web.accounts.login_handle"
AXES_CLIENT_IP_CALLABLE = "games.web.accounts.client_address"  # as the throttles see it
AXES_VERBOSE = False
# Failed attempts are what the limits count; a log of every successful login is not kept.
AXES_DISABLE_ACCESS_LOG = True
#: PostgreSQL: an append writes its accounts' inbox entries in its one statement (off: in a
#: second statement of its transaction, as on SQLite). Faster, never different (a test).
SKYJO_INBOX_IN_APPEND = env_bool("SKYJO_INBOX_IN_APPEND", True)
#: A typed action's body (`{column, row}` or nothing) is validated without DRF's serializer
#: when well formed (off: always by the serializer). Faster, never different (a test).
SKYJO_FAST_INPUTS = env_bool("SKYJO_FAST_INPUTS", True)
#: Seconds a process trusts what it learnt of a personal token (at most 1): a revoked token,
#: or one of a deleted account, is refused everywhere within this time.
ACCOUNT_TOKEN_FRESH_SECONDS = env_float("ACCOUNT_TOKEN_FRESH_SECONDS", 0.5)

THROTTLING = env_bool("THROTTLING", True)
#: Default rates per scope: (production, development). In development (DEBUG, `make run`) a
#: bot-vs-bot game of thousands of requests from one machine is never throttled; production
#: keeps limits meant for strangers on the internet.
THROTTLE_DEFAULTS = {
    "address": {False: "600/min", True: "20000/min"},
    "seat": {False: "300/min", True: "10000/min"},
    "game_create": {False: "60/hour", True: "2000/hour"},
    # Each bot seat is played by the service for BOT_ONLY_MAX_ROUNDS rounds at most once no
    # person is left: this bounds the rounds one address can make the workers play an hour.
    "bot_seat": {False: "120/hour", True: "4000/hour"},
    # New accounts per client address (POST /api/v1/accounts).
    "account_create": {False: "10/hour", True: "1000/hour"},
    # Challenges per account (POST /api/v1/challenges and the lobby's form): each writes to
    # its invitees' account streams.
    "challenge_create": {False: "60/hour", True: "2000/hour"},
}
# `manage.py bench_load` mounts its bare endpoint (/bench/insert) on the server it starts.
BENCH_ENDPOINTS = env_bool("BENCH_ENDPOINTS", False)
# The benchmarks' app (`loadtest`: bench_load, bench_replay, bench_devserver and the bare
# endpoint's table) is installed only where benchmarks run: development, and the servers that
# bench_load starts. A production server (`make serve`) neither migrates its table nor lists it.
if DEBUG or BENCH_ENDPOINTS:
    INSTALLED_APPS.append("loadtest")
# `bench_load --profile DIR`: each request profiled (cProfile) by kind into DIR, first in the
# stack (loadtest.profiling). Only on the servers the benchmarks start.
if BENCH_ENDPOINTS and os.environ.get("SKYJO_PROFILE_DIR"):
    MIDDLEWARE.insert(0, "loadtest.profiling.ProfileMiddleware")

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": ["games.api.authentication.SeatTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["games.api.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "games.api.problems.problem_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": (
        ["games.api.throttling.AddressRateThrottle", "games.api.throttling.SeatTokenRateThrottle"]
        if THROTTLING
        else []
    ),
    "DEFAULT_THROTTLE_RATES": {
        scope: os.environ.get(f"THROTTLE_{scope.upper()}_RATE", rates[DEBUG])
        for scope, rates in THROTTLE_DEFAULTS.items()
    },
    "NUM_PROXIES": env_int("NUM_PROXIES", 0),
}

API_DESCRIPTION = """
A REST service for the card game Skyjo: create a game, join it, play it turn by turn, and
read every game as an auditable history. The rules are in `docs/RULES.md` in the service's
repository, served by the API as well: `GET /api/v1/rules`. Rule tags such as R6a are cited
in the operations below.

## The flow of a game
1. `create_game` (status `waiting`), then each player calls `join_game` and keeps the seat
   token it returns (shown once). Taking the last seat deals round 1.
2. Status `setup`: every seat turns two of its cards face up with `reveal`, in any order.
3. Status `playing`: the seat in `current_seat` either `draw`s (then `replace` a card with it,
   or `discard` it and `reveal` a face-down card) or `take_discard`s (then `replace`).
4. When a seat has no face-down card left, every other seat plays once more; the round is
   scored and the next one is dealt at once (status `setup` again), until a total reaches the
   end score: status `finished`, with `winners`.

Every game view lists the viewer's `legal_actions`, ready to send. Authenticate actions with
`Authorization: Bearer <seat token>`; without a token you read games as a spectator. Face-down
cards show `value: null` to everyone, their owner included; a card drawn from the draw pile is
visible to its drawer only.

Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code`.
Use `If-Match` to act only on the version you saw, and `Idempotency-Key` to retry safely.
"""

#: The bearer token a seat receives when it joins.
SEAT_TOKEN_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "description": "The seat token returned once by `join_game`. It acts for that seat of that "
    "game only; without it you read games as a spectator.",
}

#: An account's personal token (`skyjo_pat_...`), given by sign-up and by token creation.
ACCOUNT_TOKEN_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "description": "A personal token of an account (`skyjo_pat_` and 43 characters), answered "
    "once by `create_account` or `create_token`. It lasts across games; each operation names "
    "the scopes it needs, every one of those its `x-required-scopes` lists or any one of those "
    "its `x-required-scopes-any` lists, and a token without them is refused with 403 "
    "`missing_scope`. For an account's seat it acts as the seat's token (scope `play`).",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Skyjo service API",
    "VERSION": "1.0.0",
    "DESCRIPTION": API_DESCRIPTION.strip(),
    "OAS_VERSION": "3.0.3",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_ADD_EXPLICIT_BLANK_NULL_CHOICE": False,
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    "ENUM_NAME_OVERRIDES": {
        "GameStatus": "games.api.shapes.GAME_STATUSES",
        "AccountKind": "games.api.shapes.ACCOUNT_KINDS",
        "Scope": "games.api.shapes.SCOPE_NAMES",
        "CellState": "games.api.shapes.CELL_STATES",
        "CardSource": "games.api.shapes.CARD_SOURCES",
        "ActionKind": "games.api.shapes.ACTION_KINDS",
        "LastActionKind": "games.api.shapes.LAST_ACTION_KINDS",
        "HistoryFormat": "games.api.shapes.HISTORY_FORMATS",
        "Strategy": "games.core.bots.STRATEGY_NAMES",
        "GameEndReason": "engine.events.END_REASONS",
        "GameCancelReason": "engine.events.CANCEL_REASONS",
        "SeekStatus": "games.api.shapes.SEEK_STATUSES",
        # Each action shape's constant `action`, e.g. TakeDiscardActionKind (games.api.inputs).
        **{f"{action.__name__}ActionKind": [kind] for kind, action in TURN_ACTIONS.items()},
        "HistoryFormatVersion": "games.api.shapes.HISTORY_FORMAT_VERSIONS",
        "StreamFrameKind": "games.api.shapes.STREAM_FRAME_EVENTS",
        "AccountStreamFrameKind": "games.api.shapes.ACCOUNT_FRAME_EVENTS",
        "InboxEntryType": "games.api.shapes.INBOX_ENTRY_TYPES",
        "ChallengeStatus": "games.api.shapes.CHALLENGE_STATUSES",
        "InvitationAnswer": "games.api.shapes.INVITATION_ANSWERS",
        "DeclineReason": "games.api.shapes.DECLINE_REASONS",
        "ChatRoom": "games.api.shapes.CHAT_ROOMS",
        # The `type` of each event's schema (games.api.event_shapes): an enum of one value.
        **{f"{name}EventType": [name] for name in EVENT_TYPES},
    },
    "APPEND_COMPONENTS": {
        "securitySchemes": {"SeatToken": SEAT_TOKEN_SCHEME, "AccountToken": ACCOUNT_TOKEN_SCHEME}
    },
    # OpenAPI links (create -> join -> act...), after the enum hook.
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema.add_links",
        "games.api.schema.require_action_bodies",
        "games.api.schema.join_needs_a_name_or_a_bot",
        "games.api.schema.optional_auth_by_default",
        "games.api.schema.play_scope_on_seat_operations",
    ],
    "TAGS": [
        {"name": "lobby", "description": "Create, find, join and read games."},
        {"name": "turns", "description": "A seat's actions, authenticated by its token."},
        {"name": "history", "description": "Event feeds, full histories, replays, imports."},
        {"name": "meta", "description": "The rules and the problem types, served by the API."},
        {
            "name": "accounts",
            "description": "People and bots with a lasting handle, their personal tokens "
            "(with scopes), their games and public profiles.",
        },
        {
            "name": "challenges",
            "description": "An account invites others to a game it creates for them: they "
            "accept or decline, the challenger may cancel, and unanswered it expires.",
        },
        {
            "name": "seeks",
            "description": "Quick play: seek a game of a few seats; the matcher seats you "
            "with other seekers (and bots, if you wish) as soon as it can.",
        },
        {
            "name": "ladder",
            "description": "The bot ladder: bot accounts meet in rated games dealt in "
            "duplicate sets (one deal played in every rotation of the seats).",
        },
        {
            "name": "chat",
            "description": "Each game's chat: the players' room and the spectators' room, a "
            "log of its own beside the game's.",
        },
        {
            "name": "ratings",
            "description": "Rated games' results as OpenSkill ratings with their uncertainty "
            "(R14): the leaderboards of people and bots, and each player's history.",
        },
    ],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "LICENSE": {"name": "MIT"},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        # Client errors (4xx) are answers, not incidents: log server errors only.
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        "django.server": {"handlers": ["console"], "level": "ERROR", "propagate": False},
    },
}

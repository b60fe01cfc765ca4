"""Output shapes: they only document. Responses are built by `games.presenters` as plain data
in exactly these shapes (rendering 96 nested cells through serializers would dominate a
turn's cost); tests check every response against the OpenAPI schema generated from these.
Event payloads have their own module, `games.event_shapes`."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from accounts.models import Kind
from accounts.scopes import ALL_SCOPES
from engine import EVENT_TYPES, TURN_ACTION_KINDS
from engine.state import PHASES
from games.api.event_shapes import feed_events, history_events
from games.api.inputs import ACTION_SHAPES
from games.core.history import MAX_EVENTS
from games.core.letters import GAME_LETTERS
from play import CHALLENGE_LETTERS, ROOMS
from play.models import Answer, ChallengeStatus, DeclineReason, SeekStatus

ACCOUNT_KINDS = list(Kind.values)
SCOPE_NAMES = list(ALL_SCOPES)
CELL_STATES = ["face_down", "face_up", "removed"]
CARD_SOURCES = ["deck", "discard"]
ACTION_KINDS = list(TURN_ACTION_KINDS)
LAST_ACTION_KINDS = ["join", "leave", *ACTION_KINDS]
HISTORY_FORMATS = ["skyjo-history"]
HISTORY_FORMAT_VERSIONS = [(1, "1")]
CHALLENGE_STATUSES = list(ChallengeStatus.values)
INVITATION_ANSWERS = list(Answer.values)
DECLINE_REASONS = list(DeclineReason.values)
SEEK_STATUSES = list(SeekStatus.values)
CHAT_ROOMS = list(ROOMS)


class CellSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=CELL_STATES)
    value = serializers.IntegerField(
        allow_null=True, help_text="Null unless the viewer may know the card."
    )


GRID_HELP = (
    "The 12 cards as 4 columns (left to right), each of 3 cells from top to bottom: "
    "`grid[column][row]`, column 0-3 and row 0-2, the positions actions take. Empty before the "
    "first deal."
)


class GridField(serializers.ListField):
    """4 columns of 3 cells, top to bottom (`grid[column][row]`); empty before the first deal."""

    child = serializers.ListField(
        child=CellSerializer(), min_length=3, max_length=3, help_text="One column, top to bottom."
    )

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", GRID_HELP)
        super().__init__(**kwargs)


#: What a seat's `bot` says, in every shape that carries it.
BOT_HELP = (
    "The strategy of the bot that plays this seat (`GET /api/v1/bots`), the service making its "
    "moves: a bot that joined, or the one that took over when the seat's player left or timed "
    "out `options.max_timeouts` turns in a row (R13). Null for a person's seat (and an open one)."
)


class PlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(allow_null=True, help_text="Null for an open seat.")
    bot = serializers.CharField(allow_null=True, help_text=BOT_HELP)
    account = serializers.CharField(
        allow_null=True,
        help_text="The handle of the account the seat belongs to (`GET /api/v1/players/"
        "{handle}`; a built-in bot's is its strategy's name); null for a guest's seat or an "
        "open one.",
    )
    total = serializers.IntegerField(help_text="Sum of the round scores so far.")
    timeouts = serializers.IntegerField(
        min_value=0,
        help_text="The seat's turns in a row that ran out of time (R13): back to 0 when its "
        "player finishes a turn; at `options.max_timeouts` a bot takes the seat over.",
    )
    grid = GridField()


class HeldCardSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    source = serializers.ChoiceField(choices=CARD_SOURCES)
    value = serializers.IntegerField(
        allow_null=True, help_text="Null for everyone but the drawer of a deck card (R7)."
    )


LEGAL_ACTION = PolymorphicProxySerializer(
    component_name="LegalAction",
    serializers=ACTION_SHAPES,
    resource_type_field_name="action",
    many=False,
)
#: The schema of one action, whichever it is: a `oneOf` told apart by `action`.
LEGAL_ACTION_REF = {"$ref": "#/components/schemas/LegalAction"}


@extend_schema_field(LEGAL_ACTION)
class LegalActionField(serializers.DictField):
    """One of `LegalAction`'s shapes."""


class LastActionSerializer(serializers.Serializer):
    """The most recent action that changed the game, and what it caused."""

    seat = serializers.IntegerField(help_text="The seat that acted.")
    action = serializers.ChoiceField(
        choices=LAST_ACTION_KINDS,
        help_text="`join` (took a seat), `leave` (gave it up: R13), or the turn action as "
        "`legal_actions` names it.",
    )
    column = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        max_value=3,
        help_text="`reveal` and `replace`: the position's column 0-3; else null.",
    )
    row = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        max_value=2,
        help_text="`reveal` and `replace`: the position's row 0-2; else null.",
    )
    value = serializers.IntegerField(
        allow_null=True,
        help_text="The card revealed, drawn, taken from the discard pile, placed or discarded. "
        "A card drawn from the draw pile is shown to its drawer only (null for everyone else) "
        "while it is held (R7); null for `join`.",
    )
    replaced = serializers.IntegerField(
        allow_null=True,
        help_text="`replace`: the card that left the grid for the discard pile; else null.",
    )
    removed_column = serializers.IntegerField(
        allow_null=True,
        min_value=0,
        max_value=3,
        help_text="The column of three equal cards this action completed and removed (R8): "
        "its three cards were `value`. Null if none.",
    )
    final_turns_began = serializers.BooleanField(
        help_text="This action left its seat without a face-down card: that seat is now "
        "`closer_seat` and each other seat plays once more (R10)."
    )
    ended_round = serializers.IntegerField(
        allow_null=True,
        min_value=1,
        help_text="The round this action ended and scored (R10, R11), else null. Its result is "
        "the entry of `rounds` with that `round` (the last one); unless `ended_game`, the view "
        "is already the next round's, in setup. A client notices a round's end by this field "
        "(or by `round` going up between two views).",
    )
    ended_game = serializers.BooleanField(
        help_text="This action ended the game (R3): `status` is `finished`, `winners` is set."
    )


class RoundPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    grid = GridField()
    raw_score = serializers.IntegerField()
    round_score = serializers.IntegerField()
    doubled = serializers.BooleanField()


class RoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    closer_seat = serializers.IntegerField()
    players = RoundPlayerSerializer(many=True)


class GameOptionsSerializer(serializers.Serializer):
    end_score = serializers.IntegerField()
    closer_penalty = serializers.BooleanField()
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="Each turn's clock in seconds (R13); null: no clock."
    )
    max_timeouts = serializers.IntegerField(
        help_text="Timeouts in a row after which a bot plays the seat (R13)."
    )
    rated = serializers.BooleanField(
        required=False,
        help_text="Present, and true, in a rated game's options only (R14); the game's own "
        "`rated` says it of every game.",
    )
    bot_pace_ms = serializers.IntegerField(
        required=False,
        help_text="Present only when the game's creator chose a pace for its bots (R15), in "
        "milliseconds between two of their actions; the game's own `bot_pace_ms` says the "
        "pace in force.",
    )


GAME_STATUSES = list(PHASES)


#: What `seeded` means, in every shape that carries it.
SEEDED_HELP = (
    "Created with an explicit `seed`: whoever knows it knows every card, dealt or to come. "
    "Join only a game whose creator you trust; `GET /games?seeded=false` lists the others. "
    "An imported game is not seeded (new secret seed)."
)


#: What `rated` means, in every shape that carries it.
RATED_HELP = (
    "A rated game (R14), from its first event to its last: every seat is an account's (a "
    "guest's join gets 409 `account_required`), each account once, and once finished the "
    "result counts for the seats' ratings. `false`: a casual game."
)


class RematchLinkSerializer(serializers.Serializer):
    game = serializers.UUIDField(help_text="The rematch's id.")


LISTED_HELP = (
    "Whether lobbies list the game (`GET /api/v1/games`, the lobby page); `false`: a private "
    "game, listed only for its players, whose link is the invitation."
)
RESERVED_HELP = (
    "The handles of the accounts a seat is still kept for (a reservation, a challenge, a "
    "rematch), while the game waits: anyone else gets 409 `seat_reserved` once every open "
    "seat is kept. Empty when none is (a rematch's guests' seats are kept too, unnamed)."
)
REMATCH_HELP = (
    "A finished game's rematch, once one of its players asked for it (`POST "
    "/api/v1/games/{id}/rematch`); null before, and for a game not finished."
)
REMATCH_OF_HELP = (
    "The id of the game this one is the rematch of (follow it back through that game's "
    "`rematch_of`: a chain of rematches); null for a game of its own."
)


# Ratings (R14): a game's view shows its seats' ones; the leaderboards and histories below.


class RatingSerializer(serializers.Serializer):
    """A rating (OpenSkill's Plackett-Luce, its defaults: mu 25, sigma 25/3)."""

    mu = serializers.FloatField(help_text="The skill the model believes in.")
    sigma = serializers.FloatField(help_text="How unsure of `mu` it is (it shrinks with games).")
    ordinal = serializers.FloatField(
        help_text="`mu - 3 * sigma`: a skill the player very likely has; leaderboards sort by it."
    )
    games = serializers.IntegerField(help_text="Rated games played.")
    provisional = serializers.BooleanField(
        help_text="Fewer than 10 rated games: shown with a “?”, left out of leaderboards."
    )


class RatingPointSerializer(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class RatingChangeSerializer(serializers.Serializer):
    """What a rated game changed of a seat's rating: `after` less the rating it was rated from
    (its rating when the game was rated)."""

    rank = serializers.IntegerField(
        help_text="1 the best (lowest total); ties share a rank; a seat that left or was "
        "abandoned ranks last."
    )
    mu = serializers.FloatField(help_text="The change of `mu`.")
    sigma = serializers.FloatField(help_text="The change of `sigma` (negative: surer).")
    ordinal = serializers.FloatField(help_text="The change of `ordinal`.")
    after = RatingPointSerializer(help_text="The rating after the game.")


class SeatRatingSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    handle = serializers.CharField(help_text="The seat's account.")
    entered = RatingSerializer(help_text="The account's rating when the game was dealt.")
    predicted_win = serializers.FloatField(
        help_text="Its chance of winning, as OpenSkill predicted it at the deal (the seats' "
        "chances add up to 1)."
    )
    change = RatingChangeSerializer(
        allow_null=True,
        help_text="Once the finished game is rated (a worker's job, within a second or so of "
        "its last event): its change. Null before.",
    )


RATINGS_HELP = (
    "A rated game's seats' ratings (R14), by seat, once dealt; null for a casual game and "
    "while a rated one waits for players."
)


class GameLinksSerializer(serializers.Serializer):
    """What every game view and summary says beside the log (`resources.game_links`)."""

    listed = serializers.BooleanField(help_text=LISTED_HELP)
    reserved = serializers.ListField(child=serializers.CharField(), help_text=RESERVED_HELP)
    rematch = RematchLinkSerializer(allow_null=True, help_text=REMATCH_HELP)
    rematch_of = serializers.UUIDField(allow_null=True, help_text=REMATCH_OF_HELP)


class GameSerializer(GameLinksSerializer):
    id = serializers.UUIDField()
    seeded = serializers.BooleanField(help_text=SEEDED_HELP)
    rated = serializers.BooleanField(help_text=RATED_HELP)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField(
        help_text="When the game's last event was stored (with `?at=N`: event N's time)."
    )
    status = serializers.ChoiceField(
        choices=GAME_STATUSES,
        help_text="`round_ended` is only seen when replaying between two events (`?at=`).",
    )
    version = serializers.IntegerField(help_text="Sequence number of the last event.")
    round = serializers.IntegerField(help_text="0 before the first deal.")
    seats = serializers.IntegerField()
    open_seats = serializers.IntegerField()
    options = GameOptionsSerializer()
    you = serializers.IntegerField(allow_null=True, help_text="The viewer's seat; null: spectator.")
    current_seat = serializers.IntegerField(allow_null=True)
    closer_seat = serializers.IntegerField(
        allow_null=True,
        help_text="The seat that ended a turn with no face-down card this round (R10), if any.",
    )
    final_turns_left = serializers.IntegerField(
        min_value=0,
        help_text="After the closer: the seats still to finish their final turn, the current "
        "seat's included (R10). 0 when no final turns are being played.",
    )
    starting_seat = serializers.IntegerField(
        allow_null=True,
        help_text="The seat that starts (or, while playing, started) this round (R5): in "
        "later rounds the previous round's closer; in round 1 the highest pair of setup "
        "reveals, so null until every seat has made its reveals. Null once finished.",
    )
    discard_top = serializers.IntegerField(allow_null=True)
    discard_size = serializers.IntegerField()
    deck_size = serializers.IntegerField()
    held_card = HeldCardSerializer(allow_null=True)
    players = PlayerSerializer(many=True)
    legal_actions = serializers.ListField(
        child=LegalActionField(),
        help_text="What the viewer may do now, each ready to send as it is to "
        "`POST /api/v1/games/{id}/actions`. Empty when it is not the viewer's move.",
    )
    rounds = RoundSerializer(many=True)
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    last_action = LastActionSerializer(
        allow_null=True,
        help_text="The most recent action that changed the game, as the caller may see it; "
        "null before the first join.",
    )
    turn_deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the time of the persons to act runs out (R13): the time of the move "
        "that began the turn (or the round's setup) plus `options.turn_seconds`. Then the "
        "service plays the turn for them (`greedy`), logged as `TurnTimedOut` and the turn's "
        "events. Null without a clock, when only bots are to act (they have no clock), and in "
        "a replay (`?at=`).",
    )
    ratings = SeatRatingSerializer(many=True, allow_null=True, help_text=RATINGS_HELP)
    bot_pace_ms = serializers.IntegerField(
        min_value=0,
        help_text="The pace of the game's bots now (R15): the milliseconds the service leaves "
        "between two of their actions, one action each. `options.bot_pace_ms` when its creator "
        "chose one; otherwise the service's default (700 unless its operator set "
        "`SKYJO_BOT_PACE_MS`) while a person plays a seat, and 0 (at once) for bots alone. "
        "The first bot action after a person's waits it too.",
    )
    invite_url = serializers.URLField(
        required=False,
        help_text="Only in the answer to `POST /api/v1/games`: the game's table page, "
        "absolute. Send it to the people you want to play with (a private game's only way "
        "in).",
    )


class GameSummarySerializer(GameLinksSerializer):
    id = serializers.UUIDField()
    seeded = serializers.BooleanField(help_text=SEEDED_HELP)
    rated = serializers.BooleanField(help_text=RATED_HELP)
    created_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField()
    round = serializers.IntegerField()
    seats = serializers.IntegerField()
    open_seats = serializers.IntegerField()
    options = GameOptionsSerializer()
    players = serializers.ListField(
        child=serializers.CharField(), help_text="The seated players' names, in seat order."
    )
    bots = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="Beside `players` (same order): the strategy of the bot that plays each, "
        "null for a person (R13).",
    )
    accounts = serializers.ListField(
        child=serializers.CharField(allow_null=True),
        help_text="Beside `players` (same order): the handle of the account each seat belongs "
        "to (a built-in bot's is its strategy), null for a guest's seat.",
    )
    updated_at = serializers.DateTimeField(help_text="When the game's last event was stored.")
    totals = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Each seat's total so far, by seat (`totals[seat]`; 0 before a round is scored).",
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="The winning seats (R3), null until the game is finished.",
    )
    duplicate_set = serializers.IntegerField(
        allow_null=True,
        help_text="The bot ladder's duplicate set the game is one rotation of (its id: the "
        "set's games share it), null for a game of no set.",
    )


class GameListSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummarySerializer(many=True)


class EventFeedSerializer(serializers.Serializer):
    events = feed_events(many=True, help_text="Each event as the caller may see it.")
    version = serializers.IntegerField(help_text="The game's current version.")


#: The stream's frames that are no event of the log (they carry no `id`).
STREAM_FRAME_KINDS = ("view", "skipped", "chat", "rematch")
#: What a stream frame's `event` may name (the `StreamFrameKind` enum of the schema).
STREAM_FRAME_EVENTS = [*EVENT_TYPES, *STREAM_FRAME_KINDS]


class StreamFrameSerializer(serializers.Serializer):
    """One Server-Sent Events frame of a game's stream, as an EventSource parses it (OpenAPI
    3.0 has no item schema for `text/event-stream`: this schema is each frame's)."""

    id = serializers.CharField(
        required=False,
        help_text="The stream's place: an event's sequence, or `<sequence>:<chat sequence>` once "
        "the stream has passed a chat message (send the last one back as `Last-Event-ID`); "
        "absent on `view`, `skipped` and `rematch` frames.",
    )
    event = serializers.ChoiceField(
        choices=STREAM_FRAME_EVENTS,
        help_text="An event's type (its `data`: the event as `/events` shows it), `view` (its "
        "`data`: the viewer's view, as `GET /games/{id}`), `skipped` (its `data`: "
        '`{"first", "last", "events"}`, the events left out of a catch-up and where '
        "`/events` pages them), `chat` (its `data`: a chat message as `GET "
        '/games/{id}/chat` lists it), or `rematch` (its `data`: `{"game"}`, the finished '
        "game's rematch, sent just before the stream of a finished game that has one closes).",
    )
    data = serializers.CharField(help_text="One line of JSON, as `event` says.")
    retry = serializers.IntegerField(
        required=False, help_text="Milliseconds to wait before reconnecting (the first frame)."
    )


#: The types of an account's inbox entries: a game's (`games.core.letters`), a challenge's
#: (`play.challenges`), a matched seek's (`play.matcher`), a rematch offered (`play.rematches`),
#: a rating changed (`ratings.services`).
INBOX_ENTRY_TYPES = [
    *GAME_LETTERS,
    *CHALLENGE_LETTERS,
    "seek_matched",
    "rematch_offered",
    "rating_changed",  # a rated game rated (`ratings.services`)
]
#: What an account stream frame's `event` may name: an entry's type, or `snapshot`.
ACCOUNT_FRAME_EVENTS = [*INBOX_ENTRY_TYPES, "snapshot"]


class InboxEntrySerializer(serializers.Serializer):
    """One entry of an account's inbox: its payload's fields beside `sequence`, `type`, `at`."""

    sequence = serializers.IntegerField(help_text="Its place in the inbox: 1, 2, 3...")
    type = serializers.ChoiceField(choices=INBOX_ENTRY_TYPES)
    at = serializers.DateTimeField(help_text="When it was written (its move's time).")
    game = serializers.UUIDField(help_text="The game it is about.")
    seat = serializers.IntegerField(
        required=False,
        help_text="`game_started`, `your_turn`, `game_finished`, `seek_matched`: the account's "
        "seat in that game.",
    )
    rank = serializers.IntegerField(
        required=False,
        help_text="`rating_changed`: the account's rank in the rated `game` (1 the best).",
    )
    seats = serializers.IntegerField(
        required=False, help_text="`rating_changed`: among how many seats."
    )
    before = RatingSerializer(
        required=False, help_text="`rating_changed`: the rating the game was rated from."
    )
    rating = RatingSerializer(
        required=False, help_text="`rating_changed`: the account's rating after the game."
    )
    seek = serializers.UUIDField(
        required=False, help_text="`seek_matched`: the seek the matcher seated in `game`."
    )
    next_game = serializers.UUIDField(
        required=False,
        help_text="`rematch_offered`: the rematch of `game`, in which a seat is kept for the "
        "account unless it had left `game` (`POST /api/v1/games/{game}/rematch` takes it).",
    )
    version = serializers.IntegerField(
        required=False, help_text="`your_turn`: the game's version when the turn came."
    )
    turn_deadline = serializers.DateTimeField(
        required=False, allow_null=True, help_text="`your_turn`: when the turn times out."
    )
    totals = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="`game_finished`."
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="`game_finished`."
    )
    challenge = serializers.UUIDField(
        required=False,
        help_text="A challenge's letters (`challenge`, `challenge_accepted`, "
        "`challenge_declined`, `challenge_canceled`): the challenge they are about. A "
        "`challenge` letter, sent to each invitee, holds the whole challenge besides, as "
        "`GET /api/v1/challenges/{id}` shows it (`id`, `status`, `challenger`, `invitees`, "
        "`seats`, `options`, `bots`, `listed`, `created_at`, `expires_at`).",
    )
    handle = serializers.CharField(
        required=False,
        help_text="`challenge_accepted`, `challenge_declined`: the invitee who answered.",
    )
    reason = serializers.CharField(
        required=False,
        help_text="`challenge_declined`: why the invitee declined (`DeclineReason`); "
        "`challenge_canceled`: why the challenge was called off (`declined`, `canceled` or "
        "`expired`, as its game's `GameCanceled`).",
    )


class AccountEventsSerializer(serializers.Serializer):
    entries = InboxEntrySerializer(many=True, help_text="The entries after `after`, in order.")
    last_sequence = serializers.IntegerField(help_text="The inbox's last sequence now.")


class AccountStreamFrameSerializer(serializers.Serializer):
    """One Server-Sent Events frame of an account's stream (each frame's schema, as for a
    game's stream)."""

    id = serializers.CharField(
        required=False,
        help_text="The entry's sequence (send the last one back as `Last-Event-ID`); absent "
        "on `snapshot`.",
    )
    event = serializers.ChoiceField(
        choices=ACCOUNT_FRAME_EVENTS,
        help_text="An entry's type (its `data`: the entry, as `/account/events` shows it) or "
        '`snapshot` (its `data`: `{"sequence", "games"}`, the inbox\'s end and the '
        "account's unfinished games).",
    )
    data = serializers.CharField(help_text="One line of JSON, as `event` says.")
    retry = serializers.IntegerField(
        required=False, help_text="Milliseconds to wait before reconnecting (the first frame)."
    )


class HistoryPlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()


class HistoryOptionsSerializer(GameOptionsSerializer):
    """A history's options: those a game of before the clocks was created with have none."""

    turn_seconds = serializers.IntegerField(
        allow_null=True,
        required=False,
        help_text="Each turn's clock in seconds (R13); null or absent: no clock.",
    )
    max_timeouts = serializers.IntegerField(
        required=False,
        help_text="Timeouts in a row after which a bot plays the seat (R13); absent: 3.",
    )
    rated = serializers.BooleanField(
        required=False, help_text="A rated game (R14); absent: false (a casual game)."
    )


class HistoryGameSerializer(serializers.Serializer):
    id = serializers.UUIDField(required=False)
    created_at = serializers.DateTimeField(
        required=False,
        help_text="When the game was created. An import keeps it as the new game's "
        "`created_at` (a past time with its UTC offset); its events are stored at the import.",
    )
    seats = serializers.IntegerField()
    options = HistoryOptionsSerializer()
    players = HistoryPlayerSerializer(many=True)
    status = serializers.ChoiceField(choices=GAME_STATUSES, required=False)
    version = serializers.IntegerField(required=False)
    winners = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, required=False
    )
    seeded = serializers.BooleanField(
        required=False,
        help_text="Whether the game was created with an explicit seed. An import does not "
        "check it against anything: the imported game gets a new secret seed, so it is not "
        "seeded.",
    )


class HistorySerializer(serializers.Serializer):
    """A complete game log, format `skyjo-history` version 1 (docs/HISTORY_FORMAT.md)."""

    format = serializers.ChoiceField(choices=HISTORY_FORMATS)
    format_version = serializers.ChoiceField(
        choices=HISTORY_FORMAT_VERSIONS, help_text="The version of the format: always 1."
    )
    game = HistoryGameSerializer()
    # A ListField, not `many=True`: the schema states its bounds (`minItems`, `maxItems`),
    # which the import enforces (`games.history.history_events`).
    events = serializers.ListField(
        child=history_events(),
        min_length=1,
        max_length=MAX_EVENTS,
        help_text="Every event, in order, nothing hidden: the first is `GameCreated`.",
    )


class SeatTokenSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    token = serializers.CharField()


class ImportedGameSerializer(GameSerializer):
    seat_tokens = SeatTokenSerializer(
        many=True,
        help_text="For an unfinished game: a new token for every joined seat, shown once. "
        "Empty for a finished game.",
    )


class JoinedSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    token = serializers.CharField(
        help_text="Bearer token for this seat. Shown once; the service keeps only its hash."
    )
    game = GameSerializer(help_text="The game as the new seat sees it.")


class BotJoinedSerializer(serializers.Serializer):
    """A bot seated (R13): the service plays it, so there is no token."""

    seat = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(help_text="The strategy the bot plays.")
    game = GameSerializer(help_text="The game as a spectator sees it.")


class AccountJoinedSerializer(serializers.Serializer):
    """An account's seat: its personal tokens act for it, so there is no seat token."""

    seat = serializers.IntegerField()
    name = serializers.CharField(help_text="The account's handle.")
    account = serializers.CharField(help_text="The account's handle.")
    game = GameSerializer(help_text="The game as the new seat sees it.")


#: A join's answer: a guest's seat with its token, an account's or a bot's without.
JOINED = PolymorphicProxySerializer(
    component_name="JoinAnswer",
    serializers=[JoinedSerializer, AccountJoinedSerializer, BotJoinedSerializer],
    resource_type_field_name=None,
)


class RematchSerializer(serializers.Serializer):
    """The caller's seat in a finished game's rematch."""

    game = serializers.UUIDField(help_text="The rematch's id: the same for every player.")
    seat = serializers.IntegerField(help_text="The caller's seat in the rematch.")
    token = serializers.CharField(
        required=False,
        help_text="A guest's bearer token for that seat, when this call seated it: shown this "
        "once (the old game's token does not act in the rematch). Absent for an account (its "
        "personal tokens act for its seat) and for a guest seated by an earlier call.",
    )


class BotSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The strategy's name: send it as a join's `bot`.")
    description = serializers.CharField(help_text="How it plays, in one sentence.")


# Accounts


class AccountCreatedSerializer(serializers.Serializer):
    handle = serializers.CharField()
    kind = serializers.ChoiceField(choices=ACCOUNT_KINDS)
    created_at = serializers.DateTimeField()
    token = serializers.CharField(
        help_text="The account's first personal token (every scope), shown this once: the "
        "service keeps only its hash. Send it as `Authorization: Bearer <token>`."
    )
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPE_NAMES))


class AccountRecordSerializer(serializers.Serializer):
    played = serializers.IntegerField(help_text="Finished games the account sat in.")
    won = serializers.IntegerField(help_text="Finished games one of its seats won (R3).")
    active = serializers.IntegerField(help_text="Games under way (setup or playing) it sits in.")


OWNER_HELP = "The handle of the person who created this bot account with their token, or null."


class AccountSerializer(serializers.Serializer):
    handle = serializers.CharField()
    kind = serializers.ChoiceField(choices=ACCOUNT_KINDS)
    created_at = serializers.DateTimeField()
    owner = serializers.CharField(allow_null=True, help_text=OWNER_HELP)
    builtin = serializers.BooleanField(help_text="One of the service's own strategies.")
    games = AccountRecordSerializer()
    rating = RatingSerializer(help_text="The account's rating now (R14).")


class PlayerProfileSerializer(serializers.Serializer):
    handle = serializers.CharField()
    kind = serializers.ChoiceField(choices=ACCOUNT_KINDS)
    builtin = serializers.BooleanField(
        help_text="One of the service's own strategies (`GET /api/v1/bots`), played by it."
    )
    owner = serializers.CharField(allow_null=True, help_text=OWNER_HELP)
    created_at = serializers.DateTimeField()
    games_played = serializers.IntegerField(help_text="Finished games the player sat in.")
    games_won = serializers.IntegerField(help_text="Finished games one of its seats won.")
    rating = RatingSerializer(
        help_text="The player's rating now (R14); its history: `GET "
        "/api/v1/players/{handle}/ratings`."
    )


class PersonalTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="Revoke it with `DELETE /api/v1/account/tokens/{id}`.")
    description = serializers.CharField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPE_NAMES))
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(
        allow_null=True, help_text="When it was last used, to the minute (null: never)."
    )
    prefix = serializers.CharField(
        help_text="Its first 14 characters, to tell it apart (the token itself is never shown "
        "again)."
    )


class NewPersonalTokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    token = serializers.CharField(help_text="The token, shown this once: keep it secret.")
    description = serializers.CharField()
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=SCOPE_NAMES))
    created_at = serializers.DateTimeField()


class AccountGameSerializer(GameSummarySerializer):
    seat = serializers.IntegerField(
        help_text="The account's seat (its lowest, for a built-in bot)."
    )
    your_turn = serializers.BooleanField(
        help_text="Whether the account's seat is to act now (in setup: has reveals left)."
    )
    turn_deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the seats to act run out of time (null: no clock)."
    )


class AccountGameListSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = AccountGameSerializer(many=True)


# Challenges


class InviteeSerializer(serializers.Serializer):
    handle = serializers.CharField(help_text="The invited account's handle.")
    answer = serializers.ChoiceField(
        choices=INVITATION_ANSWERS, help_text="`pending` until it accepts or declines."
    )
    reason = serializers.ChoiceField(
        choices=DECLINE_REASONS,
        allow_null=True,
        help_text="Why it declined (null unless `answer` is `declined`): "
        + "; ".join(f"`{value}`: “{label}”" for value, label in DeclineReason.choices),
    )


class ChallengeSerializer(serializers.Serializer):
    """A challenge, as its challenger and its invitees read it."""

    id = serializers.UUIDField()
    game = serializers.UUIDField(
        help_text="The challenge's game (`GET /api/v1/games/{id}`): waiting while the "
        "challenge is pending, dealt once every seat is taken, canceled if the challenge is "
        "declined, canceled or expired."
    )
    status = serializers.ChoiceField(
        choices=CHALLENGE_STATUSES,
        help_text="`pending` until every invitee accepted (`accepted`; so too once its game "
        "has dealt, its invitees having joined it themselves), one declined (`declined`), the "
        "challenger canceled it (`canceled`) or `expires_at` passed (`expired`, shown as soon "
        "as it passes).",
    )
    challenger = serializers.CharField(help_text="The handle of the account that challenged.")
    invitees = InviteeSerializer(many=True, help_text="Each invited account and its answer.")
    seats = serializers.IntegerField(help_text="The game's seats.")
    options = GameOptionsSerializer(help_text="The game's rule options (R12).")
    bots = serializers.ListField(
        child=serializers.CharField(), help_text="The bots seated with the challenger."
    )
    listed = serializers.BooleanField(help_text="Whether the game is in the lobby's list.")
    rated = serializers.BooleanField(help_text="Whether the challenge's game is rated (R14).")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(
        help_text="When a challenge still pending expires and its game is called off."
    )


class ChallengeListSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ChallengeSerializer(many=True)


# Seeks


class SeekSeatsSerializer(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField()


class SeekSerializer(serializers.Serializer):
    """A seek, as its account reads it."""

    id = serializers.UUIDField()
    status = serializers.ChoiceField(
        choices=SEEK_STATUSES,
        help_text="`searching` until the matcher seats you (`matched`: `game` and `seat` say "
        "where), you delete it (`canceled`), or it lapses (`expired`).",
    )
    created_at = serializers.DateTimeField()
    seats = SeekSeatsSerializer(help_text="The seat counts accepted.")
    turn_seconds = serializers.IntegerField(allow_null=True, help_text="The clock; null: none.")
    bots_after = serializers.IntegerField(
        allow_null=True, help_text="Seconds before bots may fill the table; null: never."
    )
    rated = serializers.BooleanField(
        help_text="Whether the seek is for a rated game (R14): matched with rated seeks only, "
        'near your rating first (docs/CLIENTS.md, "Rated games").'
    )
    expires_at = serializers.DateTimeField(
        allow_null=True,
        help_text="While searching: when the seek expires unless your account is seen before "
        "(an open account stream, or a read of the seek, moves it on, never past "
        "`SEEK_MAX_SECONDS` after `created_at`). Expired: when it did. Null once matched or "
        "canceled.",
    )
    game = serializers.UUIDField(
        allow_null=True, help_text="Once matched: the game you are seated in."
    )
    seat = serializers.IntegerField(allow_null=True, help_text="Once matched: your seat in it.")


# Chat


class ChatMessageSerializer(serializers.Serializer):
    """One message of a game's chat, as every reader sees it."""

    sequence = serializers.IntegerField(
        help_text="Its place in the game's chat, across both rooms: 1, 2, 3..."
    )
    room = serializers.ChoiceField(choices=CHAT_ROOMS)
    name = serializers.CharField(
        help_text="Who wrote it: the seat's name, or the account's handle for a spectator."
    )
    account = serializers.CharField(
        allow_null=True, help_text="The writer's account handle; null for a guest's seat."
    )
    text = serializers.CharField(
        help_text="What was written (plain text: show it as text, never as HTML)."
    )
    at = serializers.DateTimeField(help_text="When it was written.")


class ChatMessagesSerializer(serializers.Serializer):
    messages = ChatMessageSerializer(many=True, help_text="Oldest first.")
    muted = serializers.ListField(
        child=serializers.ChoiceField(choices=CHAT_ROOMS),
        help_text="The rooms the caller's seat muted, left out of `messages` (a spectator: none).",
    )


# The bot ladder


class LadderEntrySerializer(serializers.Serializer):
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seat counts the bot plays, ascending."
    )
    joined_at = serializers.DateTimeField(help_text="When the bot first joined the ladder.")


class LadderLineSerializer(serializers.Serializer):
    handle = serializers.CharField()
    kind = serializers.CharField(help_text="`bot`.")
    builtin = serializers.BooleanField(help_text="One of the service's own strategies.")
    rating = RatingSerializer()
    sets = serializers.IntegerField(help_text="Complete duplicate sets played at this seat count.")
    mean_score = serializers.FloatField(
        allow_null=True,
        help_text="The mean score per deal: over its complete sets, each its mean final total "
        "over the set's games (lower is better); null before its first complete set.",
    )
    interval = serializers.ListField(
        child=serializers.FloatField(),
        min_length=2,
        max_length=2,
        allow_null=True,
        help_text="`[low, high]`: the 95% interval of `mean_score`, a percentile bootstrap over "
        "the sets (seeded: the same sets give the same interval); null with `mean_score`.",
    )


class LadderSerializer(serializers.Serializer):
    seats = serializers.IntegerField()
    entries = LadderLineSerializer(many=True)


# Leaderboards and rating histories (R14)


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 the best ordinal, counted across the pages.")
    handle = serializers.CharField()
    kind = serializers.ChoiceField(choices=ACCOUNT_KINDS)
    builtin = serializers.BooleanField(help_text="One of the service's own strategies.")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="`mu - 3 * sigma`, what the board sorts by.")
    games = serializers.IntegerField(help_text="Rated games played.")
    provisional = serializers.BooleanField(help_text="Fewer than 10 rated games.")
    last_played = serializers.DateTimeField(
        allow_null=True, help_text="When its last rated game was rated."
    )


class LeaderboardSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    entries = LeaderboardEntrySerializer(many=True)


class RatingHistoryPointSerializer(serializers.Serializer):
    game = serializers.UUIDField(
        allow_null=True,
        help_text="The rated game; null for a private (unlisted) one, whose id is its "
        "invitation (ladder games are unlisted too).",
    )
    at = serializers.DateTimeField(help_text="When it was rated.")
    rank = serializers.IntegerField(help_text="The account's rank in it (1 the best).")
    seats = serializers.IntegerField(help_text="Among how many seats.")
    mu = serializers.FloatField(help_text="The rating after it.")
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class RatingHistorySerializer(serializers.Serializer):
    handle = serializers.CharField()
    rating = RatingSerializer(help_text="The rating now.")
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    history = RatingHistoryPointSerializer(
        many=True, help_text="One point per rated game, oldest first."
    )

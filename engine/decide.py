"""`decide(state, seat, action) -> events`: the rules of a move, as a pure function.

An illegal action raises a typed `RuleError`. A legal one returns every event it causes
(an action may end a turn, a round and the game at once). `decide` folds each event into a
private draft as it goes, so the later events of one action see the effect of the earlier.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import errors
from .actions import (
    DISCARD,
    DRAW,
    REPLACES,
    REVEALS,
    TAKE_DISCARD,
    Action,
    Cancel,
    Discard,
    Draw,
    Join,
    Leave,
    Replace,
    Reveal,
    StopPlay,
    TakeDiscard,
    TimeOut,
)
from .cards import ALL_CELLS_MASK, CELLS, COLUMN_MASKS, COLUMNS, FULL_DECK, ROWS, cell_index
from .events import (
    CANCEL_REASONS,
    END_SCORE,
    ROUND_LIMIT,
    CardDrawn,
    CardReplaced,
    CardRevealed,
    ColumnRemoved,
    DiscardTaken,
    DrawnCardDiscarded,
    DrawPileReshuffled,
    Event,
    FinalTurnsBegan,
    GameCanceled,
    GameCreated,
    GameEnded,
    PlayerJoined,
    PlayerLeft,
    PlayStarted,
    RoundDealt,
    RoundEnded,
    SeatAbandoned,
    SeatLeft,
    TurnPassed,
    TurnTimedOut,
)
from .evolve import APPLY
from .options import Options, check_seats
from .scoring import closer_is_doubled, final_reveal, game_is_over, raw_score, round_scores
from .scoring import winners as winning_seats
from .shuffle import Shuffler
from .state import (
    CANCELED,
    CHOOSE,
    FINISHED,
    PLACE_DRAWN,
    PLACE_TAKEN,
    PLAYING,
    REVEAL_AFTER_DISCARD,
    SETUP,
    SETUP_REVEALS,
    WAITING,
    GameState,
)

# Legal action lists, built once so that `legal_actions` allocates nothing.
#: The reveals of the cells in a bit mask, for every mask of the 12 cells.
_REVEALS_OF: tuple[tuple[Reveal, ...], ...] = tuple(
    tuple(REVEALS[i] for i in range(CELLS) if mask >> i & 1) for mask in range(ALL_CELLS_MASK + 1)
)
#: Every possible mask of removed cells: any set of whole columns (R8).
_GONE_MASKS: tuple[int, ...] = tuple(
    sum(COLUMN_MASKS[c] for c in range(COLUMNS) if columns >> c & 1)
    for columns in range(1 << COLUMNS)
)
#: Holding the taken discard (R6a), by mask of the removed cells: replace any remaining card.
_PLACES_TAKEN: dict[int, tuple[Action, ...]] = {
    gone: tuple(REPLACES[i] for i in range(CELLS) if not gone >> i & 1) for gone in _GONE_MASKS
}
#: Holding a drawn card (R6b): replace any remaining card, or discard it.
_PLACES_DRAWN: dict[int, tuple[Action, ...]] = {
    gone: (*places, DISCARD) for gone, places in _PLACES_TAKEN.items()
}
_CHOOSE: tuple[Action, ...] = (DRAW, TAKE_DISCARD)


def create_game(seats: int, options: Options | None = None) -> list[Event]:
    """The first event of every game (R2, R12)."""
    check_seats(seats)
    options = options or Options()
    return [GameCreated(seats, options)]


class _Decision:
    """The events of one action, and the draft state they have produced so far (its
    `version` is brought up to date once, by `act`, when the action is decided)."""

    __slots__ = ("draft", "events", "shuffler")

    def __init__(self, state: GameState, shuffler: Shuffler | None) -> None:
        self.draft = state.copy()
        self.events: list[Event] = []
        self.shuffler = shuffler

    def emit(self, event: Event) -> None:
        self.events.append(event)
        APPLY[type(event)](self.draft, event)

    def need_shuffler(self) -> Shuffler:
        if self.shuffler is None:
            raise ValueError("this action deals or reshuffles cards: pass a shuffler")
        return self.shuffler


def decide(
    state: GameState, seat: int | None, action: Action, shuffler: Shuffler | None = None
) -> list[Event]:
    """The events `action` by `seat` causes, or a `RuleError` saying why it is illegal.

    `shuffler` supplies card orders when the action deals a round or reshuffles (R4, R9).
    """
    return act(state, seat, action, shuffler)[0]


#: The turn actions' own classes: an action of one of them is none of the lobby's or the
#: service's, so `act` goes straight to the turn (a bot's every move takes this path).
_TURN_KINDS: frozenset[type] = frozenset({Reveal, Draw, TakeDiscard, Replace, Discard})


def act(
    state: GameState, seat: int | None, action: Action, shuffler: Shuffler | None = None
) -> tuple[list[Event], GameState]:
    """`decide`, together with the state after its events (saves folding them again)."""
    phase = state.phase
    if state.seats == 0:
        raise errors.GameNotStarted("there is no game yet")
    if phase == FINISHED:
        raise errors.GameFinished()
    if phase == CANCELED:
        raise errors.GameCanceled()
    decision = _Decision(state, shuffler)
    if type(action) not in _TURN_KINDS:
        _other(decision, state, seat, action)
    elif type(seat) is not int or not 0 <= seat < state.seats:
        _seat_check(state, seat)  # raises: a spectator, or no such seat
    elif phase == PLAYING and seat == state.current:
        _turn(decision, seat, action)
    else:
        _turn_or_reveal(decision, state, seat, action)
    draft = decision.draft
    draft.version += len(decision.events)
    return decision.events, draft


def _seat_check(state: GameState, seat: int | None) -> None:
    """Refuse a spectator, and a seat the game does not have."""
    if seat is None:
        raise errors.SpectatorCannotAct()
    if type(seat) is not int or not 0 <= seat < state.seats:  # a bool is not a seat
        raise errors.UnknownSeat(f"there is no seat {seat!r} in this game")


def _other(decision: _Decision, state: GameState, seat: int | None, action: Action) -> None:
    """Every action but a turn action of its own class: the lobby's, the service's, a
    seat's leaving, and anything else (refused as the turn refuses it)."""
    if isinstance(action, Join):
        _join(decision, action)
        return
    if isinstance(action, StopPlay):
        _stop_play(decision)
        return
    if isinstance(action, Cancel):
        _cancel(decision, action)
        return
    _seat_check(state, seat)
    assert seat is not None
    if isinstance(action, Leave):
        _leave(decision, seat, action)
    elif isinstance(action, TimeOut):
        _time_out(decision, seat, action)
    else:
        _turn_or_reveal(decision, state, seat, action)


def _turn_or_reveal(decision: _Decision, state: GameState, seat: int, action: Action) -> None:
    """A seat's own move: its turn while playing, its reveals in setup; else why not."""
    phase = state.phase
    if phase == PLAYING:
        if seat != state.current:
            raise errors.NotYourTurn(f"it is seat {state.current}'s turn")
        _turn(decision, seat, action)
    elif phase == SETUP:
        _setup_reveal(decision, seat, action)
    elif phase == WAITING:
        raise errors.GameNotStarted("the game is waiting for players")
    else:
        raise errors.WrongStep("the round is being scored")


def _join(decision: _Decision, action: Join) -> None:
    state = decision.draft
    if state.phase != WAITING or state.is_full:
        raise errors.GameFull()
    if not isinstance(action.name, str):
        raise errors.WrongStep("a name is text")
    if action.bot is not None and not isinstance(action.bot, str):
        raise errors.WrongStep("a bot is named by its strategy")
    rated = state.options.rated
    if rated and action.account is None:
        raise errors.AccountRequired("A rated game seats accounts only: a guest cannot join it.")
    if (action.bot is None or rated) and action.account in state.accounts and action.account:
        raise errors.AlreadySeated(f"{action.account} holds a seat of this game already")
    seat = state.names.index(None)
    decision.emit(PlayerJoined(seat, action.name, action.bot, action.account))
    if decision.draft.is_full:
        _deal(decision, 1)


def _leave(decision: _Decision, seat: int, action: Leave) -> None:
    """R13: a waiting game's seat opens again; a started game's is played by a bot, unless a
    bot already plays it (its player left, or timed out too often): no one is left to leave."""
    state = decision.draft
    if state.names[seat] is None:
        raise errors.UnknownSeat(f"no one sits at seat {seat}")
    if state.phase == WAITING:
        decision.emit(PlayerLeft(seat))
    elif state.left[seat]:
        raise errors.WrongStep("this seat's player has already left")
    elif state.bots[seat] is not None:
        raise errors.WrongStep(f"the {state.bots[seat]} bot already plays this seat")
    else:
        decision.emit(SeatLeft(seat, _bot_name(action.bot)))


def _stop_play(decision: _Decision) -> None:
    """R13: the service may stop a started game only once no person holds a seat. How many
    rounds it plays first is the service's setting, not a rule: the log says only that no
    person was left, which an audit checks without knowing the setting."""
    state = decision.draft
    if state.phase == WAITING:
        raise errors.GameNotStarted("the game is waiting for players")
    if not state.unattended:
        person = state.bots.index(None)
        raise errors.WrongStep(f"a person still plays seat {person}: the game goes on")
    decision.emit(GameEnded(state.totals, winning_seats(state.totals), ROUND_LIMIT))


def _cancel(decision: _Decision, action: Cancel) -> None:
    """R13: only a game still waiting for players can be called off; once dealt, it is
    played out (a seat that goes is played by a bot)."""
    if decision.draft.phase != WAITING:
        raise errors.WrongStep("the game has started: it is played out, not canceled")
    if action.reason not in CANCEL_REASONS:
        raise errors.WrongStep(f"a game is canceled for one of {', '.join(CANCEL_REASONS)}")
    decision.emit(GameCanceled(action.reason))


def _time_out(decision: _Decision, seat: int, action: TimeOut) -> None:
    """R13: the seat's turn ran out; after `max_timeouts` in a row a bot takes it over."""
    state = decision.draft
    if seat not in seats_to_act(state):
        raise errors.NotYourTurn(f"seat {seat} has nothing to do now")
    abandoned = state.bots[seat] is None and state.timeouts[seat] + 1 >= state.options.max_timeouts
    bot = _bot_name(action.bot)
    decision.emit(TurnTimedOut(seat))
    if abandoned:
        decision.emit(SeatAbandoned(seat, bot))


def _bot_name(bot: object) -> str:
    if not isinstance(bot, str) or not bot:
        raise errors.WrongStep("a bot is named by its strategy")
    return bot


def _deal(decision: _Decision, round_number: int) -> None:
    order = tuple(decision.need_shuffler().deal_order(round_number))
    if tuple(sorted(order)) != FULL_DECK:
        raise ValueError("a deal order must hold exactly the 150 cards of R1")
    decision.emit(RoundDealt(round_number, order))


def _cell(action: Reveal | Replace) -> int:
    """The cell index of a position; positions are plain ints (a bool is not a position)."""
    column, row = action.column, action.row
    if type(column) is int and type(row) is int and 0 <= column < COLUMNS and 0 <= row < ROWS:
        return cell_index(column, row)
    raise errors.PositionOutOfRange(f"no card at column {column!r}, row {row!r}")


def _setup_reveal(decision: _Decision, seat: int, action: Action) -> None:
    if not isinstance(action, Reveal):
        raise errors.SetupNotFinished()
    state = decision.draft
    grid = state.grids[seat]
    if grid.up.bit_count() >= SETUP_REVEALS:
        raise errors.SetupRevealsDone()
    cell = _cell(action)
    if grid.up >> cell & 1:
        raise errors.CardAlreadyFaceUp()
    decision.emit(CardRevealed(seat, action.column, action.row, grid.values[cell]))
    grids = decision.draft.grids
    if all(g.up.bit_count() >= SETUP_REVEALS for g in grids):
        decision.emit(PlayStarted(state.round, _first_player(decision.draft)))


def _first_player(state: GameState) -> int:
    """R5: the previous round's closer; in round 1 the highest face-up sum, lowest seat on a tie."""
    if state.round > 1 and state.last_closer is not None:
        return state.last_closer
    sums = [sum(g.values[i] for i in range(CELLS) if g.up >> i & 1) for g in state.grids]
    return sums.index(max(sums))


def _turn(decision: _Decision, seat: int, action: Action) -> None:
    state = decision.draft
    step = state.step
    kind = type(action)
    if kind is Draw or kind is TakeDiscard:
        if step != CHOOSE:
            _refuse_while_holding(step)
        if kind is Draw:
            if state.deck_pos >= len(state.deck):
                _reshuffle(decision)
                state = decision.draft
            decision.emit(CardDrawn(seat, state.deck[state.deck_pos]))
        else:
            decision.emit(DiscardTaken(seat, state.discard[-1]))
    elif kind is Replace:
        if step != PLACE_DRAWN and step != PLACE_TAKEN:
            _refuse_without_card(step)
        assert isinstance(action, Replace)
        cell = _cell(action)
        grid = state.grids[seat]
        if grid.gone >> cell & 1:
            raise errors.PositionRemoved()
        decision.emit(
            CardReplaced(seat, action.column, action.row, state.held, grid.values[cell])  # type: ignore[arg-type]
        )
        _end_turn(decision, seat, action.column)
    elif kind is Discard:
        if step != PLACE_DRAWN:
            if step == PLACE_TAKEN:
                raise errors.MustPlaceTakenDiscard()
            _refuse_without_card(step)
        decision.emit(DrawnCardDiscarded(seat, state.held))  # type: ignore[arg-type]
        if not decision.draft.grids[seat].face_down:  # nothing left to turn: cannot happen
            _end_turn(decision, seat, None)
    elif kind is Reveal:
        if step != REVEAL_AFTER_DISCARD:
            if step == CHOOSE:
                raise errors.WrongStep("draw a card or take the discard first")
            raise errors.CardAlreadyHeld()
        assert isinstance(action, Reveal)
        cell = _cell(action)
        grid = state.grids[seat]
        if grid.gone >> cell & 1:
            raise errors.PositionRemoved()
        if grid.up >> cell & 1:
            raise errors.CardAlreadyFaceUp()
        decision.emit(CardRevealed(seat, action.column, action.row, grid.values[cell]))
        _end_turn(decision, seat, action.column)
    else:
        raise errors.WrongStep(f"{getattr(action, 'kind', action)!r} is not a turn action")


def _refuse_while_holding(step: str) -> None:
    if step == REVEAL_AFTER_DISCARD:
        raise errors.MustRevealAfterDiscard()
    raise errors.CardAlreadyHeld()


def _refuse_without_card(step: str) -> None:
    if step == REVEAL_AFTER_DISCARD:
        raise errors.MustRevealAfterDiscard()
    raise errors.NoCardHeld()


def _reshuffle(decision: _Decision) -> None:
    """R9: the discard pile but its top card becomes the new draw pile."""
    state = decision.draft
    rest = state.discard[:-1]
    order = tuple(decision.need_shuffler().reshuffle(rest, state.round, state.reshuffles + 1))
    if sorted(order) != sorted(rest):
        raise ValueError("a reshuffle must hold exactly the cards under the top discard")
    decision.emit(DrawPileReshuffled(order))


def _end_turn(decision: _Decision, seat: int, column: int | None) -> None:
    """Column removal (R8), then the closer (R10), then the next seat or the round's end."""
    state = decision.draft
    grid = state.grids[seat]
    if column is not None:
        mask = COLUMN_MASKS[column]
        if grid.up & mask == mask and not grid.gone & mask:
            base = column * ROWS
            a, b, c = grid.values[base : base + ROWS]
            if a == b == c:
                decision.emit(ColumnRemoved(seat, column, a))
                grid = state.grids[seat]
    if state.closer is None:
        if not ALL_CELLS_MASK & ~(grid.up | grid.gone):  # no card left face down
            decision.emit(FinalTurnsBegan(seat))
    elif state.final_turns_left <= 1:
        _end_round(decision)
        return
    decision.emit(TurnPassed(seat, (seat + 1) % state.seats))


def _end_round(decision: _Decision) -> None:
    """R10 final reveal, R11 scoring, then R3: the game ends or the next round is dealt."""
    state = decision.draft
    closer = state.closer
    assert closer is not None
    grids = tuple(final_reveal(grid) for grid in state.grids)
    raw = tuple(raw_score(cells) for cells in grids)
    doubled = closer_is_doubled(raw, closer, state.options.closer_penalty)
    scores = round_scores(raw, closer, doubled)
    totals = tuple(total + score for total, score in zip(state.totals, scores, strict=True))
    decision.emit(RoundEnded(state.round, closer, grids, raw, scores, doubled, totals))
    if game_is_over(totals, state.options.end_score):
        decision.emit(GameEnded(totals, winning_seats(totals), END_SCORE))
    else:
        _deal(decision, state.round + 1)


def legal_actions(state: GameState, seat: int | None) -> Sequence[Action]:
    """Every action `seat` may take now, each ready to pass to `decide` (never `Join`)."""
    if type(seat) is not int:  # a spectator (None), or not a seat at all (as `act` decides)
        return ()
    phase = state.phase
    if phase == PLAYING:
        if seat != state.current:
            return ()
        step = state.step
        if step == CHOOSE:
            return _CHOOSE
        grid = state.grids[seat]
        if step == REVEAL_AFTER_DISCARD:
            return _REVEALS_OF[grid.face_down]
        if step == PLACE_DRAWN:
            return _PLACES_DRAWN[grid.gone]
        if step == PLACE_TAKEN:
            return _PLACES_TAKEN[grid.gone]
        return ()
    if phase == SETUP and 0 <= seat < state.seats:
        up = state.grids[seat].up
        if up.bit_count() >= SETUP_REVEALS:
            return ()
        return _REVEALS_OF[ALL_CELLS_MASK & ~up]
    return ()


def seats_to_act(state: GameState) -> tuple[int, ...]:
    """The seats that have a legal action now: the current seat, or in setup every seat
    with reveals left."""
    if state.phase == PLAYING and state.current is not None:
        return (state.current,)
    if state.phase == SETUP:
        return tuple(
            seat for seat, grid in enumerate(state.grids) if grid.up.bit_count() < SETUP_REVEALS
        )
    return ()

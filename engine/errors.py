"""Typed rule errors: each says why an action is illegal, with a stable machine `code`."""

from __future__ import annotations


class RuleError(Exception):
    """An action the rules refuse. `code` is stable and part of the public contract."""

    code = "rule_violation"

    def __init__(self, message: str = "") -> None:
        super().__init__(message or self.__doc__ or self.code)
        self.message = message or (self.__doc__ or self.code).strip()


class InvalidOptions(RuleError):
    """The game's seats or options are outside what the rules allow (R2, R12)."""

    code = "invalid_options"


class GameFull(RuleError):
    """Every seat of the game is already taken."""

    code = "game_full"


class AlreadySeated(RuleError):
    """An account holds one seat of a game at most (a built-in bot may hold several)."""

    code = "already_seated"


class AccountRequired(RuleError):
    """A rated game seats accounts only (people, bot accounts, built-in bots): a guest cannot
    join it (R14)."""

    code = "account_required"


class GameNotStarted(RuleError):
    """The game is still waiting for players; no card has been dealt."""

    code = "game_not_started"


class GameFinished(RuleError):
    """The game is over; no more actions are possible."""

    code = "game_finished"


class GameCanceled(RuleError):
    """The game was called off before it started: nothing more can happen in it."""

    code = "game_canceled"


class UnknownSeat(RuleError):
    """That seat does not exist in this game."""

    code = "unknown_seat"


class NotYourTurn(RuleError):
    """Another seat is to move."""

    code = "not_your_turn"


class WrongStep(RuleError):
    """This action is not possible at this step of the turn or round."""

    code = "wrong_step"


class SetupRevealsDone(RuleError):
    """This seat has already turned its two setup cards face up (R4.3)."""

    code = "setup_reveals_done"


class SetupNotFinished(RuleError):
    """The round has not started: every seat must first turn two cards face up (R4.3)."""

    code = "setup_not_finished"


class PositionOutOfRange(RuleError):
    """Positions are column 0-3 and row 0-2."""

    code = "position_out_of_range"


class PositionRemoved(RuleError):
    """That card's column has been removed (R8)."""

    code = "position_removed"


class CardAlreadyFaceUp(RuleError):
    """That card is already face up; only a face-down card can be turned."""

    code = "card_already_face_up"


class NoCardHeld(RuleError):
    """No card is held: draw from the draw pile or take the discard first (R6)."""

    code = "no_card_held"


class CardAlreadyHeld(RuleError):
    """A card is already held: place it (or discard a drawn card) first (R6)."""

    code = "card_already_held"


class MustPlaceTakenDiscard(RuleError):
    """A card taken from the discard pile must replace a grid card; it cannot be discarded (R6a)."""

    code = "must_replace_taken_discard"


class MustRevealAfterDiscard(RuleError):
    """After discarding the drawn card, turn one of your face-down cards face up (R6b)."""

    code = "must_reveal_after_discard"


class SpectatorCannotAct(RuleError):
    """Only a seated player can act."""

    code = "spectator_cannot_act"


#: Every rule error class, for documentation and schema generation.
ALL_RULE_ERRORS: tuple[type[RuleError], ...] = (
    InvalidOptions,
    GameFull,
    AlreadySeated,
    AccountRequired,
    GameNotStarted,
    GameFinished,
    GameCanceled,
    UnknownSeat,
    NotYourTurn,
    WrongStep,
    SetupRevealsDone,
    SetupNotFinished,
    PositionOutOfRange,
    PositionRemoved,
    CardAlreadyFaceUp,
    NoCardHeld,
    CardAlreadyHeld,
    MustPlaceTakenDiscard,
    MustRevealAfterDiscard,
    SpectatorCannotAct,
)

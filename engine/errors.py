"""Errors the engines raise. Their messages are sentences a player can act on; the bot shows them unchanged (B3)."""


class GameError(Exception):
    """Base of every refusal: the game state is unchanged when one is raised."""


class InvalidMoveError(GameError, ValueError):
    """The text is not a move at all (unknown card, unknown word)."""


class IllegalMoveError(GameError, ValueError):
    """A well-formed move the rules do not allow in this position."""


class AmbiguousMoveError(GameError, ValueError):
    """The text fits more than one legal move; the message says how to tell them apart."""


class NotYourTurnError(GameError):
    """A seat tried to move while another seat is to play."""


class GameOverError(GameError):
    """A move after the game has ended."""

"""Errors the engines raise when they refuse something a player asked (B3).

Each refusal carries what to tell the player as a `Message` (an id and its parameters), never a sentence: the
presenters say it in the player's language (`i18n.render_message`). `str(error)` is the message for logs, words left
out (`kasino.refused.not-in-hand(card=3♥)`). Errors that are bugs (a corrupt snapshot, a wrong call) stay plain
`ValueError`s with English for the developer.
"""

from __future__ import annotations

from engine.message import Message, log_text


class GameError(Exception):
    """Base of every refusal: the game state is unchanged when one is raised; `message` says why."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return log_text(self.message)


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


class SettingError(GameError, ValueError):
    """A lobby setting the kind does not allow (a seat count, one of its options); the message says what it allows."""

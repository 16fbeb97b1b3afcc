"""Engine messages in English words, as the tables say them, for tests that pin the words."""

from collections.abc import Sequence
from typing import Any

from engine.base import AnyGame, Event
from engine.message import Message
from i18n import render_message, sentence_start
from service.errors import refusal_message


def said(said_by: Message | Event, names: Sequence[str] = ()) -> str:
    """An event (or a message) in English, with `names[seat]` for each seat."""
    message = said_by if isinstance(said_by, Message) else said_by.message()
    return render_message(message, "en", names)


def label(game: AnyGame, move: Any) -> str:
    """A move as a menu offers it: "Place 4♠"."""
    return sentence_start(render_message(game.describe_move(move), "en"))


def refusal(error: BaseException, locale: str = "en") -> str:
    """A refusal (engine, service or store) as the player who acted reads it: a sentence in `locale`."""
    return sentence_start(render_message(refusal_message(error), locale))

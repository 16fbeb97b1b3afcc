"""What the engine and the service say (messages), in words for the table: narration and move labels.

Each function takes the locale of the text's readers (`cogs.runtime.language`: the server's for public text, the
reader's for private text); English, the source, where none is given.
"""

from __future__ import annotations

from collections.abc import Iterable

from cogs.runtime.names import seat_name
from db.records import GameRecord
from engine.base import AnyGame, Move
from engine.message import Message
from engine.registry import game_kind
from i18n import SOURCE_LOCALE, render_message, sentence_start


def game_title(record: GameRecord) -> str:
    """The game as every text names it, "Kasino #12": its kind's name (the same in every language) and number."""
    return f"{game_kind(record.kind).title} #{record.id}"


def seat_names(record: GameRecord, locale: str = SOURCE_LOCALE) -> list[str]:
    """Display names by seat, as `locale` says them (a computer by its strength in that language)."""
    return [seat_name(seat, locale) for seat in record.seats]


def name_of(record: GameRecord, seat: int, locale: str = SOURCE_LOCALE) -> str:
    """The player in `seat`, as `locale` names them."""
    return seat_name(record.seats[seat], locale)


def said(record: GameRecord, narration: Iterable[Message], locale: str = SOURCE_LOCALE) -> tuple[str, ...]:
    """Narration in words for `locale`, each seat by its player's name."""
    names = seat_names(record, locale)
    return tuple(render_message(message, locale, names) for message in narration)


def phrase_words(phrase: Message, locale: str = SOURCE_LOCALE) -> str:
    """A move phrase as a menu, a button or a confirmation offers it: "Place 4♠", "Draw from the stock"."""
    return sentence_start(render_message(phrase, locale))


def move_words(game: AnyGame, move: Move, locale: str = SOURCE_LOCALE) -> str:
    """`game`'s move phrase for `move`, as a menu offers it: "Take 3♦+A♥+A♠ with 5♥"."""
    return phrase_words(game.describe_move(move), locale)

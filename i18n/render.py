"""Messages into words for one locale: `render_message(message, locale, names)`.

Each parameter is said as its type asks: a seat by the player's name, a card as the locale writes it, a count with
its noun's plural form, a list with the catalog's separators, a nested message in the same locale, `None` as
nothing. A message the locale's catalog lacks is said in English, the source; one English lacks is a bug.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.message import Count, Joined, Message, Param, Seat
from i18n.cards import card_words
from i18n.catalog import SOURCE_LOCALE, Entry, LocaleCatalog, load


class MissingMessageError(KeyError):
    """A message id the English catalog does not have."""


def _entry(message_id: str, locale: str) -> tuple[LocaleCatalog, Entry]:
    for code in (locale, SOURCE_LOCALE):
        catalog = load(code)
        entry = catalog.entries.get(message_id)
        if entry is not None:
            return catalog, entry
    raise MissingMessageError(message_id)


def render_message(message: Message, locale: str, names: Sequence[str] = ()) -> str:
    """`message` in words for `locale`, with `names[seat]` for each seat it mentions.

    Raises:
        MissingMessageError: the id is in no catalog.
    """
    catalog, entry = _entry(message.id, locale)
    if entry.selector is None:
        text = entry.forms[0]
    else:
        count = message.params.get(entry.selector)
        text = catalog.form(entry, count if isinstance(count, int) else 0)
    said = {name: render_param(value, locale, names) for name, value in message.params.items()}
    return text.format_map(said)


def render_param(value: Param, locale: str, names: Sequence[str] = ()) -> str:
    """One parameter in words for `locale`."""
    if value is None:
        return ""
    if isinstance(value, Seat):
        return names[value.seat] if 0 <= value.seat < len(names) else f"#{value.seat + 1}"
    if isinstance(value, Card):
        return card_words(value, locale)
    if isinstance(value, Count):
        return counted(value.n, value.noun, locale)
    if isinstance(value, Joined):
        return _join([render_param(item, locale, names) for item in value.items], value, locale)
    if isinstance(value, Message):
        return render_message(value, locale, names)
    return str(value)


def _join(items: list[str], joined: Joined, locale: str) -> str:
    if not items:
        return ""
    sep = render_message(Message(joined.sep), locale)
    if joined.last is None or len(items) == 1:
        return sep.join(items)
    return sep.join(items[:-1]) + render_message(Message(joined.last), locale) + items[-1]


def say(locale: str, message_id: str, /, **params: Param) -> str:
    """The catalog's message `message_id` in words for `locale`, with `params` (no seats: names are given as text)."""
    return render_message(Message(message_id, params), locale)


def counted(n: int, noun: str, locale: str = SOURCE_LOCALE) -> str:
    """`n` and its noun in the form that goes with it: "1 card", "3 cards", "1 hand won" (catalog `count.<noun>`)."""
    return render_message(Message(f"count.{noun}", {"n": n}), locale)


def noun(n: int, noun: str, locale: str = SOURCE_LOCALE) -> str:
    """The noun alone in the form that goes with `n`: "card", "cards" (catalog `noun.<noun>`)."""
    return render_message(Message(f"noun.{noun}", {"n": n}), locale)


def sentence_start(text: str) -> str:
    """`text` with its first letter capitalised, to start a sentence or a label ("place 4♠" → "Place 4♠")."""
    return text[:1].upper() + text[1:]


def join_names(names: Sequence[str], locale: str = SOURCE_LOCALE) -> str:
    """Names as one list: "Kari", "Kari and Ola", "Kari, Ola and Nora"."""
    return _join(list(names), Joined((), "join.comma", "join.and"), locale)

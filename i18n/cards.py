"""Cards as each language writes them, and typed cards read in any of those ways.

Stub: English forms only until the locale rank tables land (issue 25).
"""

from __future__ import annotations

from engine.cards import Card
from i18n.catalog import SOURCE_LOCALE


def card_words(card: Card, locale: str = SOURCE_LOCALE) -> str:
    """`card` as players of `locale` write it ("Q♠" in English)."""
    return str(card)


def english_ranks(text: str, locale: str = SOURCE_LOCALE) -> str:
    """Typed cards with `locale`'s rank letters turned into the English ones the engine reads."""
    return text

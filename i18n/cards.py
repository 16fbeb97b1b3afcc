"""Cards as each language writes them, and typed cards read in any of those ways.

The ranks with letters are the catalog's (domain `cards.po`, ids `card.rank.A`, `card.rank.J`, `card.rank.Q`,
`card.rank.K`), so translators own them: a Norwegian table says E K D Kn (ess, konge, dame, knekt), a Hungarian one
A K D B (ász, király, dáma, bubi), an Indonesian or English one A K Q J. Numbers and suits are the same everywhere.
A Joker (Garbage's house rule GV2) is named in texts by the catalog's `card.joker` ("Joker") and carries the letters
`card.rank.Jo` ("Jo") on its corner.

>>> from engine.cards import Card
>>> card_words(Card.parse("Qs"), "no"), card_words(Card.parse("Jh"), "no"), card_words(Card.parse("10d"), "hu")
('D♠', 'Kn♥', '10♦')

Players type cards with their own letters, or the English ones, or ASCII suits (`dd` is the Hungarian queen of
diamonds). `english_ranks` turns what they typed into the English ranks the engine reads, and `local_ranks` into
the locale's own (to match typed text against a move's words); both change only a rank standing at the start of a
card: a token that is a rank, an optional `-`, `_` or `/`, a suit (symbol or `s h d c`) and an optional `#deck`,
with no letter or digit on either side. Words such as "build", "double" or "take", values such as `9`, and suit
letters are never touched.

>>> english_ranks("Kn♠ take D♦+5h", "no"), english_ranks("Dd build 10d", "hu"), english_ranks("qh take 2c", "hu")
('J♠ take Q♦+5h', 'Qd build 10d', 'qh take 2c')
>>> local_ranks("js take qd", "no")
'kns take dd'
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from engine.cards import ACE, BLACK_JOKER, JACK, JOKER, JOKER_TEXT, KING, QUEEN, RANK_NAMES, Card
from i18n.catalog import SOURCE_LOCALE, load

RANK_IDS: Final = {rank: f"card.rank.{letter}" for rank, letter in RANK_NAMES.items()}
"""The catalog id of each rank written with a letter: Ace, Jack, Queen, King."""
JOKER_LETTERS_ID: Final = f"card.rank.{JOKER_TEXT}"  # the Joker's letters on its card's corner
JOKER_ID: Final = "card.joker"  # the Joker as texts name it
_JOKER_FORMS: Final = frozenset({"jo", "joker"})  # what the engine reads as a Joker besides its sign

# What the engine reads as a rank besides the digits (engine/cards.py `_RANK_ALIASES`), beside the display forms.
_ENGLISH_FORMS: Final = {"a": ACE, "1": ACE, "t": 10, "j": JACK, "q": QUEEN, "k": KING}
_SUIT_CHARS: Final = "♠♤♥♡♦♢♣♧shdc"


def rank_words(rank: int, locale: str = SOURCE_LOCALE) -> str:
    """A rank as `locale` writes it: its letter from the catalog (`A`, `J`, `Q`, `K` in English), else the number.

    A Joker's "rank" is the letters on its corner (`Jo`).
    """
    if rank == JOKER:
        return _words(JOKER_LETTERS_ID, locale, JOKER_TEXT)
    message_id = RANK_IDS.get(rank)
    if message_id is None:
        return str(rank)
    return _words(message_id, locale, RANK_NAMES[rank])


def _words(message_id: str, locale: str, fallback: str) -> str:
    for code in (locale, SOURCE_LOCALE):
        entry = load(code).entries.get(message_id)
        if entry is not None:
            return entry.forms[0]
    return fallback


def card_words(card: Card, locale: str = SOURCE_LOCALE) -> str:
    """`card` as players of `locale` write it ("Q♠" in English, "D♠" in Norwegian and Hungarian; "Joker")."""
    if card.rank == JOKER:
        return _words(JOKER_ID, locale, "Joker")
    if card.rank not in RANK_IDS:
        return str(card)
    return f"{rank_words(card.rank, locale)}{card.suit}"


def english_ranks(text: str, locale: str = SOURCE_LOCALE) -> str:
    """Typed cards with `locale`'s rank letters turned into the English ones the engine reads.

    English forms (and `1`, `T`, `10`) are left as typed; a local letter keeps its case (`d♦` → `q♦`, `D♦` → `Q♦`).
    Where a local letter is also an English rank of another card, the local meaning wins. A Joker written the
    locale's way becomes `Jo`, unless the engine reads that way already (`Joker`, `Jo` in every catalog today).
    """
    text = _english_jokers(text, locale)
    table = _local_forms(locale)
    if not table:
        return text
    english = {form: RANK_NAMES[rank] for form, rank in table.items() if _ENGLISH_FORMS.get(form) != rank}
    if not english:
        return text
    return _pattern(tuple(sorted(english))).sub(lambda match: _cased(english[match[0].lower()], match[0]), text)


def local_ranks(text: str, locale: str = SOURCE_LOCALE) -> str:
    """Typed cards with every rank written as `locale` writes it (English letters, `1` and `T` included).

    What a player typed then compares with a move's words in their language: `qs` and `ds` both become `ds` in
    Norwegian, where the words say "D♠".
    """
    forms = {**_ENGLISH_FORMS, **_local_forms(locale)}
    local = {form: rank_words(rank, locale) for form, rank in forms.items()}
    changed = {form: words for form, words in local.items() if form != words.lower()}
    if not changed:
        return text
    return _pattern(tuple(sorted(forms))).sub(
        lambda match: _cased(local[match[0].lower()], match[0]) if match[0].lower() in changed else match[0], text
    )


def _english_jokers(text: str, locale: str) -> str:
    """`text` with the locale's own words for a Joker (a whole token, `#deck` allowed) written `Jo`."""
    local = {rank_words(JOKER, locale).lower(), card_words(Card(JOKER, BLACK_JOKER), locale).lower()} - _JOKER_FORMS
    if not local:
        return text
    words = "|".join(re.escape(word) for word in sorted(local, key=len, reverse=True))
    return re.sub(rf"(?<![\w#])(?:{words})(?=(?:#[0-9])?(?![\w#]))", JOKER_TEXT, text, flags=re.IGNORECASE)


def _local_forms(locale: str) -> dict[str, int]:
    """The locale's rank letters, lower case, each with its rank (English letters included in English)."""
    return {rank_words(rank, locale).lower(): rank for rank in RANK_IDS}


def _cased(written: str, typed: str) -> str:
    """`written` in lower case when the player typed the rank in lower case, else as the catalog writes it."""
    return written.lower() if typed.islower() else written


@cache
def _pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """A rank among `forms` that starts a card token: suit (and `#deck`) after it, no letter or digit around it."""
    ranks = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return re.compile(
        rf"(?<![\w#])(?:{ranks})(?=[\-_/]?[{_SUIT_CHARS}](?:#[0-9])?(?![\w#]))",
        re.IGNORECASE,
    )

"""Playing cards shared by both games: parsing what people type, and one canonical display form.

>>> Card.parse("td")
Card.parse('10♦')
>>> str(Card.parse("k-d")), str(Card.parse("As")), str(Card.parse("QH"))
('K♦', 'A♠', 'Q♥')

Jokers (Garbage's house rule GV2; Kasino never deals them) have no rank among the 13 and no suit: a deck's two are
told apart as Unicode does, the black Joker `🃏` and the white one `🃟`, and they are written by that sign alone.

>>> Card.parse("Jo"), Card.parse("joker#1").code, str(Card.parse("🃟")), Card.parse("jo") < Card.parse("Jo2")
(Card.parse('🃏'), '🃏#1', '🃟', True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from engine.errors import InvalidMoveError
from engine.message import CardParam, Message

SUITS: Final = ("♠", "♥", "♦", "♣")
SUIT_NAMES: Final = {"♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs"}
RANK_NAMES: Final = {1: "A", 11: "J", 12: "Q", 13: "K"}

ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
JOKER: Final = 14  # above every rank, so Jokers sort after the Kings and no rank rule of either game reads them
BLACK_JOKER: Final = "🃏"  # a deck's two Jokers, as Unicode names them; the sign is the Joker's whole display form
WHITE_JOKER: Final = "🃟"
JOKER_SUITS: Final = (BLACK_JOKER, WHITE_JOKER)
JOKER_TEXT: Final = "Jo"  # the Joker's letters in place of a rank (`rank_text`)

_SUIT_ALIASES: Final = {
    "♠": "♠", "♤": "♠", "s": "♠",
    "♥": "♥", "♡": "♥", "h": "♥",
    "♦": "♦", "♢": "♦", "d": "♦",
    "♣": "♣", "♧": "♣", "c": "♣",
}  # fmt: skip
_RANK_ALIASES: Final = {"a": 1, "1": 1, "t": 10, "j": 11, "q": 12, "k": 13, **{str(n): n for n in range(2, 11)}}
# Rank, optional separator, suit, optional "#deck" (only multi-deck games write the deck); or a Joker: its sign, or
# `jo`/`joker` for the black one and `jo2`/`joker2` for the white one.
_CARD_RE: Final = re.compile(
    r"^(?:(?P<rank>10|[2-9akqjt1])[\s\-_/]?(?P<suit>[♠♤♥♡♦♢♣♧shdc])|(?P<joker>[🃏🃟]|jo(?:ker)?2?))(?:#(?P<deck>[0-9]))?$"
)
_JOKER_ALIASES: Final = {"🃏": BLACK_JOKER, "🃟": WHITE_JOKER}


@dataclass(frozen=True, slots=True, order=True)
class Card(CardParam):
    """One physical card. `deck` tells apart the copies when a game shuffles several decks together.

    `code` is the serialization form: the display form, plus `#deck` for copies beyond the first deck. It is worked
    out once, when the card is made, because snapshots write every card of a game after every move.
    """

    rank: int
    suit: str
    deck: int = 0
    code: str = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        suited = 1 <= self.rank <= 13 and self.suit in SUITS
        if not (suited or (self.rank == JOKER and self.suit in JOKER_SUITS)) or self.deck < 0:
            raise ValueError(f"not a card: rank={self.rank!r} suit={self.suit!r} deck={self.deck!r}")
        text = f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit}" if suited else self.suit
        object.__setattr__(self, "code", f"{text}#{self.deck}" if self.deck else text)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card as people type it: `10♦`, `10d`, `Td`, `as`, `QH`, `k-d` (case-insensitive); a Joker `🃏`, `Jo`.

        Raises:
            InvalidMoveError: the text is not a card.
        """
        match = _CARD_RE.match(text.strip().lower())
        if match is None:
            raise InvalidMoveError(Message("refused.not-a-card", {"text": text.strip()}))
        deck = int(match["deck"]) if match["deck"] else 0
        joker = match["joker"]
        if joker is not None:
            return cls(JOKER, _JOKER_ALIASES.get(joker, WHITE_JOKER if joker.endswith("2") else BLACK_JOKER), deck)
        return cls(_RANK_ALIASES[match["rank"]], _SUIT_ALIASES[match["suit"]], deck)

    @classmethod
    def from_code(cls, code: str) -> Card:
        """The card whose `code` this is, as snapshots store it; one shared instance per code (cards are values).

        Raises:
            InvalidMoveError: the text is not a card.
        """
        card = _BY_CODE.get(code)
        if card is None:
            card = cls.parse(code)
            if card.code == code:  # only canonical codes are kept, so the table stays as small as the decks
                _BY_CODE[code] = card
        return card

    @property
    def rank_text(self) -> str:
        """`A`, `2` … `10`, `J`, `Q`, `K`; `Jo` for a Joker."""
        return JOKER_TEXT if self.rank == JOKER else RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def is_joker(self) -> bool:
        """True for a Joker (GV2)."""
        return self.rank == JOKER

    def __str__(self) -> str:
        return self.suit if self.rank == JOKER else f"{self.rank_text}{self.suit}"

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


_BY_CODE: dict[str, Card] = {}


def cards_from_codes(codes: Iterable[str]) -> list[Card]:
    """`Card.from_code` of each code, in order (the way snapshots are read, without a call per card).

    Raises:
        InvalidMoveError: one of them is not a card.
    """
    known = _BY_CODE.get
    return [known(code) or Card.from_code(code) for code in codes]


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces, commas or `+`.

    Raises:
        InvalidMoveError: one of them is not a card.
    """
    return tuple(Card.parse(part) for part in re.split(r"[\s,+]+", text.strip()) if part)


def format_cards(cards: tuple[Card, ...] | list[Card], sep: str = " ") -> str:
    """Cards in display form, joined by `sep`."""
    return sep.join(str(card) for card in cards)


def new_deck(deck: int = 0) -> list[Card]:
    """The 52 cards of one deck, in a fixed order (shuffle with the game's own RNG)."""
    return [Card(rank, suit, deck) for suit in SUITS for rank in range(1, 14)]


def new_jokers(deck: int = 0) -> list[Card]:
    """The two Jokers a deck brings (GV2): the black one, then the white one."""
    return [Card(JOKER, suit, deck) for suit in JOKER_SUITS]


def new_decks(count: int, *, jokers: bool = False) -> list[Card]:
    """`count` decks together (each with its two Jokers after its 52 cards if `jokers`).

    Every copy stays distinguishable through `Card.deck`.
    """
    return [card for deck in range(count) for card in (*new_deck(deck), *(new_jokers(deck) if jokers else ()))]


for _deck in range(3):  # the copies games use today, so that reading a snapshot finds every card at once
    for _card in (*new_deck(_deck), *new_jokers(_deck)):
        _BY_CODE[_card.code] = _card

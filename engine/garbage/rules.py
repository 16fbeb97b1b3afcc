"""Garbage settings and house rules (GV1–GV5): decks (G1, GV5), wild cards (G6, GV1, GV2), legal decisions.

Which decisions a turn allows (G5, G6c), with the reason for a refusal (B3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from engine.cards import JACK, JOKER, KING, Card
from engine.errors import IllegalMoveError
from engine.garbage.moves import DRAW_DISCARD, DRAW_STOCK, JACK_MOVES, MAX_SPOT, DrawDiscard, DrawStock, PlaceJack
from engine.message import Count, Joined, Message, Param
from engine.records import SettingsRecord

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
_DECKS_BY_PLAYERS: Final = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # G1
WILD_RANKS: Final = {"jack": JACK, "king": KING}  # GV1: the setting's values and the rank each makes wild
DECK_CHOICES: Final = (0, 1, 2, 3)  # GV5: 0 is automatic (G1)
MIN_STOCK: Final = 10  # GV5: a fixed number of decks must leave at least this many cards in the stock after the deal
CARDS_PER_DECK: Final = 52
JOKERS_PER_DECK: Final = 2  # GV2


def decks_for(players: int) -> int:
    """G1: how many 52-card decks a game of `players` uses.

    Raises:
        ValueError: `players` is not 2–6.
    """
    if players not in _DECKS_BY_PLAYERS:
        raise ValueError(f"Garbage is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.")
    return _DECKS_BY_PLAYERS[players]


@dataclass(frozen=True, slots=True)
class GarbageSettings(SettingsRecord):
    """Options chosen in the lobby, the house rules of RULES.md; every default is the main rules' (G1–G10).

    - `start_size` (GV3, 1–10): spots in every layout at the start (G2).
    - `wild_rank` (GV1): `"jack"` or `"king"`, the rank that plays every Jack rule of G6 and G10.
    - `jokers` (GV2): each deck brings two Jokers, wild like the wild rank.
    - `last_turn` (GV4): a completed layout gives the players behind the finisher one more turn.
    - `decks` (GV5): 0 for G1's count, else a fixed 1, 2 or 3 (`decks_fit` says whether the seats allow it).
    """

    start_size: int = MAX_SPOT
    wild_rank: str = "jack"
    jokers: bool = False
    last_turn: bool = False
    decks: int = 0
    GAME: ClassVar[str] = "Garbage"

    def __post_init__(self) -> None:
        if type(self.start_size) is not int or not 1 <= self.start_size <= MAX_SPOT:
            raise ValueError(f"start_size must be a whole number from 1 to {MAX_SPOT}, not {self.start_size!r}.")
        if self.wild_rank not in WILD_RANKS:
            raise ValueError(f"wild_rank must be one of {', '.join(WILD_RANKS)}, not {self.wild_rank!r}.")
        for name in ("jokers", "last_turn"):
            if type(getattr(self, name)) is not bool:
                raise ValueError(f"{name} must be true or false, not {getattr(self, name)!r}.")
        if type(self.decks) is not int or self.decks not in DECK_CHOICES:
            raise ValueError(f"decks must be 0 (automatic), 1, 2 or 3, not {self.decks!r}.")

    @property
    def wild(self) -> int:
        """The wild rank's number (GV1): `JACK` or `KING`."""
        return WILD_RANKS[self.wild_rank]

    def is_wild(self, card: Card) -> bool:
        """True for a card that plays the Jack rules of G6 and G10: the wild rank, or a Joker (GV2)."""
        return card.rank == self.wild or card.rank == JOKER

    def deck_count(self, players: int) -> int:
        """The decks a game of `players` shuffles: the fixed number (GV5), else G1's.

        Raises:
            ValueError: `players` is not 2–6.
        """
        automatic = decks_for(players)
        return self.decks or automatic

    def cards_in(self, decks: int) -> int:
        """How many cards `decks` decks hold, their Jokers included (GV2)."""
        return decks * (CARDS_PER_DECK + (JOKERS_PER_DECK if self.jokers else 0))


def decks_fit(settings: GarbageSettings, players: int) -> Message | None:
    """GV5: why `settings` do not fit `players` seats (the first deal would leave a stock under 10 cards), or None.

    G1's automatic count always fits; a fixed count must hold `players × start_size` cards and ten more.
    """
    decks = settings.deck_count(players) if MIN_PLAYERS <= players <= MAX_PLAYERS else settings.decks or 1
    cards = settings.cards_in(decks)
    if players * settings.start_size <= cards - MIN_STOCK:
        return None
    params: dict[str, Param] = {
        "decks": decks,
        "cards": Count(cards, "card"),
        "players": players,
        "spots": Count(settings.start_size, "spot"),
        "needed": Count(players * settings.start_size + MIN_STOCK, "card"),
    }
    return Message("garbage.refused.too-few-decks", params)


def legal_decisions(
    up: Sequence[bool], pending: Card | None, stock: int, discard: int
) -> tuple[DrawStock | DrawDiscard | PlaceJack, ...]:
    """The decisions open to the seat to move: stock before discard, face-down spots lowest first."""
    if pending is not None:
        return tuple(JACK_MOVES[spot] for spot, face_up in enumerate(up, start=1) if not face_up)
    if not discard:
        return (DRAW_STOCK,)
    if not stock and discard < 2:
        return (DRAW_DISCARD,)
    return (DRAW_STOCK, DRAW_DISCARD)


def no_wild_card(settings: GarbageSettings) -> Message:
    """The refusal of a spot choice with no wild card waiting, naming the wild cards of these rules."""
    if settings.jokers:
        return Message("garbage.refused.no-wild-card")
    return Message("garbage.refused.no-king" if settings.wild == KING else "garbage.refused.no-jack")


def check_decision(
    move: DrawStock | DrawDiscard | PlaceJack,
    up: Sequence[bool],
    pending: Card | None,
    stock: int,
    discard: int,
    settings: GarbageSettings | None = None,
) -> None:
    """Refuse a decision the position does not allow, saying why.

    Raises:
        IllegalMoveError: with the reason.
    """
    if pending is not None:
        if not isinstance(move, PlaceJack):
            choices = Joined(tuple(str(legal) for legal in legal_decisions(up, pending, stock, discard)), "join.comma")
            raise IllegalMoveError(Message("garbage.refused.choose-spot-first", {"card": pending, "choices": choices}))
        if move.spot > len(up):
            layout = Count(len(up), "spot")
            raise IllegalMoveError(Message("garbage.refused.spot-beyond-layout", {"spot": move.spot, "layout": layout}))
        if up[move.spot - 1]:
            raise IllegalMoveError(Message("garbage.refused.spot-face-up", {"spot": move.spot}))
    elif isinstance(move, PlaceJack):
        raise IllegalMoveError(no_wild_card(settings or GarbageSettings()))
    elif isinstance(move, DrawDiscard) and not discard:
        raise IllegalMoveError(Message("garbage.refused.discard-empty"))
    elif isinstance(move, DrawStock) and not stock and discard < 2:
        raise IllegalMoveError(Message("garbage.refused.stock-empty"))

"""A toy game defined by the test suite alone, to prove that a kind the registry lists gets the contract's checks.

High Card, 2-3 players: each is dealt three cards from a shuffled deck; in turn a player shows one card (`show 7♥`);
after three rounds of showing, the highest card shown wins. The stock and the hands are hidden. It has no picture
and no computer players, as a new kind may start.

Its house rules (issue 26) exercise the generic machinery: TV1 a choice (rounds: 3, 1 or 2 cards each), TV2 an on/off
that fits three seats only (showdown: the lowest card wins; as Kasino's partnerships need four), TV3 an on/off that is
also an option of `/toy new` (aces low). Its words are in `tests/toy_locales/<locale>/toy.po`, read while
`toy_words()` runs.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Self

import i18n.catalog
from engine.cards import ACE, Card, cards_from_codes, new_deck
from engine.core import SCHEMA, BaseGame, Rejoin, Resign
from engine.errors import IllegalMoveError, InvalidMoveError
from engine.kinds import GameKind, HouseRule, YesNo
from engine.message import STORED_TEXT, Message

ROUNDS = 3


@dataclass(frozen=True, slots=True)
class Show:
    card: Card

    def __str__(self) -> str:
        return f"show {self.card}"


@dataclass(frozen=True, slots=True)
class Shown:
    seat: int
    card: Card

    def message(self) -> Message:
        # A test kind has no catalog: its words are stored text, as old narration is.
        return Message(STORED_TEXT, {"text": f"Seat {self.seat + 1} shows {self.card}."})


@dataclass(frozen=True, slots=True)
class ToySettings:
    aces_low: bool = False
    rounds: int = ROUNDS
    showdown: bool = False  # the lowest card wins; three players only

    def to_dict(self) -> dict[str, Any]:
        return {"aces_low": self.aces_low, "rounds": self.rounds, "showdown": self.showdown}


@dataclass(frozen=True, slots=True)
class ToySeat:
    seat: int
    hand_size: int
    shown: tuple[Card, ...]
    resigned: bool


@dataclass(frozen=True, slots=True)
class ToyPublicView:
    seats: tuple[ToySeat, ...]
    stock_size: int
    to_move: int | None


@dataclass(frozen=True, slots=True)
class ToyView:
    public: ToyPublicView
    seat: int
    hand: tuple[Card, ...]
    legal_moves: tuple[Show, ...]


class HighCard(BaseGame[Show, Shown, ToyPublicView, ToyView, ToySettings]):
    KIND: ClassVar[str] = "toy"
    TITLE: ClassVar[str] = "High Card"
    MOVE_COUNT_KEY: ClassVar[str] = "moves"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 3
    SCORES_LABEL: ClassVar[Message] = Message(STORED_TEXT, {"text": "best card"})

    def __init__(self, players: int, seed: int, settings: ToySettings) -> None:
        super().__init__(players, seed, settings)
        self._hands: list[list[Card]] = [[] for _ in range(players)]
        self._shown: list[list[Card]] = [[] for _ in range(players)]
        self._stock: list[Card] = []
        self._turn: int | None = 0

    @property
    def to_move(self) -> int | None:
        return self._turn

    @classmethod
    def settings_from_dict(cls, data: Mapping[str, Any] | None) -> ToySettings:
        data = data or {}
        rounds = data.get("rounds", ROUNDS)
        if rounds not in (1, 2, 3):
            raise ValueError(f"rounds must be 1, 2 or 3, not {rounds!r}")
        return ToySettings(bool(data.get("aces_low", False)), int(rounds), bool(data.get("showdown", False)))

    def hidden_cards(self, seat: int | None = None) -> frozenset[Card]:
        return frozenset((*(c for other, hand in enumerate(self._hands) if other != seat for c in hand), *self._stock))

    def public_view(self) -> ToyPublicView:
        seats = tuple(
            ToySeat(seat, len(self._hands[seat]), tuple(self._shown[seat]), seat in self._resigned)
            for seat in range(self._players)
        )
        return ToyPublicView(seats, len(self._stock), self._turn)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "kind": self.KIND,
            "players": self._players,
            "seed": self._seed,
            "settings": self._settings.to_dict(),
            "moves": self._moves,
            "resigned": list(self._resigned),
            "turn": self._turn,
            "hands": [[card.code for card in hand] for hand in self._hands],
            "shown": [[card.code for card in shown] for shown in self._shown],
            "stock": [card.code for card in self._stock],
        }

    @classmethod
    def _load(cls, data: Mapping[str, Any]) -> Self:
        game = cls(int(data["players"]), int(data["seed"]), cls.settings_from_dict(data["settings"]))
        game._moves = int(data["moves"])
        game._resigned = [int(seat) for seat in data["resigned"]]
        game._turn = data["turn"]
        game._hands = [cards_from_codes(hand) for hand in data["hands"]]
        game._shown = [cards_from_codes(shown) for shown in data["shown"]]
        game._stock = cards_from_codes(data["stock"])
        return game

    def _check_state(self) -> None:
        cards = [*self._stock, *(c for hand in self._hands for c in hand), *(c for s in self._shown for c in s)]
        if sorted(card.code for card in cards) != sorted(card.code for card in new_deck()):
            raise ValueError("every card must be in exactly one place")

    def _start(self) -> None:
        deck = list(new_deck())
        random.Random(f"toy:{self._seed}").shuffle(deck)
        for seat in range(self._players):
            self._hands[seat] = [deck.pop() for _ in range(self._settings.rounds)]
        self._stock = deck

    def _legal(self, seat: int) -> tuple[Show, ...]:
        return tuple(Show(card) for card in self._hands[seat])

    def _parse(self, seat: int, text: str) -> Show:
        word, _, card = text.strip().partition(" ")
        if word != "show":
            raise InvalidMoveError(Message(STORED_TEXT, {"text": f"“{text}” is not a move; try “show 7♥”."}))
        try:
            return Show(Card.parse(card))
        except ValueError as error:
            raise InvalidMoveError(Message(STORED_TEXT, {"text": f"“{card}” is not a card."})) from error

    def _checked(self, seat: int, move: Show) -> Show:
        if move.card not in self._hands[seat]:
            raise IllegalMoveError(Message(STORED_TEXT, {"text": f"{move.card} is not in your hand."}))
        return move

    def _play(self, seat: int, move: Show, events: list[Any]) -> None:
        self._hands[seat].remove(move.card)
        self._shown[seat].append(move.card)
        events.append(Shown(seat, move.card))
        playing = [other for other in range(self._players) if other not in self._resigned]
        if not any(self._hands[other] for other in playing):
            self._finish(events)
            return
        following = (other % self._players for other in range(seat + 1, seat + 1 + self._players))
        self._turn = next(other for other in following if self._hands[other])

    def _auto_move(self, seat: int) -> Show:
        return Show(self._hands[seat][0])

    def _on_resign(self, seat: int, events: list[Any]) -> None:
        self._shown[seat].extend(self._hands[seat])  # its cards are shown and out of play (B2)
        self._hands[seat].clear()
        if self._turn == seat:
            playing = [o for o in range(self._players) if self._hands[o] and o not in self._resigned]
            self._turn = playing[0] if playing else None
            if not playing and self._players - len(self._resigned) >= self.MIN_PLAYERS:
                self._finish(events)

    def _end(self, events: list[Any]) -> None:
        self._turn = None

    def _value(self, card: Card) -> int:
        return 14 if card.rank == ACE and not self._settings.aces_low else card.rank

    def _standing(self, seat: int) -> tuple[int, ...]:
        if self._settings.showdown:
            return (-min((self._value(card) for card in self._shown[seat]), default=15),)
        return (max((self._value(card) for card in self._shown[seat]), default=0),)

    def _scores(self) -> tuple[int, ...]:
        return tuple(abs(self._standing(seat)[0]) for seat in range(self._players))

    def _view(self, seat: int) -> ToyView:
        return ToyView(self.public_view(), seat, tuple(self._hands[seat]), self.legal_moves(seat))

    def describe_move(self, move: Show | Resign | Rejoin) -> Message:
        return Message(STORED_TEXT, {"text": f"Show {move.card}" if isinstance(move, Show) else type(move).__name__})


HOUSE_RULES = (
    HouseRule("TV1", "rounds", (3, 1, 2), ROUNDS),
    HouseRule("TV2", "showdown", (False, True), False),
    HouseRule("TV3", "aces_low", (False, True), False),
)


def house_rules_fit(settings: ToySettings, seats: int) -> Message | None:
    """Showdown is for three players only, as Kasino's partnerships are for four."""
    if settings.showdown and seats != 3:
        return Message("toy.refused.showdown-three", {"seats": seats})
    return None


KIND = GameKind(
    name="toy",
    code="t",
    engine=HighCard,
    score_unit="count.point",  # the shared catalog's; a kind may count in its own words
    private_hands=True,
    tagline="High Card, a toy of the test suite.",
    options=(YesNo("aces_low", "aces_low", "Aces count low", False),),
    settings_line=lambda settings: Message(STORED_TEXT, {"text": "Aces low." if settings.aces_low else "Aces high."}),
    notation=Message(STORED_TEXT, {"text": "`show 7♥` — show 7♥ from your hand\n`resign` — give up your seat"}),
    house_rules=HOUSE_RULES,
    house_rules_fit=house_rules_fit,
    cog="tests.toy_cog",
)

TOY_LOCALES = Path(__file__).resolve().parent / "toy_locales"


@contextlib.contextmanager
def toy_words() -> Iterator[None]:
    """The catalogs with the toy's own domain (`tests/toy_locales/<locale>/toy.po`) beside the bot's, while it runs.

    A kind brings its words in its own catalog domain; the toy's lives with the tests, so the catalogs are read for
    the block's length from a folder holding both (copies: the bot's catalogs are never touched).
    """
    with tempfile.TemporaryDirectory() as folder:
        merged = Path(folder)
        for locale in i18n.catalog.LOCALES:
            shutil.copytree(i18n.catalog.LOCALES_DIR / locale, merged / locale)
            shutil.copy(TOY_LOCALES / locale / "toy.po", merged / locale / "toy.po")
        before = i18n.catalog.LOCALES_DIR
        i18n.catalog.LOCALES_DIR = merged
        i18n.catalog.load.cache_clear()
        try:
            yield
        finally:
            i18n.catalog.LOCALES_DIR = before
            i18n.catalog.load.cache_clear()

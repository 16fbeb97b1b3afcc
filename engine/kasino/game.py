"""Kasino, the Norwegian fishing game (RULES.md K1-K16, B1-B3), as a pure library satisfying `engine.base.Game`.

>>> game = KasinoGame.new(players=2, seed=7)
>>> seat = game.to_move
>>> events = game.apply(seat, game.legal_moves(seat)[-1])
>>> KasinoGame.from_dict(game.to_dict()) == game
True

Moves, notation, legality, scoring, events and views live in the other `engine.kasino` modules; this one
holds the game state and its flow: deals (K3), turns (K4), round end (K13), game end (K15), resigning.
All randomness comes from the seed: the first dealer from `"kasino:<seed>:dealer"`, each round's
shuffle from `"kasino:<seed>:round:<n>"`, so a snapshot needs no random-generator state.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, Self

from engine.base import Outcome, places_from_standing
from engine.cards import Card, format_cards, new_deck
from engine.errors import GameOverError, IllegalMoveError, InvalidMoveError, NotYourTurnError
from engine.kasino.events import (
    AutoPlayed,
    BuildMade,
    BuildRaised,
    CardPlaced,
    CardsDealt,
    CardsTaken,
    Doubled,
    GameOver,
    KasinoEvent,
    Resigned,
    RoundEnded,
    RoundStarted,
    Swept,
)
from engine.kasino.moves import Build, CardMove, Double, KasinoMove, Place, Raise, Resign, StackMove, Take
from engine.kasino.positions import CardsSpec, ItemSpec, cards_from_spec, describe_item, item_from_spec
from engine.kasino.resolve import resolve_move
from engine.kasino.rules import canonical_take, find_item, illegal_reason, legal_moves
from engine.kasino.scoring import KasinoSettings, SeatScore, score_round
from engine.kasino.table import BUILD, LOOSE, PILE, TableItem, card_order, hand_order, table_value
from engine.kasino.views import KasinoPublicView, KasinoView, SeatSummary

__all__ = [
    "Build",
    "Double",
    "KasinoGame",
    "KasinoMove",
    "KasinoSettings",
    "Place",
    "Raise",
    "Resign",
    "Take",
]

SCHEMA: Final = 1
HAND_SIZE: Final = 4  # K3: cards per player per deal, and cards dealt to the table
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
_DECK: Final = frozenset(new_deck())
_DECK_ORDER: Final = tuple(new_deck())  # cards are immutable values, so one set serves every round's shuffle
_CARD_MOVES: Final = (Take, Build, Raise, Double, Place)


class KasinoGame:
    """One game of Kasino. Only `apply` (and `play`) change it; a refused move changes nothing (B3)."""

    KIND: ClassVar[str] = "kasino"

    def __init__(self, players: int, seed: int, settings: KasinoSettings) -> None:
        """An empty table; use `new`, `from_dict`, `from_position` or `replay` instead."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Kasino is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        self._players = players
        self._seed = seed
        self._settings = settings
        self._round = 0
        self._dealer = 0
        self._to_move: int | None = None
        self._hands: list[list[Card]] = [[] for _ in range(players)]
        self._stock: list[Card] = []  # the top card is the last one
        self._table: list[TableItem] = []
        self._captured: list[list[Card]] = [[] for _ in range(players)]
        self._set_aside: list[Card] = []
        self._sweeps = [0] * players
        self._totals = [0] * players
        self._last_taker: int | None = None
        self._resigned: list[int] = []  # in the order they resigned
        self._move_count = 0
        self._over = False
        self._last_round: tuple[SeatScore, ...] | None = None
        self._legal_cache: tuple[CardMove, ...] | None = None  # the legal moves of the seat to move

    # ----------------------------------------------------------------------------------------- creating

    @classmethod
    def new(cls, players: int, seed: int, settings: KasinoSettings | Mapping[str, Any] | None = None) -> Self:
        """A new game with the first round dealt (K3); the first dealer is drawn from `seed` (K4).

        Raises:
            ValueError: not 2-4 players, or invalid settings.
        """
        game = cls(players, seed, cls._coerce_settings(settings))
        game._start_round(1, random.Random(f"kasino:{seed}:dealer").randrange(players))
        return game

    @classmethod
    def replay(
        cls,
        players: int,
        seed: int,
        settings: KasinoSettings | Mapping[str, Any] | None,
        moves: Iterable[tuple[int, str]],
    ) -> Self:
        """Rebuild a game from its seed, settings and `(seat, move text)` log (B1).

        Raises:
            GameError: a logged move is refused in the replayed position.
        """
        game = cls.new(players, seed, settings)
        for seat, text in moves:
            game.play(seat, text)
        return game

    @classmethod
    def settings_from_dict(cls, data: Mapping[str, Any] | None) -> KasinoSettings:
        """Settings from their JSON-safe form (`None`: the defaults).

        Raises:
            ValueError: unknown keys or values out of range.
        """
        return KasinoSettings.from_dict(dict(data) if data else None)

    @classmethod
    def from_position(
        cls,
        hands: Sequence[CardsSpec],
        table: Sequence[ItemSpec] = (),
        *,
        stock: CardsSpec = (),
        to_move: int = 0,
        dealer: int | None = None,
        scores: Sequence[int] | None = None,
        captured: Sequence[CardsSpec] | None = None,
        sweeps: Sequence[int] | None = None,
        last_taker: int | None = None,
        round_number: int = 1,
        seed: int = 0,
        settings: KasinoSettings | Mapping[str, Any] | None = None,
    ) -> Self:
        """Set up an exact position, for tests and bug reports.

        `hands` has one entry per seat. Table items are written as in `positions.item_from_spec`:
        `"8♣"` a loose card, `"7♣ 7♦"` a pile, `{"build": "10♣ 5♥", "owner": 0}` a build (optional
        `value`, `contributors`, `doubled`). `stock` is listed top card first. `dealer` defaults to the
        seat before `to_move`. Cards named nowhere are *set aside* for this round: out of play, never
        scored, back in the deck for the next round, so every card is still in one place (B2).
        `seed` only decides later rounds' shuffles. `game.position()` gives these arguments back.

        >>> table = ["10♣", "7♣ 7♦", {"build": "4♦ 5♠", "owner": 1}]
        >>> game = KasinoGame.from_position(["5♥ 2♠ 9♦", "K♣ 3♦"], table, to_move=0)
        >>> [str(move) for move in game.legal_moves(0)]
        ['5♥ build 10♣', '5♥ place', '9♦ take 4♦', '9♦ place', '2♠ build 7♣', '2♠ place']
        >>> game.describe_move(game.parse_move(0, "9d take 9"))
        '9♦ takes the 9 build'

        The 42 cards not named are set aside; seat 1 is the dealer (the seat before `to_move`).

        Raises:
            ValueError: a card twice, an impossible item, or seats out of range.
            InvalidMoveError: a word that is not a card.
        """
        players = len(hands)
        game = cls(players, seed, cls._coerce_settings(settings))
        game._round = round_number
        game._dealer = (to_move - 1) % players if dealer is None else dealer
        game._to_move = to_move
        game._hands = [sorted(cards_from_spec(hand), key=hand_order) for hand in hands]
        game._table = [item_from_spec(spec) for spec in table]
        game._stock = list(reversed(cards_from_spec(stock)))
        game._captured = [cards_from_spec(pile) for pile in captured] if captured else [[] for _ in hands]
        game._sweeps = list(sweeps) if sweeps else [0] * players
        game._totals = list(scores) if scores else [0] * players
        game._last_taker = last_taker
        placed = game._all_cards()
        if len(placed) != len(set(placed)):
            twice = sorted({card for card in placed if placed.count(card) > 1}, key=card_order)
            raise ValueError(f"these cards are placed twice: {format_cards(twice)}")
        game._set_aside = sorted(_DECK - set(placed), key=card_order)
        game._check()
        return game

    def position(self) -> dict[str, Any]:
        """The `from_position` arguments that rebuild this position (paste them into a bug report)."""
        return {
            "hands": [format_cards(hand) for hand in self._hands],
            "table": [describe_item(item) for item in self._table],
            "stock": format_cards(list(reversed(self._stock))),
            "to_move": self._to_move,
            "dealer": self._dealer,
            "scores": list(self._totals),
            "captured": [format_cards(pile) for pile in self._captured],
            "sweeps": list(self._sweeps),
            "last_taker": self._last_taker,
            "round_number": self._round,
            "seed": self._seed,
            "settings": self._settings.to_dict(),
        }

    # ------------------------------------------------------------------------------------- properties

    @property
    def players(self) -> int:
        """Number of seats."""
        return self._players

    @property
    def to_move(self) -> int | None:
        """The seat that must play next, or None once the game is over."""
        return None if self._over else self._to_move

    @property
    def move_count(self) -> int:
        """Moves applied with `apply` (resigns included, automatic turns of resigned seats not)."""
        return self._move_count

    @property
    def settings(self) -> KasinoSettings:
        """The game's settings."""
        return self._settings

    @property
    def seed(self) -> int:
        """The seed all deals are drawn from."""
        return self._seed

    @property
    def round_number(self) -> int:
        """The current round, from 1."""
        return self._round

    @property
    def scores(self) -> tuple[int, ...]:
        """Game totals per seat (updated when a round is scored)."""
        return tuple(self._totals)

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._over

    # ------------------------------------------------------------------------------------------ moves

    def legal_moves(self, seat: int) -> tuple[KasinoMove, ...]:
        """Every distinct legal move for `seat` in a stable order; empty when it is not their turn.

        Per hand card (in hand order): takes, builds, raises, doubles, place. `Resign` is always
        available (see `apply`) and is not listed.
        """
        self._check_seat(seat)
        if self._over or seat != self._to_move:
            return ()
        return self._legal()

    def parse_move(self, seat: int, text: str) -> KasinoMove:
        """The legal move `text` means for `seat` here; items may be named by any card in them or by value.

        Raises:
            InvalidMoveError: the text is not a move.
            IllegalMoveError: the rules do not allow it (the message says why).
            AmbiguousMoveError: a value names more than one item.
            NotYourTurnError, GameOverError: the seat cannot move now.
        """
        self._check_seat(seat)
        if self._over:
            raise GameOverError("the game is over")
        if " ".join(text.lower().split()) != "resign":
            self._check_turn(seat)
        move = resolve_move(self._hands[seat], self._table, text)
        if isinstance(move, Resign):
            self._check_can_resign(seat)
            return move
        return self._checked(seat, move)

    def apply(self, seat: int, move: KasinoMove) -> tuple[KasinoEvent, ...]:
        """Check and play `move` for `seat`, then any automatic turns of resigned seats.

        `Resign` may be applied by any seat that has not resigned, at any time.

        Raises:
            GameOverError, NotYourTurnError, IllegalMoveError, InvalidMoveError: the state is unchanged (B3).
        """
        self._check_seat(seat)
        if self._over:
            raise GameOverError("the game is over")
        if isinstance(move, Resign):
            self._check_can_resign(seat)
            events = self._resign(seat)
        else:
            events = self._play(seat, self._checked(seat, move))
        if self._resigned:
            events.extend(self._play_for_resigned())
        self._move_count += 1
        return tuple(events)

    def play(self, seat: int, text: str) -> tuple[KasinoEvent, ...]:
        """`apply(seat, parse_move(seat, text))`.

        Raises:
            GameError: as `parse_move` and `apply`.
        """
        return self.apply(seat, self.parse_move(seat, text))

    def auto_move(self, seat: int) -> Place:
        """The move made for a seat whose time ran out: place its lowest hand-value card (K11; ties ♠♥♦♣).

        Raises:
            GameOverError: the game is over.
            IllegalMoveError: the seat holds no card.
        """
        self._check_seat(seat)
        if self._over:
            raise GameOverError("the game is over")
        if not self._hands[seat]:
            raise IllegalMoveError("you have no cards to play")
        return Place(min(self._hands[seat], key=hand_order))

    def describe_move(self, move: KasinoMove) -> str:
        """The move in words for a menu: "5♥ takes 3♦ A♥ A♠", "5♥ builds 15 on 10♣", "Q♠ is placed on the table"."""
        if isinstance(move, Resign):
            return "Resign from the game"
        if isinstance(move, Place):
            return f"{move.card} is placed on the table"
        if isinstance(move, Take):
            return self._describe_take(move)
        if not isinstance(move, Build | Raise | Double):
            return str(move)
        target = find_item(self._table, move.target)
        if target is None:
            return str(move)
        worth = table_value(move.card)
        if isinstance(move, Build):
            onto = str(target.key) if target.kind == LOOSE else f"the {target.value} pile"
            return f"{move.card} builds {worth + target.value} on {onto}"
        if isinstance(move, Raise):
            return f"{move.card} raises the {target.value} build to {worth + target.value}"
        what = str(target.key) if target.kind == LOOSE else f"the {target.value} {target.kind}"
        return f"{move.card} doubles {what}"

    def _describe_take(self, move: Take) -> str:
        items = [item for item in (find_item(self._table, target) for target in move.targets) if item]
        if len(items) != len(move.targets):
            return str(move)
        items.sort(key=self._table.index)
        parts = [" ".join(str(card) for item in items if not item.is_build for card in item.cards)]
        parts += [f"the {item.value} build" for item in items if item.is_build]
        return f"{move.card} takes {' and '.join(part for part in parts if part)}"

    def outcome(self) -> Outcome | None:
        """Placings once the game is over (None before).

        Seats still playing rank by total points (ties share a place); resigned seats rank below
        them, the latest resigner highest.
        """
        if not self._over:
            return None
        keys = [
            (0, self._resigned.index(seat)) if seat in self._resigned else (1, self._totals[seat])
            for seat in range(self._players)
        ]
        return Outcome(places_from_standing(keys), tuple(self._totals))

    # ------------------------------------------------------------------------------------------ views

    def public_view(self) -> KasinoPublicView:
        """What anyone may see (K16): no hand card, no stock order."""
        seats = tuple(
            SeatSummary(
                seat=seat,
                hand_size=len(self._hands[seat]),
                captured=len(self._captured[seat]),
                sweeps=self._sweeps[seat],
                score=self._totals[seat],
                resigned=seat in self._resigned,
            )
            for seat in range(self._players)
        )
        return KasinoPublicView(
            round=self._round,
            dealer=self._dealer,
            to_move=self.to_move,
            stock=len(self._stock),
            table=tuple(self._table),
            seats=seats,
            target=self._settings.target,
            last_round=self._last_round,
            over=self._over,
        )

    def view(self, seat: int) -> KasinoView:
        """What `seat` may see: the public view plus its own hand and legal moves."""
        self._check_seat(seat)
        return KasinoView(self.public_view(), seat, tuple(self._hands[seat]), self.legal_moves(seat))

    # ---------------------------------------------------------------------------------- serialization

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe primitives (cards as `Card.code`), with `"schema": 1`."""
        return {
            "schema": SCHEMA,
            "kind": self.KIND,
            "players": self._players,
            "seed": self._seed,
            "settings": self._settings.to_dict(),
            "round": self._round,
            "dealer": self._dealer,
            "to_move": self._to_move,
            "hands": [_codes(hand) for hand in self._hands],
            "stock": _codes(self._stock),
            "table": [item.to_dict() for item in self._table],
            "captured": [_codes(pile) for pile in self._captured],
            "set_aside": _codes(self._set_aside),
            "sweeps": list(self._sweeps),
            "totals": list(self._totals),
            "last_taker": self._last_taker,
            "resigned": list(self._resigned),
            "move_count": self._move_count,
            "over": self._over,
            "last_round": None if self._last_round is None else [score.to_dict() for score in self._last_round],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Inverse of `to_dict`.

        Raises:
            ValueError: a snapshot of another schema or kind, or a state the rules could not reach.
        """
        if data.get("schema") != SCHEMA or data.get("kind") != cls.KIND:
            raise ValueError(f"not a Kasino snapshot of schema {SCHEMA}")
        try:
            game = cls(int(data["players"]), int(data["seed"]), KasinoSettings.from_dict(data["settings"]))
            game._round = int(data["round"])
            game._dealer = int(data["dealer"])
            game._to_move = None if data["to_move"] is None else int(data["to_move"])
            game._hands = [_cards(hand) for hand in data["hands"]]
            game._stock = _cards(data["stock"])
            game._table = [TableItem.from_dict(item) for item in data["table"]]
            game._captured = [_cards(pile) for pile in data["captured"]]
            game._set_aside = _cards(data["set_aside"])
            game._sweeps = [int(count) for count in data["sweeps"]]
            game._totals = [int(total) for total in data["totals"]]
            game._last_taker = None if data["last_taker"] is None else int(data["last_taker"])
            game._resigned = [int(seat) for seat in data["resigned"]]
            game._move_count = int(data["move_count"])
            game._over = bool(data["over"])
            last = data["last_round"]
            game._last_round = None if last is None else tuple(SeatScore.from_dict(score) for score in last)
        except (KeyError, TypeError, InvalidMoveError) as error:
            raise ValueError(f"not a readable Kasino snapshot: {error}") from error
        game._check()
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KasinoGame):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        state = "over" if self._over else f"seat {self._to_move} to move"
        return f"<KasinoGame {self._players} players, round {self._round}, move {self._move_count}, {state}>"

    # -------------------------------------------------------------------------------------- internals

    @staticmethod
    def _coerce_settings(settings: KasinoSettings | Mapping[str, Any] | None) -> KasinoSettings:
        if isinstance(settings, KasinoSettings):
            return settings
        return KasinoSettings.from_dict(dict(settings) if settings else None)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self._players:
            raise ValueError(f"there is no seat {seat} in a {self._players}-player game")

    def _check_turn(self, seat: int) -> None:
        if seat in self._resigned:
            raise IllegalMoveError("you have resigned; your turns are played for you")
        if seat != self._to_move:
            raise NotYourTurnError("it is not your turn")

    def _check_can_resign(self, seat: int) -> None:
        if seat in self._resigned:
            raise IllegalMoveError("you have already resigned")

    def _legal(self) -> tuple[CardMove, ...]:
        """The legal moves of the seat to move (cached until the next change)."""
        if self._legal_cache is None:
            seat = self._to_move
            assert seat is not None
            self._legal_cache = legal_moves(seat, self._hands[seat], self._table)
        return self._legal_cache

    def _checked(self, seat: int, move: KasinoMove) -> CardMove:
        """The legal move equal to `move` (with its canonical grouping).

        Raises:
            NotYourTurnError, IllegalMoveError, InvalidMoveError.
        """
        if not isinstance(move, _CARD_MOVES):
            raise InvalidMoveError(f"{move!r} is not a Kasino move")
        self._check_turn(seat)
        legal = self._legal()
        if move in legal:  # the listed move keeps its grouping, so its notation reads the same
            return legal[legal.index(move)]
        reason = illegal_reason(seat, self._hands[seat], self._table, move)
        if reason is not None:
            raise IllegalMoveError(reason)
        canonical = self._canonical(move)  # items named by any of their cards, or a take beyond the listing limit
        return legal[legal.index(canonical)] if canonical in legal else canonical

    def _canonical(self, move: CardMove) -> CardMove:
        """A legal `move` with every table item named by its key card (and a take's groups worked out)."""
        if isinstance(move, Place):
            return move
        if isinstance(move, Take):
            named = [find_item(self._table, target) for target in move.targets]
            take = canonical_take(move.card, [item for item in self._table if item in named])
            if take is None:
                raise IllegalMoveError("that take is not allowed here")
            return take
        item = find_item(self._table, move.target)
        return move if item is None else type(move)(move.card, item.cards[0])

    def _play(self, seat: int, move: CardMove) -> list[KasinoEvent]:
        """Carry out a legal move and pass the turn on (deal, end the round) as needed."""
        self._legal_cache = None
        card = move.card
        self._hands[seat].remove(card)
        events: list[KasinoEvent]
        if isinstance(move, Take):
            events = self._take(seat, card, move.targets)
        elif isinstance(move, Place):
            self._table.append(TableItem.loose(card))
            events = [CardPlaced(seat, card)]
        else:
            events = [self._stack(seat, card, move)]
        events.extend(self._advance(seat))
        return events

    def _take(self, seat: int, card: Card, targets: frozenset[Card]) -> list[KasinoEvent]:
        kept: list[TableItem] = []
        taken: list[Card] = []
        for item in self._table:
            if item.cards[0] in targets:
                taken += item.cards
            else:
                kept.append(item)
        self._table = kept
        cards = tuple(taken)
        self._captured[seat].append(card)
        self._captured[seat].extend(cards)
        self._last_taker = seat
        events: list[KasinoEvent] = [CardsTaken(seat, card, cards)]
        round_over = not self._stock and not any(self._hands)
        if not self._table and not round_over:  # K12: the last play of a round is no sweep
            self._sweeps[seat] += 1
            events.append(Swept(seat, self._sweeps[seat]))
        return events

    def _stack(self, seat: int, card: Card, move: StackMove) -> KasinoEvent:
        """Build (K7), raise (K8) or double (K9/K10): `card` goes onto the target item."""
        index = next(i for i, item in enumerate(self._table) if item.cards[0] == move.target)
        target = self._table[index]
        cards = (*target.cards, card)
        worth = table_value(card)
        contributors = tuple(sorted({*target.contributors, seat}))
        event: KasinoEvent
        if isinstance(move, Build):
            result = TableItem(BUILD, cards, worth + target.value, seat, (seat,))
            event = BuildMade(seat, card, target.cards, result.value)
        elif isinstance(move, Raise):
            result = TableItem(BUILD, cards, worth + target.value, seat, contributors)
            previous = target.owner if target.owner is not None else seat
            event = BuildRaised(seat, card, previous, target.value, result.value)
        elif target.is_build:
            result = TableItem(BUILD, cards, target.value, seat, contributors, doubled=True)
            event = Doubled(seat, card, BUILD, target.cards, target.value, target.owner)
        else:
            result = TableItem(PILE, cards, target.value)
            event = Doubled(seat, card, target.kind, target.cards, target.value)
        self._table[index] = result
        return event

    def _advance(self, seat: int) -> list[KasinoEvent]:
        """K4: the next seat holding cards plays; with every hand empty, deal again (K3) or end the round (K13)."""
        following = self._next_holder(seat)
        if following is not None:
            self._to_move = following
            return []
        if not self._stock:
            return self._end_round()
        self._deal_hands()
        self._to_move = self._next_holder(seat)
        return [CardsDealt(max(len(hand) for hand in self._hands), len(self._stock))]

    def _next_holder(self, seat: int) -> int | None:
        """The first seat after `seat` (in turn order, ending with `seat` itself) that holds a card."""
        players = self._players
        hands = self._hands
        for step in range(1, players + 1):
            candidate = (seat + step) % players
            if hands[candidate]:
                return candidate
        return None

    def _deal_hands(self) -> None:
        """K3: up to four cards to every seat, starting after the dealer."""
        for step in range(1, self._players + 1):
            seat = (self._dealer + step) % self._players
            dealt = [self._stock.pop() for _ in range(min(HAND_SIZE, len(self._stock)))]
            self._hands[seat] = sorted(dealt, key=hand_order)

    def _start_round(self, number: int, dealer: int) -> RoundStarted:
        """K3/K4: shuffle a deck from the seed, deal hands and four table cards; the seat after the dealer leads."""
        deck = list(_DECK_ORDER)  # the order of `new_deck()`, so the same shuffle, without making 52 cards
        random.Random(f"kasino:{self._seed}:round:{number}").shuffle(deck)
        self._round = number
        self._dealer = dealer
        self._stock = deck
        self._captured = [[] for _ in range(self._players)]
        self._set_aside = []
        self._sweeps = [0] * self._players
        self._last_taker = None
        self._deal_hands()
        self._table = [TableItem.loose(self._stock.pop()) for _ in range(HAND_SIZE)]
        self._to_move = (dealer + 1) % self._players
        table = tuple(item.key for item in self._table)
        return RoundStarted(number, dealer, self._to_move, HAND_SIZE, table, len(self._stock))

    def _end_round(self) -> list[KasinoEvent]:
        """K13-K15: the table goes to the last taker, the round is scored, then the game ends or goes on."""
        leftover = tuple(card for item in self._table for card in item.cards)
        self._table = []
        if self._last_taker is None:
            self._set_aside.extend(leftover)
        else:
            self._captured[self._last_taker].extend(leftover)
        scores = score_round(self._captured, self._sweeps, self._last_taker, self._totals, self._settings)
        self._totals = [score.game_total for score in scores]
        self._last_round = scores
        captured = tuple(tuple(pile) for pile in self._captured)
        events: list[KasinoEvent] = [RoundEnded(self._round, self._last_taker, leftover, captured, scores)]
        if self._has_winner():
            events.append(self._finish())
        else:
            events.append(self._start_round(self._round + 1, (self._dealer + 1) % self._players))
        return events

    def _has_winner(self) -> bool:
        """K15 among the seats still playing: someone reached the target and the highest total is not shared."""
        totals = [self._totals[seat] for seat in range(self._players) if seat not in self._resigned]
        best = max(totals)
        return best >= self._settings.target and totals.count(best) == 1

    def _finish(self) -> GameOver:
        self._over = True
        self._legal_cache = None
        outcome = self.outcome()
        assert outcome is not None
        return GameOver(outcome.places, outcome.scores)

    def _resign(self, seat: int) -> list[KasinoEvent]:
        self._resigned.append(seat)
        self._legal_cache = None
        events: list[KasinoEvent] = [Resigned(seat)]
        if self._players - len(self._resigned) < MIN_PLAYERS:
            events.append(self._finish())
        return events

    def _play_for_resigned(self) -> list[KasinoEvent]:
        """Resigned seats' turns, played with `auto_move` until a seat still playing is to move."""
        events: list[KasinoEvent] = []
        while not self._over and self._to_move in self._resigned:
            seat = self._to_move
            move = self.auto_move(seat)
            events.append(AutoPlayed(seat, self.describe_move(move)))
            events.extend(self._play(seat, move))
        return events

    def _all_cards(self) -> list[Card]:
        return [
            *(card for hand in self._hands for card in hand),
            *self._stock,
            *(card for item in self._table for card in item.cards),
            *(card for pile in self._captured for card in pile),
            *self._set_aside,
        ]

    def _check(self) -> None:
        """Refuse a state the rules could not reach: B2 conservation, seats in range, one build per owner.

        Raises:
            ValueError: with what is wrong.
        """
        players = self._players
        cards = self._all_cards()
        if len(cards) != len(_DECK) or set(cards) != _DECK:
            raise ValueError("every one of the 52 cards must be in exactly one place")
        per_seat = (self._hands, self._captured, self._sweeps, self._totals)
        if any(len(values) != players for values in per_seat):
            raise ValueError(f"hands, capture piles, sweeps and scores need one entry per seat ({players})")
        owners = [item.owner for item in self._table if item.owner is not None]  # only builds have one
        seats_named = [*owners, *(s for item in self._table for s in item.contributors), *self._resigned]
        if self._last_taker is not None:
            seats_named.append(self._last_taker)
        if any(not 0 <= seat < players for seat in seats_named) or not 0 <= self._dealer < players:
            raise ValueError("a seat number is out of range")
        if len(owners) != len(set(owners)):
            raise ValueError("a player can own only one build at a time (K7)")
        if len(self._resigned) != len(set(self._resigned)):
            raise ValueError("a seat can resign only once")
        if self._over:
            return
        if self._to_move is None or not 0 <= self._to_move < players or not self._hands[self._to_move]:
            raise ValueError("the seat to move must exist and hold at least one card")
        if self._to_move in self._resigned:
            raise ValueError("a resigned seat cannot be the one to move")


def _codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def _cards(codes: Iterable[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]

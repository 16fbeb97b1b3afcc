"""The Garbage (Trash) engine: RULES.md G1–G11 and B1–B3 as a pure library satisfying `engine.base.Game`.

A turn asks a player for at most two decisions, G5 (`draw stock` / `draw discard`) and G6c (`jack 7`, only when
more than one spot is face down). Everything else (G6a, G6b, G6d, G7–G10) runs inside `apply`, which returns
the events in order. Seats that resigned keep their place at the table; `apply` plays their turns with
`auto_move` and says so in an `AutoPlayed` event.

Randomness: every shuffle uses its own `random.Random` seeded from the game's seed and a name (the hand number,
or the reshuffle count), so the state never has to store a generator, and the seed, the settings and the
move list fix the game card for card (B1).

>>> game = GarbageGame.new(players=2, seed=7)
>>> game.legal_moves(game.to_move)
(DrawStock(),)
>>> events = game.play(game.to_move, "draw stock")
>>> GarbageGame.from_dict(game.to_dict()) == game
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

from engine.base import Outcome, places_from_standing
from engine.cards import JACK, Card, new_decks
from engine.errors import GameOverError, IllegalMoveError, InvalidMoveError, NotYourTurnError
from engine.garbage.events import (
    AutoPlayed,
    Discarded,
    DiscardReason,
    DrewFromStock,
    GameOver,
    GarbageEvent,
    HandWon,
    JackDisplaced,
    JackPlaced,
    NewHandDealt,
    PlacedOnSpot,
    Resigned,
    StockReshuffled,
    TookDiscard,
)
from engine.garbage.moves import (
    DRAW_DISCARD,
    DRAW_STOCK,
    JACK_MOVES,
    MAX_SPOT,
    DrawDiscard,
    DrawStock,
    GarbageMove,
    PlaceJack,
    Resign,
    parse_garbage_move,
)
from engine.garbage.positions import check_layout, check_pending, check_seats, read_cards, unused_cards
from engine.garbage.views import GarbagePublicView, GarbageView, SeatView

SCHEMA: Final = 1
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
_DECKS_BY_PLAYERS: Final = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # G1
_FULL_DECKS: Final = {count: tuple(new_decks(count)) for count in (1, 2, 3)}
_CARD_BY_CODE: Final = {card.code: card for card in _FULL_DECKS[3]}


def decks_for(players: int) -> int:
    """G1: how many 52-card decks a game of `players` uses.

    Raises:
        ValueError: `players` is not 2–6.
    """
    if players not in _DECKS_BY_PLAYERS:
        raise ValueError(f"Garbage is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.")
    return _DECKS_BY_PLAYERS[players]


def _card(code: str) -> Card:
    card = _CARD_BY_CODE.get(code)
    return card if card is not None else Card.parse(code)


@dataclass(frozen=True, slots=True)
class GarbageSettings:
    """Options chosen in the lobby. `start_size` (house rule, 1–10): spots in every layout at the start (G2)."""

    start_size: int = MAX_SPOT

    def __post_init__(self) -> None:
        if type(self.start_size) is not int or not 1 <= self.start_size <= MAX_SPOT:
            raise ValueError(f"start_size must be a whole number from 1 to {MAX_SPOT}, not {self.start_size!r}.")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {"start_size": self.start_size}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> GarbageSettings:
        """Inverse of `to_dict`; missing keys take their defaults.

        Raises:
            ValueError: an unknown key or a value out of range.
        """
        data = dict(data or {})
        unknown = set(data) - {"start_size"}
        if unknown:
            raise ValueError(f"unknown Garbage settings: {', '.join(sorted(unknown))}")
        return cls(**data)


def _settings(settings: GarbageSettings | dict[str, Any] | None) -> GarbageSettings:
    return settings if isinstance(settings, GarbageSettings) else GarbageSettings.from_dict(settings)


class GarbageGame:
    """One game of Garbage. Only `apply` (and `play`) change it; every refusal leaves it unchanged (B3)."""

    KIND: ClassVar[str] = "garbage"
    __slots__ = (
        "_decks",
        "_discard",
        "_game_winner",
        "_hand",
        "_hands_won",
        "_moves",
        "_pending",
        "_players",
        "_resign_order",
        "_resigned",
        "_seed",
        "_settings",
        "_shuffles",
        "_spots",
        "_stock",
        "_to_move",
        "_up",
    )

    def __init__(self, players: int, seed: int, settings: GarbageSettings) -> None:
        """An empty table; use `new`, `from_dict`, `replay` or `from_position` instead."""
        self._decks = decks_for(players)
        self._players = players
        self._seed = seed
        self._settings = settings
        self._hand = 1
        self._shuffles = 0
        self._moves = 0
        self._hands_won = [0] * players
        self._resigned = [False] * players
        self._resign_order: list[int] = []
        self._game_winner: int | None = None
        # Spot k of a seat is index k-1 of `_spots[seat]`; `_up` says whether it lies face up.
        self._spots: list[list[Card]] = [[] for _ in range(players)]
        self._up: list[list[bool]] = [[] for _ in range(players)]
        self._stock: list[Card] = []  # the last card is the top
        self._discard: list[Card] = []  # the last card is the top
        self._pending: Card | None = None  # a Jack waiting for `_to_move` to choose its spot (G6c)
        self._to_move: int | None = 0

    # ----- construction -------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int, settings: GarbageSettings | dict[str, Any] | None = None) -> GarbageGame:
        """A new game: G1 decks, G3 deal, G4 first player drawn from `seed`.

        Raises:
            ValueError: `players` is not 2–6, or the settings are invalid.
        """
        game = cls(players, seed, _settings(settings))
        game._deal(first=random.Random(f"garbage:{seed}:first").randrange(players))
        return game

    @classmethod
    def settings_from_dict(cls, data: dict[str, Any] | None) -> GarbageSettings:
        """The settings from their JSON-safe form (`None`: the defaults).

        Raises:
            ValueError: an unknown key or a value out of range.
        """
        return GarbageSettings.from_dict(data)

    @classmethod
    def replay(
        cls,
        players: int,
        seed: int,
        settings: GarbageSettings | dict[str, Any] | None,
        moves: Iterable[tuple[int, str]],
    ) -> GarbageGame:
        """Rebuild a game from its seed, settings and `(seat, move text)` log (B1).

        Raises:
            GameError: a move in the log is not legal where it stands.
        """
        game = cls.new(players, seed, settings)
        for seat, text in moves:
            game.play(seat, text)
        return game

    @classmethod
    def from_position(
        cls,
        layouts: Sequence[str | Sequence[Card | str]],
        *,
        face_up: Sequence[Iterable[int]] | None = None,
        hands_won: Sequence[int] | None = None,
        stock: str | Sequence[Card | str] = (),
        discard: str | Sequence[Card | str] = (),
        to_move: int = 0,
        pending: Card | str | None = None,
        resigned: Sequence[int] = (),
        hand_number: int = 1,
        seed: int = 0,
        settings: GarbageSettings | dict[str, Any] | None = None,
        rest: Literal["stock", "discard"] = "stock",
    ) -> GarbageGame:
        """An exact position, for tests and bug reports.

        - `layouts[seat]`: the cards on spots 1, 2, … of that seat (a string like "A♠ 7♦ 3♣" or a list of cards).
          In a game with several decks (3+ players) write the copies as `5♥`, `5♥#1`, `5♥#2`.
        - `face_up[seat]`: the spot numbers lying face up (each must hold its own rank or a Jack); default none.
        - `hands_won[seat]`: default `start_size - len(layouts[seat])`; given, it must agree with the layout (G2).
        - `stock` and `discard` are listed from the top down: `stock[0]` is drawn next, `discard[0]` can be taken.
        - `pending`: a Jack that `to_move` has drawn and must place (G6c); needs two or more face-down spots.
        - `resigned`: seats that resigned, earliest first.
        - Every card of the game's decks (G1) that you did not give is shuffled (from `seed`) and goes under the
          given stock (`rest="stock"`) or under the given discard pile (`rest="discard"`), so every card is in
          exactly one place (B2). Use `rest="discard"` with an empty `stock` to reach a stock that has run out (G8).

        >>> game = GarbageGame.from_position(
        ...     ["A♠ 2♥ 7♦", "Q♣ 5♠ 3♦"], face_up=[[1], []], stock="3♠ K♥", discard="9♣",
        ...     settings=GarbageSettings(start_size=3))
        >>> for event in game.play(0, "draw stock"):
        ...     print(event.describe(["Kari", "Ola"]))
        Kari drew 3♠ from the stock.
        Kari put 3♠ on spot 3 and turned up 7♦.
        Kari discarded 7♦: Kari's layout has only 3 spots.

        Raises:
            ValueError: the position is impossible (a card twice, a card outside the decks, a wrong spot count,
                a face-up spot with a foreign rank, a layout already complete, a bad seat or `pending` card).
        """
        if rest not in ("stock", "discard"):
            raise ValueError(f"rest must be 'stock' or 'discard', not {rest!r}")
        settings = _settings(settings)
        players = len(layouts)
        game = cls(players, seed, settings)
        seat_cards = [read_cards(layout) for layout in layouts]
        ups = [set(spots) for spots in face_up] if face_up is not None else [set() for _ in layouts]
        won = list(hands_won) if hands_won is not None else [settings.start_size - len(c) for c in seat_cards]
        if len(ups) != players or len(won) != players:
            raise ValueError("give face_up and hands_won for every seat (or leave them out)")
        for seat, cards in enumerate(seat_cards):
            check_layout(seat, cards, ups[seat], won[seat], settings.start_size)
            game._up[seat] = [spot in ups[seat] for spot in range(1, len(cards) + 1)]
        check_seats(players, to_move, resigned, MIN_PLAYERS)
        if hand_number < 1:
            raise ValueError("hand_number starts at 1")
        game._spots, game._hands_won, game._to_move, game._hand = seat_cards, won, to_move, hand_number
        game._resign_order = list(resigned)
        game._resigned = [seat in resigned for seat in range(players)]
        if pending is not None:
            game._pending = check_pending(pending, game._up[to_move].count(False))
        game._stock, game._discard = read_cards(stock)[::-1], read_cards(discard)[::-1]
        given = [card for cards in seat_cards for card in cards] + game._stock + game._discard
        unused = unused_cards(given + ([game._pending] if game._pending else []), game._decks, seed)
        if rest == "stock":
            game._stock = unused + game._stock
        else:
            game._discard = unused + game._discard
        return game

    def _check_seat_number(self, seat: int) -> None:
        if not 0 <= seat < self._players:
            raise ValueError(f"there is no seat {seat}; seats are 0 to {self._players - 1}")

    # ----- serialization ------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe primitives. Card lists run bottom to top (the last card is the top)."""
        return {
            "schema": SCHEMA,
            "kind": self.KIND,
            "players": self._players,
            "seed": self._seed,
            "settings": self._settings.to_dict(),
            "hand": self._hand,
            "shuffles": self._shuffles,
            "moves": self._moves,
            "to_move": self._to_move,
            "hands_won": list(self._hands_won),
            "resigned": list(self._resign_order),
            "game_winner": self._game_winner,
            "layouts": [[card.code for card in spots] for spots in self._spots],
            "face_up": [list(up) for up in self._up],
            "pending": self._pending.code if self._pending is not None else None,
            "stock": [card.code for card in self._stock],
            "discard": [card.code for card in self._discard],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GarbageGame:
        """Inverse of `to_dict`.

        Raises:
            ValueError: not a schema-1 Garbage snapshot, a malformed one, or one that breaks B2.
        """
        if data.get("schema") != SCHEMA or data.get("kind", cls.KIND) != cls.KIND:
            raise ValueError(f"not a schema-{SCHEMA} Garbage snapshot: schema={data.get('schema')!r}")
        try:
            game = cls(data["players"], data["seed"], GarbageSettings.from_dict(data["settings"]))
            game._hand = data["hand"]
            game._shuffles = data["shuffles"]
            game._moves = data["moves"]
            game._to_move = data["to_move"]
            game._hands_won = list(data["hands_won"])
            game._resign_order = list(data["resigned"])
            game._resigned = [seat in game._resign_order for seat in range(game._players)]
            game._game_winner = data["game_winner"]
            game._spots = [[_card(code) for code in spots] for spots in data["layouts"]]
            game._up = [[bool(flag) for flag in up] for up in data["face_up"]]
            game._pending = _card(data["pending"]) if data["pending"] is not None else None
            game._stock = [_card(code) for code in data["stock"]]
            game._discard = [_card(code) for code in data["discard"]]
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"malformed Garbage snapshot: {error!r}") from error
        cards = [*game._stock, *game._discard, *(card for spots in game._spots for card in spots)]
        cards += [game._pending] if game._pending is not None else []
        if len(set(cards)) != len(cards) or len(cards) != 52 * game._decks or max(c.deck for c in cards) >= game._decks:
            raise ValueError("Garbage snapshot does not hold every card of its decks exactly once (B2)")
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GarbageGame):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"<GarbageGame players={self._players} hand={self._hand} to_move={self._to_move}>"

    # ----- what anyone may ask ------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Number of seats."""
        return self._players

    @property
    def to_move(self) -> int | None:
        """The seat that must act next, or None once the game is over."""
        return self._to_move

    @property
    def move_count(self) -> int:
        """Moves applied from outside (the log's length); turns auto-played for resigned seats are not counted."""
        return self._moves

    @property
    def settings(self) -> GarbageSettings:
        """The options this game was created with."""
        return self._settings

    @property
    def hand_number(self) -> int:
        """The hand being played, from 1."""
        return self._hand

    def layout_size(self, seat: int) -> int:
        """G2: the number of spots `seat` plays with."""
        return self._settings.start_size - self._hands_won[seat]

    def legal_moves(self, seat: int) -> tuple[GarbageMove, ...]:
        """The decisions open to `seat` now, stock before discard and spots in order; empty when not their turn.

        `Resign` is always allowed to a seat still playing but is not listed: it is not a move of the game.
        """
        if seat != self._to_move:
            return ()
        if self._pending is not None:
            return tuple(JACK_MOVES[spot] for spot, up in enumerate(self._up[seat], start=1) if not up)
        if not self._discard:
            return (DRAW_STOCK,)
        if not self._stock and len(self._discard) < 2:
            return (DRAW_DISCARD,)
        return (DRAW_STOCK, DRAW_DISCARD)

    def parse_move(self, seat: int, text: str) -> GarbageMove:
        """Read typed notation and check it is legal for `seat` now.

        Raises:
            InvalidMoveError: the text is not a Garbage move.
            IllegalMoveError: the move is not allowed here (the message says why).
            NotYourTurnError, GameOverError: as for `apply`.
        """
        move = parse_garbage_move(text)
        self._check(seat, move)
        return move

    def describe_move(self, move: GarbageMove) -> str:
        """The move in words for a button or menu, e.g. "Take 7♣ from the discard pile"."""
        if isinstance(move, DrawDiscard) and self._discard:
            return f"Take {self._discard[-1]} from the discard pile"
        return move.words[0].upper() + move.words[1:]

    def auto_move(self, seat: int) -> GarbageMove:
        """The fixed move for a seat whose time ran out: draw from the stock; a Jack goes to the lowest face-down spot.

        Raises:
            GameOverError: the game is over.
            NotYourTurnError: it is not `seat`'s turn.
        """
        if self._to_move is None:
            raise GameOverError("The game is over.")
        if seat != self._to_move:
            raise NotYourTurnError("It is not your turn.")
        return self.legal_moves(seat)[0]  # the stock comes first, and face-down spots are listed lowest first

    def outcome(self) -> Outcome | None:
        """Placings once the game is over (scores are hands won), else None.

        Seats still playing rank by hands won, the G10 winner first, ties sharing a place; seats that resigned
        come after them, the later resigner above the earlier.
        """
        if self._to_move is not None:
            return None
        return Outcome(places_from_standing(self._standing_keys()), tuple(self._hands_won))

    def _standing_keys(self) -> list[tuple[int, int, int]]:
        keys = []
        for seat in range(self._players):
            if self._resigned[seat]:
                keys.append((0, self._resign_order.index(seat), 0))
            else:
                keys.append((1, int(seat == self._game_winner), self._hands_won[seat]))
        return keys

    def public_view(self) -> GarbagePublicView:
        """G11: everything face up and nothing else: no face-down card, no stock order."""
        seats = tuple(
            SeatView(
                seat=seat,
                layout_size=len(spots),
                hands_won=self._hands_won[seat],
                resigned=self._resigned[seat],
                spots=tuple(card if up else None for card, up in zip(spots, self._up[seat], strict=True)),
                pending=self._pending if seat == self._to_move else None,
            )
            for seat, spots in enumerate(self._spots)
        )
        return GarbagePublicView(
            seats=seats,
            discard=tuple(self._discard),
            stock_size=len(self._stock),
            to_move=self._to_move,
            hand_number=self._hand,
            move_count=self._moves,
        )

    def view(self, seat: int) -> GarbageView:
        """What `seat` sees: the public view (there is nothing private in Garbage) and the seat's legal moves.

        Raises:
            ValueError: no such seat.
        """
        self._check_seat_number(seat)
        return GarbageView(public=self.public_view(), seat=seat, legal_moves=self.legal_moves(seat))

    # ----- playing ------------------------------------------------------------------------------------------

    def play(self, seat: int, text: str) -> tuple[GarbageEvent, ...]:
        """`apply(seat, parse_move(seat, text))`.

        Raises:
            InvalidMoveError, IllegalMoveError, NotYourTurnError, GameOverError.
        """
        return self.apply(seat, self.parse_move(seat, text))

    def apply(self, seat: int, move: GarbageMove) -> tuple[GarbageEvent, ...]:
        """Check and play one decision, then everything automatic it sets off (G6–G10, resigned seats' turns).

        Raises:
            GameOverError: the game is over.
            NotYourTurnError: another seat is to play (or `seat` resigned and plays automatically).
            IllegalMoveError: the move is not allowed now; the message says why. The state is unchanged (B3).
            InvalidMoveError: `move` is not a Garbage move.
        """
        self._check(seat, move)
        events: list[GarbageEvent] = []
        self._moves += 1
        if isinstance(move, Resign):
            self._resign(seat, events)
        else:
            self._play_decision(seat, move, events)
        self._play_resigned_turns(events)
        return tuple(events)

    def _check(self, seat: int, move: GarbageMove) -> None:
        """Raise the reason `move` by `seat` is refused; return quietly when it is legal (B3)."""
        if not isinstance(move, DrawStock | DrawDiscard | PlaceJack | Resign):
            raise InvalidMoveError(f"{move!r} is not a Garbage move.")
        if not 0 <= seat < self._players:
            raise IllegalMoveError(f"There is no seat {seat} in this game.")
        if self._to_move is None:
            raise GameOverError("The game is over.")
        if isinstance(move, Resign):
            if self._resigned[seat]:
                raise IllegalMoveError("You have already resigned.")
            return
        if self._resigned[seat]:
            raise NotYourTurnError("You have resigned; your turns are played automatically.")
        if seat != self._to_move:
            raise NotYourTurnError("It is not your turn.")
        spots, up = self._spots[seat], self._up[seat]
        if self._pending is not None:
            if not isinstance(move, PlaceJack):
                choices = ", ".join(str(legal) for legal in self.legal_moves(seat))
                raise IllegalMoveError(f"First choose a face-down spot for {self._pending}: {choices}.")
            if move.spot > len(spots):
                raise IllegalMoveError(f"There is no spot {move.spot}: your layout has {len(spots)} spots.")
            if up[move.spot - 1]:
                raise IllegalMoveError(f"Spot {move.spot} is already face up; choose a face-down spot.")
        elif isinstance(move, PlaceJack):
            raise IllegalMoveError("You have no Jack to place; draw from the stock or take from the discard pile.")
        elif isinstance(move, DrawDiscard) and not self._discard:
            raise IllegalMoveError("The discard pile is empty; draw from the stock.")
        elif isinstance(move, DrawStock) and not self._stock and len(self._discard) < 2:
            raise IllegalMoveError("The stock is empty and there is nothing to reshuffle; take from the discard pile.")

    def _play_decision(self, seat: int, move: GarbageMove, events: list[GarbageEvent]) -> None:
        if isinstance(move, PlaceJack):
            jack, self._pending = self._pending, None
            assert jack is not None  # _check guarantees a pending Jack
            card = self._turn_up(seat, move.spot, jack, events)
            if self._is_complete(seat):
                self._win_hand(seat, card, events)
                return
        elif isinstance(move, DrawStock):
            if not self._stock:
                self._reshuffle(events)
            card = self._stock.pop()
            events.append(DrewFromStock(seat, card))
        else:
            card = self._discard.pop()
            events.append(TookDiscard(seat, card))
        self._place(seat, card, events)

    def _place(self, seat: int, card: Card, events: list[GarbageEvent]) -> None:
        """G6: place `card` and whatever it turns up, until a discard (G6d), a Jack choice (G6c) or a win (G7)."""
        spots, up = self._spots[seat], self._up[seat]
        size = len(spots)
        while True:
            rank = card.rank
            if rank == JACK:
                face_down = [spot for spot in range(1, size + 1) if not up[spot - 1]]
                if len(face_down) > 1:
                    self._pending = card  # G6c: the same seat decides next
                    return
                if not face_down:
                    # Unreachable in play (G7 ends the hand as the last spot turns up), but G6d names it.
                    self._discard_card(seat, card, DiscardReason.NO_FACE_DOWN_SPOT, events)
                    return
                card = self._turn_up(seat, face_down[0], card, events)
            elif rank > size:
                reason = DiscardReason.QUEEN_OR_KING if rank > JACK else DiscardReason.ABOVE_LAYOUT
                self._discard_card(seat, card, reason, events)
                return
            elif not up[rank - 1]:
                card = self._turn_up(seat, rank, card, events)  # G6a
            elif spots[rank - 1].rank == JACK:
                # G6b: the Jack is displaced and placed in its turn; the layout cannot become complete here.
                jack, spots[rank - 1] = spots[rank - 1], card
                events.append(JackDisplaced(seat, rank, card, jack))
                card = jack
                continue
            else:
                self._discard_card(seat, card, DiscardReason.SPOT_FILLED, events)
                return
            if self._is_complete(seat):
                self._win_hand(seat, card, events)
                return

    def _turn_up(self, seat: int, spot: int, card: Card, events: list[GarbageEvent]) -> Card:
        """Put `card` face up on face-down `spot` and return the card that lay there."""
        spots = self._spots[seat]
        hidden, spots[spot - 1] = spots[spot - 1], card
        self._up[seat][spot - 1] = True
        events.append((JackPlaced if card.rank == JACK else PlacedOnSpot)(seat, spot, card, hidden))
        return hidden

    def _is_complete(self, seat: int) -> bool:
        return False not in self._up[seat]

    def _discard_card(self, seat: int, card: Card, reason: DiscardReason, events: list[GarbageEvent]) -> None:
        self._discard.append(card)
        events.append(Discarded(seat, card, reason, len(self._spots[seat])))
        self._to_move = (seat + 1) % self._players

    def _reshuffle(self, events: list[GarbageEvent]) -> None:
        """G8: the discard pile except its top card becomes the new stock."""
        top = self._discard.pop()
        self._shuffles += 1
        self._stock, self._discard = self._discard, [top]
        random.Random(f"garbage:{self._seed}:reshuffle:{self._shuffles}").shuffle(self._stock)
        events.append(StockReshuffled(len(self._stock)))

    def _win_hand(self, seat: int, leftover: Card, events: list[GarbageEvent]) -> None:
        """G7, then G10 (the last spot filled ends the game) or G9 (deal the next hand, the winner first)."""
        self._discard.append(leftover)
        game_won = len(self._spots[seat]) == 1
        self._hands_won[seat] += 1
        sizes = tuple(self.layout_size(other) for other in range(self._players))
        events.append(HandWon(seat, self._hand, leftover, sizes, game_won))
        if game_won:
            self._game_winner = seat
            self._finish(events)
            return
        self._hand += 1
        self._deal(first=seat)
        events.append(NewHandDealt(self._hand, sizes, seat))

    def _deal(self, first: int) -> None:
        """G3/G9: gather every card, shuffle, deal each seat its spots face down; the rest is the stock."""
        cards = list(_FULL_DECKS[self._decks])
        random.Random(f"garbage:{self._seed}:deal:{self._hand}").shuffle(cards)
        dealt = 0
        for seat in range(self._players):
            size = self.layout_size(seat)
            self._spots[seat] = cards[dealt : dealt + size]
            self._up[seat] = [False] * size
            dealt += size
        self._stock = cards[dealt:]
        self._discard = []
        self._pending = None
        self._to_move = first

    def _resign(self, seat: int, events: list[GarbageEvent]) -> None:
        events.append(Resigned(seat))
        self._resigned[seat] = True
        self._resign_order.append(seat)
        if self._pending is not None and seat == self._to_move:
            self._discard_card(seat, self._pending, DiscardReason.RESIGNED, events)
            self._pending = None
        if self._resigned.count(False) < MIN_PLAYERS:
            self._finish(events)

    def _play_resigned_turns(self, events: list[GarbageEvent]) -> None:
        while self._to_move is not None and self._resigned[self._to_move]:
            seat = self._to_move
            move = self.auto_move(seat)
            events.append(AutoPlayed(seat, move))
            self._play_decision(seat, move, events)

    def _finish(self, events: list[GarbageEvent]) -> None:
        if self._pending is not None:
            # The game ended by resignations while a Jack waited for its spot: it goes where cards go (B2).
            seat = self._to_move
            assert seat is not None
            self._discard.append(self._pending)
            events.append(Discarded(seat, self._pending, DiscardReason.GAME_OVER, self.layout_size(seat)))
            self._pending = None
        self._to_move = None
        outcome = self.outcome()
        assert outcome is not None
        events.append(GameOver(outcome.places, outcome.scores))

"""The Garbage (Trash) engine: RULES.md G1–G11 and B1–B3 as a pure library satisfying `engine.base.Game`; its flow.

A turn asks a player for at most two decisions, G5 (`draw stock` / `draw discard`) and G6c (`jack 7`, only when
more than one spot is face down). Everything else (G6a, G6b, G6d, G7–G10) runs inside `apply`, which returns
the events in order. The house rules GV1–GV5 are the settings (`GarbageSettings`): the wild rank and the Jokers
decide which cards play the Jack rules, the last turn (GV4) lets the seats behind a finisher play once more before
the hand ends. Resigning and the turns of resigned seats are `engine.core.BaseGame`'s; settings and
legality are in `engine.garbage.rules`, snapshots in `engine.garbage.snapshot`.

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
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self

from engine.cards import JOKER, KING, Card
from engine.core import BaseGame, Rejoin, Resign, SnapshotFormat
from engine.errors import InvalidMoveError
from engine.events import AutoPlayed, GameOver, Resigned
from engine.garbage import snapshot
from engine.garbage.events import (
    AlsoWon,
    Discarded,
    DiscardReason,
    DrewFromStock,
    GarbageEvent,
    GarbageOwnEvent,
    HandWon,
    JackDisplaced,
    JackPlaced,
    LastTurns,
    LastTurnsOver,
    NewHandDealt,
    PlacedOnSpot,
    StockReshuffled,
    TookDiscard,
)
from engine.garbage.moves import (
    MAX_SPOT,
    DrawDiscard,
    DrawStock,
    GarbageDecision,
    GarbageMove,
    PlaceJack,
    move_phrase,
    parse_garbage_move,
)
from engine.garbage.positions import check_layout, check_pending, check_seats, read_cards, unused_cards
from engine.garbage.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    GarbageSettings,
    check_decision,
    decks_fit,
    decks_for,
    legal_decisions,
)
from engine.garbage.views import GarbagePublicView, GarbageView, SeatView
from engine.message import Message, log_text

if TYPE_CHECKING:
    from engine.base import Game

__all__ = ["GarbageGame", "GarbageSettings", "decks_for"]  # settings and decks stay importable from here

_Events = list[GarbageOwnEvent | Resigned | AutoPlayed[GarbageDecision] | GameOver]


class GarbageGame(BaseGame[GarbageDecision, GarbageOwnEvent, GarbagePublicView, GarbageView, GarbageSettings]):
    """One game of Garbage. Only `apply` (and `play`) change it; every refusal leaves it unchanged (B3)."""

    KIND: ClassVar[str] = "garbage"
    TITLE: ClassVar[str] = "Garbage"
    MOVE_COUNT_KEY: ClassVar[str] = "moves"
    MIN_PLAYERS: ClassVar[int] = MIN_PLAYERS
    MAX_PLAYERS: ClassVar[int] = MAX_PLAYERS
    SCORES_LABEL: ClassVar[Message] = Message("garbage.hands-won")
    SNAPSHOT: ClassVar[SnapshotFormat] = snapshot  # card lists run bottom to top (the last card is the top)
    __slots__ = (
        "_decks",
        "_discard",
        "_finishers",
        "_first",
        "_game_winner",
        "_hand",
        "_hands_won",
        "_pending",
        "_shuffles",
        "_spots",
        "_stock",
        "_to_move",
        "_up",
    )

    def __init__(self, players: int, seed: int, settings: GarbageSettings) -> None:
        """An empty table; use `new`, `from_dict`, `replay` or `from_position` instead.

        Raises:
            ValueError: not 2–6 players, or a fixed number of decks too small for them (GV5).
        """
        super().__init__(players, seed, settings)
        unfit = decks_fit(settings, players)
        if unfit is not None:
            raise ValueError(f"these settings do not fit {players} players: {log_text(unfit)}")
        self._decks = settings.deck_count(players)
        self._hand = 1
        self._shuffles = 0
        self._hands_won = [0] * players
        self._game_winner: int | None = None
        # Spot k of a seat is index k-1 of `_spots[seat]`; `_up` says whether it lies face up.
        self._spots: list[list[Card]] = [[] for _ in range(players)]
        self._up: list[list[bool]] = [[] for _ in range(players)]
        self._stock: list[Card] = []  # the last card is the top
        self._discard: list[Card] = []  # the last card is the top
        self._pending: Card | None = None  # a wild card waiting for `_to_move` to choose its spot (G6c)
        self._to_move: int | None = 0
        # Under GV4 only (else 0, and not in snapshots): who played first in this hand (G4), where the last turns end.
        self._first = 0
        self._finishers: list[int] = []  # GV4: the seats that completed their layouts while the last turns are played

    # ----- construction -------------------------------------------------------------------------------------

    @classmethod
    def settings_from_dict(cls, data: Mapping[str, Any] | None) -> GarbageSettings:
        """The settings from their JSON-safe form (`None`: the defaults).

        Raises:
            ValueError: an unknown key or a value out of range.
        """
        return GarbageSettings.from_dict(data)

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
        first: int | None = None,
        pending: Card | str | None = None,
        resigned: Sequence[int] = (),
        hand_number: int = 1,
        seed: int = 0,
        settings: GarbageSettings | Mapping[str, Any] | None = None,
        rest: Literal["stock", "discard"] = "stock",
    ) -> Self:
        """An exact position, for tests and bug reports.

        - `layouts[seat]`: the cards on spots 1, 2, … of that seat (a string like "A♠ 7♦ 3♣" or a list of cards).
          In a game with several decks (3+ players) write the copies as `5♥`, `5♥#1`, `5♥#2`.
        - `face_up[seat]`: the spot numbers lying face up (each must hold its own rank or a Jack); default none.
        - `hands_won[seat]`: default `start_size - len(layouts[seat])`; given, it must agree with the layout (G2).
        - `stock` and `discard` are listed from the top down: `stock[0]` is drawn next, `discard[0]` can be taken.
        - `first`: who played first in this hand (G4; default `to_move`), which only the last turn (GV4) reads.
        - `pending`: a wild card (a Jack, or per the house rules a King or a Joker) that `to_move` has drawn and
          must place (G6c); needs two or more face-down spots.
        - `resigned`: seats that resigned, earliest first.
        - Every card of the game's decks (G1, GV5; their Jokers under GV2) that you did not give is shuffled (from
          `seed`) and goes under the given stock (`rest="stock"`) or under the given discard pile
          (`rest="discard"`), so every card is in exactly one place (B2). Use `rest="discard"` with an empty `stock`
          to reach a stock that has run out (G8).

        >>> game = GarbageGame.from_position(
        ...     ["A♠ 2♥ 7♦", "Q♣ 5♠ 3♦"], face_up=[[1], []], stock="3♠ K♥", discard="9♣",
        ...     settings=GarbageSettings(start_size=3))
        >>> for event in game.play(0, "draw stock"):
        ...     print(event.message().id)
        garbage.drew-from-stock
        garbage.placed-on-spot
        garbage.discarded

        Raises:
            ValueError: the position is impossible (a card twice, a card outside the decks, a wrong spot count,
                a face-up spot with a foreign rank, a layout already complete, a bad seat or `pending` card).
        """
        if rest not in ("stock", "discard"):
            raise ValueError(f"rest must be 'stock' or 'discard', not {rest!r}")
        chosen = cls._coerce_settings(settings)
        players = len(layouts)
        game = cls(players, seed, chosen)
        seat_cards = [read_cards(layout) for layout in layouts]
        ups = [set(spots) for spots in face_up] if face_up is not None else [set() for _ in layouts]
        won = list(hands_won) if hands_won is not None else [chosen.start_size - len(c) for c in seat_cards]
        if len(ups) != players or len(won) != players:
            raise ValueError("give face_up and hands_won for every seat (or leave them out)")
        for seat, cards in enumerate(seat_cards):
            check_layout(seat, cards, ups[seat], won[seat], chosen.start_size, chosen.is_wild)
            game._up[seat] = [spot in ups[seat] for spot in range(1, len(cards) + 1)]
        check_seats(players, to_move, resigned, MIN_PLAYERS)
        if chosen.last_turn:
            game._first = to_move if first is None else first
            if not 0 <= game._first < players:
                raise ValueError(f"there is no seat {game._first}; seats are 0 to {players - 1}")
        if hand_number < 1:
            raise ValueError("hand_number starts at 1")
        game._spots, game._hands_won, game._to_move, game._hand = seat_cards, won, to_move, hand_number
        game._resigned = list(resigned)
        if pending is not None:
            game._pending = check_pending(pending, game._up[to_move].count(False), chosen.is_wild)
        game._stock, game._discard = read_cards(stock)[::-1], read_cards(discard)[::-1]
        given = [card for cards in seat_cards for card in cards] + game._stock + game._discard
        given += [game._pending] if game._pending else []
        unused = unused_cards(given, game._decks, seed, jokers=chosen.jokers)
        if rest == "stock":
            game._stock = unused + game._stock
        else:
            game._discard = unused + game._discard
        return game

    def __repr__(self) -> str:
        return f"<GarbageGame players={self._players} hand={self._hand} to_move={self._to_move}>"

    # ----- what anyone may ask ------------------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat that must act next, or None once the game is over."""
        return self._to_move

    @property
    def hand_number(self) -> int:
        """The hand being played, from 1."""
        return self._hand

    def layout_size(self, seat: int) -> int:
        """G2: the number of spots `seat` plays with."""
        return self._settings.start_size - self._hands_won[seat]

    def describe_move(self, move: GarbageMove) -> Message:
        """The move phrase for a button or menu (capitalised there), e.g. "take 7♣ from the discard pile"."""
        if isinstance(move, DrawDiscard) and self._discard:
            return Message("garbage.move-take-discard", {"card": self._discard[-1]})
        if isinstance(move, PlaceJack) and self._pending is not None and self._pending.rank in (KING, JOKER):
            # The words name the card being placed under the house rules (GV1, GV2); the notation stays `jack 7`.
            placed = "garbage.move-place-king" if self._pending.rank == KING else "garbage.move-place-joker"
            return Message(placed, {"spot": move.spot})
        return move_phrase(move)

    def hidden_cards(self, seat: int | None = None) -> frozenset[Card]:
        """G11: every face-down card (its owner's too, so `seat` changes nothing) and the stock."""
        face_down = (
            card
            for spots, up in zip(self._spots, self._up, strict=True)
            for card, shown in zip(spots, up, strict=True)
            if not shown
        )
        return frozenset((*face_down, *self._stock))

    def public_view(self) -> GarbagePublicView:
        """G11: everything face up and nothing else: no face-down card, no stock order."""
        seats = tuple(
            SeatView(
                seat=seat,
                layout_size=len(spots),
                hands_won=self._hands_won[seat],
                resigned=seat in self._resigned,
                spots=tuple(card if up else None for card, up in zip(spots, self._up[seat], strict=True)),
                pending=self._pending if seat == self._to_move else None,
            )
            for seat, spots in enumerate(self._spots)
        )
        settings = self._settings
        return GarbagePublicView(
            seats=seats,
            discard=tuple(self._discard),
            stock_size=len(self._stock),
            to_move=self._to_move,
            hand_number=self._hand,
            move_count=self._moves,
            wild_rank=settings.wild,
            jokers=settings.jokers,
            decks=self._decks,
            last_turn=settings.last_turn,
            first=self._first if settings.last_turn else None,
            finished=tuple(self._finishers),
            last_turns=self._last_turns_left(),
        )

    def _last_turns_left(self) -> tuple[int, ...]:
        """GV4: the seats still to play their last turn, the seat to move first (none outside the last turns)."""
        if not self._finishers or self._to_move is None:
            return ()
        return self._seats_from(self._to_move)

    def _seats_from(self, seat: int) -> tuple[int, ...]:
        """`seat` and the seats after it in turn order, up to the hand's first player (not included)."""
        seats = []
        while seat != self._first:
            seats.append(seat)
            seat = (seat + 1) % self._players
        return tuple(seats)

    def _view(self, seat: int) -> GarbageView:
        """The public view (there is nothing private in Garbage) and the seat's legal moves."""
        return GarbageView(public=self.public_view(), seat=seat, legal_moves=self.legal_moves(seat))

    # ----- playing ------------------------------------------------------------------------------------------

    def _start(self) -> None:
        """G3/G4: the first deal; the first player is drawn from the seed."""
        self._deal(first=random.Random(f"garbage:{self._seed}:first").randrange(self._players))

    def _legal(self, seat: int) -> tuple[GarbageDecision, ...]:
        """Stock before discard, spots in order."""
        return legal_decisions(self._up[seat], self._pending, len(self._stock), len(self._discard))

    def _parse(self, seat: int, text: str) -> GarbageDecision:
        move = parse_garbage_move(text)
        assert not isinstance(move, Resign | Rejoin), "the game reads `resign` and `rejoin` before this"
        return move

    def _checked(self, seat: int, move: GarbageDecision) -> GarbageDecision:
        if not isinstance(move, DrawStock | DrawDiscard | PlaceJack):
            raise InvalidMoveError(Message("garbage.refused.not-a-garbage-move", {"move": repr(move)}))
        check_decision(move, self._up[seat], self._pending, len(self._stock), len(self._discard), self._settings)
        return move

    def _auto_move(self, seat: int) -> GarbageDecision:
        """Draw from the stock; a wild card goes to the lowest face-down spot."""
        return self._legal(seat)[0]  # the stock comes first, and face-down spots are listed lowest first

    def _standing(self, seat: int) -> tuple[int, ...]:
        """The G10 winner first (winners, when they share it under GV4), then hands won.

        A seat that filled its single Ace spot has won as many hands as its layout had spots at the start, which
        no other seat can have: that is how the winners, however many, are known.
        """
        return int(self._hands_won[seat] >= self._settings.start_size), self._hands_won[seat]

    def _scores(self) -> tuple[int, ...]:
        return tuple(self._hands_won)

    def _play(self, seat: int, move: GarbageDecision, events: _Events) -> None:
        if isinstance(move, PlaceJack):
            jack, self._pending = self._pending, None
            assert jack is not None  # _checked guarantees a pending Jack
            card = self._turn_up(seat, move.spot, jack, events)
            if self._is_complete(seat):
                self._complete(seat, card, events)
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

    def _place(self, seat: int, card: Card, events: _Events) -> None:
        """G6: place `card` and whatever it turns up, until a discard (G6d), a wild card's choice (G6c) or a win (G7).

        A wild card is a Jack, or a King instead (GV1), or a Joker (GV2): it plays every Jack rule.
        """
        spots, up = self._spots[seat], self._up[seat]
        size = len(spots)
        wild = self._settings.is_wild
        while True:
            rank = card.rank
            if wild(card):
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
                reason = DiscardReason.ABOVE_LAYOUT
                if rank > MAX_SPOT:  # a court card that is not wild: Queens and Kings, or Jacks and Queens (GV1)
                    kings = self._settings.wild == KING
                    reason = DiscardReason.JACK_OR_QUEEN if kings else DiscardReason.QUEEN_OR_KING
                self._discard_card(seat, card, reason, events)
                return
            elif not up[rank - 1]:
                card = self._turn_up(seat, rank, card, events)  # G6a
            elif wild(spots[rank - 1]):
                # G6b: the wild card is displaced and placed in its turn; the layout cannot become complete here.
                jack, spots[rank - 1] = spots[rank - 1], card
                events.append(JackDisplaced(seat, rank, card, jack))
                card = jack
                continue
            else:
                self._discard_card(seat, card, DiscardReason.SPOT_FILLED, events)
                return
            if self._is_complete(seat):
                self._complete(seat, card, events)
                return

    def _turn_up(self, seat: int, spot: int, card: Card, events: _Events) -> Card:
        """Put `card` face up on face-down `spot` and return the card that lay there."""
        spots = self._spots[seat]
        hidden, spots[spot - 1] = spots[spot - 1], card
        self._up[seat][spot - 1] = True
        events.append((JackPlaced if self._settings.is_wild(card) else PlacedOnSpot)(seat, spot, card, hidden))
        return hidden

    def _is_complete(self, seat: int) -> bool:
        return False not in self._up[seat]

    def _discard_card(self, seat: int, card: Card, reason: DiscardReason, events: _Events) -> None:
        self._discard.append(card)
        events.append(Discarded(seat, card, reason, len(self._spots[seat])))
        self._end_turn(seat, events)

    def _end_turn(self, seat: int, events: _Events) -> None:
        """Pass the turn on (G4); under GV4, the last of the last turns ends the hand instead."""
        after = (seat + 1) % self._players
        if self._finishers and after == self._first:
            self._end_last_turns(events)
            return
        self._to_move = after

    def _complete(self, seat: int, leftover: Card, events: _Events) -> None:
        """G7 when `seat` turns up its last spot; under GV4 the seats behind the first finisher play once more."""
        if self._settings.last_turn:
            if self._finishers:  # a last turn completed this layout too: it wins the hand as well
                self._discard.append(leftover)
                self._hands_won[seat] += 1
                self._finishers.append(seat)
                events.append(AlsoWon(seat, self._hand, leftover))
                self._end_turn(seat, events)
                return
            behind = self._seats_from((seat + 1) % self._players)
            if behind:
                self._discard.append(leftover)
                self._hands_won[seat] += 1
                self._finishers.append(seat)
                events.append(LastTurns(seat, self._hand, leftover, behind))
                self._to_move = behind[0]
                return
        self._win_hand(seat, leftover, events)

    def _end_last_turns(self, events: _Events) -> None:
        """GV4: the last turns are played; every finisher won the hand, those on a single Ace spot the game (G10)."""
        winners, self._finishers = tuple(self._finishers), []
        game_winners = tuple(seat for seat in winners if len(self._spots[seat]) == 1)
        sizes = tuple(self.layout_size(other) for other in range(self._players))
        events.append(LastTurnsOver(self._hand, winners, sizes, game_winners))
        if game_winners:
            self._game_winner = game_winners[0]
            self._finish(events)
            return
        self._hand += 1
        self._deal(first=winners[0])  # G4: the first to finish plays first
        events.append(NewHandDealt(self._hand, sizes, winners[0]))

    def _reshuffle(self, events: _Events) -> None:
        """G8: the discard pile except its top card becomes the new stock."""
        top = self._discard.pop()
        self._shuffles += 1
        self._stock, self._discard = self._discard, [top]
        random.Random(f"garbage:{self._seed}:reshuffle:{self._shuffles}").shuffle(self._stock)
        events.append(StockReshuffled(len(self._stock)))

    def _win_hand(self, seat: int, leftover: Card, events: _Events) -> None:
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
        cards = list(snapshot.full_decks(self._decks, self._settings.jokers))
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
        if self._settings.last_turn:
            self._first = first

    def _on_resign(self, seat: int, events: _Events) -> None:
        if self._pending is not None and seat == self._to_move:
            card, self._pending = self._pending, None
            if self._players - len(self._resigned) >= MIN_PLAYERS:
                self._discard_card(seat, card, DiscardReason.RESIGNED, events)
                return
            # The game ends with this resignation (`apply` finishes it): the card goes to the discard pile, and no
            # turn passes on (so no last turns end here and finish the game a second time).
            self._discard.append(card)
            events.append(Discarded(seat, card, DiscardReason.RESIGNED, len(self._spots[seat])))

    def _end(self, events: _Events) -> None:
        if self._pending is not None:
            # The game ended by resignations while a wild card waited for its spot: it goes where cards go (B2).
            seat = self._to_move
            assert seat is not None
            self._discard.append(self._pending)
            events.append(Discarded(seat, self._pending, DiscardReason.GAME_OVER, self.layout_size(seat)))
            self._pending = None
        self._to_move = None


if TYPE_CHECKING:  # mypy checks here that the engine satisfies the contract
    _CONTRACT: type[Game[GarbageMove, GarbageEvent, GarbagePublicView, GarbageView, GarbageSettings]] = GarbageGame

"""Kasino, the Norwegian fishing game (RULES.md K1-K16, B1-B3): the game state and its flow.

>>> game = KasinoGame.new(players=2, seed=7)
>>> seat = game.to_move
>>> events = game.apply(seat, game.legal_moves(seat)[-1])
>>> KasinoGame.from_dict(game.to_dict()) == game
True

This module holds deals (K3), turns (K4), round end (K13) and game end (K15); what both games share
(resigning, turns of resigned seats, checks, replay) is `engine.core.BaseGame`. Moves and notation,
legality, scoring, events, views, positions, snapshots and words live in the other `engine.kasino` modules.
All randomness comes from the seed: the first dealer from `"kasino:<seed>:dealer"`, each round's
shuffle from `"kasino:<seed>:round:<n>"`, so a snapshot needs no random-generator state.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self

from engine.base import Outcome, places_from_standing
from engine.cards import Card, format_cards, new_deck
from engine.core import BaseGame, SnapshotFormat
from engine.errors import IllegalMoveError, InvalidMoveError
from engine.events import AutoPlayed, GameOver, Resigned
from engine.kasino import snapshot
from engine.kasino.describe import describe_move
from engine.kasino.events import (
    BuildMade,
    BuildRaised,
    CardPlaced,
    CardsDealt,
    CardsTaken,
    Doubled,
    KasinoEvent,
    KasinoOwnEvent,
    RoundEnded,
    RoundStarted,
    Swept,
)
from engine.kasino.moves import Build, CardMove, Double, KasinoPlay, Place, Raise, StackMove, Take
from engine.kasino.positions import CardsSpec, ItemSpec, cards_from_spec, describe_item, item_from_spec
from engine.kasino.resolve import resolve_move
from engine.kasino.rules import canonical_take, find_item, illegal_reason, legal_moves
from engine.kasino.scoring import OFF, PARTNERSHIP_PLAYERS, KasinoSettings, SeatScore, score_round
from engine.kasino.table import BUILD, PILE, TableItem, card_order, hand_order, table_value
from engine.kasino.views import KasinoPublicView, KasinoView, SeatSummary
from engine.message import Message

if TYPE_CHECKING:
    from engine.base import Game

HAND_SIZE: Final = 4  # K3: cards per player per deal, and cards dealt to the table
DECK_SIZE: Final = len(new_deck())  # K1: one 52-card deck, dealt whole each round (K3)
_DECK_ORDER: Final = tuple(new_deck())  # cards are immutable values, so one set serves every round's shuffle
_CARD_MOVES: Final = (Take, Build, Raise, Double, Place)

_Events = list[KasinoOwnEvent | Resigned | AutoPlayed[CardMove] | GameOver]


class KasinoGame(BaseGame[CardMove, KasinoOwnEvent, KasinoPublicView, KasinoView, KasinoSettings]):
    """One game of Kasino. Only `apply` (and `play`) change it; a refused move changes nothing (B3)."""

    KIND: ClassVar[str] = "kasino"
    TITLE: ClassVar[str] = "Kasino"
    MOVE_COUNT_KEY: ClassVar[str] = "move_count"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4
    SCORES_LABEL: ClassVar[Message] = Message("shared.final-totals")
    SNAPSHOT: ClassVar[SnapshotFormat] = snapshot  # cards as `Card.code`

    def __init__(self, players: int, seed: int, settings: KasinoSettings) -> None:
        """An empty table; use `new`, `from_dict`, `from_position` or `replay` instead.

        Raises:
            ValueError: not 2-4 players, or partnerships (KV5) without four.
        """
        super().__init__(players, seed, settings)
        if settings.partnerships and players != PARTNERSHIP_PLAYERS:
            raise ValueError(f"Kasino partnerships are for {PARTNERSHIP_PLAYERS} players, not {players}.")
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
        self._over = False
        self._last_round: tuple[SeatScore, ...] | None = None
        self._legal_cache: tuple[CardMove, ...] | None = None  # the legal moves of the seat to move

    # ----------------------------------------------------------------------------------------- creating

    @classmethod
    def settings_from_dict(cls, data: Mapping[str, Any] | None) -> KasinoSettings:
        """Settings from their JSON-safe form (`None`: the defaults).

        Raises:
            ValueError: unknown keys or values out of range.
        """
        return KasinoSettings.from_dict(data)

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

        `hands` has one entry per seat. Table items are written as in `engine.kasino.positions.item_from_spec`:
        `"8♣"` a loose card, `"7♣ 7♦"` a pile, `{"build": "10♣ 5♥", "owner": 0}` a build (optional
        `value`, `contributors`, `doubled`). `stock` is listed top card first. `dealer` defaults to the
        seat before `to_move`. Cards named nowhere are *set aside* for this round: out of play, never
        scored, back in the deck for the next round, so every card is still in one place (B2).
        `seed` only decides later rounds' shuffles. `game.position()` gives these arguments back.

        >>> table = ["10♣", "7♣ 7♦", {"build": "4♦ 5♠", "owner": 1}]
        >>> game = KasinoGame.from_position(["5♥ 2♠ 9♦", "K♣ 3♦"], table, to_move=0)
        >>> [str(move) for move in game.legal_moves(0)]
        ['5♥ build 10♣', '5♥ place', '9♦ take 4♦', '9♦ place', '2♠ build 7♣', '2♠ place']
        >>> game.describe_move(game.parse_move(0, "9d take 9")).id
        'kasino.move-take'

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
        placed = snapshot.all_cards(game)
        if len(placed) != len(set(placed)):
            twice = sorted({card for card in placed if placed.count(card) > 1}, key=card_order)
            raise ValueError(f"these cards are placed twice: {format_cards(twice)}")
        game._set_aside = sorted(snapshot.DECK - set(placed), key=card_order)
        game._check_state()
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
    def to_move(self) -> int | None:
        """The seat that must play next, or None once the game is over."""
        return None if self._over else self._to_move

    @property
    def round_number(self) -> int:
        """The current round, from 1."""
        return self._round

    @property
    def scores(self) -> tuple[int, ...]:
        """Game totals per seat (updated when a round is scored)."""
        return tuple(self._totals)

    def describe_move(self, move: KasinoPlay) -> Message:
        """The move in words for a menu: "Take 3♦+A♥+A♠ with 5♥", "Build 15 on 10♣ with 5♥", "Place Q♠".

        The events of the move say the same words in the third person ("Kari places Q♠").
        """
        return describe_move(self._table, move)

    # ------------------------------------------------------------------------------------------ views

    def hidden_cards(self, seat: int | None = None) -> frozenset[Card]:
        """K16: every hand but `seat`'s own, and the stock."""
        hands = (card for other, hand in enumerate(self._hands) if other != seat for card in hand)
        return frozenset((*hands, *self._stock))

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
            settings=self._settings,
            played=self._played_this_round(),
        )

    def _played_this_round(self) -> int:
        """K1, K3, K5: a round deals the whole deck, four cards to the table first; every move plays one card."""
        in_hands = sum(len(hand) for hand in self._hands)
        return max(0, DECK_SIZE - HAND_SIZE - len(self._stock) - in_hands)

    def _view(self, seat: int) -> KasinoView:
        return KasinoView(self.public_view(), seat, tuple(self._hands[seat]), self.legal_moves(seat))

    def __repr__(self) -> str:
        state = "over" if self._over else f"seat {self._to_move} to move"
        return f"<KasinoGame {self._players} players, round {self._round}, move {self._moves}, {state}>"

    # ------------------------------------------------------------------------------------ moves (K5-K11)

    def _start(self) -> None:
        self._start_round(1, random.Random(f"kasino:{self._seed}:dealer").randrange(self._players))

    def _legal(self, seat: int) -> tuple[CardMove, ...]:
        """Per hand card (in hand order): takes, builds, raises, doubles, place; cached until the next change."""
        if self._legal_cache is None:
            self._legal_cache = legal_moves(seat, self._hands[seat], self._table, building=self._settings.building)
        return self._legal_cache

    def _parse(self, seat: int, text: str) -> CardMove:
        """Items may be named by any card in them or by value."""
        return resolve_move(self._hands[seat], self._table, text, building=self._settings.building)

    def _checked(self, seat: int, move: CardMove) -> CardMove:
        """The legal move equal to `move`, with the grouping it is listed with.

        Raises:
            IllegalMoveError, InvalidMoveError.
        """
        if not isinstance(move, _CARD_MOVES):
            raise InvalidMoveError(Message("kasino.refused.not-a-kasino-move", {"move": repr(move)}))
        legal = self._legal(seat)
        if move in legal:  # the listed move keeps its grouping, so its notation reads the same
            return legal[legal.index(move)]
        reason = illegal_reason(seat, self._hands[seat], self._table, move, building=self._settings.building)
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
                raise IllegalMoveError(Message("kasino.refused.take-not-allowed"))
            return take
        item = find_item(self._table, move.target)
        return move if item is None else type(move)(move.card, item.cards[0])

    def _auto_move(self, seat: int) -> Place:
        """Place the lowest hand-value card (K11; ties ♠♥♦♣); the seat to move always holds a card."""
        return Place(min(self._hands[seat], key=hand_order))

    def _on_rejoin(self, seat: int) -> None:
        self._legal_cache = None

    def _on_resign(self, seat: int, events: _Events) -> None:
        self._legal_cache = None
        if self._settings.partnerships:  # KV5: a partner who resigns concedes the game for the team
            self._finish(events)

    def _end(self, events: _Events) -> None:
        self._over = True
        self._legal_cache = None

    def _standing(self, seat: int) -> tuple[int, ...]:
        return (self._totals[seat],)

    def outcome(self) -> Outcome | None:
        """Placings once the game is over (None before); in partnerships (KV5) both partners share the team's place.

        A team whose player resigned (and so conceded) places below the other; otherwise the team totals decide.
        """
        outcome = super().outcome()
        if outcome is None or not self._settings.partnerships:
            return outcome
        teams = self._settings.teams(self._players)
        resigned = self._resigned
        keys = [(0, 0) if any(seat in resigned for seat in team) else (1, self._totals[team[0]]) for team in teams]
        team_places = places_from_standing(keys)  # places among the teams: 1 and 2, or 1 and 1 (a shared win)
        places = [0] * self._players
        for team, place in zip(teams, team_places, strict=True):
            for seat in team:
                places[seat] = place
        return Outcome(tuple(places), outcome.scores, teams)

    def _scores(self) -> tuple[int, ...]:
        return tuple(self._totals)

    def _play(self, seat: int, move: CardMove, events: _Events) -> None:
        """Carry out a legal move and pass the turn on (deal, end the round) as needed."""
        self._legal_cache = None
        card = move.card
        self._hands[seat].remove(card)
        if isinstance(move, Take):
            self._take(seat, move, events)
        elif isinstance(move, Place):
            self._table.append(TableItem.loose(card))
            events.append(CardPlaced(seat, card))
        else:
            events.append(self._stack(seat, card, move))
        self._advance(seat, events)

    def _take(self, seat: int, move: Take, events: _Events) -> None:
        card, targets = move.card, move.targets
        kept: list[TableItem] = []
        taken: list[Card] = []
        named: dict[Card, TableItem] = {}
        for item in self._table:
            if item.cards[0] in targets:
                taken += item.cards
                named[item.cards[0]] = item
            else:
                kept.append(item)
        # The take's words group the items as its notation does; a take listed without groups is one group.
        groups = move.groups if all(key in named for group in move.groups for key in group) else ()
        groups = groups or (tuple(named),)
        self._table = kept
        cards = tuple(taken)
        self._captured[seat].append(card)
        self._captured[seat].extend(cards)
        self._last_taker = seat
        events.append(CardsTaken(seat, card, cards, tuple(tuple(named[key] for key in group) for group in groups)))
        round_over = not self._stock and not any(self._hands)
        # K12: the last play of a round is no sweep; KV2 with `last_deal_sweeps` off: nor is any in the last deal.
        if not self._table and not round_over and (self._stock or self._settings.last_deal_sweeps):
            self._sweeps[seat] += 1
            events.append(Swept(seat, self._sweeps[seat], scored=self._settings.sweeps != OFF))

    def _stack(self, seat: int, card: Card, move: StackMove) -> KasinoOwnEvent:
        """Build (K7), raise (K8) or double (K9/K10): `card` goes onto the target item."""
        index = next(i for i, item in enumerate(self._table) if item.cards[0] == move.target)
        target = self._table[index]
        cards = (*target.cards, card)
        worth = table_value(card)
        contributors = tuple(sorted({*target.contributors, seat}))
        event: KasinoOwnEvent
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

    def _advance(self, seat: int, events: _Events) -> None:
        """K4: the next seat holding cards plays; with every hand empty, deal again (K3) or end the round (K13)."""
        following = self._next_holder(seat)
        if following is not None:
            self._to_move = following
        elif not self._stock:
            self._end_round(events)
        else:
            self._deal_hands()
            self._to_move = self._next_holder(seat)
            events.append(CardsDealt(max(len(hand) for hand in self._hands), len(self._stock)))

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

    def _end_round(self, events: _Events) -> None:
        """K13-K15: the table goes to the last taker, the round is scored, then the game ends or goes on."""
        leftover = tuple(card for item in self._table for card in item.cards)
        self._table = []
        if self._last_taker is None:
            self._set_aside.extend(leftover)
        else:
            self._captured[self._last_taker].extend(leftover)
        settings = self._settings
        scores = score_round(self._captured, self._sweeps, self._last_taker, self._totals, settings, self._resigned)
        self._totals = [score.game_total for score in scores]
        self._last_round = scores
        captured = tuple(tuple(pile) for pile in self._captured)
        teams = settings.teams(self._players) if settings.partnerships else None
        events.append(RoundEnded(self._round, self._last_taker, leftover, captured, scores, teams))
        if self._has_winner():
            self._finish(events)
        else:
            events.append(self._start_round(self._round + 1, (self._dealer + 1) % self._players))

    def _has_winner(self) -> bool:
        """K15 among the seats still playing: someone reached the target and the highest total is not shared.

        In partnerships (KV5) the sides are the teams, whose partners hold the same total.
        """
        teams = self._settings.teams(self._players)
        totals = [self._totals[team[0]] for team in teams if any(seat not in self._resigned for seat in team)]
        best = max(totals)
        return best >= self._settings.target and totals.count(best) == 1


if TYPE_CHECKING:  # mypy checks here that the engine satisfies the contract
    _CONTRACT: type[Game[KasinoPlay, KasinoEvent, KasinoPublicView, KasinoView, KasinoSettings]] = KasinoGame

"""What `KasinoGame.apply` reports, in order. Each event carries only cards that are face up (or revealed, K16).

`Resigned`, `AutoPlayed` and `GameOver` are shared with Garbage and live in `engine.events`; they are
importable from here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card
from engine.events import AutoPlayed, GameOver, Rejoined, Resigned
from engine.kasino.describe import (
    build_params,
    build_phrase,
    built_on,
    double_params,
    double_phrase,
    place_params,
    place_phrase,
    raise_params,
    raise_phrase,
    take_params,
    take_phrase,
)
from engine.kasino.moves import CardMove
from engine.kasino.scoring import SeatScore
from engine.kasino.table import BUILD, TableItem, table_value
from engine.message import Count, Joined, Message, Param, Seat, cards


def _said(message_id: str, seat: int, params: dict[str, Param]) -> Message:
    return Message(message_id, {"player": Seat(seat), **params})


@dataclass(frozen=True, slots=True)
class CardPlaced:
    """K11: a hand card now lies loose on the table."""

    seat: int
    card: Card

    @property
    def phrase(self) -> Message:
        """The move phrase, as its menu entry said it: "place 4♠"."""
        return place_phrase(self.card)

    def message(self) -> Message:
        """For the table channel: "Kari places 4♠."."""
        return _said("kasino.placed", self.seat, place_params(self.card))


@dataclass(frozen=True, slots=True)
class CardsTaken:
    """K6: `card` took `taken` (every card of every item, piles and builds included).

    `groups` are the items taken, split as the take's sums were (only for its words; equality ignores it).
    """

    seat: int
    card: Card
    taken: tuple[Card, ...]
    groups: tuple[tuple[TableItem, ...], ...] = field(default=(), compare=False)

    def _groups(self) -> tuple[tuple[TableItem, ...], ...]:
        return self.groups or ((*(TableItem.loose(card) for card in self.taken),),)

    @property
    def phrase(self) -> Message:
        """The move phrase, as its menu entry said it: "take K♥+3♥ and 10♥+6♦ with 10♦ (16)"."""
        return take_phrase(self.card, self._groups())

    def message(self) -> Message:
        """For the table channel: "Kari takes K♥+3♥ and 10♥+6♦ with 10♦ (16)."."""
        return _said("kasino.took", self.seat, take_params(self.card, self._groups()))


@dataclass(frozen=True, slots=True)
class BuildMade:
    """K7: `card` went onto the loose card or pile `onto`, making a build worth `value` owned by `seat`."""

    seat: int
    card: Card
    onto: tuple[Card, ...]
    value: int

    def _onto(self) -> TableItem:
        return built_on(self.onto, self.value - table_value(self.card))

    @property
    def phrase(self) -> Message:
        """The move phrase, as its menu entry said it: "build 9 on 5♣ with 4♠"."""
        return build_phrase(self.card, self._onto())

    def message(self) -> Message:
        """For the table channel: "Kari builds 9 on 5♣ with 4♠."."""
        return _said("kasino.built", self.seat, build_params(self.card, self._onto()))


@dataclass(frozen=True, slots=True)
class BuildRaised:
    """K8: `card` raised `previous_owner`'s build from `old_value` to `value`; `seat` owns it now."""

    seat: int
    card: Card
    previous_owner: int
    old_value: int
    value: int

    @property
    def phrase(self) -> Message:
        """The move phrase, as its menu entry said it: "raise the 6 to 9 with 3♣"."""
        return raise_phrase(self.card, self.old_value)

    def message(self) -> Message:
        """For the table channel: "Kari raises the 6 to 9 with 3♣ and takes the build over from Ola."."""
        taken_over = _taken_over(self.seat, self.previous_owner)
        return _said("kasino.raised", self.seat, {**raise_params(self.card, self.old_value), "taken_over": taken_over})


@dataclass(frozen=True, slots=True)
class Doubled:
    """K9/K10: `card` doubled a loose card, a pile or a build worth `value` (`kind` is what it was).

    `previous_owner` is set for builds; `seat` owns a doubled build afterwards.
    """

    seat: int
    card: Card
    kind: str
    target: tuple[Card, ...]
    value: int
    previous_owner: int | None = None

    def _target(self) -> TableItem:
        return built_on(self.target, self.value, build=self.kind == BUILD)

    @property
    def phrase(self) -> Message:
        """The move phrase, as its menu entry said it: "double 7♣ with 7♦", "double the 9 build with 9♥"."""
        return double_phrase(self.card, self._target())

    def message(self) -> Message:
        """For the table channel: "Kari doubles 7♣ with 7♦."."""
        taken_over = _taken_over(self.seat, self.previous_owner)
        return _said(
            "kasino.doubled", self.seat, {**double_params(self.card, self._target()), "taken_over": taken_over}
        )


def side_name(side: tuple[int, ...]) -> Param:
    """A side as a message names it: a player by name, a partnership (KV5) as "Kari & Nora"."""
    if len(side) == 1:
        return Seat(side[0])
    return Message("kasino.team", {"first": Seat(side[0]), "second": Seat(side[1])})


def _taken_over(seat: int, previous_owner: int | None) -> Message | None:
    # A build changing hands is said after the move's words, which stay those of its menu entry.
    if previous_owner is None or previous_owner == seat:
        return None
    return Message("kasino.taken-over", {"owner": Seat(previous_owner)})


@dataclass(frozen=True, slots=True)
class Swept:
    """K12: a take left the table empty (not on the last play of a round, nor in its last deal if KV2 says so).

    `scored` is False when KV2 has sweeps `off`: the sweep is counted, and scores nothing.
    """

    seat: int
    sweeps: int
    scored: bool = True

    def message(self) -> Message:
        """For the table channel: "Kari sweeps the table (sweep 2 this round)."."""
        return _said("kasino.swept" if self.scored else "kasino.swept-unscored", self.seat, {"sweeps": self.sweeps})


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """K3: every seat got `cards_each` new cards; which cards is private to each hand."""

    cards_each: int
    stock: int

    def message(self) -> Message:
        """For the table channel: "Everyone gets 4 new cards; 8 cards are left in the stock."."""
        return Message("kasino.dealt", {"new": Count(self.cards_each, "new card"), "stock": self.stock})


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """K3/K4: a new round; `table` holds the cards dealt face up, and the seat after `dealer` leads."""

    round: int
    dealer: int
    leader: int
    cards_each: int
    table: tuple[Card, ...]
    stock: int

    def message(self) -> Message:
        """For the table channel: "Round 1: Kari deals 4 cards to everyone and … to the table; Ola plays first."."""
        return Message(
            "kasino.round-started",
            {
                "round": self.round,
                "dealer": Seat(self.dealer),
                "each": Count(self.cards_each, "card"),
                "table": cards(self.table),
                "leader": Seat(self.leader),
            },
        )


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """K13/K14: the last taker got the table's `leftover` cards; every capture pile is revealed (K16).

    `last_taker` is None when nobody took anything, and then `leftover` was set aside unscored. `teams` are KV5's
    partnerships (None without): each team's players have the same score, the team's.
    """

    round: int
    last_taker: int | None
    leftover: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], ...]
    scores: tuple[SeatScore, ...]
    teams: tuple[tuple[int, ...], ...] | None = None

    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats that scored together: the teams, or each seat alone."""
        return self.teams if self.teams is not None else tuple((score.seat,) for score in self.scores)

    def message(self) -> Message:
        """For the table channel: "Round 1 is over: Kari has the last take …; points this round (total): …"."""
        said: list[Param] = []
        for side in self.sides():
            score = self.scores[side[0]]
            said.append(
                Message(
                    "kasino.round-points",
                    {"player": side_name(side), "round": score.round_total, "total": score.game_total},
                )
            )
        points = Joined(tuple(said), "join.comma")
        if self.last_taker is None:
            return Message(
                "kasino.round-ended-untaken", {"round": self.round, "left": len(self.leftover), "points": points}
            )
        return Message(
            "kasino.round-ended",
            {
                "round": self.round,
                "taker": Seat(self.last_taker),
                "leftover": Count(len(self.leftover), "card"),
                "points": points,
            },
        )


KasinoOwnEvent = (
    CardPlaced | CardsTaken | BuildMade | BuildRaised | Doubled | Swept | CardsDealt | RoundStarted | RoundEnded
)  # fmt: skip
# Every event `apply` reports; the last three are the ones both games share (`engine.events`).
__all__ = [
    "AutoPlayed",
    "BuildMade",
    "BuildRaised",
    "CardPlaced",
    "CardsDealt",
    "CardsTaken",
    "Doubled",
    "GameOver",
    "KasinoEvent",
    "KasinoOwnEvent",
    "Rejoined",
    "Resigned",
    "RoundEnded",
    "RoundStarted",
    "Swept",
]

KasinoEvent = KasinoOwnEvent | Resigned | Rejoined | AutoPlayed[CardMove] | GameOver

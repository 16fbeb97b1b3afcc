"""Kasino settings (the K14 points table, the K15 target, the house rules KV1-KV5) and scoring a round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar, Final

from engine.cards import Card
from engine.records import SettingsRecord, field_names, record_to_dict

LITTLE_CASINO: Final = Card(2, "♠")
BIG_CASINO: Final = Card(10, "♦")

COUNT: Final = "count"  # KV2: each sweep scores its points (K12)
OFF: Final = "off"  # KV2: sweeps score nothing
CANCEL: Final = "cancel"  # KV2: the fewest sweeps any side made are taken from every side's sweeps
SWEEP_RULES: Final = (COUNT, OFF, CANCEL)
PARTNERSHIP_PLAYERS: Final = 4  # KV5: seats 0 and 2 against seats 1 and 3
_BOOLEANS: Final = ("last_deal_sweeps", "building", "partnerships")
_WORDS: Final = ("sweeps", *_BOOLEANS)  # every setting that is not a whole number


@dataclass(frozen=True, slots=True)
class KasinoSettings(SettingsRecord):
    """How a game is played: target total (K15, KV1), the K14 points table (KV3) and the house rules KV2, KV4, KV5.

    `sweeps` is KV2's `count`, `off` or `cancel`; stored settings from before KV2 hold `true` or `false`, read as
    `count` and `off` (B1: such a game replays as it was played). `last_deal_sweeps` off: a take that empties the
    table in the round's last deal is no sweep (KV2). `building` off: no build, raise or double (KV4).
    `partnerships`: four players, seats 0 and 2 against 1 and 3, scoring as teams (KV5).
    """

    target: int = 16
    sweeps: str = COUNT
    most_cards: int = 1
    most_spades: int = 2
    ace: int = 1
    little_casino: int = 1
    big_casino: int = 2
    sweep: int = 1
    last_take: int = 1
    last_deal_sweeps: bool = True
    building: bool = True
    partnerships: bool = False
    GAME: ClassVar[str] = "Kasino"

    def __post_init__(self) -> None:
        stored: object = self.sweeps
        if isinstance(stored, bool):  # KV2: the boolean of stored settings from before the house rules
            object.__setattr__(self, "sweeps", COUNT if stored else OFF)
        elif stored not in SWEEP_RULES:
            raise ValueError(f"sweeps must be one of {', '.join(SWEEP_RULES)}, not {stored!r}")
        for name in _BOOLEANS:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be true or false")
        for name in _SETTING_NAMES:
            value = getattr(self, name)
            if name not in _WORDS and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{name} must be a whole number, not {value!r}")
        if self.target < 1:
            raise ValueError(f"the target must be at least 1 point, not {self.target}")
        if any(getattr(self, name) < 0 for name in _SETTING_NAMES if name not in ("target", *_WORDS)):
            raise ValueError("points in the scoring table cannot be negative")
        points = (self.most_cards, self.most_spades, self.ace, self.little_casino, self.big_casino, self.last_take)
        if not any(points):
            raise ValueError("a round must be able to score at least one point, or the game could never end")

    def teams(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The sides that score together: KV5's two partnerships, else every seat on its own."""
        if self.partnerships:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(players))

    def round_points(self) -> int:
        """The points a round holds besides sweeps (K14 with this table: 11 with the default one)."""
        return self.most_cards + self.most_spades + 4 * self.ace + self.little_casino + self.big_casino + self.last_take


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's K14 breakdown for a round: counts, then the points each line scored.

    In partnerships (KV5) every figure is its team's, counted over both partners' piles and sweeps, and both
    partners' scores say the same. `sweeps` is the sweep points after KV2's cancelling; `cancelled` is how many
    sweeps were cancelled (0 unless KV2 is `cancel`).
    """

    seat: int
    cards: int
    spades: int
    most_cards: int
    most_spades: int
    aces: int
    little_casino: int
    big_casino: int
    sweeps: int
    last_take: int
    round_total: int
    game_total: int
    # Left out of `repr`, which seeds the computer players' choices (through the views): a game without KV2's
    # `cancel` gets the same moves as before the house rules.
    cancelled: int = field(default=0, repr=False)

    def to_dict(self) -> dict[str, int]:
        """JSON-safe form."""
        return record_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, int]) -> SeatScore:
        """Inverse of `to_dict` (a score stored before KV2 has no `cancelled`: none were)."""
        return cls(**data)


_SETTING_NAMES: Final = field_names(KasinoSettings)


def score_round(
    captured: Sequence[Sequence[Card]],
    sweeps: Sequence[int],
    last_taker: int | None,
    totals_before: Sequence[int],
    settings: KasinoSettings,
    resigned: Sequence[int] = (),
) -> tuple[SeatScore, ...]:
    """K14: each seat's points for a round from its capture pile, its sweeps and the last take.

    The sides are `settings.teams`: in partnerships (KV5) a team's piles and sweeps are pooled, most cards and most
    spades compare team piles, and both partners get the team's points. Under KV2 `cancel`, the fewest sweeps any
    side still playing made (`resigned` seats left out) are taken from every side's sweeps.
    """
    sides = settings.teams(len(captured))
    piles = [[card for seat in side for card in captured[seat]] for side in sides]
    swept = [sum(sweeps[seat] for seat in side) for side in sides]
    cancelled = 0
    if settings.sweeps == CANCEL:
        playing = [count for side, count in zip(sides, swept, strict=True) if any(s not in resigned for s in side)]
        cancelled = min(playing, default=0)
    tallies = [_tally(pile) for pile in piles]
    card_counts = [len(pile) for pile in piles]
    spade_counts = [spades for spades, _, _, _ in tallies]
    side_scores = []
    for index, (spades, aces, little_casino, big_casino) in enumerate(tallies):
        most_cards = settings.most_cards if _strictly_most(card_counts, index) else 0
        most_spades = settings.most_spades if _strictly_most(spade_counts, index) else 0
        ace_points = settings.ace * aces
        little = settings.little_casino if little_casino else 0
        big = settings.big_casino if big_casino else 0
        taken_away = min(cancelled, swept[index])
        sweep_points = 0 if settings.sweeps == OFF else settings.sweep * (swept[index] - taken_away)
        last = settings.last_take if last_taker in sides[index] else 0
        total = most_cards + most_spades + ace_points + little + big + sweep_points + last
        side_scores.append(
            SeatScore(
                seat=sides[index][0],
                cards=card_counts[index],
                spades=spades,
                most_cards=most_cards,
                most_spades=most_spades,
                aces=ace_points,
                little_casino=little,
                big_casino=big,
                sweeps=sweep_points,
                last_take=last,
                round_total=total,
                game_total=totals_before[sides[index][0]] + total,
                cancelled=taken_away,
            )
        )
    side_of = {seat: index for index, side in enumerate(sides) for seat in side}
    scores = []
    for seat in range(len(captured)):
        score = side_scores[side_of[seat]]
        if score.seat != seat:  # a partner (KV5): the team's figures, the seat's own game total
            score = replace(score, seat=seat, game_total=totals_before[seat] + score.round_total)
        scores.append(score)
    return tuple(scores)


def _tally(pile: Sequence[Card]) -> tuple[int, int, bool, bool]:
    """Spades, aces, and whether the pile holds 2♠ and 10♦."""
    spades = aces = 0
    little = big = False
    for card in pile:
        if card.suit == "♠":
            spades += 1
            little = little or card.rank == LITTLE_CASINO.rank
        elif card.suit == BIG_CASINO.suit and card.rank == BIG_CASINO.rank:
            big = True
        if card.rank == 1:
            aces += 1
    return spades, aces, little, big


def _strictly_most(counts: Sequence[int], side: int) -> bool:
    """True when `side` alone has the highest count (K14: a tie scores nobody)."""
    return all(counts[side] > count for other, count in enumerate(counts) if other != side)

"""Kasino settings (the K14 points table, the K15 target) and scoring a round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from engine.cards import Card
from engine.records import SettingsRecord, field_names, record_to_dict

LITTLE_CASINO: Final = Card(2, "♠")
BIG_CASINO: Final = Card(10, "♦")


@dataclass(frozen=True, slots=True)
class KasinoSettings(SettingsRecord):
    """How a game is played: target total (K15), whether sweeps score (K12), and the K14 points table."""

    target: int = 16
    sweeps: bool = True
    most_cards: int = 1
    most_spades: int = 2
    ace: int = 1
    little_casino: int = 1
    big_casino: int = 2
    sweep: int = 1
    last_take: int = 1
    GAME: ClassVar[str] = "Kasino"

    def __post_init__(self) -> None:
        if not isinstance(self.sweeps, bool):
            raise ValueError("sweeps must be true or false")
        for name in _SETTING_NAMES:
            value = getattr(self, name)
            if name != "sweeps" and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{name} must be a whole number, not {value!r}")
        if self.target < 1:
            raise ValueError(f"the target must be at least 1 point, not {self.target}")
        if any(getattr(self, name) < 0 for name in _SETTING_NAMES if name not in ("target", "sweeps")):
            raise ValueError("points in the scoring table cannot be negative")
        points = (self.most_cards, self.most_spades, self.ace, self.little_casino, self.big_casino, self.last_take)
        if not any(points):
            raise ValueError("a round must be able to score at least one point, or the game could never end")


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's K14 breakdown for a round: counts, then the points each line scored."""

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

    def to_dict(self) -> dict[str, int]:
        """JSON-safe form."""
        return record_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, int]) -> SeatScore:
        """Inverse of `to_dict`."""
        return cls(**data)


_SETTING_NAMES: Final = field_names(KasinoSettings)


def score_round(
    captured: Sequence[Sequence[Card]],
    sweeps: Sequence[int],
    last_taker: int | None,
    totals_before: Sequence[int],
    settings: KasinoSettings,
) -> tuple[SeatScore, ...]:
    """K14: each seat's points for a round from its capture pile, its sweeps and the last take."""
    tallies = [_tally(pile) for pile in captured]
    card_counts = [len(pile) for pile in captured]
    spade_counts = [spades for spades, _, _, _ in tallies]
    scores = []
    for seat, (spades, aces, little_casino, big_casino) in enumerate(tallies):
        most_cards = settings.most_cards if _strictly_most(card_counts, seat) else 0
        most_spades = settings.most_spades if _strictly_most(spade_counts, seat) else 0
        ace_points = settings.ace * aces
        little = settings.little_casino if little_casino else 0
        big = settings.big_casino if big_casino else 0
        sweep_points = settings.sweep * sweeps[seat] if settings.sweeps else 0
        last = settings.last_take if seat == last_taker else 0
        total = most_cards + most_spades + ace_points + little + big + sweep_points + last
        scores.append(
            SeatScore(
                seat=seat,
                cards=card_counts[seat],
                spades=spades,
                most_cards=most_cards,
                most_spades=most_spades,
                aces=ace_points,
                little_casino=little,
                big_casino=big,
                sweeps=sweep_points,
                last_take=last,
                round_total=total,
                game_total=totals_before[seat] + total,
            )
        )
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


def _strictly_most(counts: Sequence[int], seat: int) -> bool:
    """True when `seat` alone has the highest count (K14: a tie scores nobody)."""
    return all(counts[seat] > count for other, count in enumerate(counts) if other != seat)

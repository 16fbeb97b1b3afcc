"""What a Kasino round is worth to each seat, as the game counts it (K13-K15), for the expert player.

A seat's *tally* is what it has captured this round: cards, spades, and the points that are already certain (aces,
casinos, sweeps, the last take). At the end of a round the points are exact: most cards and most spades go to a
seat that alone has the most (K14). Before that they are estimated: the cards still out are shared evenly on
average, so each seat's chance of ending with the most is a normal approximation of its lead.

A seat's *utility* weighs the round's points by what they do to the game. Two seats or two teams: near the target
a point that wins the game (K15) is worth far more than one that only widens a lead, and far from it utility is the
lead in game points. Three or four seats on their own: utility is the seat's points less the others' mean, since
against two or three rivals that plays better than the chance of winning does (`GameContext.utility`).

Both count as the game does (`Scoring`: KV3's points for most cards and spades; KV5's partnerships, where a
team's tallies are pooled, the team's points go to both partners, and the lead is over the other team).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ai.kasino_table_math import DEFAULT_SCORING, Scoring
from engine.cards import Card

DECK_CARDS: Final = 52
DECK_SPADES: Final = 13
SPECIAL_TOTAL: Final = 7  # four aces, 2♠ and 10♦ (K14)
WIN_WEIGHT: Final = 8.0  # a won game against a lost one, in points of margin
ROUND_SD: Final = 4.0  # the spread of a round's point margin between two seats
POINTS_PER_ROUND: Final = 6.0  # about how far the leader moves towards the target in one round

Tally = tuple[int, int, int, int]  # this round, one seat's: cards, spades, points of aces and casinos, other points


def card_special(card: Card) -> int:
    """K14 points a captured card scores by itself: an ace 1, 2♠ 1, 10♦ 2."""
    if card.rank == 1:
        return 1
    if card.rank == 2 and card.suit == "♠":
        return 1
    if card.rank == 10 and card.suit == "♦":
        return 2
    return 0


def add_cards(tally: Tally, cards: Sequence[Card], points: int = 0) -> Tally:
    """`tally` with `cards` captured and `points` more (sweeps, the last take)."""
    spades = special = 0
    for card in cards:
        if card.suit == "♠":
            spades += 1
        special += card_special(card)
    return tally[0] + len(cards), tally[1] + spades, tally[2] + special, tally[3] + points


def _normal(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def most_chance(counts: Sequence[int], seat: int, remaining: int) -> float:
    """The chance that `seat` alone ends with the highest count when `remaining` more are shared out at random."""
    players = len(counts)
    mine = counts[seat]
    if remaining <= 0:
        return 1.0 if all(mine > count for other, count in enumerate(counts) if other != seat) else 0.0
    spread = math.sqrt(2.0 * remaining / players)
    chance = 1.0
    for other, count in enumerate(counts):
        if other != seat:
            chance *= _normal((mine - count - 0.5) / spread)
    return chance


def round_points(
    tallies: Sequence[Tally], round_over: bool, unknown: float = 0.0, scoring: Scoring = DEFAULT_SCORING
) -> list[float]:
    """Each seat's points for the round: exact once it is over, else the expected points.

    The aces and casinos not yet captured, and the last take, are shared evenly in expectation. `unknown` is the
    points of aces and casinos captured earlier in the round that the seat did not watch (no history). In
    partnerships each seat gets its team's points, from the partners' pooled tallies.
    """
    if scoring.teams:
        pooled = [_pooled(tallies[side::2]) for side in (0, 1)]
        sides = round_points(pooled, round_over, unknown, scoring.solo)
        return [sides[seat % 2] for seat in range(len(tallies))]
    settings = scoring.settings
    players = len(tallies)
    cards = [tally[0] for tally in tallies]
    spades = [tally[1] for tally in tallies]
    cards_out = 0 if round_over else max(DECK_CARDS - sum(cards), 0)
    spades_out = 0 if round_over else max(DECK_SPADES - sum(spades), 0)
    specials_out = max(SPECIAL_TOTAL - sum(tally[2] for tally in tallies) - unknown, 0.0)
    share = 0.0 if round_over else (specials_out + settings.last_take) / players
    return [
        tallies[seat][2] + tallies[seat][3] + share
        + settings.most_cards * most_chance(cards, seat, cards_out)
        + settings.most_spades * most_chance(spades, seat, spades_out)
        for seat in range(players)
    ]  # fmt: skip


def _pooled(tallies: Sequence[Tally]) -> Tally:
    """Partners' tallies as one (KV5)."""
    return (sum(t[0] for t in tallies), sum(t[1] for t in tallies), sum(t[2] for t in tallies),
            sum(t[3] for t in tallies))  # fmt: skip


@dataclass(frozen=True, slots=True)
class GameContext:
    """What the game's totals and target make of a round's points (K15)."""

    totals: tuple[int, ...]
    target: int
    teams: bool = False  # KV5: seats 0 and 2 against 1 and 3, partners holding the same totals and points

    def utility(self, points: Sequence[float], seat: int, round_over: bool) -> float:
        """How much the round's `points` are worth to `seat`.

        Two seats or two teams (KV5): the chance of winning the game, plus the lead over the other side.

        Three or four seats on their own: the seat's game total after the round less the others' mean. Every
        point taken from any rival counts, and the target does not change it. Weighing in the chance of winning
        and the lead over the best other seat cost the expert a quarter of a point a round against three hard
        players, and with it more games than the weighting won (issue 29's closing notes have the figures).
        """
        finals = [total + value for total, value in zip(self.totals, points, strict=True)]
        if self.teams:
            rivals = [value for other, value in enumerate(finals) if (other - seat) % 2]
        else:
            rivals = [value for other, value in enumerate(finals) if other != seat]
            if len(rivals) > 1:
                return finals[seat] - sum(rivals) / len(rivals)
        lead = finals[seat] - max(rivals)
        top = max(finals)
        if round_over and top >= self.target:
            win = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0  # K15: a shared top plays another round
        else:
            rounds_left = max(self.target - top, 0.0) / POINTS_PER_ROUND + (0.0 if round_over else 0.25)
            spread = ROUND_SD * math.sqrt(max(rounds_left, 0.05))
            win = _normal(lead / spread)
        return WIN_WEIGHT * win + lead

"""Hard Kasino: perfect-information Monte Carlo over determinized deals.

For each sample the cards this seat cannot see are dealt to the other hands (an owner of a build gets a
card that can take it, K7), then every candidate move is played out to the end of the deal with the quick
rollout policy (the same sample for every candidate, so they are compared on equal cards). The move with
the best mean point margin wins (by the game's scoring; in partnerships the team's margin, KV5); medium's score
breaks near ties and picks the candidates.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final

from ai.base import SampledSearch, Strength, decision_rng
from ai.determinize import deal_hidden
from ai.kasino_knowledge import KasinoKnowledge
from ai.kasino_medium import RankedSearch, takes_partners_build
from ai.kasino_rollout import Deal
from engine.cards import Card
from engine.kasino.moves import CardMove
from engine.kasino.table import hand_value
from engine.kasino.views import KasinoView

CANDIDATES: Final = 8  # medium's best moves that are searched; the rest are never better in practice
PRIOR: Final = 0.15  # weight of medium's own score (which sees past the deal's end) next to the playouts
# KV5: what taking a partner's build must gain over the best other move, in points of margin. The partner kept the
# card that takes it (K7), so the team gets those cards anyway unless an opponent steals them first; the playouts'
# greedy partner does not always take its own build when it could, which makes taking it look better than it is.
PARTNER_BUILD: Final = 0.3


class HardKasino(SampledSearch, RankedSearch):
    """Search under hidden information within a sample budget, with a far-off time cap as a safety net."""

    kind: ClassVar[str] = "kasino"
    strength: ClassVar[Strength] = Strength.HARD
    SAMPLES: ClassVar[int] = 24

    def search(self, know: KasinoKnowledge, view: KasinoView, history: Sequence[Any],
               ranked: list[tuple[float, CardMove]]) -> CardMove:  # fmt: skip
        """The candidate with the best mean margin over the sampled deals."""
        candidates = ranked[:CANDIDATES]
        rng = decision_rng(self.seed, view)
        totals = [0.0] * len(candidates)
        deadline = time.perf_counter() + self.time_limit
        done = 0
        while done < self.samples and (done == 0 or time.perf_counter() < deadline):
            hands = sample_hands(know, rng)
            for index, (_, move) in enumerate(candidates):
                totals[index] += playout_margin(know, hands, move)
            done += 1
        scores = [total / done + PRIOR * prior for total, (prior, _) in zip(totals, candidates, strict=True)]
        for index, (_, move) in enumerate(candidates):
            if takes_partners_build(know, move):
                scores[index] -= PARTNER_BUILD
        best = max(range(len(candidates)), key=lambda index: (scores[index], -index))
        return candidates[best][1]


def sample_hands(know: KasinoKnowledge, rng: Any) -> list[list[Card]]:
    """One determinization: every seat's hand, this seat's own as it is."""
    others = [seat for seat in range(know.players) if seat != know.seat]
    required: list[Callable[[Card], bool] | None] = []
    for seat in others:
        build = next((item for item in know.table if item.is_build and item.owner == seat), None)
        required.append(None if build is None else _takes(build.value))
    dealt, _ = deal_hidden(know.unseen, [know.hand_sizes[seat] for seat in others], rng, required)
    hands: list[list[Card]] = [[] for _ in range(know.players)]
    hands[know.seat] = list(know.hand)
    for seat, cards in zip(others, dealt, strict=True):
        hands[seat] = cards
    return hands


def _takes(value: int) -> Callable[[Card], bool]:
    return lambda card: hand_value(card) == value


def playout_margin(know: KasinoKnowledge, hands: list[list[Card]], move: CardMove) -> float:
    """Play `move`, then the rest of the deal; this seat's side's points minus the best other side's (KV5: teams)."""
    deal = Deal([list(hand) for hand in hands], list(know.table), know.seat, know.last_deal, know.last_taker,
                know.resigned, know.scoring)  # fmt: skip
    deal.play(move)
    deal.play_out()
    return deal.margin(know.seat)

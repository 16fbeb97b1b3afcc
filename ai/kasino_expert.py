"""Expert Kasino: exact endgames, game-aware scoring, inference from the opponents' moves, adaptive sampling.

- Two players, stock empty, every hidden card known by elimination: the rest of the round is solved exactly
  (`MinimaxSolver`), the last take (K13) and most cards and spades (K14) included.
- Two players, the deal before the last: every hand the opponent may hold (at most C(12,4) = 495) is a guess,
  each played out with the fast policy.
- Otherwise guesses are sampled (`weighted_deal`): as many for each hidden hand (three hidden hands leave far more
  deals to tell the moves apart over), and more when the best two moves are close. In 3-4 players each guessed
  last deal is solved once few cards are left, by a paranoid minimax (the others against the seat: it prunes,
  so it reaches further back into the deal than max-n could in the same time).
- The solver's work is bounded by a budget of positions per decision (`SOLVER_NODES`): a guess it cannot finish
  within what is left is played out instead, like the rest of the guesses after it.
- Guesses follow how well they explain the opponents' moves this deal (`kasino_inference`): sampled guesses deal
  the opponents cards in proportion to it, the enumerated ones are weighted by it.
- A finished deal is scored as the round will count it (`kasino_outcome`). With two players or partnerships it is
  weighed by what it does to the game; with three or four on their own it is the seat's points less the others'.

It decides from its seat's view and the public events only, with a budget of samples, never the clock (a safety
cap of `SAFETY_SECONDS` aside), and its randomness comes from its seed and the view.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from ai.base import SAFETY_SECONDS, SampledSearch, Strength, decision_rng
from ai.kasino_inference import guess_weight, hand_weights, weighted_deal
from ai.kasino_knowledge import KasinoKnowledge
from ai.kasino_medium import RankedSearch, takes_partners_build
from ai.kasino_outcome import DECK_CARDS, DECK_SPADES, SPECIAL_TOTAL, GameContext, Tally, add_cards, round_points
from ai.kasino_position import Position
from ai.kasino_solver import MinimaxSolver, OutOfNodesError
from engine.cards import Card
from engine.kasino.moves import CardMove
from engine.kasino.table import hand_value
from engine.kasino.views import KasinoView

CANDIDATES: Final = 8  # medium's best moves that are searched by sampling
PRIOR: Final = 0.15  # weight of medium's own score (which sees past the deal's end) next to the playouts
ENUMERATE: Final = 495  # at most this many opponent hands are all tried, rather than sampled: C(12, 4)
CLOSE: Final = 0.35  # the best two moves are close when their mean utilities differ by less than this
PLAYOUTS: Final = 1200  # above this many playouts, enumeration first keeps the best few candidates
FINALISTS: Final = 3  # candidates kept for the rest of the enumeration
SOLVE_CARDS: Final = 7  # with 3-4 players, a guessed last deal is solved once this few cards are in hands
SOLVED_SAMPLES: Final = 12  # guesses of a last deal that is solved exactly
SOLVER_NODES: Final = 12_000  # positions the solver may visit in one decision (under half a second)
PARTNER_BUILD: Final = 0.6  # KV5: what taking a partner's build must gain, in utility (see `ai.kasino_hard`)


class ExpertKasino(SampledSearch, RankedSearch):
    """The strongest Kasino player: see the module docstring."""

    kind: ClassVar[str] = "kasino"
    strength: ClassVar[Strength] = Strength.EXPERT
    SAMPLES: ClassVar[int] = 32

    def __init__(self, seed: int = 0, samples: int | None = None, max_samples: int = 96,
                 time_limit: float = SAFETY_SECONDS) -> None:  # fmt: skip
        """`samples` guesses per decision and hidden hand (`SAMPLES` if None), up to `max_samples` when close.

        With two players that is 32 guesses, up to 96 when the best two moves are close; with four, 96 up to 288.

        `time_limit` is only a safety cap: the budget is the samples, so the same view gets the same move.
        """
        super().__init__(seed, samples, time_limit)
        self.max_samples = max(self.samples, max_samples)

    def search(self, know: KasinoKnowledge, view: KasinoView, history: Sequence[Any],
               ranked: list[tuple[float, CardMove]]) -> CardMove:  # fmt: skip
        """The move with the best expected utility over the guesses of the hidden cards (exact where possible)."""
        searching = _Search(know, view, history, self.time_limit)
        others = sum(know.hand_sizes) - len(know.hand)
        if know.players == 2 and know.last_deal and others == len(know.unseen):
            return searching.solve_exactly(ranked)
        candidates = ranked[:CANDIDATES]
        opponent_cards = [know.hand_sizes[seat] for seat in know.opponents()]
        hidden_hand = know.players == 2 and len(know.unseen) - know.stock == opponent_cards[0] == sum(opponent_cards)
        if hidden_hand and math.comb(len(know.unseen), opponent_cards[0]) <= ENUMERATE:
            return searching.every_hand(candidates)
        rng = decision_rng(self.seed, view)
        if know.last_deal and sum(know.hand_sizes) <= SOLVE_CARDS:
            return searching.sample(candidates, rng, SOLVED_SAMPLES, SOLVED_SAMPLES, solve=True)
        hidden = know.players - 1  # each hidden hand multiplies the deals a move must be judged over
        return searching.sample(candidates, rng, self.samples * hidden, self.max_samples * hidden, solve=False)


class _Search:
    """One decision's search: the position's context, and the ways of scoring candidate moves."""

    def __init__(self, know: KasinoKnowledge, view: KasinoView, history: Sequence[Any], time_limit: float) -> None:
        self.know = know
        self.seat = know.seat
        seats = view.public.seats
        self.scoring = know.scoring
        self.context = GameContext(tuple(summary.score for summary in seats), view.public.target, know.scoring.teams)
        self.tallies, self.unknown = _tallies(know, [summary.captured for summary in seats],
                                              [summary.sweeps for summary in seats])  # fmt: skip
        self.weights = hand_weights(history, know.opponents(), know.table, know.scoring) if history else {}
        partner = know.partner()
        self.allies = frozenset() if partner is None else frozenset({partner})
        self.deadline = time.perf_counter() + time_limit
        self.nodes_left = SOLVER_NODES

    def start(self, hands: Sequence[Sequence[Card]]) -> Position:
        """The position of the seat's turn with `hands` as the guess of every hand."""
        know = self.know
        return Position(tuple(tuple(hand) for hand in hands), know.table, self.seat, self.tallies, know.last_taker,
                        know.last_deal, know.resigned, know.scoring)  # fmt: skip

    def value(self, position: Position) -> tuple[float, ...]:
        """Every seat's utility of a finished deal."""
        over = position.ends_round
        points = round_points(position.tallies, over, self.unknown, self.scoring)
        return tuple(self.context.utility(points, seat, over) for seat in range(len(points)))

    def solve_exactly(self, ranked: list[tuple[float, CardMove]]) -> CardMove:
        """Two players, every card known: the exact best move for the rest of the round.

        A deal too big for the solver's budget is played out instead, once for each of the best candidates.
        """
        hands: list[list[Card]] = [[], []]
        hands[self.seat] = list(self.know.hand)
        hands[1 - self.seat] = list(self.know.unseen)
        start = self.start(hands)
        try:
            return MinimaxSolver(self.seat, self.value, budget=self.nodes_left).best(start, [m for _, m in ranked])[0]
        except OutOfNodesError:
            candidates = ranked[:CANDIDATES]
            totals = [0.0] * len(candidates)
            self._add(totals, 1.0, start, candidates, solve=False)
            return self._best(totals, 1.0, candidates)

    def every_hand(self, candidates: list[tuple[float, CardMove]]) -> CardMove:
        """Two players: every hand the opponent may hold, each weighted by inference, played out for each candidate.

        When that is many playouts, every third hand first picks the few candidates worth finishing.
        """
        know = self.know
        other = 1 - self.seat
        build = next((item.value for item in know.table if item.is_build and item.owner == other), None)
        guesses: list[tuple[float, Position]] = []
        for held in itertools.combinations(know.unseen, know.hand_sizes[other]):
            if build is not None and not any(hand_value(card) == build for card in held):
                continue  # K7: a build's owner holds a card that takes it
            hands: list[list[Card]] = [[], []]
            hands[self.seat], hands[other] = list(know.hand), list(held)
            weight = guess_weight(hands, self.weights)
            if weight > 0.0:
                guesses.append((weight, self.start(hands)))
        totals = [0.0] * len(candidates)
        if len(guesses) * len(candidates) > PLAYOUTS:
            first = guesses[::3]
            for weight, start in first:
                self._add(totals, weight, start, candidates, solve=False)
            scale = sum(weight for weight, _ in first) or 1.0
            order = sorted(range(len(candidates)), key=lambda index: -totals[index])
            kept = [index for index in order[:FINALISTS] if totals[order[0]] - totals[index] < 2 * CLOSE * scale]
            candidates = [candidates[index] for index in kept]
            totals = [totals[index] for index in kept]
            guesses = [guess for position, guess in enumerate(guesses) if position % 3]
            weight_sum = scale
        else:
            weight_sum = 0.0
        for weight, start in guesses:
            weight_sum += weight
            self._add(totals, weight, start, candidates, solve=False)
        return self._best(totals, weight_sum, candidates)

    def sample(self, candidates: list[tuple[float, CardMove]], rng: random.Random, samples: int, most: int,
               solve: bool) -> CardMove:  # fmt: skip
        """Sampled guesses (more while the best two moves are close), each played out or solved per candidate."""
        totals = [0.0] * len(candidates)
        weight_sum = 0.0
        done = 0
        while done < most:
            self._add(totals, 1.0, self.start(self._guess(rng)), candidates, solve)
            weight_sum += 1.0
            done += 1
            if done >= samples and not self._close(totals, weight_sum):
                break
            if time.perf_counter() > self.deadline:
                break  # a safety net only: no normal decision comes near it
        return self._best(totals, weight_sum, candidates)

    def _guess(self, rng: random.Random) -> list[list[Card]]:
        """One guess of every hand, the opponents' cards dealt by their inference weights."""
        know = self.know
        sizes = {seat: know.hand_sizes[seat] for seat in know.opponents()}
        required = {item.owner: item.value for item in know.table if item.owner is not None and item.owner in sizes}
        dealt = weighted_deal(know.unseen, sizes, self.weights, required, rng)
        hands = [dealt.get(seat, []) for seat in range(know.players)]
        hands[self.seat] = list(know.hand)
        return hands

    def _add(self, totals: list[float], weight: float, start: Position, candidates: list[tuple[float, CardMove]],
             solve: bool) -> None:  # fmt: skip
        """Add each candidate's utility in the guess `start` to its total: solved, or played out.

        A guess the solver cannot finish within the decision's budget is played out, as every later one is.
        """
        scores = self._solved(start, candidates) if solve and self.nodes_left > 0 else None
        if scores is None:
            scores = [self.value(start.play(move).play_out())[self.seat] for _, move in candidates]
        for index, score in enumerate(scores):
            totals[index] += weight * score

    def _solved(self, start: Position, candidates: list[tuple[float, CardMove]]) -> list[float] | None:
        """Each candidate's exact utility in the guess `start`, or None past the solver's budget."""
        solver = MinimaxSolver(self.seat, self.value, self.allies, self.nodes_left)  # one table for every candidate
        try:
            return [solver.search(start.play(move), -math.inf, math.inf) for _, move in candidates]
        except OutOfNodesError:
            return None
        finally:
            self.nodes_left -= solver.nodes

    @staticmethod
    def _close(totals: list[float], weight_sum: float) -> bool:
        if len(totals) < 2 or weight_sum <= 0.0:
            return False
        first, second = sorted(totals, reverse=True)[:2]
        return (first - second) / weight_sum < CLOSE

    def _best(self, totals: list[float], weight_sum: float, candidates: list[tuple[float, CardMove]]) -> CardMove:
        if weight_sum <= 0.0:
            return candidates[0][1]
        scores = [total / weight_sum + PRIOR * prior for total, (prior, _) in zip(totals, candidates, strict=True)]
        for index, (_, move) in enumerate(candidates):
            if takes_partners_build(self.know, move):
                scores[index] -= PARTNER_BUILD
        best = max(range(len(candidates)), key=lambda index: (scores[index], -index))
        return candidates[best][1]


def _tallies(know: KasinoKnowledge, captured: Sequence[int], sweeps: Sequence[int]) -> tuple[tuple[Tally, ...], float]:
    """Each seat's tally this round so far, and the ace and casino points taken that the seat did not see.

    With the public history the taken cards are known; without it only their number is (spades are then guessed
    at a quarter of them).
    """
    tallies: list[Tally] = []
    unknown = 0.0
    sweep = round(know.scoring.sweep)  # KV2: no points for sweeps when they are off
    for seat, count in enumerate(captured):
        seen = know.taken[seat]
        tally = add_cards((0, 0, 0, 0), seen, sweep * sweeps[seat])
        missing = count - len(seen)
        if missing > 0:
            tally = (count, tally[1] + round(missing * DECK_SPADES / DECK_CARDS), tally[2], tally[3])
            unknown += SPECIAL_TOTAL * missing / DECK_CARDS
        tallies.append(tally)
    return tuple(tallies), unknown

"""Two Kasino computer players compared move by move on the same deals (a "duplicate" measure).

Run from the repository root: `python -m bench.bench_kasino_duplicate --variant expert:samples=64
[--baseline expert] [--opponents hard] [--players 4] [--seeds 6000:6010] [--processes 2]`.

Each seed is played once with the baseline in every seat and the opponents at the others, as in `bench_ai` (a player's
seed is `seed * 10 + seat`). At each of the baseline's decisions with a choice, the variant decides from the same
view and history. Where the two differ, the rest of the round is played twice from that point, once with each move,
by the same players on the same cards (the round's deal is fixed by the game's seed). The figure is the seat's
round points less the others' mean, variant minus baseline, over the decisions that differ.

Why: a win rate needs hundreds of games to tell players apart by a few points, since most decisions are the same
for both and the deal's luck swamps the rest. Paired on the same cards and measured only where the players
disagree, a difference of a tenth of a point per decision shows in ten seeds. It measures round points, not wins:
a change that trades points for the chance of winning the game needs `bench_ai`.

It favours the baseline: the rest of the round is played by the baseline, whose move fits its own later moves. For
a small change that matters little, but between two different players the sum over decisions overstates the gap.
At a four-player table, hard's move cost the expert 0.39 of a round point where the two differed (about 1.2 points
a round in all), the expert's move gained hard only 0.08 in hard's games, and in real games the expert was 0.08 of
a point a round ahead of hard (issue 29).

A player is a strength, with budget options for the searching players: `expert:samples=64,max_samples=200`.
"""

from __future__ import annotations

import argparse
import copy
import math
import multiprocessing
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.base import Player
from ai.players import player_for
from engine.kasino.events import RoundEnded
from engine.registry import game_class

KIND = "kasino"


@dataclass(frozen=True)
class Pairing:
    """The baseline at one seat of a seed's game and the opponents at the others; the variant decides alongside."""

    baseline: str
    variant: str
    opponents: str
    players: int
    settings: tuple[tuple[str, Any], ...] = ()  # the game's settings (house rules), as (key, value) pairs


@dataclass
class Tally:
    """One game's or a whole run's: decisions with a choice, the differences where the two differ, CPU seconds."""

    decisions: int = 0
    differences: list[float] = field(default_factory=list)
    baseline_seconds: float = 0.0
    variant_seconds: float = 0.0

    def add(self, other: Tally) -> None:
        """Fold another tally into this one."""
        self.decisions += other.decisions
        self.differences.extend(other.differences)
        self.baseline_seconds += other.baseline_seconds
        self.variant_seconds += other.variant_seconds


def make_player(spec: str, seed: int) -> Player[Any, Any]:
    """`"expert:samples=64,max_samples=200"`: a strength, then budget options as whole numbers."""
    strength, _, options = spec.partition(":")
    budget = {key: int(value) for key, _, value in (option.partition("=") for option in options.split(",") if option)}
    return player_for(KIND, strength, seed, **budget)


def round_margin(game: Any, history: Sequence[Any], players: Sequence[Player[Any, Any]], seat: int, move: Any) -> float:
    """`seat` plays `move` in a copy of `game`, everyone plays the round out: its points less the others' mean."""
    game = copy.deepcopy(game)
    seen = list(history)
    number = game.round_number
    events = game.apply(seat, move)
    while True:
        seen.extend(events)
        for event in events:
            if isinstance(event, RoundEnded) and event.round == number:
                points = [score.round_total for score in event.scores]
                others = [value for other, value in enumerate(points) if other != seat]
                return points[seat] - sum(others) / len(others)
        to_move = game.to_move
        events = game.apply(to_move, players[to_move].choose(game.view(to_move), seen))


def play_pairing(task: tuple[Pairing, int, int]) -> Tally:
    """Seed `seed` with the baseline at `seat`: the game as the baseline plays it, the variant measured alongside."""
    pairing, seed, seat = task
    players = [
        make_player(pairing.baseline if other == seat else pairing.opponents, seed * 10 + other)
        for other in range(pairing.players)
    ]
    variant = make_player(pairing.variant, seed * 10 + seat)
    game = game_class(KIND).new(pairing.players, seed, dict(pairing.settings) or None)
    history: list[Any] = []
    tally = Tally()
    while (to_move := game.to_move) is not None:
        view = game.view(to_move)
        started = time.process_time()
        move = players[to_move].choose(view, history)
        if to_move == seat and len(view.legal_moves) > 1:
            decided = time.process_time()
            other = variant.choose(view, history)
            tally.baseline_seconds += decided - started
            tally.variant_seconds += time.process_time() - decided
            tally.decisions += 1
            if other != move:
                tally.differences.append(
                    round_margin(game, history, players, seat, other) - round_margin(game, history, players, seat, move)
                )
        history.extend(game.apply(to_move, move))
    return tally


def summary(pairing: Pairing, tally: Tally) -> str:
    """The line the bench prints: how often the two differ, and by how much where they do."""
    differences = tally.differences
    count = len(differences)
    share = count / tally.decisions if tally.decisions else 0.0
    mean = sum(differences) / count if count else 0.0
    spread = math.sqrt(sum((value - mean) ** 2 for value in differences) / (count - 1)) if count > 1 else 0.0
    error = spread / math.sqrt(count) if count else 0.0
    cpu = tally.variant_seconds / tally.baseline_seconds if tally.baseline_seconds else 0.0
    return (
        f"{KIND} {pairing.players}p {pairing.variant} vs {pairing.baseline} (against {pairing.opponents}): "
        f"{count} of {tally.decisions} decisions differ ({share:.1%}); "
        f"{mean:+.2f} round points per differing decision (95% CI {mean - 1.96 * error:+.2f} to "
        f"{mean + 1.96 * error:+.2f}); variant CPU {cpu:.2f}x"
    )


def run(pairing: Pairing, seeds: range, processes: int) -> Tally:
    """Every seed with the baseline in every seat, on `processes` worker processes."""
    tasks = [(pairing, seed, seat) for seed in seeds for seat in range(pairing.players)]
    total = Tally()
    with multiprocessing.Pool(processes) as pool:
        for tally in pool.imap_unordered(play_pairing, tasks):
            total.add(tally)
    return total


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, play the pairings, print the line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", required=True, help="the player measured, e.g. expert:samples=64")
    parser.add_argument("--baseline", default="expert")
    parser.add_argument("--opponents", default="hard", help="the players at the other seats")
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seeds", default="6000:6010", help="first:end, the end left out")
    parser.add_argument("--processes", type=int, default=2)
    options = parser.parse_args(argv)
    first, _, end = options.seeds.partition(":")
    pairing = Pairing(options.baseline, options.variant, options.opponents, options.players)
    print(summary(pairing, run(pairing, range(int(first), int(end)), options.processes)), flush=True)


if __name__ == "__main__":
    main()

"""Computer players: seeded matches in alternating seats, win rates with Wilson 95% intervals, searchers' move times.

Run from the repository root: `python -m bench.bench_ai [--games 1000] [--hard-games 1000] [--four-games 300]
[--expert-games 400] [--expert-four-games 200] [--processes 2] [--only kasino|kasino-expert|garbage]`. Game `i`
of a match uses seed `i` and puts the player being measured in seat `i % players`, the others at the remaining
seats. The expert matches play every deal with expert in each seat: game `i` uses seed `i // players` and seat
`i % players`, so each seed is played `players` times round the table (their game counts are rounded up to a
whole number of seeds). Games run on `--processes` worker processes, one core each, so the move times are
single-core times. The Kasino 4p match defaults to 300 games (four seats and longer games make it the slowest);
each line says how many games it is over.

Targets: Kasino 2p hard beats medium >= 0.60 (interval above 0.55), medium beats easy >= 0.75, Kasino 4p
hard wins >= 0.35 among three medium (chance: 0.25); Garbage hard vs medium interval above 0.50 (luck
dominates Garbage); hard decides within 0.5 s at p95. Kasino 2p expert beats hard >= 0.60 (interval above
0.55) over >= 400 games, Kasino 4p expert wins >= 0.33 among three hard over >= 200 games; expert decides
within 0.5 s at p95.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
from dataclasses import dataclass

from ai.arena import play_game
from ai.players import player_for

TIMED = ("hard", "expert")  # the players whose decision times are printed


@dataclass(frozen=True)
class Match:
    """`hero` at one seat against `villain` at every other seat, over `games` seeded games."""

    kind: str
    players: int
    hero: str
    villain: str
    games: int
    rotate: bool = False  # each seed played once with the hero in every seat (game i: seed i // players)

    def seed_and_seat(self, index: int) -> tuple[int, int]:
        """The seed of game `index` and the hero's seat in it."""
        return (index // self.players if self.rotate else index), index % self.players


def play_one(task: tuple[Match, int]) -> tuple[bool, list[float]]:
    """Game `index` of a match: whether the hero won alone in first place, and its decision times."""
    match, index = task
    seed, seat = match.seed_and_seat(index)
    table = [player_for(match.kind, match.villain, seed * 10 + other) for other in range(match.players)]
    table[seat] = player_for(match.kind, match.hero, seed * 10 + seat)
    result = play_game(match.kind, table, seed)
    places = result.outcome.places
    won = places[seat] == 1 and places.count(1) == 1
    return won, result.seconds[seat]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if not games:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def run(match: Match, pool: multiprocessing.pool.Pool, times: dict[str, list[float]]) -> None:
    """Play a match on the pool, print its win-rate line, and keep the searching players' move times."""
    wins = 0
    for won, seconds in pool.imap_unordered(play_one, [(match, index) for index in range(match.games)], chunksize=2):
        wins += won
        if match.hero in TIMED:
            times.setdefault(f"{match.kind} {match.hero}", []).extend(seconds)
    low, high = wilson(wins, match.games)
    print(
        f"{match.kind} {match.players}p {match.hero} vs {match.villain}: win rate {wins / match.games:.2f}"
        f" over {match.games} games (95% CI {low:.2f}-{high:.2f})",
        flush=True,
    )


def main() -> None:
    """Parse options, play the matches, print the lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games of each 2p match without a hard player")
    parser.add_argument("--hard-games", type=int, default=1000, help="games of each 2p match with a hard player")
    parser.add_argument("--four-games", type=int, default=300, help="games of the Kasino 4p match")
    parser.add_argument("--expert-games", type=int, default=400, help="games of the Kasino 2p expert match")
    parser.add_argument("--expert-four-games", type=int, default=200, help="games of the Kasino 4p expert match")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--only", choices=["kasino", "kasino-expert", "garbage"], default=None)
    options = parser.parse_args()
    matches = []
    if options.only in (None, "kasino"):
        matches += [
            Match("kasino", 2, "hard", "medium", options.hard_games),
            Match("kasino", 2, "medium", "easy", options.games),
            Match("kasino", 4, "hard", "medium", options.four_games),
        ]
    if options.only in (None, "kasino", "kasino-expert"):
        matches += [
            Match("kasino", 2, "expert", "hard", _whole_seeds(options.expert_games, 2), rotate=True),
            Match("kasino", 4, "expert", "hard", _whole_seeds(options.expert_four_games, 4), rotate=True),
        ]
    if options.only in (None, "garbage"):
        matches += [
            Match("garbage", 2, "hard", "medium", options.hard_games),
            Match("garbage", 2, "medium", "easy", options.games),
        ]
    times: dict[str, list[float]] = {}
    with multiprocessing.Pool(options.processes) as pool:
        for match in matches:
            if match.games > 0:  # `--expert-four-games 0` (say) leaves a match out
                run(match, pool, times)
    for name, seconds in times.items():
        seconds.sort()
        p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]
        print(f"{name}: {sum(seconds) / len(seconds):.2f} s per move (p95 {p95:.2f} s)")


def _whole_seeds(games: int, players: int) -> int:
    """`games` rounded up to a whole number of seeds, each played once with the hero in every seat."""
    return -(-games // players) * players


if __name__ == "__main__":
    main()

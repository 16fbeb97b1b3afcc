"""Kasino engine benchmark: full random games per second, and legal-move enumeration on crowded tables.

Run from the repo root: `python -m bench.bench_kasino [--games 200] [--repeats 5]`.
Random play is a uniform choice from `legal_moves` with a seeded `random.Random`; one process, one core.
Targets: >= 200 two-player games/s; enumeration on a crowded table < 1 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from bench.random_play import random_moves
from engine.kasino import KasinoGame
from engine.kasino.positions import ItemSpec
from engine.kasino.rules import legal_moves

# Crowded tables: 12+ loose cards or piles, two builds (owned by seats 1 and 2), a 4-card hand for seat 0.
CROWDED: dict[str, tuple[list[str], list[ItemSpec]]] = {
    "mixed values": (
        ["A♠ 9♥ 5♦ K♣", "2♣", "4♠"],
        ["4♥", "6♥", "8♥", "10♥", "J♥", "Q♥", "7♣ 7♦", "6♠", "J♠", "Q♣", "K♦", "8♣",
         {"build": "3♣ 2♦", "owner": 1}, {"build": "4♣ 5♣", "owner": 2}],
    ),
    "small values (worst case)": (
        ["A♠ 9♥ 5♦ K♣", "2♣", "4♠"],
        ["A♥", "2♥", "3♥", "4♥", "5♥", "6♥", "7♥", "8♥", "9♦", "10♥", "J♥", "Q♥",
         {"build": "3♣ 2♦", "owner": 1}, {"build": "4♣ 5♣", "owner": 2}],
    ),
}  # fmt: skip


def random_game(players: int, seed: int) -> int:
    """Play one full game with uniformly random legal moves; return the number of moves."""
    game = KasinoGame.new(players, seed)
    return sum(1 for _ in random_moves(game, random.Random(seed)))


def games_per_second(players: int, games: int, repeats: int) -> tuple[list[float], float]:
    """Games/s of each of `repeats` batches of `games` games, and the mean moves per game."""
    rates = []
    moves = 0
    for repeat in range(repeats):
        start = time.perf_counter()
        moves = sum(random_game(players, seed) for seed in range(repeat * games, (repeat + 1) * games))
        rates.append(games / (time.perf_counter() - start))
    return rates, moves / games


def enumeration_time(hands: list[str], table: list[ItemSpec], calls: int = 200) -> tuple[float, float, int]:
    """Best and median time in ms of one cold `legal_moves` call (no cache) on a position, and its move count."""
    game = KasinoGame.from_position(hands, table, to_move=0)
    view = game.view(0)
    hand, items = list(view.hand), list(view.public.table)
    timings = []
    for _ in range(calls):
        start = time.perf_counter()
        moves = legal_moves(0, hand, items)
        timings.append((time.perf_counter() - start) * 1000)
    return min(timings), statistics.median(timings), len(moves)


def reference_loop_us() -> float:
    """Best time in µs of `sum(range(1000))`, to compare this machine's speed with others (~8 µs is typical)."""
    timings = []
    for _ in range(200):
        start = time.perf_counter()
        sum(range(1000))
        timings.append(time.perf_counter() - start)
    return min(timings) * 1e6


def main(argv: Sequence[str] | None = None) -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per batch (default 200)")
    parser.add_argument("--repeats", type=int, default=5, help="batches per player count (default 5)")
    args = parser.parse_args(argv)
    print(f"Machine reference: sum(range(1000)) takes {reference_loop_us():.1f} µs here")
    print(f"Kasino: full random games ({args.repeats} batches of {args.games}, seeded)")
    for players in (2, 4):
        rates, moves = games_per_second(players, args.games, args.repeats)
        best, median = max(rates), statistics.median(rates)
        print(f"  {players} players: best {best:7.1f} games/s, median {median:7.1f} games/s, {moves:.0f} moves/game")
        # Every batch, so a reader can see when this machine's speed changed during the run.
        print(f"             batches: {' '.join(f'{rate:.0f}' for rate in rates)} games/s")
    print("Kasino: legal_moves on a crowded table (12 loose cards/piles, 2 builds, 4-card hand), cold, 200 calls")
    for name, (hands, table) in CROWDED.items():
        best, median, count = enumeration_time(hands, table)
        print(f"  {name:26s}: best {best:.3f} ms, median {median:.3f} ms, {count} moves")
    print(f"Machine reference again: {reference_loop_us():.1f} µs (if it moved, the machine changed speed mid-run)")


if __name__ == "__main__":
    main()

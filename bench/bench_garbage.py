"""Garbage engine speed: full random games and hands per second for 2 and 6 players, on one core.

Run from the repository root: `python -m bench.bench_garbage [--seconds S] [--start-size N]`.
Random play = a uniform choice from `legal_moves`, with a `random.Random` seeded per game. A hand is counted
when it is won, and its time includes its deal; a game's time includes `GarbageGame.new`.
Target: at least 1,000 two-player hands per second.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from bench.random_play import random_moves
from engine.garbage import GarbageGame, GarbageSettings, HandWon

HANDS_TARGET = 1_000


def play_random_game(players: int, seed: int, settings: GarbageSettings) -> tuple[int, int]:
    """Play one game to its end; return (hands won, moves applied)."""
    game = GarbageGame.new(players, seed, settings)
    hands = sum(type(event) is HandWon for _, _, events in random_moves(game, random.Random(seed)) for event in events)
    return hands, game.move_count


def measure(players: int, seconds: float, settings: GarbageSettings) -> tuple[int, int, int, float]:
    """Play seeded games (seed 0, 1, …) for about `seconds`; return (games, hands, moves, elapsed)."""
    games = hands = moves = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        game_hands, game_moves = play_random_game(players, games, settings)
        games, hands, moves = games + 1, hands + game_hands, moves + game_moves
    return games, hands, moves, elapsed


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per player count (default 3)")
    parser.add_argument("--start-size", type=int, default=10, help="spots per layout at the start (default 10)")
    args = parser.parse_args(argv)
    settings = GarbageSettings(start_size=args.start_size)
    print(f"Garbage random play, start_size {settings.start_size}, about {args.seconds:g} s per row, one core")
    print(f"{'players':>7} {'games':>6} {'games/s':>9} {'hands/s':>9} {'moves/s':>9} {'moves/game':>10}")
    two_player_hands_per_second = 0.0
    for players in (2, 6):
        games, hands, moves, elapsed = measure(players, args.seconds, settings)
        hands_per_second = hands / elapsed
        if players == 2:
            two_player_hands_per_second = hands_per_second
        print(
            f"{players:>7} {games:>6} {games / elapsed:>9.1f} {hands_per_second:>9.0f} {moves / elapsed:>9.0f}"
            f" {moves / games:>10.0f}"
        )
    verdict = "meets" if two_player_hands_per_second >= HANDS_TARGET else "MISSES"
    print(f"2-player hands/s {two_player_hands_per_second:.0f} {verdict} the target of {HANDS_TARGET:,}")


if __name__ == "__main__":
    main()

"""Table pictures benchmark: time and size of one render for the tables the bot draws most crowded.

Run from the repo root: `python -m bench.bench_render [--renders 200] [--samples DIR]`
(`--samples` also writes each picture, and a copy on Discord's dark and light backgrounds, into DIR).
One process, one core; the first render of each table is left out of the figures (it draws and caches the card sprites).
Targets: p95 <= 30 ms and <= 200 KB per picture.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image

from bench.random_play import random_moves
from engine.garbage import GarbageGame
from engine.kasino import KasinoGame
from engine.kasino.positions import ItemSpec
from render import Rendered, render_table
from render.kasino_hand import render_hand

NAMES = ("Kari", "Ola Nordmann", "Siri", "Per-Henrik", "Ingrid", "Lars")

# 16 items: loose cards, a pile of three, a doubled build and two more builds; four players, stock left.
CROWDED_TABLE: list[ItemSpec] = [
    "4♥", "6♥", "8♥", "10♥", "J♥", "Q♥", "7♣ 7♦ 7♠", "6♠", "J♠", "Q♣", "K♦", "8♣",
    {"build": "3♣ 2♦", "owner": 1},
    {"build": "4♣ 5♣ 9♠", "owner": 2, "value": 9, "doubled": True, "contributors": [3]},
    "A♦",
    {"build": "A♠ 3♥ 5♦ 2♥", "owner": 0},
]  # fmt: skip
CROWDED_HANDS = ["A♣ 9♥ 5♥ K♣", "2♣ 5♠ 3♦", "9♣ 4♠ 10♣", "9♦ 8♠ K♥"]


def crowded_kasino() -> KasinoGame:
    """Four players, 16 items on the table, seat 1 to move, 8 cards in the stock."""
    return KasinoGame.from_position(
        CROWDED_HANDS, CROWDED_TABLE, to_move=1, stock="2♠ 3♠ 6♣ 6♦ 10♦ 10♠ 8♦ Q♠",
        scores=[9, 4, 12, 7], sweeps=[1, 0, 2, 0], captured=["J♦ 4♦", "K♠", "", "Q♦"],
    )  # fmt: skip


def garbage_game(players: int, moves: int = 60, seed: int = 7) -> GarbageGame:
    """A game of `players` at layout size 10, `moves` random legal moves in (a mix of face-up, face-down, Jacks)."""
    game = GarbageGame.new(players, seed)
    for _ in random_moves(game, random.Random(seed), moves):
        pass
    return game


def measure(draw: Callable[[], Rendered], renders: int) -> tuple[float, float, int]:
    """Median and p95 time in ms of `draw`, and the size in bytes of its PNG."""
    picture = draw()  # warm the sprite caches
    timings = []
    for _ in range(renders):
        start = time.perf_counter()
        picture = draw()
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings), statistics.quantiles(timings, n=20)[-1], len(picture.png)


def main(argv: Sequence[str] | None = None) -> None:
    """Print one line per picture."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=200)
    parser.add_argument("--samples", type=Path, help="write the pictures into this folder too")
    args = parser.parse_args(argv)
    kasino = crowded_kasino()
    garbage2, garbage6 = garbage_game(2), garbage_game(6)
    cases: list[tuple[str, Callable[[], Rendered]]] = [
        ("kasino table", lambda: render_table(kasino.public_view(), NAMES[:4])),
        ("kasino hand", lambda: render_hand(kasino.view(0))),
        ("garbage 2-player table", lambda: render_table(garbage2.public_view(), NAMES[:2])),
        ("garbage 6-player table", lambda: render_table(garbage6.public_view(), NAMES)),
    ]
    for label, draw in cases:
        median, p95, size = measure(draw, args.renders)
        print(f"{label}: {median:.1f} ms per render (p95 {p95:.1f} ms), {round(size / 1000)} KB")
        if args.samples:
            write_sample(args.samples, label.replace(" ", "-"), draw())


def write_sample(folder: Path, name: str, picture: Rendered) -> None:
    """Save `picture`, and a copy pasted on Discord's dark (#313338) and light (#ffffff) chat backgrounds."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.png").write_bytes(picture.png)
    image = Image.open(io.BytesIO(picture.png)).convert("RGB")
    margin = 24
    both = Image.new("RGB", (2 * (picture.width + 2 * margin), picture.height + 2 * margin), (49, 51, 56))
    both.paste((255, 255, 255), (picture.width + 2 * margin, 0, both.width, both.height))
    both.paste(image, (margin, margin))
    both.paste(image, (picture.width + 3 * margin, margin))
    both.save(folder / f"{name}-on-themes.png")


if __name__ == "__main__":
    main()

"""How the bot's long-lived process keeps the garbage collector's work small (the benchmarks do as the bot does).

Reference counting frees nearly everything a move allocates. The collector is only for cycles, but by default it
runs after every 700 allocations, several times per move, and its older generations walk everything the process
holds: the store, the modules, each game's engine kept for its next move. So once start-up is done, what exists
lives as long as the process and is left out of every walk (`gc.freeze`), and the youngest generation is collected
after 50,000 allocations rather than 700. A busy bot spends about a tenth less CPU per move.
"""

from __future__ import annotations

import gc
from typing import Final

YOUNGEST: Final = 50_000  # allocations between collections of the youngest generation (Python's default: 700)
OLDER: Final = (20, 100)  # collections of one generation between collections of the next (Python's: 10, 10)


def settle() -> None:
    """After start-up: freeze what exists now, and collect the young objects rarely."""
    gc.freeze()
    gc.set_threshold(YOUNGEST, *OLDER)

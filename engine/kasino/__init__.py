"""Kasino, the Norwegian fishing game (RULES.md K1-K16): `KasinoGame` and the values it hands out.

`game` holds the flow (deals, turns, round and game end); `moves` the moves and their notation;
`rules` and `takes` what is legal; `table` card values and table items; `scoring` the K14 table;
`events` and `views` what the bot is told and shown; `positions` hand-made positions; `snapshot`
the JSON-safe state; `describe` moves in words.
"""

from engine.kasino.game import KasinoGame
from engine.kasino.moves import Build, Double, KasinoMove, Place, Raise, Resign, Take
from engine.kasino.scoring import KasinoSettings

__all__ = [
    "Build",
    "Double",
    "KasinoGame",
    "KasinoMove",
    "KasinoSettings",
    "Place",
    "Raise",
    "Resign",
    "Take",
]

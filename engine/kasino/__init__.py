"""Kasino, the Norwegian fishing game (RULES.md K1-K16): `KasinoGame` and the values it hands out.

`game` holds the flow (deals, turns, round and game end); `moves` the moves and their notation, and
`resolve` reads notation against the table; `rules` and `takes` what is legal; `table` card values and
table items; `scoring` the settings and the K14 table; `events` and `views` what the bot is told and
shown; `positions` hand-made positions; `snapshot` the JSON-safe state; `describe` moves in words.
"""

from engine.core import Resign
from engine.kasino.game import KasinoGame
from engine.kasino.moves import Build, CardMove, Double, KasinoMove, KasinoPlay, Place, Raise, Take
from engine.kasino.scoring import KasinoSettings

__all__ = [
    "Build",
    "CardMove",
    "Double",
    "KasinoGame",
    "KasinoMove",
    "KasinoPlay",
    "KasinoSettings",
    "Place",
    "Raise",
    "Resign",
    "Take",
]

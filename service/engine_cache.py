"""The live engines of recently active games, so that a move need not restore its game from the stored snapshot.

An optimisation whose absence changes nothing: an entry is the engine of one game at one version, and serves only
an action that read that very version from the store (the store then leaves the snapshot out). A game changed in
any other way (another program, a repair of its snapshot, a cancel) has another version, so its entry is dropped
unused. Entries are never shared: `take` hands the engine over to the one action that holds the game's lock, and
what `keep` stores is a copy nobody else holds. Bounded: the least recently kept game goes first.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from engine.base import AnyGame

DEFAULT_CAPACITY: Final = 8192  # about 2.5 KB and 22 objects for the collector per game


@dataclass(frozen=True, slots=True)
class Held:
    """A game's engine taken from the cache, and the version it is the state of."""

    version: int
    game: AnyGame


class EngineCache:
    """Engines by game id, each with the version it is the state of."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 0:
            raise ValueError(f"a cache cannot hold {capacity} games")
        self.capacity = capacity
        self._entries: OrderedDict[int, Held] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def take(self, game_id: int) -> Held | None:
        """The game's engine, out of the cache (the caller may change it; `keep` puts a game back)."""
        return self._entries.pop(game_id, None)

    def keep(self, game_id: int, version: int, game: AnyGame) -> None:
        """Hold `game` as the state of `game_id` at `version`; the caller must not touch `game` afterwards."""
        if self.capacity == 0:
            return
        self._entries.pop(game_id, None)
        self._entries[game_id] = Held(version, game)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """Drop the game's engine, if held."""
        self._entries.pop(game_id, None)

"""The live engines of recently active games, so that a move need not restore its game from the stored snapshot.

An optimisation whose absence changes nothing: an entry is the engine of one game at one version (with the game's
record as saved at that version), and serves only what concerns that very version: an action that read that version
from the store (the store then leaves the snapshot out), or a click made on a panel drawn at that version. A game
changed in any other way (another program, a repair of its snapshot, a cancel) has another version, so its entry is
dropped unused. Entries are never shared: `take` hands the engine over to the one action that holds the game's lock,
`peek` hands out a copy, and what `keep` stores is a copy nobody else holds. An engine is changed only by applying a
move, which only the action that took it does, synchronously: so a copy made by `peek` is always of the whole state
at the entry's version. Bounded: the least recently kept game goes first.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Final

from db.records import GameRecord
from engine.base import AnyGame

DEFAULT_CAPACITY: Final = 8192  # about 2.5 KB and 22 objects for the collector per game


@dataclass(frozen=True, slots=True)
class Held:
    """A game's engine taken from the cache, the version it is the state of, and the game's record at that version.

    `record` is the game as saved at `version` without its snapshot (`state` None: the engine is the state), or None
    when the keeper had none. What a version fixes (seats and who holds them, status, settings, names) is exact; the
    bookkeeping that changes without a new version (what Discord shows, a warning sent, automatic turns counted) may
    lag behind the store.
    """

    version: int
    game: AnyGame
    record: GameRecord | None = None


class EngineCache:
    """Engines by game id, each with the version it is the state of."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 0:
            raise ValueError(f"a cache cannot hold {capacity} games")
        self.capacity = capacity
        self._entries: OrderedDict[int, Held] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._entries

    def take(self, game_id: int) -> Held | None:
        """The game's engine, out of the cache (the caller may change it; `keep` puts a game back)."""
        return self._entries.pop(game_id, None)

    def peek(self, game_id: int, version: int | None = None) -> Held | None:
        """A copy of the game's entry (at `version`, if given), which stays cached; the copy is the caller's own."""
        held = self._entries.get(game_id)
        if held is None or (version is not None and held.version != version):
            return None
        return Held(held.version, held.game.copy(), held.record)

    def record(self, game_id: int) -> GameRecord | None:
        """The record kept with the game's engine (at the entry's version), if any; never to be changed."""
        held = self._entries.get(game_id)
        return None if held is None else held.record

    def keep(self, game_id: int, version: int, game: AnyGame, record: GameRecord | None = None) -> None:
        """Hold `game` as the state of `game_id` at `version`; the caller must not touch `game` afterwards.

        `record` is the game's record at that version; its snapshot is not kept (the engine is the state).
        """
        if self.capacity == 0:
            return
        if record is not None and (record.version != version or record.id != game_id):
            raise ValueError(f"game #{record.id} at version {record.version} kept as #{game_id} at {version}")
        if record is not None and record.state is not None:
            record = replace(record, state=None)
        self._entries.pop(game_id, None)
        self._entries[game_id] = Held(version, game, record)
        while len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def forget(self, game_id: int) -> None:
        """Drop the game's engine, if held."""
        self._entries.pop(game_id, None)

"""What every game engine offers the rest of the bot: the one interface `db/` and `cogs/` program against.

Both `engine.kasino.KasinoGame` and `engine.garbage.GarbageGame` satisfy `Game`. Seats are ints 0..n-1;
the engine never sees a Discord user id. Moves travel as text in the game's own notation, so the move
log stored by `db/` is readable and `Game.replay` can rebuild any game from it (B1).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game placed its seats.

    `places[seat]` is 1 for a winner; tied seats share a place, and the next place skips
    (1, 1, 3). `scores[seat]` is what the places were decided by: total points in Kasino,
    hands won in Garbage. Seats that resigned place below every seat that did not.
    """

    places: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {"places": list(self.places), "scores": list(self.scores)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Outcome:
        """Inverse of `to_dict`."""
        return cls(tuple(data["places"]), tuple(data["scores"]))


def places_from_standing(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranking: the highest key is place 1, equal keys share a place (1, 1, 3)."""
    return tuple(1 + sum(other > key for other in keys) for key in keys)


class Event(Protocol):
    """Something that happened during `apply`, in order; cogs narrate from these and never diff states."""

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence, with `names[seat]` for each seat mentioned."""
        ...


class Move(Protocol):
    """A move value; `str(move)` is its canonical notation and parses back to an equal move."""


class Game(Protocol):
    """The common surface of both engines."""

    KIND: ClassVar[str]

    @classmethod
    def new(cls, players: int, seed: int, settings: Any = None) -> Self:
        """A new game: seats fixed, first deal made, all randomness drawn from `seed`."""
        ...

    @classmethod
    def replay(cls, players: int, seed: int, settings: Any, moves: Iterable[tuple[int, str]]) -> Self:
        """Rebuild a game from its seed, settings and `(seat, move text)` log (B1)."""
        ...

    @classmethod
    def settings_from_dict(cls, data: dict[str, Any] | None) -> Any:
        """The game's settings object from its JSON-safe form (`None`: the defaults)."""
        ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Inverse of `to_dict`."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe primitives, with a `"schema"` key."""
        ...

    @property
    def players(self) -> int:
        """Number of seats."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat that must act next, or None once the game is over."""
        ...

    @property
    def move_count(self) -> int:
        """How many moves have been applied since the start."""
        ...

    def parse_move(self, seat: int, text: str) -> Move:
        """Resolve typed notation against this position.

        Raises:
            InvalidMoveError, IllegalMoveError, AmbiguousMoveError.
        """
        ...

    def legal_moves(self, seat: int) -> tuple[Move, ...]:
        """Every distinct legal move for `seat` in a stable order; empty when it is not their turn."""
        ...

    def apply(self, seat: int, move: Move) -> tuple[Event, ...]:
        """Check and play a move; on any `GameError` the state is unchanged (B3)."""
        ...

    def auto_move(self, seat: int) -> Move:
        """The fixed simple legal move made for a seat that ran out of time."""
        ...

    def outcome(self) -> Outcome | None:
        """Placings once the game is over, else None."""
        ...

    def public_view(self) -> Any:
        """What anyone may see: no hand card, no face-down card, no stock order."""
        ...

    def view(self, seat: int) -> Any:
        """What `seat` may see: the public view plus their own private information."""
        ...


def seat_order(seed: int, count: int) -> tuple[int, ...]:
    """K4/G4: the random seating for `count` joined players, drawn from the game's seed.

    Returns the join indexes in seat order: `seat_order(s, 3) == (2, 0, 1)` seats the third
    player to join at seat 0. The engines draw their own randomness from separate streams.
    """
    order = list(range(count))
    random.Random(f"seats:{seed}").shuffle(order)
    return tuple(order)

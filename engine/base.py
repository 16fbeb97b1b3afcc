"""What every game engine offers the rest of the bot: the typed contract `db/`, `service/` and `cogs/` rely on.

Both `engine.kasino.KasinoGame` and `engine.garbage.GarbageGame` satisfy `Game` (each module checks it
statically); `engine.core.BaseGame` holds what they do the same way. Seats are ints 0..n-1; the engine
never sees a Discord user id. Moves travel as text in the game's own notation, so the move log stored
by `db/` is readable and `Game.replay` can rebuild any game from it (B1).

Errors (`engine.errors`), the same in both engines, each carrying its reason as a message (`error.message`):
- a seat outside 0..n-1: `IllegalMoveError` (`refused.no-such-seat`: "There is no seat 5 in this game.");
- a move after the end: `GameOverError`; a seat that is not to move, or that resigned: `NotYourTurnError`;
- text that is no move: `InvalidMoveError`; a move the rules refuse: `IllegalMoveError`;
- a settings dict, snapshot or hand-made position that cannot be: `ValueError` (not a `GameError`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

from engine.message import Message

MoveT = TypeVar("MoveT", bound="Move")
EventT_co = TypeVar("EventT_co", bound="Event", covariant=True)
PublicT_co = TypeVar("PublicT_co", bound="PublicView", covariant=True)
ViewT_co = TypeVar("ViewT_co", bound="PrivateView[Any, Any]", covariant=True)
MoveT_co = TypeVar("MoveT_co", bound="Move", covariant=True)
SettingsT = TypeVar("SettingsT", bound="Settings")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game placed its seats.

    `places[seat]` is 1 for a winner; tied seats share a place, and the next place skips
    (1, 1, 3). `scores[seat]` is what the places were decided by: total points in Kasino,
    hands won in Garbage. Seats that resigned place below every seat that did not.
    `teams` groups the seats that played as one side and share its place and score (Kasino's
    partnerships, KV5: `((0, 2), (1, 3))`); None when every seat played for itself.
    """

    places: tuple[int, ...]
    scores: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...] | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (`teams` only when there are teams, so other outcomes read as before)."""
        data: dict[str, Any] = {"places": list(self.places), "scores": list(self.scores)}
        if self.teams is not None:
            data["teams"] = [list(team) for team in self.teams]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        """Inverse of `to_dict`."""
        teams = data.get("teams")
        return cls(
            tuple(data["places"]),
            tuple(data["scores"]),
            None if teams is None else tuple(tuple(int(seat) for seat in team) for team in teams),
        )


def places_from_standing(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranking: the highest key is place 1, equal keys share a place (1, 1, 3)."""
    return tuple(1 + sum(other > key for other in keys) for key in keys)


def seat_order(seed: int, count: int) -> tuple[int, ...]:
    """K4/G4: the random seating for `count` joined players, drawn from the game's seed.

    Returns the join indexes in seat order: `seat_order(s, 3) == (2, 0, 1)` seats the third
    player to join at seat 0. The engines draw their own randomness from separate streams.
    """
    order = list(range(count))
    random.Random(f"seats:{seed}").shuffle(order)
    return tuple(order)


class Event(Protocol):
    """Something that happened during `apply`, in order; cogs narrate from these and never diff states."""

    def message(self) -> Message:
        """What happened, as a message id and parameters (seats as `Seat`); the presenter says it in words."""
        ...


class Move(Protocol):
    """A move value: hashable and immutable; `str(move)` is its canonical notation and parses back to an equal move."""

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


class Settings(Protocol):
    """A game's lobby options: an immutable value with a JSON-safe form (`settings_from_dict` reads it back)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        ...


class PublicSeat(Protocol):
    """What anyone may know about one seat, in both games."""

    @property
    def seat(self) -> int:
        """The seat number."""
        ...

    @property
    def resigned(self) -> bool:
        """True once the seat has resigned: it places last and its turns are played automatically."""
        ...


class PublicView(Protocol):
    """What anyone may see (`game.public_view()`): no hand card, no face-down card, no stock order."""

    @property
    def to_move(self) -> int | None:
        """The seat that must act next, or None once the game is over."""
        ...

    @property
    def seats(self) -> Sequence[PublicSeat]:
        """One entry per seat, in seat order."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        ...


class PrivateView(Protocol[MoveT_co, PublicT_co]):
    """What one seat may see (`game.view(seat)`): the public view, plus its legal moves (and, per game, its hand)."""

    @property
    def public(self) -> PublicT_co:
        """The public view."""
        ...

    @property
    def seat(self) -> int:
        """Whose view this is."""
        ...

    @property
    def legal_moves(self) -> tuple[MoveT_co, ...]:
        """The seat's legal moves; empty unless it is to move."""
        ...


class Game(Protocol[MoveT, EventT_co, PublicT_co, ViewT_co, SettingsT]):
    """The common surface of both engines, generic in what differs: moves, events, views and settings."""

    KIND: ClassVar[str]
    TITLE: ClassVar[str]
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    # The key under which `to_dict` stores `move_count`: start-up reads it in SQL, without restoring the game, to
    # match each snapshot with the length of its move log.
    MOVE_COUNT_KEY: ClassVar[str]

    @classmethod
    def new(cls, players: int, seed: int, settings: SettingsT | Mapping[str, Any] | None = None) -> Self:
        """A new game: seats fixed, first deal made, all randomness drawn from `seed`.

        Raises:
            ValueError: a player count the game does not allow, or invalid settings.
        """
        ...

    @classmethod
    def replay(
        cls, players: int, seed: int, settings: SettingsT | Mapping[str, Any] | None, moves: Iterable[tuple[int, str]]
    ) -> Self:
        """Rebuild a game from its seed, settings and `(seat, move text)` log (B1).

        Raises:
            GameError: a logged move is refused in the replayed position.
        """
        ...

    @classmethod
    def settings_from_dict(cls, data: Mapping[str, Any] | None) -> SettingsT:
        """The game's settings from their JSON-safe form (`None`: the defaults).

        Raises:
            ValueError: an unknown key or a value out of range.
        """
        ...

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Inverse of `to_dict`.

        Raises:
            ValueError: another kind or schema, a malformed snapshot, or a state the rules could not reach.
        """
        ...

    @classmethod
    def resign_move(cls) -> MoveT:
        """The move that resigns a seat; any seat still playing may apply it at any time."""
        ...

    @classmethod
    def rejoin_move(cls) -> MoveT:
        """The move that brings a resigned seat back into play (someone took it over); a resigned seat only."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe primitives, with `"schema"` and `"kind"` keys."""
        ...

    def copy(self) -> Self:
        """An independent game in the same state (playing one never changes the other), cheaper than a snapshot."""
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
        """How many moves have been applied since the start (automatic turns of resigned seats not counted)."""
        ...

    @property
    def settings(self) -> SettingsT:
        """The options the game was created with."""
        ...

    def is_over(self) -> bool:
        """True once the game has ended."""
        ...

    def parse_move(self, seat: int, text: str) -> MoveT:
        """Resolve typed notation against this position and check it is legal for `seat` now.

        Raises:
            InvalidMoveError, IllegalMoveError, AmbiguousMoveError, NotYourTurnError, GameOverError.
        """
        ...

    def legal_moves(self, seat: int) -> tuple[MoveT, ...]:
        """Every distinct legal move for `seat` in a stable order; empty when it is not their turn.

        The resign move is always allowed to a seat still playing and is not listed.
        """
        ...

    def apply(self, seat: int, move: MoveT) -> tuple[EventT_co, ...]:
        """Check and play a move, then any turns of resigned seats; on any `GameError` the state is unchanged (B3)."""
        ...

    def play(self, seat: int, text: str) -> tuple[EventT_co, ...]:
        """`apply(seat, parse_move(seat, text))`."""
        ...

    def auto_move(self, seat: int) -> MoveT:
        """The fixed simple legal move made for the seat to move when its time ran out.

        Raises:
            GameOverError, NotYourTurnError.
        """
        ...

    def describe_move(self, move: MoveT) -> Message:
        """The move phrase for a menu or a button ("take 3♦+A♥ with 5♥", "draw from the stock")."""
        ...

    def outcome(self) -> Outcome | None:
        """Placings once the game is over, else None."""
        ...

    def public_view(self) -> PublicT_co:
        """What anyone may see: no hand card, no face-down card, no stock order."""
        ...

    def view(self, seat: int) -> ViewT_co:
        """What `seat` may see: the public view plus their own private information and legal moves."""
        ...

    def hidden_cards(self, seat: int | None = None) -> frozenset[Any]:
        """The cards `seat` may not see now (None: anyone, as a spectator); no view of theirs may hold one."""
        ...


# Either engine, where the caller does not care which (the registry, the store, the service).
AnyGame = Game[Any, Any, Any, Any, Any]

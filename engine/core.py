"""What both engines do the same way, written once: resigning, resigned seats' turns, checks, replay, placings.

Also the seat and turn checks, snapshots (the header here, each engine's own fields in its snapshot module), and
equality.

`BaseGame` is generic in what differs (each engine's own moves, events, views and settings); an engine
supplies the rules through the abstract methods at the bottom.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, Protocol, Self, TypeVar

from engine.base import Outcome, Settings, places_from_standing
from engine.errors import GameOverError, IllegalMoveError, InvalidMoveError, NotYourTurnError
from engine.events import AutoPlayed, GameOver, Rejoined, Resigned
from engine.message import Message

RESIGN_NOTATION: Final = "resign"
REJOIN_NOTATION: Final = "rejoin"
SCHEMA: Final = 1  # the snapshot format of both engines


@dataclass(frozen=True, slots=True)
class Resign:
    """Leave the game: the seat places last and its later turns are played automatically (notation `resign`)."""

    def __str__(self) -> str:
        return RESIGN_NOTATION


RESIGN: Final = Resign()


@dataclass(frozen=True, slots=True)
class Rejoin:
    """A resigned seat plays again, from where it stands (notation `rejoin`): someone new took it over.

    The bot logs it when the host gives a vacated seat to a new player (a member or a computer), so the move log
    replays the seat's change of hands (B1): from this move on the seat is no longer resigned, is not played
    automatically, and places by its standing like any seat still playing.
    """

    def __str__(self) -> str:
        return REJOIN_NOTATION


REJOIN: Final = Rejoin()


def rejoin_phrase() -> Message:
    """The move phrase of `Rejoin`: "take the seat over"."""
    return Message("shared.move-rejoin")


def is_rejoin(text: str) -> bool:
    """True when `text` is the rejoin notation (any case and spacing, a trailing `.` or `!` allowed)."""
    return " ".join(text.lower().split()).rstrip(".!") == REJOIN_NOTATION


def resign_phrase() -> Message:
    """The move phrase of `Resign`: "resign"."""
    return Message("shared.move-resign")


def is_resign(text: str) -> bool:
    """True when `text` is the resign notation (any case and spacing, a trailing `.` or `!` allowed)."""
    return " ".join(text.lower().split()).rstrip(".!") == RESIGN_NOTATION


_SHARED: Final = (int, str, float, type(None), tuple, frozenset)


def _slot_names(cls: type) -> tuple[str, ...]:
    """The instance slots of `cls` and its bases."""
    return tuple(
        name for klass in cls.__mro__ for name in klass.__dict__.get("__slots__", ()) if not name.startswith("__")
    )


def _copied(name: str, value: Any) -> Any:
    """`value` for a copy of a game: lists (and lists in them) copied, immutable values shared."""
    if type(value) is list:
        return [item[:] if type(item) is list else item for item in value]
    if isinstance(value, _SHARED) or getattr(getattr(value, "__dataclass_params__", None), "frozen", False):
        return value
    raise TypeError(f"cannot copy {name}: a {type(value).__name__} is neither a list nor immutable")


MoveT = TypeVar("MoveT")  # an engine's own moves, without `Resign`
EventT = TypeVar("EventT")  # an engine's own events, without the shared ones
PublicT = TypeVar("PublicT")
ViewT = TypeVar("ViewT")
SettingsT = TypeVar("SettingsT", bound=Settings)


class SnapshotFormat(Protocol):
    """An engine's snapshot module (`engine.<kind>.snapshot`): the game's own fields as JSON-safe primitives and back.

    `BaseGame` writes and checks the header around them, so each engine writes only what is its own. The functions
    take the game as their engine's protocol of its private fields, hence `Any` here.
    """

    def dump(self, game: Any, /) -> dict[str, Any]:
        """The game's own fields, in the order they are stored."""
        ...

    def load(self, game: Any, data: Mapping[str, Any], /) -> None:
        """Fill an empty game made for the snapshot's header with the rest; KeyError, TypeError ... if malformed."""
        ...

    def check_state(self, game: Any, /) -> None:
        """Raise ValueError when the state is not one the rules could reach (B2 and the like)."""
        ...


class BaseGame(ABC, Generic[MoveT, EventT, PublicT, ViewT, SettingsT]):
    """The shared half of an engine. Only `apply` (and `play`) change a game; a refused move changes nothing (B3)."""

    KIND: ClassVar[str]
    TITLE: ClassVar[str]  # the game's name in messages
    MOVE_COUNT_KEY: ClassVar[str]  # the snapshot key holding `move_count` (see `engine.base.Game`)
    MIN_PLAYERS: ClassVar[int]
    MAX_PLAYERS: ClassVar[int]
    SCORES_LABEL: ClassVar[Message]  # what `GameOver` calls the scores
    SNAPSHOT: ClassVar[SnapshotFormat]  # the engine's snapshot module, which `to_dict` and `from_dict` use

    __slots__ = ("_moves", "_players", "_resigned", "_seed", "_settings")

    def __init__(self, players: int, seed: int, settings: SettingsT) -> None:
        """An empty table; use `new`, `from_dict`, `from_position` or `replay` instead.

        Raises:
            ValueError: a player count the game does not allow.
        """
        if not self.MIN_PLAYERS <= players <= self.MAX_PLAYERS:
            raise ValueError(f"{self.TITLE} is for {self.MIN_PLAYERS} to {self.MAX_PLAYERS} players, not {players}.")
        self._players = players
        self._seed = seed
        self._settings = settings
        self._moves = 0  # applied from outside: the length of the move log
        self._resigned: list[int] = []  # seats in the order they resigned

    # ----- creating -------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, seed: int, settings: SettingsT | Mapping[str, Any] | None = None) -> Self:
        """A new game with the first deal made; all randomness is drawn from `seed`.

        Raises:
            ValueError: a player count the game does not allow, or invalid settings.
        """
        game = cls(players, seed, cls._coerce_settings(settings))
        game._start()
        return game

    @classmethod
    def replay(
        cls, players: int, seed: int, settings: SettingsT | Mapping[str, Any] | None, moves: Iterable[tuple[int, str]]
    ) -> Self:
        """`new`, then `play` each logged move: the same game, card for card (B1); `play` raises on a refusal."""
        game = cls.new(players, seed, settings)
        for seat, text in moves:
            game.play(seat, text)
        return game

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Inverse of `to_dict`.

        Raises:
            ValueError: another kind or schema, a malformed snapshot, or a state the rules could not reach.
        """
        if data.get("schema") != SCHEMA or data.get("kind") != cls.KIND:
            raise ValueError(
                f"not a {cls.TITLE} snapshot of schema {SCHEMA}:"
                f" kind={data.get('kind')!r}, schema={data.get('schema')!r}"
            )
        try:
            game = cls._load(data)
        except (KeyError, TypeError, AttributeError, IndexError, InvalidMoveError) as error:
            raise ValueError(f"not a readable {cls.TITLE} snapshot: {error!r}") from error
        game._check_state()
        return game

    @classmethod
    def _load(cls, data: Mapping[str, Any]) -> Self:
        """The game in a snapshot whose header `from_dict` checked; KeyError, TypeError ... on a malformed one."""
        game = cls(int(data["players"]), int(data["seed"]), cls.settings_from_dict(data["settings"]))
        cls.SNAPSHOT.load(game, data)
        return game

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe primitives: the header `from_dict` checks, then the engine's own fields."""
        header = {
            "schema": SCHEMA,
            "kind": self.KIND,
            "players": self._players,
            "seed": self._seed,
            "settings": self._settings.to_dict(),
        }
        return header | self.SNAPSHOT.dump(self)

    def _check_state(self) -> None:
        """Raise ValueError when the state is not one the rules could reach (B2 and the like)."""
        self.SNAPSHOT.check_state(self)

    @classmethod
    def _coerce_settings(cls, settings: SettingsT | Mapping[str, Any] | None) -> SettingsT:
        if settings is None or isinstance(settings, Mapping):
            return cls.settings_from_dict(settings)
        return settings

    @classmethod
    def resign_move(cls) -> Resign:
        """The move that resigns a seat (notation `resign`); any seat still playing may apply it at any time."""
        return RESIGN

    @classmethod
    def rejoin_move(cls) -> Rejoin:
        """The move that brings a resigned seat back into play (notation `rejoin`); a resigned seat only."""
        return REJOIN

    def resigned_seats(self) -> tuple[int, ...]:
        """The seats that resigned and were not taken over since, in the order they resigned."""
        return tuple(self._resigned)

    # ----- what anyone may ask --------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Number of seats."""
        return self._players

    @property
    def seed(self) -> int:
        """The seed all deals are drawn from."""
        return self._seed

    @property
    def settings(self) -> SettingsT:
        """The options the game was created with."""
        return self._settings

    @property
    def move_count(self) -> int:
        """Moves applied from outside (the log's length, resigns included); automatic turns of resigned seats not."""
        return self._moves

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.to_move is None

    def legal_moves(self, seat: int) -> tuple[MoveT, ...]:
        """Every distinct legal move for `seat` in a stable order; empty when it is not their turn.

        `resign_move()` is always allowed to a seat still playing and is not listed.

        Raises:
            IllegalMoveError: no such seat.
        """
        self._check_seat(seat)
        if seat != self.to_move:
            return ()
        return self._legal(seat)

    def outcome(self) -> Outcome | None:
        """Placings once the game is over (None before).

        Seats still playing rank by the game's standing, ties sharing a place; resigned seats rank below
        them, the later resigner above the earlier.
        """
        if not self.is_over():
            return None
        keys = [
            (0, self._resigned.index(seat)) if seat in self._resigned else (1, *self._standing(seat))
            for seat in range(self._players)
        ]
        return Outcome(places_from_standing(keys), self._scores())

    def view(self, seat: int) -> ViewT:
        """What `seat` may see: the public view plus its private information and legal moves.

        Raises:
            IllegalMoveError: no such seat.
        """
        self._check_seat(seat)
        return self._view(seat)

    # ----- playing --------------------------------------------------------------------------------------------

    def parse_move(self, seat: int, text: str) -> MoveT | Resign | Rejoin:
        """The legal move `text` means for `seat` here.

        Raises:
            InvalidMoveError: the text is not a move.
            IllegalMoveError: no such seat, or the rules do not allow the move (the message says why).
            AmbiguousMoveError: the text fits more than one move.
            NotYourTurnError, GameOverError: the seat cannot move now.
        """
        self._check_seat(seat)
        self._check_running()
        if is_resign(text):
            self._check_can_resign(seat)
            return RESIGN
        if is_rejoin(text):
            self._check_can_rejoin(seat)
            return REJOIN
        self._check_turn(seat)
        return self._checked(seat, self._parse(seat, text))

    def apply(
        self, seat: int, move: MoveT | Resign | Rejoin
    ) -> tuple[EventT | Resigned | Rejoined | AutoPlayed[MoveT] | GameOver, ...]:
        """Check and play `move` for `seat`, then any turns of resigned seats; `Resign` any seat may play any time.

        `Rejoin` any resigned seat may play any time while the game runs: it is then played like any other again.

        Raises:
            GameOverError, NotYourTurnError, IllegalMoveError, InvalidMoveError: the state is unchanged (B3).
        """
        self._check_seat(seat)
        self._check_running()
        if isinstance(move, Rejoin):  # never anyone's turn (a resigned seat's turns were played): nothing follows
            self._check_can_rejoin(seat)
            self._resigned.remove(seat)
            self._on_rejoin(seat)
            self._moves += 1
            return (Rejoined(seat),)
        events: list[EventT | Resigned | AutoPlayed[MoveT] | GameOver] = []
        if isinstance(move, Resign):
            self._check_can_resign(seat)
            self._resigned.append(seat)
            events.append(Resigned(seat))
            self._on_resign(seat, events)
            if self._players - len(self._resigned) < self.MIN_PLAYERS:
                self._finish(events)
        else:
            self._check_turn(seat)
            self._play(seat, self._checked(seat, move), events)
        while (turn := self.to_move) is not None and turn in self._resigned:
            auto = self._auto_move(turn)
            events.append(AutoPlayed(turn, auto, self.describe_move(auto)))
            self._play(turn, auto, events)
        self._moves += 1
        return tuple(events)

    def play(self, seat: int, text: str) -> tuple[EventT | Resigned | Rejoined | AutoPlayed[MoveT] | GameOver, ...]:
        """`apply(seat, parse_move(seat, text))`.

        Raises:
            GameError: as `parse_move` and `apply`.
        """
        return self.apply(seat, self.parse_move(seat, text))

    def auto_move(self, seat: int) -> MoveT:
        """The fixed simple move made for the seat to move when its time ran out (each game says which).

        Raises:
            IllegalMoveError: no such seat.
            GameOverError, NotYourTurnError: the seat is not the one to move.
        """
        self._check_seat(seat)
        self._check_running()
        if seat != self.to_move:
            raise NotYourTurnError(Message("refused.not-your-turn"))
        return self._auto_move(seat)

    def _finish(self, events: list[EventT | Resigned | AutoPlayed[MoveT] | GameOver]) -> None:
        """End the game (the rules' end, or too few seats left playing) and report the placings."""
        self._end(events)
        outcome = self.outcome()
        assert outcome is not None  # `_end` made the game over
        events.append(GameOver(outcome.places, outcome.scores, self.SCORES_LABEL))

    # ----- checks ---------------------------------------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self._players:
            raise IllegalMoveError(Message("refused.no-such-seat", {"seat": seat}))

    def _check_running(self) -> None:
        if self.is_over():
            raise GameOverError(Message("refused.game-over"))

    def _check_can_resign(self, seat: int) -> None:
        if seat in self._resigned:
            raise IllegalMoveError(Message("refused.already-resigned"))

    def _check_can_rejoin(self, seat: int) -> None:
        if seat not in self._resigned:
            raise IllegalMoveError(Message("refused.not-resigned"))

    def _check_turn(self, seat: int) -> None:
        if seat in self._resigned:
            raise NotYourTurnError(Message("refused.resigned-turns-played"))
        if seat != self.to_move:
            raise NotYourTurnError(Message("refused.not-your-turn"))

    # ----- copying --------------------------------------------------------------------------------------------

    def copy(self) -> Self:
        """An independent game in the same state, much cheaper than `from_dict(to_dict())`.

        The state is immutable values (cards, table items, settings, numbers, tuples) held in lists at most two
        deep; the lists are copied and the values shared, so playing one game never changes the other.

        Raises:
            TypeError: the state holds a mutable value of another kind (an engine added one: extend this copy).
        """
        clone = object.__new__(type(self))
        for name in _slot_names(type(self)):
            object.__setattr__(clone, name, _copied(name, object.__getattribute__(self, name)))
        fields = getattr(self, "__dict__", None)
        if fields is not None:
            clone.__dict__.update({name: _copied(name, value) for name, value in fields.items()})
        return clone

    # ----- equality -------------------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, BaseGame)
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # a game is mutable, so unhashable; mypy expects a method here

    # ----- what each engine supplies --------------------------------------------------------------------------

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat that must act next, or None once the game is over."""

    @classmethod
    @abstractmethod
    def settings_from_dict(cls, data: Mapping[str, Any] | None) -> SettingsT:
        """The settings from their JSON-safe form (`None`: the defaults).

        Raises:
            ValueError: an unknown key or a value out of range.
        """

    @abstractmethod
    def _start(self) -> None:
        """The first deal."""

    @abstractmethod
    def _legal(self, seat: int) -> tuple[MoveT, ...]:
        """The legal moves of `seat`, the seat to move."""

    @abstractmethod
    def _parse(self, seat: int, text: str) -> MoveT:
        """The move `text` means for `seat`, the seat to move (not yet checked against the rules)."""

    @abstractmethod
    def _checked(self, seat: int, move: MoveT) -> MoveT:
        """The legal move that `move` stands for (`seat` is to move); InvalidMoveError or IllegalMoveError if none."""

    @abstractmethod
    def _play(self, seat: int, move: MoveT, events: list[EventT | Resigned | AutoPlayed[MoveT] | GameOver]) -> None:
        """Carry out a checked move and everything it sets off, appending the events."""

    @abstractmethod
    def _auto_move(self, seat: int) -> MoveT:
        """The move made for `seat`, the seat to move, when it cannot or does not choose."""

    @abstractmethod
    def _on_resign(self, seat: int, events: list[EventT | Resigned | AutoPlayed[MoveT] | GameOver]) -> None:
        """What else a resignation changes (already recorded in `_resigned`)."""

    def _on_rejoin(self, seat: int) -> None:
        """What else taking a resigned seat over changes (already out of `_resigned`); nothing unless an engine says."""

    @abstractmethod
    def _end(self, events: list[EventT | Resigned | AutoPlayed[MoveT] | GameOver]) -> None:
        """Make the game over (`to_move` None), tidying anything left in mid-turn."""

    @abstractmethod
    def _standing(self, seat: int) -> tuple[int, ...]:
        """The rank key of a seat still playing: higher is better."""

    @abstractmethod
    def _scores(self) -> tuple[int, ...]:
        """What the places were decided by, per seat."""

    @abstractmethod
    def _view(self, seat: int) -> ViewT:
        """The view of `seat`, an existing seat."""

    @abstractmethod
    def describe_move(self, move: MoveT | Resign | Rejoin) -> Message:
        """The move phrase for a menu or a button (capitalised there) and an automatic turn's narration."""

"""The events both engines report the same way: a seat resigned, a resigned seat's turn was played, the game ended.

Each event says what happened as a `Message` (an id and parameters); the catalogs put it into words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from engine.message import Joined, Message, Seat, seats

MoveT = TypeVar("MoveT")


@dataclass(frozen=True, slots=True)
class Resigned:
    """`seat` resigned; unless the game ends now, its turns are played automatically from now on."""

    seat: int

    def message(self) -> Message:
        """What happened: "Kari resigns."."""
        return Message("shared.resigned", {"player": Seat(self.seat)})


@dataclass(frozen=True, slots=True)
class Rejoined:
    """`seat`, which had resigned, plays again: someone new took it over (who, the bot's narration says)."""

    seat: int

    def message(self) -> Message:
        """What happened: "Kari's seat is back in play."."""
        return Message("shared.rejoined", {"player": Seat(self.seat)})


@dataclass(frozen=True, slots=True)
class AutoPlayed(Generic[MoveT]):
    """`move` was played for `seat`, who has resigned; `words` is the move as `describe_move` put it then.

    The move's own events follow.
    """

    seat: int
    move: MoveT
    words: Message

    def message(self) -> Message:
        """What happened: "Kari has resigned, so their turn is played for them: place 4♠."."""
        return Message("shared.auto-played", {"player": Seat(self.seat), "move": self.words})


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: `places` and `scores` per seat, as in `engine.base.Outcome`; `label` names the scores."""

    places: tuple[int, ...]
    scores: tuple[int, ...]
    label: Message = field(default_factory=lambda: Message("shared.final-totals"))

    def message(self) -> Message:
        """What happened: "Game over: Kari wins; final totals: Kari 17, Ola 9."."""
        winners = [seat for seat, place in enumerate(self.places) if place == 1]
        totals = Joined(
            tuple(
                Message("shared.seat-total", {"player": Seat(seat), "score": score})
                for seat, score in enumerate(self.scores)
            ),
            "join.comma",
        )
        return Message(
            "shared.game-over",
            {"winners": seats(winners), "count": len(winners), "label": self.label, "totals": totals},
        )


SharedEvent = Resigned | Rejoined | AutoPlayed[MoveT] | GameOver

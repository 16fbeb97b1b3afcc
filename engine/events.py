"""The events both engines report the same way: a seat resigned, a resigned seat's turn was played, the game ended."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

MoveT = TypeVar("MoveT")


def join_names(names: Sequence[str]) -> str:
    """`A`, `A and B`, `A, B and C`."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True, slots=True)
class Resigned:
    """`seat` resigned; unless the game ends now, its turns are played automatically from now on."""

    seat: int

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        return f"{names[self.seat]} resigns."


@dataclass(frozen=True, slots=True)
class AutoPlayed(Generic[MoveT]):
    """`move` was played for `seat`, who has resigned; `words` is the move as `describe_move` put it then.

    The move's own events follow.
    """

    seat: int
    move: MoveT
    words: str

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        words = self.words
        if words[1:2].islower():  # "Draw from the stock" reads on after the colon; "Q♠ is placed" keeps its rank
            words = words[:1].lower() + words[1:]
        return f"{names[self.seat]} has resigned, so their turn is played for them: {words}."


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: `places` and `scores` per seat, as in `engine.base.Outcome`; `label` names the scores."""

    places: tuple[int, ...]
    scores: tuple[int, ...]
    label: str = "final totals"

    def describe(self, names: Sequence[str]) -> str:
        """One plain sentence."""
        winners = [names[seat] for seat, place in enumerate(self.places) if place == 1]
        verb = "wins" if len(winners) == 1 else "win"
        totals = ", ".join(f"{names[seat]} {score}" for seat, score in enumerate(self.scores))
        return f"Game over: {join_names(winners)} {verb}; {self.label}: {totals}."


SharedEvent = Resigned | AutoPlayed[MoveT] | GameOver

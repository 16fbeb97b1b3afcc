"""What every computer player offers: one `choose` from a seat's view (and the public history), nothing else.

A computer player never receives the game object: it sees `game.view(seat)`, and optionally the public
events of the game so far (cards that were face up when they moved), exactly what a person at that seat
could have watched. Its randomness comes from its seed and the view it is shown, so the same view and
seed always give the same move, and a game log only ever needs the move, never the randomness.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, ClassVar, Protocol, TypeVar


class Strength(StrEnum):
    """How well a computer player plays."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"


# The searching players are budgeted by samples, never by the clock, so a loaded host gets the same (and as strong) a
# move as an idle one. This cap only stops a pathological search; no normal decision comes near it.
SAFETY_SECONDS = 5.0


ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
MoveT_co = TypeVar("MoveT_co", covariant=True)


class Player(Protocol[ViewT_contra, MoveT_co]):
    """A computer player for one game kind and strength: it takes that kind's seat view and returns its move.

    `Player[KasinoView, KasinoMove]` is a Kasino player; `ai.players.player_for` hands out `Player[Any, Any]`, since
    the kind is picked at run time (the engine checks the move like any other).
    """

    kind: str
    strength: Strength

    def choose(self, view: ViewT_contra, history: Sequence[Any] = ()) -> MoveT_co:
        """The move to play from `view` (the seat's own view, with its legal moves listed).

        `history` is the public events of the game so far, oldest first (optional: without it the player
        still plays legally, only with less card counting).

        Raises:
            ValueError: the view lists no legal move (it is not this seat's turn).
        """
        ...


class SeededPlayer:
    """A player made from a seed alone: the seed breaks its ties (one whose play the view decides ignores it)."""

    def __init__(self, seed: int = 0) -> None:
        """`seed` feeds `decision_rng`, so the same view and seed always give the same move."""
        self.seed = seed


class SampledSearch:
    """A searching player's budget: a number of samples per decision, never the clock."""

    SAMPLES: ClassVar[int] = 24  # determinizations per decision when none are given

    def __init__(self, seed: int = 0, samples: int | None = None, time_limit: float = SAFETY_SECONDS) -> None:
        """`samples` determinizations per decision (`SAMPLES` if None); `time_limit` seconds is only a safety cap.

        The budget is the samples: the same view always gets the same search, however loaded the host is.
        """
        self.seed = seed
        self.samples = self.SAMPLES if samples is None else samples
        self.time_limit = time_limit


def decision_rng(seed: int, view: Any) -> random.Random:
    """A generator fixed by the player's seed and the view alone, so a decision can be repeated exactly.

    Views are frozen dataclasses whose `repr` lists every field, and `random.Random` hashes a string seed
    with SHA-512, so this is the same in every process.
    """
    return random.Random(f"ai:{seed}:{view!r}")


def require_moves(legal: Sequence[Any]) -> None:
    """Refuse to choose when the view lists no legal move.

    Raises:
        ValueError: `legal` is empty.
    """
    if not legal:
        raise ValueError("the view lists no legal move: it is not this seat's turn")

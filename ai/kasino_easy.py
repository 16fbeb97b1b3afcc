"""Easy Kasino: take the most cards it can; otherwise place its lowest card. Never builds or doubles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ai.base import SeededPlayer, Strength, require_moves
from engine.kasino.moves import KasinoMove, Place, Take
from engine.kasino.table import hand_order
from engine.kasino.views import KasinoView


class EasyKasino(SeededPlayer):
    """A player a newcomer can beat: greedy for cards, blind to what it leaves behind (its seed is unused)."""

    kind: ClassVar[str] = "kasino"
    strength: ClassVar[Strength] = Strength.EASY

    def choose(self, view: KasinoView, history: Sequence[Any] = ()) -> KasinoMove:
        """The take of the most table items (the first listed on ties), else placing the lowest card.

        Raises:
            ValueError: the view lists no legal move.
        """
        legal = view.legal_moves
        require_moves(legal)
        takes = [move for move in legal if isinstance(move, Take)]
        if takes:
            return max(takes, key=lambda move: len(move.targets))
        places = [move for move in legal if isinstance(move, Place)]
        return min(places, key=lambda move: hand_order(move.card)) if places else legal[0]

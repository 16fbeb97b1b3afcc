"""Easy and medium Garbage. A turn holds only two decisions: stock or discard (G5), and a wild card's spot (G6c).

Both read the house rules from the view: which cards are wild (GV1, GV2) and how many decks (GV5). A last turn (GV4)
needs nothing else: it is an ordinary turn whose only hope is to fill the layout, which is what every turn tries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ai.base import SeededPlayer, Strength, require_moves
from ai.garbage_knowledge import fills_directly, fits, unseen_by_rank
from engine.garbage.moves import DRAW_DISCARD, DRAW_STOCK, GarbageMove, PlaceJack
from engine.garbage.views import GarbageView


class _ViewRule(SeededPlayer):
    """A Garbage player whose move the view alone decides (its seed is unused)."""

    kind: ClassVar[str] = "garbage"

    def choose(self, view: GarbageView, history: Sequence[Any] = ()) -> GarbageMove:
        """See the class docstring.

        Raises:
            ValueError: the view lists no legal move.
        """
        legal = view.legal_moves
        require_moves(legal)
        return self.decide(view, legal)

    def decide(self, view: GarbageView, legal: Sequence[GarbageMove]) -> GarbageMove:
        """The move among `legal` (never empty)."""
        raise NotImplementedError


class EasyGarbage(_ViewRule):
    """Takes the discard only when it goes straight onto its own face-down spot; wild cards go to the lowest spot."""

    strength: ClassVar[Strength] = Strength.EASY

    def decide(self, view: GarbageView, legal: Sequence[GarbageMove]) -> GarbageMove:
        """See the class docstring."""
        top = view.public.discard_top
        spots = view.public.seats[view.seat].spots
        if DRAW_DISCARD in legal and (DRAW_STOCK not in legal or (top and fills_directly(top, spots))):
            return DRAW_DISCARD
        return legal[0]


class MediumGarbage(_ViewRule):
    """Takes the discard whenever it turns up a face-down card; a wild card covers the spot least likely to be filled.

    "Least likely" counts the unseen cards of each face-down spot's rank (G11: face-up cards and the
    discard pile are in sight); a rank with few copies left waits longest for its own card.
    """

    strength: ClassVar[Strength] = Strength.MEDIUM

    def decide(self, view: GarbageView, legal: Sequence[GarbageMove]) -> GarbageMove:
        """See the class docstring."""
        return medium_move(view, legal)


def medium_move(view: GarbageView, legal: Sequence[GarbageMove]) -> GarbageMove:
    """Medium's choice among `legal` (shared with the hard player, which starts from it)."""
    jacks = [move for move in legal if isinstance(move, PlaceJack)]
    if jacks:
        unseen = unseen_by_rank(view.public)
        return min(jacks, key=lambda move: (unseen[move.spot], move.spot))
    top = view.public.discard_top
    spots = view.public.seats[view.seat].spots
    if DRAW_DISCARD in legal and (DRAW_STOCK not in legal or (top and fits(top, spots, view.public.is_wild))):
        return DRAW_DISCARD
    return legal[0]

"""Pictures of the games: the public table of each game and a Kasino player's own hand, as PNG.

Pure drawing: this package imports only the standard library, Pillow and `engine`, and reads nothing but
the views it is given (`public_view()` for a table, `view(seat)` for a hand), so a picture can never show
more than that view holds. Fonts ship in `render/fonts/`; nothing is fetched at run time.

>>> from engine.kasino import KasinoGame
>>> picture = render_table(KasinoGame.new(2, seed=1).public_view(), ["Kari", "Ola"])
>>> picture.width, len(picture.cards)  # four loose cards and the stock
(800, 5)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.garbage.views import GarbagePublicView
from engine.kasino.views import KasinoPublicView
from render.garbage import render_garbage_table
from render.hand import render_hand
from render.kasino import render_kasino_table
from render.layout import Box, Drawn, Rendered

__all__ = ["Box", "Drawn", "Rendered", "render_garbage_table", "render_hand", "render_kasino_table", "render_table"]


def render_table(view: KasinoPublicView | GarbagePublicView, names: Sequence[str]) -> Rendered:
    """The public table of either game; `names` are the players' display names by seat.

    Raises:
        TypeError: `view` is not a public view (a seat's private view is refused, so no hand can leak).
        ValueError: `names` does not give one name per seat.
    """
    if isinstance(view, KasinoPublicView):
        return render_kasino_table(view, names)
    if isinstance(view, GarbagePublicView):
        return render_garbage_table(view, names)
    raise TypeError(f"render_table takes a game's public_view(), not {type(view).__name__}")

"""Pictures of the games, as PNG: each kind's public table (its `table_picture`) and private hands.

A kind's drawing code lives in its own modules (`render/kasino.py`, `render/kasino_hand.py`); this module only
finds the drawer of a view through the registry.

Pure drawing: this package imports only the standard library, Pillow, `engine` and `i18n` (the words in the
reader's language, and the cards' rank letters), and reads nothing but the views it is given (`public_view()` for
a table, `view(seat)` for a hand), so a picture can never show more than that view holds. Fonts ship in
`render/fonts/`; nothing is fetched at run time.

>>> from engine.kasino import KasinoGame
>>> picture = render_table(KasinoGame.new(2, seed=1).public_view(), ["Kari", "Ola"])
>>> picture.width, len(picture.cards)  # four loose cards and the stock
(600, 5)
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Sequence
from typing import Any

from engine import registry
from engine.base import PublicView
from engine.kinds import GameKind
from i18n import SOURCE_LOCALE
from render.layout import Box, Drawn, Rendered

__all__ = ["Box", "Drawn", "Rendered", "has_table_picture", "render_table"]

TableDrawer = Callable[[Any, Sequence[str], str], Rendered]


def has_table_picture(kind: GameKind) -> bool:
    """Whether the kind draws its table as a picture (a kind may offer text only)."""
    return kind.public_view is not None and kind.table_picture is not None


def render_table(view: PublicView, names: Sequence[str], locale: str = SOURCE_LOCALE) -> Rendered:
    """The public table of any kind that draws one; `names` are the players' display names by seat.

    Its words are `locale`'s (the server's: the table is public), its cards in that language's rank letters.

    Raises:
        TypeError: `view` is not a public view of a kind with a picture (a seat's private view is refused, so no
            hand can leak).
        ValueError: `names` does not give one name per seat.
    """
    for kind in registry.GAME_KINDS:
        view_type = kind.public_view
        if view_type is not None and kind.table_picture is not None and isinstance(view, view_type):
            return _drawer(kind.name)(view, names, locale)
    raise TypeError(f"render_table takes the public_view() of a kind with a picture, not {type(view).__name__}")


@functools.cache
def _drawer(kind_name: str) -> TableDrawer:
    """The kind's "module:function" table drawer, imported once."""
    kind = registry.game_kind(kind_name)
    assert kind.table_picture is not None
    module, _, function = kind.table_picture.partition(":")
    drawer: TableDrawer = getattr(importlib.import_module(module), function)
    return drawer

"""What every table picture shares: its width and type, the heading, and a seat panel's frame and name.

A kind's table (`render/kasino.py`, `render/garbage.py`) lays out its own panels; this module draws the parts
that look alike in all of them, so the tables of two kinds read as one family.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from i18n import say
from render import style
from render.writing import Pen, line_height, wrap

WIDTH: Final = 600
NAME_LEFT: Final = 12 + style.DOT + 8  # a name starts right of its seat's dot

SMALL: Final = style.font(style.smallest_type(WIDTH))
SMALL_BOLD: Final = style.font(style.smallest_type(WIDTH), bold=True)
NAME: Final = style.font(24, bold=True)
TURN: Final = style.font(26, bold=True)
TITLE: Final = style.font(30, bold=True)


def to_play(names: Sequence[str], seat: int, locale: str) -> str:
    """The heading's line while the game runs: "▶ Kari to play", in `locale`."""
    return "▶ " + say(locale, "picture.to-play", player=names[seat])


def heading(pen: Pen, pad: int, title: str, turn: Sequence[str]) -> int:
    """Write the title and the (wrapped) turn lines from (pad, pad); return where they end."""
    pen.write((pad, pad), title, TITLE, style.TEXT)
    y = pad + line_height(TITLE)
    return y + pen.write_lines(pad, y, turn, TURN, style.GOLD)


def wrap_name(name: str, active: bool, room: float) -> list[str]:
    """A seat's name, marked "▶ " for the player to move, wrapped to `room` pixels."""
    return wrap(("▶ " if active else "") + name, NAME, room)


def seat_head(
    pen: Pen, box: tuple[int, int, int, int], seat: int, name: Sequence[str], *, active: bool, inset: int
) -> int:
    """A seat's panel in `box`, and its name beside the seat's dot, `inset` from the top (gold for the player to move).

    Returns the height of the name's lines.
    """
    x0, y0, _, _ = box
    style.seat_panel(pen.draw, box, seat, active=active, dot_top=inset + 6)
    return pen.write_lines(x0 + NAME_LEFT, y0 + inset, name, NAME, style.GOLD if active else style.TEXT)

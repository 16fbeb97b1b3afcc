"""Colours and fonts shared by every picture.

The pictures sit on a green felt of their own, so they read the same on Discord's dark (#313338) and
light (#ffffff) themes; card faces are white with red and black suits.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Final

from PIL import ImageDraw, ImageFont

FONTS: Final = Path(__file__).resolve().parent / "fonts"

# Discord shows a chat picture about 400 px wide on a desktop and 300 px on a phone; type that is 11 px tall
# there still reads, so every word of a picture is drawn at least that large at the phone's scale.
PHONE_WIDTH: Final = 300
PHONE_TEXT: Final = 11

FELT: Final = (28, 92, 60)
PANEL: Final = (20, 70, 45)
PANEL_ACTIVE: Final = (34, 110, 72)
GOLD: Final = (246, 196, 64)
TEXT: Final = (244, 244, 240)
MUTED: Final = (184, 208, 192)
FACE: Final = (255, 255, 255)
EDGE: Final = (120, 126, 134)
RED: Final = (204, 24, 36)
BLACK: Final = (20, 20, 24)
BACK: Final = (36, 66, 150)
BACK_LINE: Final = (92, 124, 206)
DOT: Final = 16
# One accent per seat, for build tags and name plates (the name is always written too: never colour alone).
SEAT_COLOURS: Final = (
    (236, 120, 60),
    (90, 170, 240),
    (210, 110, 210),
    (240, 210, 80),
    (120, 220, 150),
    (240, 120, 140),
)


def smallest_type(picture_width: int) -> int:
    """The smallest font size, in pixels, that is still PHONE_TEXT tall when the picture is shown PHONE_WIDTH wide."""
    return math.ceil(PHONE_TEXT * picture_width / PHONE_WIDTH)


@cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at `size` pixels from the shipped files; BASIC layout needs no libraqm and draws alike everywhere."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size, layout_engine=ImageFont.Layout.BASIC)


def suit_colour(suit: str) -> tuple[int, int, int]:
    """Red for hearts and diamonds, black for spades and clubs."""
    return RED if suit in "♥♦" else BLACK


def seat_panel(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], seat: int, *, active: bool, dot_top: int
) -> None:
    """A seat's panel, lighter and framed in gold for the player to move, with the seat's accent dot at its top left.

    `dot_top` is how far below the panel's top the dot sits; the dot is DOT pixels across.
    """
    x0, y0, _, _ = box
    draw.rounded_rectangle(
        box, radius=10, fill=PANEL_ACTIVE if active else PANEL, outline=GOLD if active else None, width=3
    )
    accent = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.ellipse((x0 + 12, y0 + dot_top, x0 + 12 + DOT, y0 + dot_top + DOT), fill=accent)

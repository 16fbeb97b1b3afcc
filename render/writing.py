"""Words on a picture: wrapped at spaces, never cut, and written through a `Pen` that records each run.

A name too long for its space goes on to the next line whole; nothing is shortened with "…". The record
(`layout.Written`) lets tests measure the smallest type and find every name without reading pixels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from render.layout import Box, Written

Colour = tuple[int, int, int]
SEPARATOR = " · "


def line_height(face: ImageFont.FreeTypeFont) -> int:
    """Pixels from one line's top to the next's, for `face`."""
    return round(face.size * 1.25)


def wrap(words: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """`words` in lines no wider than `width`, broken at spaces; a word wider than that gets a line of its own."""
    lines: list[str] = []
    for word in words.split():
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return _without_orphan(lines, face, width)


def _without_orphan(lines: list[str], face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """Lines where a lone short last word takes the word before it along when that fits.

    "Computer" / "(hard) 2" reads as a name; "Computer (hard)" / "2" does not.
    """
    if len(lines) < 2 or " " in lines[-1] or len(lines[-1]) > 3 or " " not in lines[-2]:
        return lines
    head, moved = lines[-2].rsplit(" ", 1)
    if face.getlength(f"{moved} {lines[-1]}") > width:
        return lines
    return [*lines[:-2], head, f"{moved} {lines[-1]}"]


def pack(parts: Sequence[str], face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """`parts` joined with " · " into lines no wider than `width`, each part kept whole on one line."""
    lines: list[str] = []
    for part in parts:
        if lines and face.getlength(lines[-1] + SEPARATOR + part) <= width:
            lines[-1] += SEPARATOR + part
        else:
            lines.append(part)
    return lines


def widest(lines: Sequence[str], face: ImageFont.FreeTypeFont) -> int:
    """Pixels across the widest of `lines`."""
    return math.ceil(max((face.getlength(line) for line in lines), default=0))


class Pen:
    """Writes on one image and keeps a `Written` for every run of words."""

    def __init__(self, image: Image.Image) -> None:
        self.draw = ImageDraw.Draw(image)
        self.written: list[Written] = []

    def write(
        self, xy: tuple[float, float], words: str, face: ImageFont.FreeTypeFont, fill: Colour, *, anchor: str = "la"
    ) -> float:
        """Draw `words` at `xy` (a Pillow anchor, left-ascender by default); return its width."""
        self.draw.text(xy, words, font=face, fill=fill, anchor=anchor)
        x0, y0, x1, y1 = self.draw.textbbox(xy, words, font=face, anchor=anchor)
        box = Box(math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))
        self.written.append(Written(words, face.size, box))
        return face.getlength(words)

    def write_lines(
        self,
        x: float,
        y: float,
        lines: Sequence[str],
        face: ImageFont.FreeTypeFont,
        fill: Colour,
        *,
        anchor: str = "la",
    ) -> int:
        """Draw `lines` one under the other from (x, y); return the height they take."""
        step = line_height(face)
        for number, line in enumerate(lines):
            self.write((x, y + number * step), line, face, fill, anchor=anchor)
        return step * len(lines)

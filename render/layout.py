"""Boxes and the record of what a picture shows, so tests can check every card and every word without reading pixels."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image


@dataclass(frozen=True, slots=True)
class Box:
    """A pixel rectangle, half-open: it covers x0 <= x < x1 and y0 <= y < y1."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        """Pixels across."""
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        """Pixels down."""
        return self.y1 - self.y0

    def overlaps(self, other: Box) -> bool:
        """True when the two boxes share at least one pixel (touching edges do not count)."""
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1

    def inside(self, width: int, height: int) -> bool:
        """True when the box is non-empty and lies within a `width` × `height` image."""
        return 0 <= self.x0 < self.x1 <= width and 0 <= self.y0 < self.y1 <= height


@dataclass(frozen=True, slots=True)
class Drawn:
    """One card as the picture shows it.

    `label` is the card's code (`10♦`, `5♥#1` for a second deck's copy) or `"back"` for a face-down card;
    `box` is the part of the card that can be seen (the index strip of a card under a fan);
    `place` says where it lies: `table`, `hand`, `stock`, `discard`, `pending`, or `seat 2 spot 7`.
    """

    label: str
    box: Box
    place: str
    text_size: float | None = None  # the smallest type on its visible part (rank index, spot number); None: no words


@dataclass(frozen=True, slots=True)
class Written:
    """One run of words as the picture shows it: the words, their font size in pixels, and their ink's box."""

    words: str
    size: float
    box: Box


@dataclass(frozen=True, slots=True)
class Rendered:
    """A finished picture: the PNG, its size, one `Drawn` per card it shows and one `Written` per run of words."""

    png: bytes
    width: int
    height: int
    cards: tuple[Drawn, ...]
    texts: tuple[Written, ...] = ()


def encode(image: Image.Image, cards: list[Drawn], texts: list[Written]) -> Rendered:
    """Encode as an 8-bit palette PNG.

    The pictures are flat colours plus anti-aliased edges, well under 256 colours in all, so the palette
    looks the same as RGB; it encodes in half the time and a third of the bytes (bench/bench_render.py).
    """
    palette = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    palette.save(buffer, format="PNG", compress_level=3)
    return Rendered(buffer.getvalue(), image.width, image.height, tuple(cards), tuple(texts))

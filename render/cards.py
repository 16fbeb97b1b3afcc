"""One card: a white face with its index (rank over suit) in the top-left corner and a large suit, or a back.

A Joker (Garbage's house rule GV2) has its letters ("Jo") over a star in the index and a large star, framed like a
court card; a deck's black Joker is inked black and its white one red, as printed decks tell their two apart.

The rank is written in the reader's letters (`i18n.rank_words`: "D" for a Norwegian or Hungarian queen, "Kn" for a
Norwegian jack); a rank wider than "10" is narrowed to the same column, so a fan's step is the same in every language.

Faces are drawn once per card and size and kept, then pasted: a table render only pastes sprites and writes a few
words. They are kept as PNG (`face`, `back`): a 120-pixel face is 80 KB as pixels and 5 KB as PNG, and decoding it
takes 0.2 ms against 7 ms to draw it, so every face of every size and language fits in a megabyte; the sprites pasted
lately are kept decoded too, up to `DECODED_BYTES`. The rounded outline
is drawn at four times the size and scaled down, so its edge is smooth on any background.
"""

from __future__ import annotations

import io
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import cache
from typing import Final

from PIL import Image, ImageDraw

from engine.cards import JOKER, WHITE_JOKER, Card
from i18n import SOURCE_LOCALE, rank_words
from render import style
from render.layout import Box, Drawn

RATIO: Final = 1.4  # height / width of a playing card
JOKER_MARK: Final = "★"  # a Joker's sign on its face, where a suit would be (DejaVu Sans has it)
_SUPER: Final = 4


def height_for(width: int) -> int:
    """A card's height for its width."""
    return round(width * RATIO)


def _rank_size(width: int) -> int:
    """Ranks and spot numbers are large for the card (0.44-0.46 of its width), so they read on a phone."""
    return round(width * 0.46)


def _suit_size(width: int) -> int:
    """The index's suit: it is read like a word, so it is about as large as the rank."""
    return round(width * 0.43)


def _number_size(width: int) -> int:
    """The spot number on a back or in a Jack's disc (a little smaller than the rank: "10" must fit in the disc)."""
    return round(width * 0.44)


def text_size(width: int, *, numbered: bool) -> int:
    """The smallest type on a card face `width` pixels wide (`numbered`: it carries a spot number too)."""
    index = min(_rank_size(width), _suit_size(width))
    return min(index, _number_size(width)) if numbered else index


def _pad(width: int) -> int:
    return max(3, round(width * 0.07))


def _rank_advances(rank: str, size: int) -> list[float]:
    """Where each character of a rank starts; `10` is set tight so the index stays narrow in a fan."""
    face = style.font(size, bold=True)
    if rank == "10":
        return [0.0, face.getlength("1") - size * 0.1]
    return [0.0]  # any other rank is written whole, its letters on one baseline ("Kn")


def _rank_pieces(rank: str) -> list[str]:
    """What is written at each of `_rank_advances`: the digits of `10` one by one, any other rank whole."""
    return list(rank) if rank == "10" else [rank]


def _rank_width(rank: str, size: int) -> float:
    face = style.font(size, bold=True)
    return _rank_advances(rank, size)[-1] + face.getlength(_rank_pieces(rank)[-1])


def index_width(width: int) -> int:
    """Pixels of a card's left edge that show its whole index (the widest rank, `10`): the step of a fan."""
    return _pad(width) + round(_rank_width("10", _rank_size(width))) + max(2, round(width * 0.05))


def _blank(width: int, height: int, fill: tuple[int, int, int], edge: tuple[int, int, int], line: float) -> Image.Image:
    """A rounded card shape with an edge `line` pixels thick, smooth edged, as RGBA."""
    big = (width * _SUPER, height * _SUPER)
    radius = round(width * 0.09 * _SUPER)
    inset = round(line * _SUPER)
    shape = Image.new("L", big, 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, big[0] - 1, big[1] - 1), radius, fill=255)
    colour = Image.new("RGB", big, edge)
    ImageDraw.Draw(colour).rounded_rectangle(
        (inset, inset, big[0] - 1 - inset, big[1] - 1 - inset), max(1, radius - inset), fill=fill
    )
    sprite = colour.resize((width, height), Image.Resampling.LANCZOS).convert("RGBA")
    sprite.putalpha(shape.resize((width, height), Image.Resampling.LANCZOS))
    return sprite


def _png(image: Image.Image) -> bytes:
    png = io.BytesIO()
    image.save(png, "PNG", compress_level=6)
    return png.getvalue()


# Decoded sprites kept besides their PNG, the most recently pasted first, up to this many bytes of pixels: a table's
# cards (a six-player Garbage table pastes 40 or more) are decoded once, not at every render.
DECODED_BYTES: Final = 1024 * 1024
_decoded: OrderedDict[tuple[object, ...], Image.Image] = OrderedDict()
_decoded_bytes = 0


def _sprite(key: tuple[object, ...], png: Callable[[], bytes]) -> Image.Image:
    """The sprite `key` names, decoded from its PNG unless decoded lately (shared: callers only paste it)."""
    global _decoded_bytes
    image = _decoded.get(key)
    if image is not None:
        _decoded.move_to_end(key)
        return image
    image = Image.open(io.BytesIO(png()))
    image.load()
    _decoded[key] = image
    _decoded_bytes += image.width * image.height * 4
    while _decoded_bytes > DECODED_BYTES and len(_decoded) > 1:
        _, dropped = _decoded.popitem(last=False)
        _decoded_bytes -= dropped.width * dropped.height * 4
    return image


def face(rank: int, suit: str, width: int, spot: int | None = None, rank_text: str | None = None) -> Image.Image:
    """A card face `width` pixels wide, as `draw_face` draws it (drawn once, kept as PNG)."""
    key = ("face", rank, suit, width, spot, rank_text)
    return _sprite(key, lambda: _face_png(rank, suit, width, spot, rank_text))


@cache
def _face_png(rank: int, suit: str, width: int, spot: int | None, rank_text: str | None) -> bytes:
    return _png(draw_face(rank, suit, width, spot, rank_text))


def back(width: int, number: int | None = None) -> Image.Image:
    """A card back `width` pixels wide, as `draw_back` draws it (drawn once, kept as PNG)."""
    return _sprite(("back", width, number), lambda: _back_png(width, number))


@cache
def _back_png(width: int, number: int | None) -> bytes:
    return _png(draw_back(width, number))


def draw_face(rank: int, suit: str, width: int, spot: int | None = None, rank_text: str | None = None) -> Image.Image:
    """A card face `width` pixels wide. `spot` marks a Jack standing in for that Garbage spot (gold edge, number).

    `rank_text` is the rank as the reader's language writes it (`i18n.rank_words`: "D" for a Norwegian queen), the
    English letter when not given.
    """
    height = height_for(width)
    jack_mark = spot is not None
    sprite = _blank(width, height, style.FACE, style.GOLD if jack_mark else style.EDGE, 3.5 if jack_mark else 1.2)
    draw = ImageDraw.Draw(sprite)
    colour = _ink(rank, suit)
    if rank == JOKER:
        suit = JOKER_MARK
    pad, rank_size, suit_size = _pad(width), _rank_size(width), _suit_size(width)
    rank_text = rank_text or Card(rank, suit).rank_text
    column = _rank_width("10", rank_size)  # every index is centred in the column of the widest rank
    rank_font = style.font(rank_size, bold=True)
    if _rank_width(rank_text, rank_size) <= column:
        left = pad + (column - _rank_width(rank_text, rank_size)) / 2
        for piece, advance in zip(_rank_pieces(rank_text), _rank_advances(rank_text, rank_size), strict=True):
            draw.text((left + advance, pad), piece, font=rank_font, fill=colour, anchor="lt")
    else:
        _squeezed(sprite, rank_text, rank_size, (pad, pad), column, colour)
    rank_bottom = pad + rank_font.getbbox("0", anchor="lt")[3]
    draw.text((pad + column / 2, rank_bottom + pad), suit, font=style.font(suit_size), fill=colour, anchor="mt")
    big = style.font(round(width * 0.48))
    if jack_mark:
        _disc(draw, width * 0.64, height * 0.78, width * 0.3, str(spot), _number_size(width))
    else:
        if rank >= 11:
            # Court cards (and Jokers) get a thin inner frame, as on printed cards, so J Q K stand out from the pips.
            frame = (round(width * 0.4), round(height * 0.62), width - pad - 1, height - pad - 1)
            draw.rectangle(frame, outline=colour, width=1)
        draw.text((width * 0.68, height * 0.8), suit, font=big, fill=colour, anchor="mm")
    return sprite


def _ink(rank: int, suit: str) -> tuple[int, int, int]:
    """The colour a face is printed in: its suit's, or for a Joker black or red (the white Joker is the red one)."""
    if rank == JOKER:
        return style.RED if suit == WHITE_JOKER else style.BLACK
    return style.suit_colour(suit)


def _squeezed(
    sprite: Image.Image, rank: str, size: int, xy: tuple[int, int], column: float, colour: tuple[int, int, int]
) -> None:
    """A rank wider than the index column ("Kn"), narrowed to fit it at its full height, so a fan keeps its step."""
    rank_font = style.font(size, bold=True)
    natural = math.ceil(_rank_width(rank, size)) + 2
    tall = math.ceil(rank_font.getbbox(rank, anchor="lt")[3]) + 2
    ink = Image.new("L", (natural * _SUPER, tall * _SUPER), 0)
    big = style.font(size * _SUPER, bold=True)
    ImageDraw.Draw(ink).text((_SUPER, 0), rank, font=big, fill=255, anchor="lt")
    mask = ink.resize((max(1, round(column)), tall), Image.Resampling.LANCZOS)
    sprite.paste(colour, (xy[0], xy[1], xy[0] + mask.width, xy[1] + mask.height), mask)


def _disc(draw: ImageDraw.ImageDraw, x: float, y: float, radius: float, words: str, size: int) -> None:
    """A gold disc with a dark number (the spot a Jack stands in for)."""
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=style.GOLD, outline=style.BLACK)
    draw.text((x, y), words, font=style.font(size, bold=True), fill=style.BLACK, anchor="mm")


def draw_back(width: int, number: int | None = None) -> Image.Image:
    """A card back: blue lattice inside a white border; `number` (a Garbage spot) is written in a disc."""
    height = height_for(width)
    sprite = _blank(width, height, style.FACE, style.EDGE, 1.2)
    inset = max(3, round(width * 0.08))
    inner = (width - 2 * inset, height - 2 * inset)
    lattice = Image.new("RGB", inner, style.BACK)
    lines = ImageDraw.Draw(lattice)
    step = max(5, width // 7)
    for offset in range(-inner[1], inner[0], step):
        lines.line((offset, 0, offset + inner[1], inner[1]), fill=style.BACK_LINE, width=1)
        lines.line((offset + inner[1], 0, offset, inner[1]), fill=style.BACK_LINE, width=1)
    mask = Image.new("L", inner, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, inner[0] - 1, inner[1] - 1), round(width * 0.05), fill=255)
    sprite.paste(lattice, (inset, inset), mask)
    if number is not None:
        draw = ImageDraw.Draw(sprite)
        radius = width * 0.36
        centre_x, centre_y = width / 2, height / 2
        draw.ellipse(
            (centre_x - radius, centre_y - radius, centre_x + radius, centre_y + radius),
            fill=style.FACE,
            outline=style.BACK,
        )
        draw.text((centre_x, centre_y), str(number), font=style.font(_number_size(width), bold=True),
                  fill=style.BACK, anchor="mm")  # fmt: skip
    return sprite


def paste_face(
    canvas: Image.Image,
    card: Card,
    x: int,
    y: int,
    width: int,
    place: str,
    *,
    spot: int | None = None,
    locale: str = SOURCE_LOCALE,
) -> Drawn:
    """Paste `card` face up at (x, y) (its top-left corner), its rank as `locale` writes it; return what was drawn."""
    sprite = face(card.rank, card.suit, width, spot, rank_words(card.rank, locale))
    canvas.paste(sprite, (x, y), sprite)
    return Drawn(card.code, Box(x, y, x + width, y + sprite.height), place, text_size(width, numbered=spot is not None))


def paste_back(canvas: Image.Image, x: int, y: int, width: int, place: str, *, number: int | None = None) -> Drawn:
    """Paste a card back with its top-left corner at (x, y); return what was drawn."""
    sprite = back(width, number)
    canvas.paste(sprite, (x, y), sprite)
    size = None if number is None else _number_size(width)  # a plain back has nothing to read
    return Drawn("back", Box(x, y, x + width, y + sprite.height), place, size)


def fan_width(count: int, width: int) -> int:
    """Pixels across a fan of `count` cards."""
    return width + max(0, count - 1) * index_width(width)


def paste_fan(
    canvas: Image.Image,
    cards: Sequence[Card],
    x: int,
    y: int,
    width: int,
    place: str,
    *,
    locale: str = SOURCE_LOCALE,
) -> list[Drawn]:
    """Paste `cards` left to right, each covering the previous one but its index strip (ranks as `locale` writes them).

    The box of a covered card is only its visible strip, so no two boxes overlap.
    """
    step = index_width(width)
    height = height_for(width)
    drawn = []
    for position, card in enumerate(cards):
        left = x + position * step
        full = paste_face(canvas, card, left, y, width, place, locale=locale)
        last = position == len(cards) - 1
        strip = Drawn(card.code, Box(left, y, left + step, y + height), place, full.text_size)
        drawn.append(full if last else strip)
    return drawn

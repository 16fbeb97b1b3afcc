"""The Kasino table as one picture, from the public view only (K16): what anyone at the table may see."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from engine.kasino.table import TableItem
from engine.kasino.views import KasinoPublicView, SeatSummary
from render import cards, style
from render.layout import Drawn, Rendered, encode

WIDTH: Final = 800
PAD: Final = 16
GAP: Final = 12
CARD: Final = 72  # table cards; about 30 dp wide when a phone shows the picture 360 dp across
STOCK_CARD: Final = 36
HEADER: Final = 62
PANEL_HEIGHT: Final = 84
CAPTION: Final = 40  # two lines under a pile or build: what it is, and whose


@dataclass(frozen=True, slots=True)
class _Placed:
    """A table item and where its block (fan plus caption) goes."""

    item: TableItem
    x: int
    y: int
    width: int


def render_kasino_table(view: KasinoPublicView, names: Sequence[str]) -> Rendered:
    """Draw the Kasino table: header with whose turn, one panel per seat, then every table item.

    Raises:
        ValueError: `names` does not give one name per seat.
    """
    if len(names) != len(view.seats):
        raise ValueError(f"{len(view.seats)} seats need {len(view.seats)} names, not {len(names)}")
    card_height = cards.height_for(CARD)
    placed, rows = _flow(view.table)
    table_top = PAD + HEADER + PANEL_HEIGHT + 2 * GAP
    row_height = card_height + CAPTION + GAP
    height = table_top + max(rows, 1) * row_height + PAD + GAP
    image = Image.new("RGB", (WIDTH, height), style.FELT)
    draw = ImageDraw.Draw(image)
    drawn: list[Drawn] = []
    drawn += _header(image, draw, view, names)
    for index, seat in enumerate(view.seats):
        _seat_panel(draw, view, seat, names[seat.seat], index)
    draw.rounded_rectangle((PAD, table_top - GAP // 2, WIDTH - PAD - 1, height - PAD), radius=14, fill=style.PANEL)
    if not view.table:
        draw.text(((WIDTH) / 2, table_top + row_height / 2), "The table is empty.", font=style.font(20),
                  fill=style.MUTED, anchor="mm")  # fmt: skip
    for spot in placed:
        drawn += _item(image, draw, spot, table_top + spot.y * row_height + GAP // 2, names)
    return encode(image, drawn)


def _flow(items: Sequence[TableItem]) -> tuple[list[_Placed], int]:
    """Place items left to right, starting a new row when one would cross the right edge; return rows used."""
    placed = []
    left, right = PAD + GAP, WIDTH - PAD - GAP
    x, row = left, 0
    for item in items:
        width = cards.fan_width(len(item.cards), CARD)
        if x > left and x + width > right:
            x, row = left, row + 1
        placed.append(_Placed(item, x, row, width))
        x += width + GAP
    return placed, row + 1 if items else 0


def _header(image: Image.Image, draw: ImageDraw.ImageDraw, view: KasinoPublicView, names: Sequence[str]) -> list[Drawn]:
    """Title, whose turn it is (or the result), and the stock as a card back with its size."""
    style.text(draw, (PAD, PAD), f"Kasino · round {view.round}", style.font(24, bold=True), style.TEXT)
    style.text(draw, (PAD, PAD + 34), _turn_line(view, names), style.font(20, bold=True), style.GOLD)
    stock_x = WIDTH - PAD - STOCK_CARD
    drawn = []
    if view.stock:
        drawn.append(cards.paste_back(image, stock_x, PAD, STOCK_CARD, "stock"))
    words = f"stock {view.stock}" if view.stock else "stock empty"
    draw.text((stock_x - 10, PAD + 14), words, font=style.font(18, bold=True), fill=style.TEXT, anchor="ra")
    draw.text((stock_x - 10, PAD + 38), f"playing to {view.target}", font=style.font(15), fill=style.MUTED,
              anchor="ra")  # fmt: skip
    return drawn


def _turn_line(view: KasinoPublicView, names: Sequence[str]) -> str:
    if view.over or view.to_move is None:
        playing = [seat for seat in view.seats if not seat.resigned] or list(view.seats)
        best = max(seat.score for seat in playing)
        leaders = " and ".join(names[seat.seat] for seat in playing if seat.score == best)
        return f"Game over · {style.fit(leaders, style.font(20, bold=True), 360)} {best} points"
    return f"▶ {style.fit(names[view.to_move], style.font(20, bold=True), 360)} to play"


def _seat_panel(
    draw: ImageDraw.ImageDraw, view: KasinoPublicView, seat: SeatSummary, name: str, index: int
) -> None:
    """Name, points, hand size, captured cards and sweeps of one seat; the player to move is framed in gold."""
    count = len(view.seats)
    width = (WIDTH - 2 * PAD - (count - 1) * GAP) // count
    x0, y0 = PAD + index * (width + GAP), PAD + HEADER + GAP
    active = seat.seat == view.to_move and not view.over
    style.seat_panel(draw, (x0, y0, x0 + width - 1, y0 + PANEL_HEIGHT - 1), seat.seat, active=active, dot_top=13)
    score_font = style.font(22, bold=True)
    score = str(seat.score)
    score_width = score_font.getlength(score) + style.font(13).getlength(" pts")
    name_font = style.font(18, bold=True)
    shown = ("▶ " if active else "") + name
    draw.text((x0 + 28, y0 + 9), style.fit(shown, name_font, width - 44 - score_width), font=name_font,
              fill=style.GOLD if active else style.TEXT)  # fmt: skip
    draw.text((x0 + width - 10, y0 + 27), " pts", font=style.font(13), fill=style.MUTED, anchor="rs")
    draw.text((x0 + width - 10 - style.font(13).getlength(" pts"), y0 + 27), score, font=score_font,
              fill=style.TEXT, anchor="rs")  # fmt: skip
    small = style.font(15)
    draw.text((x0 + 12, y0 + 36), style.fit(f"hand {seat.hand_size} · taken {seat.captured}", small, width - 20),
              font=small, fill=style.TEXT)  # fmt: skip
    notes = [f"sweeps {seat.sweeps}"]
    if seat.seat == view.dealer:
        notes.append("dealer")
    if seat.resigned:
        notes.append("resigned")
    draw.text((x0 + 12, y0 + 58), style.fit(" · ".join(notes), small, width - 20), font=small, fill=style.MUTED)


def _item(
    image: Image.Image, draw: ImageDraw.ImageDraw, spot: _Placed, y: int, names: Sequence[str]
) -> list[Drawn]:
    """One table item: a loose card, or a fanned pile or build on a plate with its caption."""
    item = spot.item
    if item.kind == "loose":
        return [cards.paste_face(image, item.cards[0], spot.x, y, CARD, "table")]
    card_height = cards.height_for(CARD)
    build = item.kind == "build"
    owner = item.owner if build and item.owner is not None else None
    accent = style.SEAT_COLOURS[owner % len(style.SEAT_COLOURS)] if owner is not None else style.MUTED
    # A plate behind the fan and caption keeps one item's cards together, edged in the owner's colour.
    draw.rounded_rectangle(
        (spot.x - 5, y - 5, spot.x + spot.width + 4, y + card_height + CAPTION - 2),
        radius=8,
        fill=style.FELT,
        outline=accent,
        width=2 if build else 1,
    )
    drawn = cards.paste_fan(image, item.cards, spot.x, y, CARD, "table")
    bold = style.font(15, bold=True)
    title = f"{'build' if build else 'pile'} {item.value}"
    draw.text((spot.x + 2, y + card_height + 4), title, font=bold, fill=style.TEXT)
    if item.doubled:
        left = spot.x + 2 + bold.getlength(title) + 6
        draw.rounded_rectangle((left, y + card_height + 3, left + 30, y + card_height + 21), radius=9, fill=style.GOLD)
        draw.text((left + 15, y + card_height + 12), "×2", font=style.font(13, bold=True), fill=style.BLACK,
                  anchor="mm")  # fmt: skip
    if owner is not None:
        small = style.font(14)
        draw.text((spot.x + 2, y + card_height + 22), style.fit(names[owner], small, spot.width - 4), font=small,
                  fill=accent)  # fmt: skip
    return drawn

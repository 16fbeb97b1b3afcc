"""The Garbage table as one picture, from the public view only (G11): every layout, the discard pile, the stock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from engine.cards import JACK
from engine.garbage.views import GarbagePublicView, SeatView
from render import cards, style
from render.layout import Drawn, Rendered, encode

CARD: Final = 60  # about 30 dp wide when a phone shows the picture 360 dp across
SPOT_GAP: Final = 6
PER_ROW: Final = 5  # G3: two rows of five, spot 1 at the top left
PAD: Final = 16
GAP: Final = 12
INSET: Final = 10
NAME_ROW: Final = 32
SLOT: Final = 84  # one header slot: a card and its label
PANEL_WIDTH: Final = 2 * INSET + PER_ROW * CARD + (PER_ROW - 1) * SPOT_GAP
WIDTH: Final = 2 * PAD + 2 * PANEL_WIDTH + GAP


def render_garbage_table(view: GarbagePublicView, names: Sequence[str]) -> Rendered:
    """Draw the Garbage table: header (whose turn, the card to place, discard, stock), then one layout per seat.

    Seats go two to a row. A face-down spot is a card back with its spot number; a Jack standing in a spot
    has a gold edge and the spot's number.

    Raises:
        ValueError: `names` does not give one name per seat.
    """
    if len(names) != len(view.seats):
        raise ValueError(f"{len(view.seats)} seats need {len(view.seats)} names, not {len(names)}")
    card_height = cards.height_for(CARD)
    header = card_height + 28
    rows = 2 if any(seat.layout_size > PER_ROW for seat in view.seats) else 1
    panel_height = NAME_ROW + rows * card_height + (rows - 1) * SPOT_GAP + 2 * INSET
    panel_rows = (len(view.seats) + 1) // 2
    height = 2 * PAD + header + panel_rows * (panel_height + GAP)
    image = Image.new("RGB", (WIDTH, height), style.FELT)
    draw = ImageDraw.Draw(image)
    drawn = _header(image, draw, view, names)
    for index, seat in enumerate(view.seats):
        x0 = PAD + (index % 2) * (PANEL_WIDTH + GAP)
        y0 = PAD + header + GAP + (index // 2) * (panel_height + GAP)
        drawn += _layout(image, draw, view, seat, names[seat.seat], x0, y0, panel_height)
    return encode(image, drawn)


def _header(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: GarbagePublicView, names: Sequence[str]
) -> list[Drawn]:
    """Title and turn on the left; on the right the card to place (during a Jack choice), the discard, the stock."""
    style.text(draw, (PAD, PAD), f"Garbage · hand {view.hand_number}", style.font(24, bold=True), style.TEXT)
    turn_font = style.font(20, bold=True)
    style.text(draw, (PAD, PAD + 34), _turn_line(view, names), turn_font, style.GOLD)
    pending = next((seat for seat in view.seats if seat.pending is not None), None)
    if pending is not None:
        words = f"{names[pending.seat]} drew a Jack: it goes on a face-down spot"
        style.text(draw, (PAD, PAD + 64), style.fit(words, style.font(16), 380), style.font(16), style.TEXT)
    drawn = []
    x = WIDTH - PAD - SLOT
    label_font = style.font(14, bold=True)
    label_y = PAD + cards.height_for(CARD) + 4
    card_x = x + (SLOT - CARD) // 2
    if view.stock_size:
        drawn.append(cards.paste_back(image, card_x, PAD, CARD, "stock"))
    else:
        _empty_slot(draw, card_x, PAD)
    draw.text((x + SLOT / 2, label_y), f"stock {view.stock_size}", font=label_font, fill=style.TEXT, anchor="ma")
    x -= SLOT
    card_x = x + (SLOT - CARD) // 2
    if view.discard_top is not None:
        drawn.append(cards.paste_face(image, view.discard_top, card_x, PAD, CARD, "discard"))
    else:
        _empty_slot(draw, card_x, PAD)
    draw.text((x + SLOT / 2, label_y), f"discard {view.discard_size}", font=label_font, fill=style.TEXT,
              anchor="ma")  # fmt: skip
    if pending is not None and pending.pending is not None:
        x -= SLOT + GAP
        card_x = x + (SLOT - CARD) // 2
        draw.rounded_rectangle((x, PAD - 6, x + SLOT - 1, label_y + 20), radius=8, outline=style.GOLD, width=2)
        drawn.append(cards.paste_face(image, pending.pending, card_x, PAD, CARD, "pending"))
        draw.text((x + SLOT / 2, label_y), "in hand", font=label_font, fill=style.GOLD, anchor="ma")
    return drawn


def _turn_line(view: GarbagePublicView, names: Sequence[str]) -> str:
    face = style.font(20, bold=True)
    if view.to_move is None:
        playing = [seat for seat in view.seats if not seat.resigned] or list(view.seats)
        best = max(playing, key=lambda seat: seat.hands_won)
        return f"Game over · {style.fit(names[best.seat], face, 250)} won {best.hands_won} hands"
    return f"▶ {style.fit(names[view.to_move], face, 330)} to play"


def _empty_slot(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The outline of a missing card (an empty discard pile or stock)."""
    draw.rounded_rectangle((x, y, x + CARD - 1, y + cards.height_for(CARD) - 1), radius=6, outline=style.MUTED,
                           width=1)  # fmt: skip


def _layout(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: GarbagePublicView,
    seat: SeatView,
    name: str,
    x0: int,
    y0: int,
    height: int,
) -> list[Drawn]:
    """One seat's panel: name and hands won, then spots 1…n in rows of five."""
    active = seat.seat == view.to_move
    style.seat_panel(draw, (x0, y0, x0 + PANEL_WIDTH - 1, y0 + height - 1), seat.seat, active=active, dot_top=11)
    right = f"hands won {seat.hands_won}" + (" · resigned" if seat.resigned else "")
    small = style.font(15)
    right_width = small.getlength(right)
    draw.text((x0 + PANEL_WIDTH - INSET, y0 + 24), right, font=small, fill=style.MUTED, anchor="rs")
    name_font = style.font(18, bold=True)
    shown = style.fit(("▶ " if active else "") + name, name_font, PANEL_WIDTH - 3 * INSET - 16 - right_width)
    draw.text((x0 + INSET + 18, y0 + 24), shown, font=name_font, fill=style.GOLD if active else style.TEXT,
              anchor="ls")  # fmt: skip
    drawn = []
    card_height = cards.height_for(CARD)
    for number, card in enumerate(seat.spots, start=1):
        row, column = divmod(number - 1, PER_ROW)
        x = x0 + INSET + column * (CARD + SPOT_GAP)
        y = y0 + NAME_ROW + INSET + row * (card_height + SPOT_GAP)
        place = f"seat {seat.seat} spot {number}"
        if card is None:
            drawn.append(cards.paste_back(image, x, y, CARD, place, number=number))
        else:
            spot = number if card.rank == JACK else None
            drawn.append(cards.paste_face(image, card, x, y, CARD, place, spot=spot))
    return drawn

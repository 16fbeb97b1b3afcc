"""A Kasino player's own hand, large, for the DM or the ephemeral panel: drawn from that seat's view only."""

from __future__ import annotations

from typing import Final

from PIL import Image

from engine.kasino.table import hand_order, hand_value, table_value
from engine.kasino.views import KasinoView
from render import cards, style
from render.layout import Drawn, Rendered, encode
from render.writing import Pen

CARD: Final = 120
GAP: Final = 16
PAD: Final = 16
MOST: Final = 4  # K3: a hand never holds more than four cards
TITLE: Final = 40
CAPTION: Final = 30
WIDTH: Final = 2 * PAD + MOST * CARD + (MOST - 1) * GAP


def render_hand(view: KasinoView) -> Rendered:
    """Draw the seat's hand in hand order; under a card whose value from the hand differs (K2), that value.

    Raises:
        TypeError: `view` is not one seat's `KasinoView`.
    """
    if not isinstance(view, KasinoView):
        raise TypeError(f"render_hand takes a seat's view(seat), not {type(view).__name__}")
    hand = sorted(view.hand, key=hand_order)
    card_height = cards.height_for(CARD)
    height = PAD + TITLE + card_height + CAPTION + PAD
    image = Image.new("RGB", (WIDTH, height), style.FELT)
    pen = Pen(image)
    public = view.public
    pen.write((PAD, PAD), f"Your hand · round {public.round}", style.font(24, bold=True), style.TEXT)
    if public.over:
        state, colour = "game over", style.MUTED
    elif public.to_move == view.seat:
        state, colour = "▶ your turn", style.GOLD
    else:
        state, colour = "waiting", style.MUTED
    pen.write((WIDTH - PAD, PAD + 2), state, style.font(22, bold=True), colour, anchor="ra")
    top = PAD + TITLE
    if not hand:
        pen.write((WIDTH / 2, top + card_height / 2), "No cards in hand.", style.font(22), style.MUTED, anchor="mm")
    drawn: list[Drawn] = []
    caption_font = style.font(style.smallest_type(WIDTH), bold=True)
    for position, card in enumerate(hand):
        x = PAD + position * (CARD + GAP)
        drawn.append(cards.paste_face(image, card, x, top, CARD, "hand"))
        if hand_value(card) != table_value(card):
            pen.write((x + CARD / 2, top + card_height + 5), f"takes {hand_value(card)}", caption_font, style.GOLD,
                      anchor="ma")  # fmt: skip
    return encode(image, drawn, pen.written)

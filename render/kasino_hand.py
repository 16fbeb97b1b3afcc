"""A Kasino player's own hand, large, for the DM or the ephemeral panel: drawn from that seat's view only."""

from __future__ import annotations

from typing import Final

from PIL import Image, ImageDraw

from engine.kasino.table import hand_order, hand_value, table_value
from engine.kasino.views import KasinoView
from render import cards, style
from render.layout import Drawn, Rendered, encode

CARD: Final = 120
GAP: Final = 16
PAD: Final = 16
MOST: Final = 4  # K3: a hand never holds more than four cards
TITLE: Final = 40
CAPTION: Final = 26
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
    draw = ImageDraw.Draw(image)
    public = view.public
    draw.text((PAD, PAD), f"Your hand · round {public.round}", font=style.font(22, bold=True), fill=style.TEXT)
    if public.over:
        state, colour = "game over", style.MUTED
    elif public.to_move == view.seat:
        state, colour = "▶ your turn", style.GOLD
    else:
        state, colour = "waiting", style.MUTED
    draw.text((WIDTH - PAD, PAD + 2), state, font=style.font(20, bold=True), fill=colour, anchor="ra")
    top = PAD + TITLE
    if not hand:
        draw.text((WIDTH / 2, top + card_height / 2), "No cards in hand.", font=style.font(20), fill=style.MUTED,
                  anchor="mm")  # fmt: skip
    drawn: list[Drawn] = []
    caption_font = style.font(16, bold=True)
    for position, card in enumerate(hand):
        x = PAD + position * (CARD + GAP)
        drawn.append(cards.paste_face(image, card, x, top, CARD, "hand"))
        if hand_value(card) != table_value(card):
            draw.text((x + CARD / 2, top + card_height + 5), f"takes {hand_value(card)}", font=caption_font,
                      fill=style.GOLD, anchor="ma")  # fmt: skip
    return encode(image, drawn)

"""A Kasino player's own hand, large, for the DM or the ephemeral panel: drawn from that seat's view only.

Its words are the reader's language's (catalog domain `pictures.po`), its cards in that language's rank letters.
"""

from __future__ import annotations

from typing import Final

from PIL import Image

from engine.kasino.table import hand_order, hand_value, table_value
from engine.kasino.views import KasinoView
from i18n import SOURCE_LOCALE, say
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
_TITLE_FONT: Final = style.font(24, bold=True)
_STATE_FONT: Final = style.font(22, bold=True)


def render_hand(view: KasinoView, locale: str = SOURCE_LOCALE) -> Rendered:
    """Draw the seat's hand in hand order, in `locale`; under a card whose value from the hand differs (K2), that value.

    The state (your turn, waiting) stands at the top right, beside the title, or under it when both do not fit.

    Raises:
        TypeError: `view` is not one seat's `KasinoView`.
    """
    if not isinstance(view, KasinoView):
        raise TypeError(f"render_hand takes a seat's view(seat), not {type(view).__name__}")
    hand = sorted(view.hand, key=hand_order)
    card_height = cards.height_for(CARD)
    public = view.public
    title = say(locale, "picture.hand.title", round=public.round)
    if public.over:
        state, colour = say(locale, "picture.hand.over"), style.MUTED
    elif public.to_move == view.seat:
        state, colour = "▶ " + say(locale, "picture.hand.your-turn"), style.GOLD
    else:
        state, colour = say(locale, "picture.hand.waiting"), style.MUTED
    beside = _TITLE_FONT.getlength(title) + 2 * GAP + _STATE_FONT.getlength(state) <= WIDTH - 2 * PAD
    top = PAD + TITLE + (0 if beside else TITLE)
    height = top + card_height + CAPTION + PAD
    image = Image.new("RGB", (WIDTH, height), style.FELT)
    pen = Pen(image)
    pen.write((PAD, PAD), title, _TITLE_FONT, style.TEXT)
    if beside:
        pen.write((WIDTH - PAD, PAD + 2), state, _STATE_FONT, colour, anchor="ra")
    else:
        pen.write((PAD, PAD + TITLE), state, _STATE_FONT, colour)
    if not hand:
        empty = say(locale, "picture.hand.empty")
        pen.write((WIDTH / 2, top + card_height / 2), empty, style.font(22), style.MUTED, anchor="mm")
    drawn: list[Drawn] = []
    caption_font = style.font(style.smallest_type(WIDTH), bold=True)
    for position, card in enumerate(hand):
        x = PAD + position * (CARD + GAP)
        drawn.append(cards.paste_face(image, card, x, top, CARD, "hand", locale=locale))
        if hand_value(card) != table_value(card):
            takes = say(locale, "picture.hand.takes", value=hand_value(card))
            pen.write((x + CARD / 2, top + card_height + 5), takes, caption_font, style.GOLD, anchor="ma")
    return encode(image, drawn, pen.written)

"""The Garbage table as one picture, from the public view only (G11): every layout, the discard pile, the stock.

Drawn 600 px wide for a chat that shows it 300-400 px wide: every word is at least `style.smallest_type`, names
and labels wrap instead of being cut, and the words are the text table's (cogs/garbage/cog.py): "10 spots · 2 hands
won", in the server's language (catalog domain `pictures.po`), cards with its rank letters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image

from engine.cards import Card
from engine.garbage.views import GarbagePublicView, SeatView
from i18n import SOURCE_LOCALE, card_words, counted, join_names, say
from render import cards, style
from render._panel import NAME, NAME_LEFT, SMALL, SMALL_BOLD, TITLE, TURN, WIDTH, heading, seat_head, to_play, wrap_name
from render.layout import Drawn, Rendered, encode
from render.writing import Pen, line_height, pack, wrap

PAD: Final = 12
GAP: Final = 8
INSET: Final = 8  # inside a seat panel
SPOT_GAP: Final = 4
PER_ROW: Final = 10  # a layout is one row of ten spots, spot 1 at the left: the widest cards a narrow picture allows
CARD: Final = (WIDTH - 2 * PAD - 2 * INSET - (PER_ROW - 1) * SPOT_GAP) // PER_ROW
PANEL_WIDTH: Final = WIDTH - 2 * PAD
LABEL_GAP: Final = 8  # between a header card and its words


@dataclass(frozen=True, slots=True)
class _Panel:
    """A seat's words, wrapped to its panel: name lines, counts beside the last name or under it, a held wild card."""

    seat: SeatView
    name: list[str]
    counts: list[str]  # one line when beside the name
    counts_beside: bool
    holding: list[str]
    active: bool

    @property
    def words_height(self) -> int:
        name = line_height(NAME) * len(self.name) + (0 if self.counts_beside else line_height(SMALL) * len(self.counts))
        return name + line_height(SMALL) * len(self.holding)

    @property
    def height(self) -> int:
        rows = (max(len(self.seat.spots), 1) + PER_ROW - 1) // PER_ROW
        card_rows = rows * cards.height_for(CARD) + (rows - 1) * SPOT_GAP
        return 2 * INSET + self.words_height + 4 + card_rows


def render_garbage_table(view: GarbagePublicView, names: Sequence[str], locale: str = SOURCE_LOCALE) -> Rendered:
    """Draw the Garbage table in `locale`'s words: header (whose turn; discard, stock, the card in hand), then layouts.

    A face-down spot is a card back with its spot number; a wild card (a Jack; a King or a Joker under the house
    rules) standing in a spot has a gold edge and the spot's number.

    Raises:
        ValueError: `names` does not give one name per seat.
    """
    if len(names) != len(view.seats):
        raise ValueError(f"{len(view.seats)} seats need {len(view.seats)} names, not {len(names)}")
    turn = wrap(_turn_line(view, names, locale), TURN, WIDTH - 2 * PAD)
    row = _pile_row(view, locale)
    header = line_height(TITLE) + line_height(TURN) * len(turn) + GAP + row.height
    panels = [_panel(view, seat, names[seat.seat], locale) for seat in view.seats]
    height = 2 * PAD + header + sum(GAP + panel.height for panel in panels)
    image = Image.new("RGB", (WIDTH, height), style.FELT)
    pen = Pen(image)
    heading(pen, PAD, say(locale, "picture.garbage.title", hand=view.hand_number), turn)
    drawn = _piles(image, pen, view, PAD + header - row.height, row, locale)
    y = PAD + header + GAP
    for panel in panels:
        drawn += _draw_panel(image, pen, panel, y, view.is_wild, locale)
        y += panel.height + GAP
    return encode(image, drawn, pen.written)


def _turn_line(view: GarbagePublicView, names: Sequence[str], locale: str) -> str:
    if view.to_move is None:
        playing = [seat for seat in view.seats if not seat.resigned] or list(view.seats)
        most = max(seat.hands_won for seat in playing)
        best = [names[seat.seat] for seat in playing if seat.hands_won == most]  # several share a win (GV4)
        hands = counted(most, "hand", locale)
        return say(locale, "picture.garbage.won", player=join_names(best, locale), hands=hands)
    return to_play(names, view.to_move, locale)


_LABEL_TOP: Final = 4  # a label's first line starts this far below its card's top
_HELD_MARGIN: Final = 6  # between the held card's label and its gold frame


@dataclass(frozen=True, slots=True)
class _PileRow:
    """The words beside the discard pile, the stock and a held card (lines each), and the gap after each label."""

    labels: list[list[str]]
    after: int

    @property
    def height(self) -> int:
        """The row's height: a card's, or its longest label's when that is taller."""
        return max(
            [cards.height_for(CARD), *(_LABEL_TOP + line_height(SMALL_BOLD) * len(label) for label in self.labels)]
        )


def _pile_row(view: GarbagePublicView, locale: str) -> _PileRow:
    """The row's words, set to fit across the picture: first each label on its lines and a narrower gap if need be.

    Then the names break at spaces, the widest label first ("tumpukan buangan" over two lines; a count stays whole),
    and when even that is too wide, the held card goes without its label: the seat's panel says it in words.
    """
    labels = [
        [say(locale, "picture.garbage.discard"), counted(view.discard_size, "card", locale)],
        [say(locale, "picture.garbage.stock"), counted(view.stock_size, "card", locale)],
    ]
    if any(seat.pending is not None for seat in view.seats):
        labels.append([say(locale, "picture.garbage.holding")])
    for after in (3 * GAP, 2 * GAP):
        if sum(_label_width(label) for label in labels) <= _room(len(labels), after):
            return _PileRow(labels, after)
    after = 2 * GAP
    narrowed = _narrowed(labels, _room(len(labels), after))
    if sum(_label_width(label) for label in narrowed) <= _room(len(labels), after) or len(labels) < 3:
        return _PileRow(narrowed, after)
    return _PileRow([*_narrowed(labels[:2], _room(3, after)), []], after)


def _room(count: int, after: int) -> int:
    """Pixels across left for `count` labels beside their cards, `after` apart (inside the held card's frame)."""
    return WIDTH - 2 * PAD - count * (CARD + LABEL_GAP) - (count - 1) * after - (_HELD_MARGIN if count == 3 else 0)


def _narrowed(labels: list[list[str]], room: int) -> list[list[str]]:
    """`labels` with names broken at spaces, the widest first, until they fit `room` or none breaks further."""
    labels = list(labels)
    widths = [_label_width(label) for label in labels]
    while sum(widths) > room:
        for index in sorted(range(len(labels)), key=lambda index: -widths[index]):
            name, *rest = labels[index]
            words = [SMALL_BOLD.getlength(word) for word in name.split()] + [
                SMALL_BOLD.getlength(line) for line in rest
            ]
            narrower = [*wrap(name, SMALL_BOLD, max(words)), *rest]
            if _label_width(narrower) < widths[index]:
                labels[index], widths[index] = narrower, _label_width(narrower)
                break
        else:
            break
    return labels


def _label_width(lines: list[str]) -> int:
    return max((round(SMALL_BOLD.getlength(line)) for line in lines), default=0)


def _piles(image: Image.Image, pen: Pen, view: GarbagePublicView, y: int, row: _PileRow, locale: str) -> list[Drawn]:
    """The discard pile, the stock and a held card in a row, each card with its words beside it (the text's terms)."""
    drawn = []
    x = PAD
    if view.discard_top is not None:
        drawn.append(cards.paste_face(image, view.discard_top, x, y, CARD, "discard", locale=locale))
    else:
        _empty_slot(pen, x, y)
    x = _label(pen, x + CARD + LABEL_GAP, y, row.labels[0]) + row.after
    if view.stock_size:
        drawn.append(cards.paste_back(image, x, y, CARD, "stock"))
    else:
        _empty_slot(pen, x, y)
    x = _label(pen, x + CARD + LABEL_GAP, y, row.labels[1]) + row.after
    held = next((seat.pending for seat in view.seats if seat.pending is not None), None)
    if held is not None:
        pen.draw.rounded_rectangle((x - 4, y - 4, WIDTH - PAD - 1, y + row.height + 3), radius=8, outline=style.GOLD,
                                   width=2)  # fmt: skip
        drawn.append(cards.paste_face(image, held, x, y, CARD, "pending", locale=locale))
        _label(pen, x + CARD + LABEL_GAP, y, row.labels[2], style.GOLD)
    return drawn


def _label(pen: Pen, x: int, y: int, lines: list[str], colour: tuple[int, int, int] = style.TEXT) -> int:
    """Write `lines` from (x, y); return where they end."""
    pen.write_lines(x, y + _LABEL_TOP, lines, SMALL_BOLD, colour)
    return x + _label_width(lines)


def _empty_slot(pen: Pen, x: int, y: int) -> None:
    """The outline of a missing card (an empty discard pile or stock)."""
    pen.draw.rounded_rectangle((x, y, x + CARD - 1, y + cards.height_for(CARD) - 1), radius=6, outline=style.MUTED,
                               width=1)  # fmt: skip


def _panel(view: GarbagePublicView, seat: SeatView, name: str, locale: str) -> _Panel:
    """A seat's words in the text table's terms, wrapped to the panel."""
    active = seat.seat == view.to_move
    parts = [counted(seat.layout_size, "spot", locale), counted(seat.hands_won, "hand won", locale)]
    parts += [say(locale, "picture.resigned")] if seat.resigned else []
    room = PANEL_WIDTH - NAME_LEFT - INSET
    lines = wrap_name(name, active, room)
    counts = pack(parts, SMALL, room)
    beside = len(counts) == 1 and NAME.getlength(lines[-1]) + 2 * GAP + SMALL.getlength(counts[0]) <= room
    holding = [] if seat.pending is None else wrap(
        say(locale, "picture.garbage.holding-jack", card=card_words(seat.pending, locale)),
        SMALL, PANEL_WIDTH - 2 * INSET,
    )  # fmt: skip
    return _Panel(seat, lines, counts, beside, holding, active)


def _draw_panel(
    image: Image.Image, pen: Pen, panel: _Panel, y0: int, wild: Callable[[Card], bool], locale: str
) -> list[Drawn]:
    """One seat's panel: name and counts, what a held wild card waits for, then spots 1…n.

    A wild card standing in a spot (a Jack, or a King or a Joker under the house rules) shows the spot's number.
    """
    x0 = PAD
    seat = panel.seat
    box = (x0, y0, x0 + PANEL_WIDTH - 1, y0 + panel.height - 1)
    y = y0 + INSET
    name_height = seat_head(pen, box, seat.seat, panel.name, active=panel.active, inset=INSET)
    if panel.counts_beside:
        # On the name's last line, right-aligned, on the same baseline.
        baseline = y + name_height - line_height(NAME) + NAME.getmetrics()[0]
        pen.write((x0 + PANEL_WIDTH - INSET, baseline), panel.counts[0], SMALL, style.MUTED, anchor="rs")
        y += name_height
    else:
        y += name_height
        y += pen.write_lines(x0 + NAME_LEFT, y, panel.counts, SMALL, style.MUTED)
    y += pen.write_lines(x0 + INSET, y, panel.holding, SMALL, style.GOLD) + 4
    drawn = []
    card_height = cards.height_for(CARD)
    for number, card in enumerate(seat.spots, start=1):
        row, column = divmod(number - 1, PER_ROW)
        x = x0 + INSET + column * (CARD + SPOT_GAP)
        top = y + row * (card_height + SPOT_GAP)
        place = f"seat {seat.seat} spot {number}"
        if card is None:
            drawn.append(cards.paste_back(image, x, top, CARD, place, number=number))
        else:
            spot = number if wild(card) else None
            drawn.append(cards.paste_face(image, card, x, top, CARD, place, spot=spot, locale=locale))
    return drawn

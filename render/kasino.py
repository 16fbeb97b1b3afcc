"""The Kasino table as one picture, from the public view only (K16): what anyone at the table may see.

Drawn 600 px wide for a chat that shows it 300-400 px wide: every word is at least `style.smallest_type`, names
wrap instead of being cut, and the words are the text table's (cogs/kasino/render.py): "hand 3 · captured 2", in
the server's language (catalog domain `pictures.po`), cards with its rank letters.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image

from engine.kasino.scoring import OFF
from engine.kasino.table import TableItem
from engine.kasino.views import KasinoPublicView, SeatSummary
from i18n import SOURCE_LOCALE, counted, join_names, say
from render import cards, style
from render._panel import NAME, NAME_LEFT, SMALL, SMALL_BOLD, TITLE, TURN, WIDTH, heading, seat_head, to_play, wrap_name
from render.layout import Drawn, Rendered, encode
from render.writing import Pen, line_height, pack, wrap

PAD: Final = 14
GAP: Final = 10
INSET: Final = 12  # inside a seat panel
CARD: Final = 68  # table cards: 34 px wide on a phone that shows the picture 300 px across
STOCK_CARD: Final = 44
PLATE: Final = 6  # how far a pile's or build's plate reaches past its cards
PANEL_WIDTH: Final = (WIDTH - 2 * PAD - GAP) // 2  # seats go two to a row


@dataclass(frozen=True, slots=True)
class _Panel:
    """A seat's words, wrapped to its panel: name lines, then count lines (the first may start with the score)."""

    seat: SeatSummary
    name: list[str]
    counts: list[str]
    score: str
    active: bool

    @property
    def height(self) -> int:
        return 2 * INSET + line_height(NAME) * len(self.name) + 4 + line_height(SMALL) * len(self.counts)


@dataclass(frozen=True, slots=True)
class _Block:
    """A table item and where its block (fan plus caption) goes."""

    item: TableItem
    x: int
    row: int
    width: int
    caption: list[str]  # what it is: "build 9 doubled", wrapped
    owner: list[str]  # whose build: "of Kari", wrapped

    @property
    def height(self) -> int:
        lines = len(self.caption) + len(self.owner)
        return cards.height_for(CARD) + (8 + line_height(SMALL) * lines if lines else 0)


def render_kasino_table(view: KasinoPublicView, names: Sequence[str], locale: str = SOURCE_LOCALE) -> Rendered:
    """Draw the Kasino table in `locale`'s words: header with whose turn, one panel per seat, then every table item.

    Raises:
        ValueError: `names` does not give one name per seat.
    """
    if len(names) != len(view.seats):
        raise ValueError(f"{len(view.seats)} seats need {len(view.seats)} names, not {len(names)}")
    beside_stock = WIDTH - 2 * PAD - STOCK_CARD - GAP
    turn = wrap(_turn_line(view, names, locale), TURN, beside_stock)
    stock = (say(locale, "picture.kasino.stock", cards=counted(view.stock, "card", locale)) if view.stock
             else say(locale, "picture.kasino.stock-empty"))  # fmt: skip
    facts = pack([stock, say(locale, "picture.kasino.target", points=counted(view.target, "point", locale))],
                 SMALL, beside_stock)  # fmt: skip
    header = line_height(TITLE) + line_height(TURN) * len(turn) + line_height(SMALL) * len(facts)
    panels = [_panel(view, seat, names[seat.seat], locale) for seat in view.seats]
    panel_rows = [max(panel.height for panel in panels[row : row + 2]) for row in range(0, len(panels), 2)]
    blocks, row_heights = _flow(view.table, names, locale)
    table_top = PAD + header + GAP + sum(panel_rows) + GAP * len(panel_rows) + GAP
    table_height = sum(row_heights) + GAP * (len(row_heights) + 1) if blocks else line_height(TURN) + 2 * GAP
    height = table_top + table_height + PAD
    image = Image.new("RGB", (WIDTH, height), style.FELT)
    pen = Pen(image)
    drawn: list[Drawn] = []
    y = heading(pen, PAD, say(locale, "picture.kasino.title", round=view.round), turn)
    pen.write_lines(PAD, y, facts, SMALL, style.MUTED)
    if view.stock:
        drawn.append(cards.paste_back(image, WIDTH - PAD - STOCK_CARD, PAD, STOCK_CARD, "stock"))
    y = PAD + header + GAP
    for row, row_height in enumerate(panel_rows):
        for column, panel in enumerate(panels[2 * row : 2 * row + 2]):
            _draw_panel(pen, panel, PAD + column * (PANEL_WIDTH + GAP), y, row_height)
        y += row_height + GAP
    pen.draw.rounded_rectangle((PAD, table_top - GAP, WIDTH - PAD - 1, table_top + table_height - 1), radius=14,
                               fill=style.PANEL)  # fmt: skip
    if not blocks:
        pen.write((WIDTH / 2, table_top + table_height / 2 - GAP / 2), say(locale, "picture.kasino.empty-table"),
                  SMALL, style.MUTED, anchor="mm")  # fmt: skip
    tops = [table_top + sum(row_heights[:row]) + GAP * row for row in range(len(row_heights))]
    for block in blocks:
        drawn += _draw_block(image, pen, block, tops[block.row], locale)
    return encode(image, drawn, pen.written)


def _turn_line(view: KasinoPublicView, names: Sequence[str], locale: str) -> str:
    if view.over or view.to_move is None:
        playing = [seat for seat in view.seats if not seat.resigned] or list(view.seats)
        best = max(seat.score for seat in playing)
        leaders = join_names([names[seat.seat] for seat in playing if seat.score == best], locale)
        return say(locale, "picture.kasino.won-by", winners=leaders, points=counted(best, "point", locale))
    return to_play(names, view.to_move, locale)


def _panel(view: KasinoPublicView, seat: SeatSummary, name: str, locale: str) -> _Panel:
    """A seat's words in the text table's order and terms, wrapped to the panel (the score first, in bold).

    In partnerships (KV5) the score is the team's and its team follows it; with sweeps off (KV2) none are counted.
    """
    active = seat.seat == view.to_move and not view.over
    lines = wrap_name(name, active, PANEL_WIDTH - NAME_LEFT - INSET)
    score = counted(seat.score, "point", locale)
    parts = [score]
    if view.teams is not None:  # KV5: the score is the team's; partners sit in one column (seats 1 and 3, 2 and 4)
        parts.append(say(locale, "picture.kasino.team", team=seat.seat % 2 + 1))
    parts += [
        say(locale, "picture.kasino.hand", n=seat.hand_size),
        say(locale, "picture.kasino.captured", n=seat.captured),
    ]
    if view.settings.sweeps != OFF:  # KV2: sweeps that score nothing are not counted on the table
        parts.append(say(locale, "picture.kasino.sweeps", n=seat.sweeps))
    if seat.seat == view.dealer:
        parts.append(say(locale, "picture.kasino.dealer"))
    if seat.resigned:
        parts.append(say(locale, "picture.resigned"))
    bold_extra = SMALL_BOLD.getlength(score) - SMALL.getlength(score)  # the score is packed plain, drawn bold
    counts = pack(parts, SMALL, PANEL_WIDTH - 2 * INSET - bold_extra)
    return _Panel(seat, lines, counts, score, active)


def _draw_panel(pen: Pen, panel: _Panel, x0: int, y0: int, height: int) -> None:
    """Name beside the seat's dot, then score and counts; the player to move is framed in gold."""
    box = (x0, y0, x0 + PANEL_WIDTH - 1, y0 + height - 1)
    y = y0 + INSET + seat_head(pen, box, panel.seat.seat, panel.name, active=panel.active, inset=INSET) + 4
    for line in panel.counts:
        x: float = x0 + INSET
        rest = line
        if line.startswith(panel.score):
            x += pen.write((x, y), panel.score, SMALL_BOLD, style.TEXT)
            rest = line.removeprefix(panel.score)
        if rest:
            pen.write((x, y), rest, SMALL, style.MUTED)
        y += line_height(SMALL)


def _flow(items: Sequence[TableItem], names: Sequence[str], locale: str) -> tuple[list[_Block], list[int]]:
    """Place items left to right, starting a new row when one would cross the right edge; return the rows' heights.

    A block is as wide as its fan or its caption's longest line, whichever is wider (but never wider than a row,
    where the caption wraps at spaces), so no word is ever cut.
    """
    blocks: list[_Block] = []
    left, right = PAD + GAP, WIDTH - PAD - GAP
    x, row = left, 0
    for item in items:
        caption, owner = _captions(item, names, locale)
        plate = PLATE if caption else 0  # a pile or build sits on a plate that reaches this far past its block
        lines = max((face.getlength(line) for line, face in [(caption, SMALL_BOLD), (owner, SMALL)] if line), default=0)
        width = min(right - left - 2 * plate, max(cards.fan_width(len(item.cards), CARD), math.ceil(lines)))
        if x > left and x + 2 * plate + width > right:
            x, row = left, row + 1
        caption_lines = wrap(caption, SMALL_BOLD, width) if caption else []
        owner_lines = wrap(owner, SMALL, width) if owner else []
        blocks.append(_Block(item, x + plate, row, width, caption_lines, owner_lines))
        x += 2 * plate + width + GAP
    heights = [max(block.height for block in blocks if block.row == number) for number in range(row + 1) if blocks]
    return blocks, heights


def _captions(item: TableItem, names: Sequence[str], locale: str) -> tuple[str, str]:
    """What a pile or build is, in the text table's words, and whose build it is; nothing for a loose card."""
    if item.kind == "loose":
        return "", ""
    if item.kind == "pile":
        return say(locale, "picture.kasino.pile", value=item.value), ""
    owner = say(locale, "picture.kasino.owner", player=names[item.owner]) if item.owner is not None else ""
    build = "picture.kasino.build-doubled" if item.doubled else "picture.kasino.build"
    return say(locale, build, value=item.value), owner


def _draw_block(image: Image.Image, pen: Pen, block: _Block, y: int, locale: str) -> list[Drawn]:
    """One table item: a loose card, or a fanned pile or build on a plate with its caption."""
    item = block.item
    if item.kind == "loose":
        return [cards.paste_face(image, item.cards[0], block.x, y, CARD, "table", locale=locale)]
    build = item.kind == "build"
    owner = item.owner if build else None
    accent = style.SEAT_COLOURS[owner % len(style.SEAT_COLOURS)] if owner is not None else style.MUTED
    # A plate behind the fan and caption keeps one item's cards together, edged in the owner's colour.
    pen.draw.rounded_rectangle(
        (block.x - PLATE, y - PLATE, block.x + block.width + PLATE - 1, y + block.height + 2),
        radius=8,
        fill=style.FELT,
        outline=accent,
        width=3 if build else 1,
    )
    drawn = cards.paste_fan(image, item.cards, block.x, y, CARD, "table", locale=locale)
    top = y + cards.height_for(CARD) + 6
    top += pen.write_lines(block.x + 2, top, block.caption, SMALL_BOLD, style.TEXT)
    pen.write_lines(block.x + 2, top, block.owner, SMALL, accent)
    return drawn

"""Kasino as text: the public table (from `public_view()` only) and a player's hand (from `view(seat)`).

Every text is told in one locale: the table and the round's scores in the server's, a panel in its reader's.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs._table import seat_heading, turn_headline
from cogs._text import clip
from cogs._words import game_title, seat_names
from db.records import GameRecord
from engine.cards import Card
from engine.kasino import KasinoGame
from engine.kasino.scoring import SeatScore
from engine.kasino.table import TableItem, hand_order
from engine.kasino.views import KasinoPublicView
from i18n import SOURCE_LOCALE, card_words, counted, say

FIELD_LIMIT = 1024
SCORE_LINES = (  # K14's lines of a round's score, each said with its points ("most cards 2")
    ("most_cards", "kasino.table.most-cards"),
    ("most_spades", "kasino.table.most-spades"),
    ("aces", "kasino.table.aces"),
    ("little_casino", "kasino.table.little-casino"),
    ("big_casino", "kasino.table.big-casino"),
    ("sweeps", "kasino.table.sweeps"),
    ("last_take", "kasino.table.last-take"),
)


def cards_words(cards: Sequence[Card], locale: str, sep: str = " ") -> str:
    """Cards as `locale` writes them, in a row."""
    return sep.join(card_words(card, locale) for card in cards)


def item_text(item: TableItem, names: Sequence[str], locale: str = SOURCE_LOCALE) -> str:
    """One table item in words: `7♣`, `pile 7♦ 7♣ (7)`, `build 9 of Ali: 4♠ 5♥`."""
    if item.kind == "loose":
        return card_words(item.cards[0], locale)
    cards = cards_words(item.cards, locale)
    if item.kind == "pile":
        return say(locale, "kasino.table.pile", cards=cards, value=item.value)
    owner = names[item.owner] if item.owner is not None else "?"  # a build always has one (the engine checks)
    build = "kasino.table.build-doubled" if item.doubled else "kasino.table.build"
    return say(locale, build, value=item.value, owner=owner, cards=cards)


def table_items(items: Sequence[TableItem], names: Sequence[str], locale: str) -> str:
    """Every item on the table, or that it is empty."""
    return " · ".join(item_text(item, names, locale) for item in items) or say(locale, "table.empty")


def public_table(
    record: GameRecord, view: KasinoPublicView, narration: Sequence[str], locale: str = SOURCE_LOCALE
) -> tuple[str, discord.Embed]:
    """The living table in the server's `locale`: whose turn, every table item, the counts per seat, the last action."""
    names = seat_names(record, locale)
    to_move = None if view.over else view.to_move
    headline = turn_headline(record, say(locale, "kasino.table.stage", round=view.round), to_move, locale)
    items = table_items(view.table, names, locale)
    counts = say(
        locale,
        "kasino.table.counts",
        stock=counted(view.stock, "card", locale),
        dealer=names[view.dealer],
        target=counted(view.target, "point", locale),
    )
    embed = discord.Embed(
        title=say(locale, "kasino.table.title", title=game_title(record), round=view.round),
        description=say(locale, "kasino.table.on-table", items=items) + "\n" + counts,
    )
    for seat in view.seats:
        embed.add_field(
            name=seat_heading(record, seat.seat, to_move, resigned=seat.resigned, locale=locale),
            value=say(
                locale,
                "kasino.table.seat",
                hand=seat.hand_size,
                captured=seat.captured,
                sweeps=seat.sweeps,
                score=seat.score,
            ),
            inline=True,
        )
    last = "\n".join(narration)
    if last:
        embed.add_field(name=say(locale, "kasino.table.last-move"), value=clip(last, FIELD_LIMIT), inline=False)
    return headline, embed


def score_table(
    names: Sequence[str], scores: Sequence[SeatScore], round_number: int, locale: str = SOURCE_LOCALE
) -> str:
    """The K14 breakdown of one round (posted when the round is scored): one short block per player, name first.

    Not a fixed-width table: its columns cut long names ("Computer (hard)"); each name here is whole, and on a phone
    each block wraps as words do. Told in the server's `locale`.
    """
    blocks = []
    for name, score in zip(names, scores, strict=True):
        # Named, not shown as cards: this text is public, and these cards may be in a hand next round.
        scored = [
            say(locale, line, points=getattr(score, field)) for field, line in SCORE_LINES if getattr(score, field)
        ] or [say(locale, "kasino.table.nothing-scored")]
        blocks.append(
            say(
                locale,
                "kasino.table.score-block",
                player=f"**{discord.utils.escape_markdown(name)}**",
                points=counted(score.round_total, "point", locale),
                total=score.game_total,
                cards=counted(score.cards, "card", locale),
                spades=counted(score.spades, "spade", locale),
                scored=" · ".join(scored),
            )
        )
    return say(locale, "kasino.table.scored", round=round_number) + "\n" + "\n".join(blocks)


def hand_text(record: GameRecord, game: KasinoGame, seat: int, locale: str = SOURCE_LOCALE) -> str:
    """The private panel's text in its reader's `locale`: the hand, and on the seat's turn the table and what to do.

    While it is not the seat's turn the text names nothing that changes with other players' moves, so a waiting
    player's panel is edited only when their own hand changes.
    """
    view = game.view(seat)
    names = [s.name for s in record.seats]
    hand = cards_words(sorted(view.hand, key=hand_order), locale, "  ") or say(locale, "table.no-cards")
    place = f"<#{record.thread_id or record.channel_id}>"
    title = game_title(record)
    if view.public.over or record.status != "running":
        if view.public.over:
            ended = "kasino.table.panel-over"
        else:
            ended = "kasino.table.panel-cancelled" if record.status == "cancelled" else "kasino.table.panel-ended"
        return "\n".join(
            [say(locale, ended, title=f"**{title}**", place=place), say(locale, "kasino.table.last-hand", hand=hand)]
        )
    if view.public.to_move != seat:
        return "\n".join(
            [
                say(locale, "kasino.table.panel-waiting", title=title, round=view.public.round),
                f"# {hand}",
                say(locale, "kasino.table.panel-not-yet", place=place),
            ]
        )
    return "\n".join(
        [
            say(locale, "kasino.table.panel-turn", title=title, round=view.public.round, move=game.move_count + 1),
            f"# {hand}",
            say(locale, "kasino.table.panel-table", items=table_items(view.public.table, names, locale)),
            say(locale, "kasino.table.panel-how", command="/kasino play"),
        ]
    )

"""Kasino as text: the public table (from `public_view()` only) and a player's hand (from `view(seat)`)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs._table import seat_heading, turn_headline
from cogs._text import clip
from db.records import GameRecord
from engine.cards import format_cards
from engine.kasino import KasinoGame
from engine.kasino.scoring import SeatScore
from engine.kasino.table import TableItem, hand_order
from engine.kasino.views import KasinoPublicView
from i18n import counted, noun

FIELD_LIMIT = 1024


def item_text(item: TableItem, names: Sequence[str]) -> str:
    """One table item in words: `7♣`, `pile 7♦ 7♣ (7)`, `build 9 of Ali: 4♠ 5♥`."""
    if item.kind == "loose":
        return str(item.cards[0])
    if item.kind == "pile":
        return f"pile {format_cards(item.cards)} ({item.value})"
    owner = names[item.owner] if item.owner is not None else "nobody"
    doubled = " doubled" if item.doubled else ""
    return f"build {item.value}{doubled} of {owner}: {format_cards(item.cards)}"


def public_table(record: GameRecord, view: KasinoPublicView, narration: Sequence[str]) -> tuple[str, discord.Embed]:
    """The living table: whose turn, every table item, the counts per seat, and the last action."""
    names = [seat.name for seat in record.seats]
    to_move = None if view.over else view.to_move
    headline = turn_headline(record, f"round {view.round}", to_move)
    items = " · ".join(item_text(item, names) for item in view.table) or "(empty)"
    embed = discord.Embed(
        title=f"Kasino #{record.id} — round {view.round}",
        description=(
            f"**On the table:** {items}\n"
            f"**Stock:** {counted(view.stock, 'card')} · **Dealer:** {names[view.dealer]} · "
            f"**Playing to** {counted(view.target, 'point')}"
        ),
    )
    for seat in view.seats:
        embed.add_field(
            name=seat_heading(record, seat.seat, to_move, resigned=seat.resigned),
            value=(
                f"hand {seat.hand_size} · captured {seat.captured} · sweeps {seat.sweeps} · "
                f"**{seat.score}** {noun(seat.score, 'point')}"
            ),
            inline=True,
        )
    last = "\n".join(narration)
    if last:
        embed.add_field(name="Last move", value=clip(last, FIELD_LIMIT), inline=False)
    return headline, embed


def score_table(names: Sequence[str], scores: Sequence[SeatScore], round_number: int) -> str:
    """The K14 breakdown of one round (posted when the round is scored): one short block per player, name first.

    Not a fixed-width table: its columns cut long names ("Computer (hard)"); each name here is whole, and on a phone
    each block wraps as words do.
    """
    blocks = []
    for name, score in zip(names, scores, strict=True):
        # Named, not shown as cards: this text is public, and these cards may be in a hand next round.
        scored = [
            f"{label} {points}"
            for label, points in (
                ("most cards", score.most_cards),
                ("most spades", score.most_spades),
                ("aces", score.aces),
                ("little casino", score.little_casino),
                ("big casino", score.big_casino),
                ("sweeps", score.sweeps),
                ("last take", score.last_take),
            )
            if points
        ] or ["nothing scored"]
        blocks.append(
            f"**{discord.utils.escape_markdown(name)}**: {counted(score.round_total, 'point')} this round, "
            f"{score.game_total} in all\n"
            f"{counted(score.cards, 'card')}, {counted(score.spades, 'spade')} · " + " · ".join(scored)
        )
    return f"Round {round_number} scored:\n" + "\n".join(blocks)


def hand_text(record: GameRecord, game: KasinoGame, seat: int) -> str:
    """The private panel's text: the hand, and on the seat's turn the table and what to do.

    While it is not the seat's turn the text names nothing that changes with other players' moves, so a waiting
    player's panel is edited only when their own hand changes.
    """
    view = game.view(seat)
    names = [s.name for s in record.seats]
    hand = "  ".join(str(card) for card in sorted(view.hand, key=hand_order)) or "(no cards)"
    place = f"<#{record.thread_id or record.channel_id}>"
    if view.public.over or record.status != "running":
        ended = "is over" if view.public.over else "was cancelled" if record.status == "cancelled" else "has ended"
        return f"**Kasino #{record.id}** {ended}: the table and the results are in {place}.\nYour last hand: {hand}"
    if view.public.to_move != seat:
        return "\n".join(
            [
                f"**Your hand** in Kasino #{record.id} (round {view.public.round}):",
                f"# {hand}",
                f"Not your turn yet; you will be told when it is. The table is in {place}.",
            ]
        )
    table = " · ".join(item_text(item, names) for item in view.public.table) or "(empty)"
    return "\n".join(
        [
            f"**Your turn** in Kasino #{record.id} (round {view.public.round}, move {game.move_count + 1}):",
            f"# {hand}",
            f"Table: {table}",
            "Pick a card, then its move — or type `/kasino play`.",
        ]
    )

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
            f"**Stock:** {view.stock} cards · **Dealer:** {names[view.dealer]} · **Playing to** {view.target} points"
        ),
    )
    for seat in view.seats:
        embed.add_field(
            name=seat_heading(record, seat.seat, to_move, resigned=seat.resigned),
            value=f"hand {seat.hand_size} · captured {seat.captured} · sweeps {seat.sweeps} · **{seat.score}** pts",
            inline=True,
        )
    last = "\n".join(narration)
    if last:
        embed.add_field(name="Last move", value=clip(last, FIELD_LIMIT), inline=False)
    return headline, embed


def score_table(names: Sequence[str], scores: Sequence[SeatScore], round_number: int) -> str:
    """The K14 breakdown of one round as a fixed-width table (posted when the round is scored)."""
    rows = [
        ("cards", [str(score.cards) for score in scores]),
        ("spades", [str(score.spades) for score in scores]),
        ("most cards", [str(score.most_cards) for score in scores]),
        ("most spades", [str(score.most_spades) for score in scores]),
        ("aces", [str(score.aces) for score in scores]),
        # Named, not shown as cards: this table is public, and these cards may be in a hand next round.
        ("little cas.", [str(score.little_casino) for score in scores]),
        ("big casino", [str(score.big_casino) for score in scores]),
        ("sweeps", [str(score.sweeps) for score in scores]),
        ("last take", [str(score.last_take) for score in scores]),
        ("round", [str(score.round_total) for score in scores]),
        ("game total", [str(score.game_total) for score in scores]),
    ]
    headers = [name[:10] for name in names]
    width = max(len(header) for header in headers) + 2
    lines = ["".ljust(12) + "".join(header.rjust(width) for header in headers)]
    lines += [label.ljust(12) + "".join(value.rjust(width) for value in values) for label, values in rows]
    return f"Round {round_number} scored (points; the first two rows are counts):\n```\n" + "\n".join(lines) + "\n```"


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
            "Pick a move below, or type `/kasino play`.",
        ]
    )

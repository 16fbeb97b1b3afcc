"""The public face of a game, drawn from the stored game: the living table message and the result line.

Everything drawn here comes from the engine's public view (through the kind's `TableUI`) and the stored record;
a player's private view never passes through this module. `cogs._delivery` puts it on Discord.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from cogs._drawing import drawn
from cogs._recent import Recent
from cogs._table import PICTURE_NAME, TableMessage, TableUI
from cogs._text import legible, legible_embed
from cogs._timing import deadline_line
from db.records import GameRecord
from engine.base import AnyGame
from engine.registry import game_kind
from render import has_table_picture, render_table

if TYPE_CHECKING:
    from cogs._host import FinishedItem, GameBot, HandPanel, HandPictures

log = logging.getLogger(__name__)

# Rendered tables kept in memory, newest first. A version is drawn again only when its showing is retried (a
# failed call, after 5 s or more) or repeated; at most a few are, so a few dozen suffice, and 256 (20-30 KB each)
# filled 5-8 MB with the pictures of games the start-up catch-up had shown and would not show again.
PICTURES_KEPT = 32


def seat_names(record: GameRecord) -> list[str]:
    """Display names by seat."""
    return [seat.name for seat in record.seats]


class Presenter:
    """Draws what Discord shows of a game, from the stored game alone (`cogs._delivery` puts it on Discord)."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.uis: dict[str, TableUI] = {}
        # Each kind whose hands are private registers its seat panel here (see cogs._hands), and what draws the
        # panels' pictures off the event loop beforehand (so that building a panel draws nothing).
        self.hand_panels: dict[str, HandPanel] = {}
        self.hand_pictures: dict[str, HandPictures] = {}
        # What a finished game's table offers (the lobby's Rematch button), registered by the cog that handles it.
        self.finished_items: list[FinishedItem] = []
        self._pictures: Recent[tuple[int, int], bytes] = Recent(PICTURES_KEPT)

    def game_channel(self, record: GameRecord) -> discord.PartialMessageable:
        """Where the game is played: its thread, or the channel when it has none."""
        return self.bot.get_partial_messageable(record.thread_id or record.channel_id, guild_id=record.guild_id)

    def render(self, record: GameRecord, game: AnyGame) -> TableMessage:
        """The table message for this version of the game."""
        title = f"{game_kind(record.kind).title} #{record.id}"
        if record.status == "cancelled":
            return TableMessage(f"{title} was cancelled; no results were recorded.", self._last_table(record, game))
        narration = record.narration or ("The game is on.",)
        table = self.uis[record.kind].render_table(record, game, narration)
        view = table.view
        if record.status == "finished":
            view = discord.ui.View(timeout=None)
            for item in self.finished_items:
                view.add_item(item(record))
        return TableMessage(legible(table.content + deadline_line(record)), legible_embed(table.embed), view)

    def _last_table(self, record: GameRecord, game: AnyGame) -> discord.Embed:
        # The game as it stood (the kinds mark no turn once it is over).
        return legible_embed(self.uis[record.kind].render_table(record, game, record.narration).embed)

    async def hand_panel(self, record: GameRecord, game: AnyGame, seat: int) -> dict[str, Any]:
        """A seat's private panel, its picture drawn off the event loop."""
        await self.draw_hands(record, game, (seat,))
        return self.hand_panels[record.kind](record, game, seat)

    async def draw_hands(self, record: GameRecord, game: AnyGame, seats: Iterable[int]) -> None:
        """Draw off the event loop the hand pictures of these seats' panels (kept for the panels to use)."""
        draw = self.hand_pictures.get(record.kind)
        if draw is not None:
            await draw(record, game, seats)

    async def render_pictured(self, record: GameRecord, game: AnyGame) -> TableMessage:
        """The table message, with its picture unless the server turned pictures off (or the game was cancelled).

        The hand pictures of the panels the delivery shows next (seated players with open DMs) are drawn here too,
        off the event loop like the table's.
        """
        await self.draw_hands(
            record, game, (seat.seat for seat in record.seats if seat.user_id is not None and seat.dm_ok)
        )
        table = self.render(record, game)
        if record.status == "cancelled" or not await self.bot.service.server_settings.pictures_on(record.guild_id):
            return table
        picture = await self._picture(record, game)
        if picture is None:
            return table
        embed = table.embed.copy()
        embed.set_image(url=f"attachment://{PICTURE_NAME}")
        return replace(table, embed=embed, picture=picture)

    async def _picture(self, record: GameRecord, game: AnyGame) -> bytes | None:
        # Drawn once per game version (a version never changes), off the event loop: a render takes 10-30 ms.
        key = (record.id, record.version)
        if (kept := self._pictures.get(key)) is not None:
            return kept
        if not has_table_picture(game_kind(record.kind)):
            return None  # a kind may show its table as text only
        try:
            rendered = await drawn(render_table, game.public_view(), seat_names(record))
        except Exception:
            log.exception("could not draw the table of game %s; showing it as text", record.id)
            return None
        return self._pictures.put(key, rendered.png)

    def result_line(self, record: GameRecord, game: AnyGame) -> str | None:
        """The standings of a finished game in one line."""
        outcome = game.outcome()
        if outcome is None:
            return None
        unit = game_kind(record.kind).score_unit
        ranked = sorted(range(len(record.seats)), key=lambda seat: outcome.places[seat])
        standings = ", ".join(
            f"{outcome.places[seat]}. {record.seats[seat].name} ({outcome.scores[seat]} {unit})" for seat in ranked
        )
        return f"{game_kind(record.kind).title} #{record.id} is over. {standings}"

    async def show_frozen(self, record: GameRecord) -> None:
        """Say where the game is played that it could not be restored and was stopped; take its buttons away."""
        title = f"{game_kind(record.kind).title} #{record.id}"
        text = (
            f"⚠️ {title} could not be restored after the bot restarted: its saved moves no longer replay. "
            "Rather than guess, the game was stopped; no results were recorded. Start a new game whenever you like."
        )
        place = self.game_channel(record)
        try:
            if record.table_message_id is not None:
                await place.get_partial_message(record.table_message_id).edit(view=None)
            await place.send(text)
        except discord.HTTPException:
            log.warning("could not tell the players that game %s was stopped", record.id, exc_info=True)

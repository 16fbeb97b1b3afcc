"""The public face of a game, drawn from the stored game: the living table message and the result line.

Everything drawn here comes from the engine's public view (through the kind's `TableUI`) and the stored record;
a player's private view never passes through this module. `cogs._delivery` puts it on Discord.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

import discord

from cogs._drawing import drawn
from cogs._recent import Recent
from cogs._text import clip, legible, legible_embed
from cogs._timing import deadline_line
from cogs.lobby import RematchButton
from db.records import GameRecord
from engine.base import AnyGame, Event, Game
from engine.registry import game_kind
from render import render_table

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)

PICTURE_NAME = "table.png"
DESCRIPTION_LIMIT = 1024  # characters in an attachment's description (its alt text)
# Rendered tables kept in memory, newest first. A version is drawn again only when its showing is retried (a
# failed call, after 5 s or more) or repeated; at most a few are, so a few dozen suffice, and 256 (20-30 KB each)
# filled 5-8 MB with the pictures of games the start-up catch-up had shown and would not show again.
PICTURES_KEPT = 32


@dataclass(frozen=True, slots=True)
class TableMessage:
    """What the living table shows: text, one embed, the buttons for the player to move, maybe a picture."""

    content: str
    embed: discord.Embed
    view: discord.ui.View | None = None
    picture: bytes | None = None

    def files(self) -> list[discord.File]:
        """The picture as an attachment whose description holds the whole table as text (screen readers)."""
        if self.picture is None:
            return []
        return [
            discord.File(
                io.BytesIO(self.picture), filename=PICTURE_NAME, description=clip(self.text(), DESCRIPTION_LIMIT)
            )
        ]

    def without_picture(self) -> TableMessage:
        """The same table as text only."""
        embed = self.embed.copy()
        embed.set_image(url=None)
        return replace(self, embed=embed, picture=None)

    def text(self) -> str:
        """The table as plain lines: the content, then the embed's title, description and fields."""
        data = self.embed.to_dict()
        lines = [self.content, data.get("title", ""), data.get("description", "")]
        lines += [f"{field['name']}: {field['value']}" for field in data.get("fields", [])]
        return "\n".join(line for line in lines if line).replace("**", "")


class TableUI(Protocol):
    """What each game kind supplies to the presenter."""

    def render_table(self, record: GameRecord, game: Game, narration: Sequence[str]) -> TableMessage:
        """The table message for the public view of `game`."""
        ...

    rules: str  # the rules as players read them in `/rules`

    def notices(self, record: GameRecord, events: Sequence[Event]) -> list[str]:
        """One-off public posts for one move's events (a round's scores, a won hand), posted once each, in order."""
        ...


def seat_names(record: GameRecord) -> list[str]:
    """Display names by seat."""
    return [seat.name for seat in record.seats]


class Presenter:
    """Draws what Discord shows of a game, from the stored game alone (`cogs._delivery` puts it on Discord)."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.uis: dict[str, TableUI] = {}
        # Each kind whose hands are private registers its seat panel here (see cogs._hands), and what draws the
        # panels' pictures off the event loop beforehand (so that building a panel draws nothing).
        self.hand_panels: dict[str, Callable[[GameRecord, AnyGame, int], dict[str, Any]]] = {}
        self.hand_pictures: dict[str, Callable[[GameRecord, AnyGame, Iterable[int]], Awaitable[None]]] = {}
        self._pictures: Recent[tuple[int, int], bytes] = Recent(PICTURES_KEPT)

    def game_channel(self, record: GameRecord) -> discord.PartialMessageable:
        """Where the game is played: its thread, or the channel when it has none."""
        return self.bot.get_partial_messageable(record.thread_id or record.channel_id, guild_id=record.guild_id)

    def render(self, record: GameRecord, game: Game) -> TableMessage:
        """The table message for this version of the game."""
        title = f"{game_kind(record.kind).title} #{record.id}"
        if record.status == "cancelled":
            return TableMessage(f"{title} was cancelled; no results were recorded.", self._last_table(record, game))
        narration = record.narration or ("The game is on.",)
        table = self.uis[record.kind].render_table(record, game, narration)
        view = table.view
        if record.status == "finished":
            view = discord.ui.View(timeout=None)
            view.add_item(RematchButton(record.kind, record.id))
        return TableMessage(legible(table.content + deadline_line(record)), legible_embed(table.embed), view)

    def _last_table(self, record: GameRecord, game: Game) -> discord.Embed:
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
        if record.status == "cancelled" or not await self.bot.service.pictures_on(record.guild_id):
            return table
        picture = await self._picture(record, game)
        if picture is None:
            return table
        embed = table.embed.copy()
        embed.set_image(url=f"attachment://{PICTURE_NAME}")
        return replace(table, embed=embed, picture=picture)

    async def _picture(self, record: GameRecord, game: Game) -> bytes | None:
        # Drawn once per game version (a version never changes), off the event loop: a render takes 10-30 ms.
        key = (record.id, record.version)
        if (kept := self._pictures.get(key)) is not None:
            return kept
        try:
            rendered = await drawn(render_table, game.public_view(), seat_names(record))
        except Exception:
            log.exception("could not draw the table of game %s; showing it as text", record.id)
            return None
        return self._pictures.put(key, rendered.png)

    def result_line(self, record: GameRecord, game: Game) -> str | None:
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

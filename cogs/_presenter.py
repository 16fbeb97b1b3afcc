"""The public face of a game: its living table message, the turn ping, and the result line.

Everything posted here is rendered from the engine's public view (through the kind's `TableUI`);
a player's private view never passes through this module.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

import discord

from cogs._text import clip, legible, legible_embed
from cogs._timing import deadline_line
from cogs.lobby import RematchButton
from db.records import GameRecord
from engine.base import AnyGame, Event, Game
from engine.registry import game_kind
from render import render_table
from service.tables import MoveResult

if TYPE_CHECKING:
    from bot import CardBot

log = logging.getLogger(__name__)



PICTURE_NAME = "table.png"
DESCRIPTION_LIMIT = 1024  # characters in an attachment's description (its alt text)
PICTURES_KEPT = 256  # rendered tables kept in memory, newest first


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

    async def after_update(self, record: GameRecord, game: Game, events: Sequence[Event], mover: int | None) -> None:
        """Kind-specific follow-up once the table shows the new state (private hands, round tables ...).

        `mover` is the seat that just acted, None at the start of the game.
        """
        ...


def seat_names(record: GameRecord) -> list[str]:
    """Display names by seat, for narration."""
    return [seat.name for seat in record.seats]


def narrate(record: GameRecord, events: Sequence[Event]) -> list[str]:
    """The events of one action as sentences."""
    names = seat_names(record)
    return [event.describe(names) for event in events]


class Presenter:
    """Posts and edits the public messages of every game."""

    def __init__(self, bot: CardBot) -> None:
        self.bot = bot
        self.uis: dict[str, TableUI] = {}
        # Each kind whose hands are private registers its seat panel here (see cogs._hands).
        self.hand_panels: dict[str, Callable[[GameRecord, AnyGame, int], dict[str, Any]]] = {}
        self._last_narration: dict[int, list[str]] = {}
        self._pictures: OrderedDict[tuple[int, int], bytes] = OrderedDict()

    def game_channel(self, record: GameRecord) -> discord.PartialMessageable:
        """Where the game is played: its thread, or the channel when it has none."""
        return self.bot.get_partial_messageable(record.thread_id or record.channel_id, guild_id=record.guild_id)

    def set_narration(self, game_id: int, lines: list[str]) -> None:
        """What the table's "last action" part shows until the next move."""
        self._last_narration[game_id] = lines

    def narration(self, game_id: int) -> list[str]:
        """The last action in words, as the table shows it."""
        return list(self._last_narration.get(game_id, ()))

    def render(self, record: GameRecord, game: Game) -> TableMessage:
        """The current table message."""
        narration = self._last_narration.get(record.id) or [self.last_move_line(record)]
        table = self.uis[record.kind].render_table(record, game, narration)
        view = table.view
        if record.status == "finished":
            view = discord.ui.View(timeout=None)
            view.add_item(RematchButton(record.kind, record.id))
        return TableMessage(legible(table.content + deadline_line(record)), legible_embed(table.embed), view)

    @staticmethod
    def last_move_line(record: GameRecord) -> str:
        """A fallback narration line when the events are not in memory (after a restart)."""
        return "The game is on." if record.version <= 1 else "The game continues."

    async def render_pictured(self, record: GameRecord, game: Game) -> TableMessage:
        """The table message, with its picture unless the server turned pictures off."""
        table = self.render(record, game)
        if not await self.bot.service.pictures_on(record.guild_id):
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
        if key in self._pictures:
            self._pictures.move_to_end(key)
            return self._pictures[key]
        try:
            rendered = await asyncio.to_thread(render_table, game.public_view(), seat_names(record))
        except Exception:
            log.exception("could not draw the table of game %s; showing it as text", record.id)
            return None
        self._pictures[key] = rendered.png
        while len(self._pictures) > PICTURES_KEPT:
            self._pictures.popitem(last=False)
        return rendered.png

    async def post_table(self, record: GameRecord, game: Game) -> GameRecord:
        """Post a new living table message in the game's channel and remember its id."""
        table = await self.render_pictured(record, game)
        place = self.game_channel(record)
        try:
            message = await self._send_table(place, table)
        except discord.Forbidden:
            if table.picture is None:
                raise
            # Invited before pictures, the bot may lack Attach Files here: the text table still goes out.
            log.info("game %s: no permission to attach the table's picture; posting text only", record.id)
            message = await self._send_table(place, table.without_picture())
        await self.bot.service.note_messages(record.id, table_message_id=message.id)
        return await self.bot.service.get(record.id)

    async def refresh_table(self, record: GameRecord, game: Game) -> GameRecord:
        """Edit the living table in place; re-post it when it was deleted."""
        if record.table_message_id is None:
            return await self.post_table(record, game)
        table = await self.render_pictured(record, game)
        message = self.game_channel(record).get_partial_message(record.table_message_id)
        try:
            try:
                await self._edit_table(message, table)
            except discord.Forbidden:
                if table.picture is None:
                    raise
                log.info("game %s: no permission to attach the table's picture; editing as text", record.id)
                await self._edit_table(message, table.without_picture())
        except discord.NotFound:
            log.info("table message of game %s is gone; posting a new one", record.id)
            return await self.post_table(record, game)
        return record

    @staticmethod
    async def _send_table(place: discord.PartialMessageable, table: TableMessage) -> discord.Message:
        return await place.send(
            content=table.content,
            embed=table.embed,
            view=table.view or discord.utils.MISSING,
            files=table.files() or discord.utils.MISSING,
        )

    @staticmethod
    async def _edit_table(message: discord.PartialMessage, table: TableMessage) -> None:
        await message.edit(content=table.content, embed=table.embed, view=table.view, attachments=table.files())

    async def show_move(self, result: MoveResult, *, lead: str | None = None) -> None:
        """After a move: narrate it on the table (after `lead`), ping the next player, run the kind's follow-up."""
        record = result.record
        self._last_narration[record.id] = ([lead] if lead else []) + narrate(record, result.events)
        record = await self.refresh_table(record, result.game)
        if result.finished:
            await self.announce_result(record, result.game)
        else:
            await self.ping_turn(record, result.game)
        await self.uis[record.kind].after_update(record, result.game, result.events, result.seat)
        self.bot.dispatch("game_changed", record.id)  # issue 15: a computer seat may be next (cogs/computers.py)

    async def ping_turn(self, record: GameRecord, game: Game) -> None:
        """A short message that notifies the player to move (edits never notify); the previous ping goes."""
        seat = game.to_move
        if seat is None or record.seats[seat].user_id is None:
            return
        channel = self.game_channel(record)
        if record.ping_message_id is not None:
            try:
                await channel.get_partial_message(record.ping_message_id).delete()
            except discord.HTTPException:
                log.debug("old turn ping of game %s was already gone", record.id)
        user_id = record.seats[seat].user_id
        if user_id is None:
            return
        ping = await channel.send(
            f"<@{user_id}>, your turn in {game_kind(record.kind).title} #{record.id}.",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
        )
        await self.bot.service.note_messages(record.id, ping_message_id=ping.id)

    async def announce_result(self, record: GameRecord, game: Game) -> None:
        """The standings, in the game's thread and as one line in the parent channel."""
        outcome = game.outcome()
        if outcome is None:
            return
        unit = game_kind(record.kind).score_unit
        ranked = sorted(range(len(record.seats)), key=lambda seat: outcome.places[seat])
        standings = ", ".join(
            f"{outcome.places[seat]}. {record.seats[seat].name} ({outcome.scores[seat]} {unit})" for seat in ranked
        )
        text = f"{game_kind(record.kind).title} #{record.id} is over. {standings}"
        posts = [(self.game_channel(record), text)]
        if record.thread_id is not None:
            parent = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            posts.append((parent, f"{text} — table: <#{record.thread_id}>"))
        for place, line in posts:
            try:
                await place.send(line)
            except discord.HTTPException:
                log.warning("could not post the result of game %s", record.id, exc_info=True)
        self.forget(record.id)

    async def show_cancelled(self, record: GameRecord) -> None:
        """Strip the table of its buttons and say the game was cancelled."""
        if record.table_message_id is None:
            return
        message = self.game_channel(record).get_partial_message(record.table_message_id)
        try:
            await message.edit(content=f"{game_kind(record.kind).title} #{record.id} was cancelled.", view=None)
        except discord.HTTPException:
            log.info("table of cancelled game %s could not be edited", record.id)
        self.forget(record.id)

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
        self.forget(record.id)

    def forget(self, game_id: int) -> None:
        """Drop what is kept in memory for a game that ended."""
        self._last_narration.pop(game_id, None)

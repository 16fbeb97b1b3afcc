"""`/privacy show` and `/privacy forget` (issue 45), and a departed server's data kept only `RETENTION_DAYS`.

`/privacy show` sends the member a JSON file of every row stored under their id (`service.privacy`). `/privacy
forget` first asks, on an ephemeral message with "Forget me" and "Keep"; "Forget me" resigns their running games,
leaves or cancels their lobbies, forgets them in every stored row, and then shows the games that changed (their
tables now say "a former player"). Both buttons are persistent (`privacy:forget`, `privacy:keep`): they act on
whoever clicks, and only the asker sees the ephemeral message.

The bot marks a server it is removed from (`on_guild_remove`), clears the mark when it is in the server again
(`on_guild_join`, or the server seen at start-up), and once an hour deletes the data of servers marked longer ago
than the retention period.
"""

from __future__ import annotations

import io
import json
import logging
import re
from typing import TYPE_CHECKING, Any, Final, Self

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs.lobby import show_lobby
from cogs.runtime.controls import unkept_view
from cogs.runtime.errors import acknowledge, guarded, refusals_answered
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import bot_of, game_title
from cogs.runtime.text import CONTENT_LIMIT, clip
from db.records import GameRecord
from i18n import counted, join_names, say
from service.privacy import Forgetting
from service.tables import USER_ERRORS

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

FORGET_ID: Final = "privacy:forget"
KEEP_ID: Final = "privacy:keep"
PURGE_EVERY_HOURS: Final = 1


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=FORGET_ID):
    """The "Forget me" button of the confirmation: forgets the member who clicks it."""

    def __init__(self, label: str = "Forget me") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger, custom_id=FORGET_ID))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button (it carries nothing)."""
        return cls()

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Forget the member, then show the games that changed and tell them what was done."""
        bot = bot_of(interaction)
        await acknowledge(interaction)
        locale = private_locale(interaction)
        await interaction.edit_original_response(content=say(locale, "privacy.forgetting"), view=None)
        user = interaction.user
        names = sorted({name for name in (user.display_name, user.name, user.global_name) if name})
        done = await bot.privacy.forget(user.id, names)
        await show_changes(bot, done)
        await interaction.edit_original_response(content=forgotten_words(done, locale), view=None)


class KeepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=KEEP_ID):
    """The "Keep" button of the confirmation: nothing changes."""

    def __init__(self, label: str = "Keep") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=KEEP_ID))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button (it carries nothing)."""
        return cls()

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Say that everything is kept, and take the buttons away."""
        await acknowledge(interaction)
        await interaction.edit_original_response(content=say(private_locale(interaction), "privacy.kept"), view=None)


def confirmation(locale: str) -> dict[str, Any]:
    """The ephemeral question `/privacy forget` answers with: what forgetting does, and the two buttons."""
    view = unkept_view()
    view.add_item(ForgetButton(say(locale, "privacy.button.forget")))
    view.add_item(KeepButton(say(locale, "privacy.button.keep")))
    return {"content": say(locale, "privacy.confirm"), "view": view}


def _titles(records: tuple[GameRecord, ...], locale: str) -> str:
    return join_names([game_title(record) for record in records], locale)


def forgotten_words(done: Forgetting, locale: str) -> str:
    """What the member is told once forgotten: the games resigned, lobbies left and cancelled, rows changed."""
    lines = []
    if done.resigned:
        lines.append(say(locale, "privacy.resigned", games=_titles(tuple(r.record for r in done.resigned), locale)))
    if done.left:
        lines.append(say(locale, "privacy.left", games=_titles(done.left, locale)))
    if done.cancelled:
        lines.append(say(locale, "privacy.cancelled", games=_titles(done.cancelled, locale)))
    lines.append(say(locale, "privacy.forgotten", games=counted(len(done.forgotten.games), "game", locale)))
    return clip("\n".join(lines), CONTENT_LIMIT)  # a member of hundreds of games gets their list cut


async def show_changes(bot: GameBot, done: Forgetting) -> None:
    """Bring Discord in line with the stored rows after a member is forgotten.

    Each resigned game is told and redrawn (as a resign is), each lobby's message edited, and the table of each game
    over that named the member drawn again with "a former player". The one-off posts of games over (round scores,
    results) are not stored by id, so they cannot be changed.
    """
    for result in done.resigned:
        await bot.delivery.settle(result.record.id, fresh=[result])
    for record in (*done.left, *done.cancelled):
        if record.status == "cancelled":
            await bot.delivery.settle(record.id)
        try:
            await show_lobby(bot, None, await bot.service.get(record.id))
        except discord.HTTPException:
            log.info("lobby message of game %s could not be edited", record.id)
    playing = {result.record.id for result in done.resigned}
    for game_id in done.forgotten.games:
        if game_id not in playing:
            await bot.delivery.redraw_table(game_id)


class PrivacyCog(commands.Cog):
    """A member's data on request, and a departed server's data kept only for the retention period."""

    privacy = app_commands.Group(name="privacy", description="What the bot stores about you, and forgetting it.")

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Start the hourly deletion of departed servers' data."""
        self.purge.start()

    async def cog_unload(self) -> None:
        """Stop it."""
        self.purge.cancel()

    @privacy.command(name="show")
    async def privacy_show(self, interaction: discord.Interaction) -> None:
        """Get a file of everything the bot stores about you (only you see it)."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            data = await self.bot.privacy.show(interaction.user.id)
            text = json.dumps(data.to_dict(), indent=2, ensure_ascii=False, sort_keys=False)
            locale = private_locale(interaction)
            said = say(locale, "privacy.shown", games=counted(len(data.games), "game", locale))
            file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"my-data-{interaction.user.id}.json")
            await interaction.followup.send(said, file=file, ephemeral=True)

    @privacy.command(name="forget")
    async def privacy_forget(self, interaction: discord.Interaction) -> None:
        """Remove yourself from the bot's data: you are asked to confirm first."""
        async with refusals_answered(interaction):
            await interaction.response.send_message(**confirmation(private_locale(interaction)), ephemeral=True)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its data goes after the retention period, unless the bot is added back."""
        try:
            await self.bot.privacy.departed(guild.id)
        except USER_ERRORS as error:
            log.warning("server %d: its removal could not be noted (%s); its data stays", guild.id, error)
            return
        log.info("removed from server %d: its data is deleted in %s unless the bot is added back", guild.id,
                 self.bot.retention)  # fmt: skip

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """In a server again: keep its data."""
        await self._present([guild.id])

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Every server seen at start-up is one the bot is in: keep its data."""
        await self._present([guild.id for guild in self.bot.guilds])

    async def _present(self, guild_ids: list[int]) -> None:
        try:
            marked = set(await self.bot.privacy.store.departed_before(self.bot.clock() + self.bot.retention))
            for guild_id in marked.intersection(guild_ids):
                await self.bot.privacy.present(guild_id)
                log.info("back in server %d: its data is kept", guild_id)
        except USER_ERRORS as error:  # the store logs an outage once; the hourly purge keeps a server the bot is in
            log.debug("could not note the servers the bot is in: %s", error)

    @tasks.loop(hours=PURGE_EVERY_HOURS)
    async def purge(self) -> None:
        """Delete the data of servers the bot left more than the retention period ago."""
        try:
            await self.bot.privacy.purge_departed(lambda guild_id: self.bot.get_guild(guild_id) is not None)
        except USER_ERRORS as error:  # the store logs an outage once; tried again within the hour
            log.debug("departed servers' data not deleted this time: %s", error)
        except Exception:
            log.exception("deleting departed servers' data failed; tried again within the hour")


async def setup(bot: GameBot) -> None:
    """Add the cog and its two confirmation buttons."""
    bot.add_dynamic_items(ForgetButton, KeepButton)
    await bot.add_cog(PrivacyCog(bot))

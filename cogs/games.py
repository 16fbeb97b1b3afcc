"""Commands for any game: `/game cancel`, `/game resign`, `/games` and `/rules`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs._delivery import settle_and_tell
from cogs._errors import acknowledge, is_manager, refusals_answered
from cogs._hands import HAND_ITEMS
from cogs._lookup import GAME_CHOICES, find_game, guild_id_of
from cogs.lobby import lobby_message
from db.records import GameRecord
from engine.registry import GAME_KINDS, game_kind

if TYPE_CHECKING:
    from cogs._host import GameBot

log = logging.getLogger(__name__)

PICTURE_CHOICES = [app_commands.Choice(name="pictures", value="on"), app_commands.Choice(name="text only", value="off")]


class GamesCog(commands.Cog):
    """Managing games of either kind."""

    game = app_commands.Group(
        name="game", description="Manage a game: cancel, resign, skip a turn, remove a player.", guild_only=True
    )

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @game.command(name="cancel")
    @app_commands.describe(game="The game's number (only needed outside its thread)")
    async def game_cancel(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Cancel a lobby or a running game (host or Manage Server); no results are recorded."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await find_game(self.bot, interaction, game)
            record = await self.bot.service.cancel(record.id, interaction.user.id, is_manager=is_manager(interaction))
            title = f"{game_kind(record.kind).title} #{record.id}"
            # The first followup fills the private "thinking…" answer; the second is the public announcement.
            await interaction.followup.send(f"You cancelled {title}.", ephemeral=True)
            announcement = f"{title} was cancelled by {interaction.user.mention}; no results recorded."
            await interaction.followup.send(announcement)
            await self.bot.delivery.settle(record.id)
            await self._edit_lobby(record)

    @game.command(name="resign")
    @app_commands.describe(game="The game's number (only needed outside its thread)")
    async def game_resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Give up your seat: you place last; with one opponent left the game ends."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await find_game(self.bot, interaction, game)
            result = await self.bot.service.resign(record.id, interaction.user.id)
            await settle_and_tell(self.bot, interaction, [result], done="You resigned. Thanks for playing!")

    @game.command(name="skip")
    @app_commands.describe(game="The game's number (only needed outside its thread)")
    async def game_skip(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Play the current player's turn for them (host only); it counts as an automatic turn."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await find_game(self.bot, interaction, game)
            by = interaction.user.display_name
            results = await self.bot.service.skip(
                record.id, interaction.user.id, is_manager=is_manager(interaction), by_name=by
            )
            await settle_and_tell(self.bot, interaction, results, done="Turn skipped.")

    @game.command(name="remove")
    @app_commands.describe(player="The player to remove", game="The game's number (only needed outside its thread)")
    async def game_remove(
        self, interaction: discord.Interaction, player: discord.User, game: int | None = None
    ) -> None:
        """Resign a player from the game (host only); they place last."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await find_game(self.bot, interaction, game)
            result = await self.bot.service.remove(
                record.id, interaction.user.id, player.id, is_manager=is_manager(interaction)
            )
            await settle_and_tell(self.bot, interaction, [result], done=f"{player.display_name} was removed.")

    @app_commands.command(name="games")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        """List the lobbies and running games in this server."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            records = await self.bot.service.games_in_guild(guild_id_of(interaction))
            if not records:
                kinds = " or ".join(f"/{kind.name} new" for kind in GAME_KINDS)
                await interaction.followup.send(f"No games right now. Start one with {kinds}.", ephemeral=True)
                return
            lines = [self._game_line(record) for record in records[:20]]
            if len(records) > 20:
                lines.append(f"… and {len(records) - 20} more.")
            await interaction.followup.send("\n".join(lines), ephemeral=True)

    @app_commands.command(name="pictures")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(show="Pictures of the tables (with their text), or text only")
    @app_commands.choices(show=PICTURE_CHOICES)
    async def pictures(self, interaction: discord.Interaction, show: app_commands.Choice[str]) -> None:
        """Show this server's game tables as pictures, or as text only (Manage Server)."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            on = show.value == "on"
            await self.bot.service.set_pictures(guild_id_of(interaction), on, is_manager=is_manager(interaction))
            how = "as pictures, with their text" if on else "as text only"
            await interaction.followup.send(
                f"Game tables in this server are now shown {how}, from each game's next move.", ephemeral=True
            )

    @app_commands.command(name="rules")
    @app_commands.describe(game="Which game's rules")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """How to play one of the games, with its card values and scoring."""
        embed = discord.Embed(title=f"How to play {game.name}", description=self.bot.presenter.uis[game.value].rules)
        notation = game_kind(game.value).notation
        if notation:
            embed.add_field(name="Typing a move", value=notation, inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @staticmethod
    def _game_line(record: GameRecord) -> str:
        players = ", ".join(seat.name for seat in record.seats)
        where = record.thread_id or record.channel_id
        state = "waiting for players" if record.status == "lobby" else "playing"
        return f"**{game_kind(record.kind).title} #{record.id}** — {state} in <#{where}>: {players}"

    async def _edit_lobby(self, record: GameRecord) -> None:
        if record.lobby_message_id is None:
            return
        message = self.bot.get_partial_messageable(record.channel_id).get_partial_message(record.lobby_message_id)
        try:
            await message.edit(**lobby_message(self.bot, record))
        except discord.HTTPException:
            log.info("lobby message of game %s could not be edited", record.id)


async def setup(bot: GameBot) -> None:
    """Add the cog, and the private-hand buttons every kind with private hands shares."""
    bot.add_dynamic_items(*HAND_ITEMS)
    await bot.add_cog(GamesCog(bot))

"""The Discord side of the test suite's toy kind (`tests/toy_game.py`), written as `docs/adding-a-game.md` says a new
kind's `cogs/<name>.py` is: a table UI drawn from the public view, a group of commands built from the kind, and the
seat panel of a kind with private hands. It uses only what the bot offers every kind."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.lobby import new_lobby_command
from cogs.runtime.delivery import settle_and_tell
from cogs.runtime.errors import acknowledge, refusals_answered
from cogs.runtime.hands import hand_command, refresh_button, show_hand_button
from cogs.runtime.host import GameBot
from cogs.runtime.lookup import engine_as, my_running_game
from cogs.runtime.table import GameUI, TableMessage
from db.records import GameRecord
from engine.base import AnyGame
from tests.toy_game import KIND, HighCard


class ToyUI(GameUI):
    def rules(self, locale: str) -> str:
        return "**High Card** — show one card a turn; after three rounds the highest card shown wins."

    def render_table(self, record: GameRecord, game: AnyGame, narration: Sequence[str], locale: str) -> TableMessage:
        view = engine_as(game, HighCard).public_view()
        names = [seat.name for seat in record.seats]
        embed = discord.Embed(title=f"High Card #{record.id}", description=f"Stock: {view.stock_size} cards")
        for seat in view.seats:
            shown = " ".join(str(card) for card in seat.shown) or "nothing yet"
            embed.add_field(name=f"{names[seat.seat]} · {seat.hand_size} in hand", value=shown, inline=False)
        if narration:
            embed.add_field(name="Last turn", value="\n".join(narration), inline=False)
        who = "nobody" if view.to_move is None else names[view.to_move]
        items = discord.ui.View(timeout=None)
        if view.to_move is not None:
            items.add_item(show_hand_button(KIND.name, record.id))
        return TableMessage(f"**High Card #{record.id}** · {who} to play.", embed, items)

    def hand_panel(self, record: GameRecord, game: AnyGame, seat: int, locale: str) -> dict[str, Any]:
        view = engine_as(game, HighCard).view(seat)
        items = discord.ui.View(timeout=None)
        items.add_item(refresh_button(KIND.name, record.id))
        hand = " ".join(str(card) for card in view.hand) or "(no cards)"
        return {"content": f"Your hand: {hand}", "view": items, "attachments": []}


@app_commands.guild_only()
class ToyCog(commands.GroupCog, group_name=KIND.name, group_description=KIND.tagline):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        for command in (new_lobby_command(KIND), hand_command(KIND)):
            self.app_command.add_command(command)  # type: ignore[union-attr]

    @app_commands.command(name="play")
    async def toy_play(self, interaction: discord.Interaction, move: str) -> None:
        """Show a card."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await my_running_game(self.bot, interaction, KIND.name)
            result = await self.bot.service.play(record.id, interaction.user.id, move)
            await settle_and_tell(self.bot, interaction, [result], done=f"Played: {result.move}.")


async def setup(bot: GameBot) -> None:
    bot.presenter.register(KIND.name, ToyUI())
    await bot.add_cog(ToyCog(bot))

"""Finding the game a slash command is about, from where it was used and who used it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from db.records import GameRecord
from service.errors import RefusedError
from service.tables import GAME_TITLES

if TYPE_CHECKING:
    from bot import CardBot


async def find_game(bot: CardBot, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
    """The game a command is about: the one given by number, else the one in this thread or channel.

    Raises:
        RefusedError: no such game here, or more than one and no number given.
    """
    if game_id is not None:
        record = await bot.service.get(game_id)
        if record.guild_id != interaction.guild_id:
            raise RefusedError(f"There is no game #{game_id} in this server.")
        return record
    assert interaction.channel_id is not None
    here = await bot.store.running_games_in_channel(interaction.channel_id, statuses=("lobby", "running"))
    mine = [record for record in here if record.seat_of(interaction.user.id) is not None]
    candidates = mine or here
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise RefusedError("There is no game here. Use this in the game's thread, or give its number (see /games).")
    numbers = ", ".join(f"#{record.id}" for record in candidates)
    raise RefusedError(f"Several games are here ({numbers}); add `game:` with the number you mean.")


async def my_running_game(bot: CardBot, interaction: discord.Interaction, kind: str) -> GameRecord:
    """The caller's running game of `kind`: the one in this thread or channel, else their only one in this server.

    Raises:
        RefusedError: none, or several and none of them here.
    """
    assert interaction.guild_id is not None and interaction.channel_id is not None
    user_id = interaction.user.id

    def playing(records: list[GameRecord]) -> list[GameRecord]:
        return [record for record in records if record.kind == kind and record.seat_of(user_id) is not None]

    here = playing(await bot.store.running_games_in_channel(interaction.channel_id))
    if len(here) == 1:
        return here[0]
    mine = playing(await bot.store.games_in_guild(interaction.guild_id, statuses=("running",)))
    if len(mine) == 1:
        return mine[0]
    title = GAME_TITLES[kind]
    if not mine:
        raise RefusedError(f"You are not playing in a {title} game in this server.")
    raise RefusedError(f"You are in several {title} games: use this command in the game's thread.")

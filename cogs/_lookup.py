"""Finding the game a slash command is about, from where it was used and who used it."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, cast

import discord
from discord import app_commands

from db.records import GameRecord
from engine.base import AnyGame
from engine.registry import GAME_KINDS, game_kind
from service.errors import RefusedError

if TYPE_CHECKING:
    from cogs._host import GameBot


EngineT = TypeVar("EngineT")
GAME_CHOICES = [app_commands.Choice(name=kind.title, value=kind.name) for kind in GAME_KINDS]
NOT_IN_A_SERVER = "Games are played in a server channel, not in direct messages."
WRONG_GAME = "That control belongs to a different game."


def bot_of(interaction: discord.Interaction) -> GameBot:
    """The bot an interaction reached (discord.py types it as a plain `Client`; here it is always a `GameBot`)."""
    return cast("GameBot", interaction.client)


def guild_id_of(interaction: discord.Interaction) -> int:
    """The server the interaction came from.

    Raises:
        RefusedError: it came from a DM.
    """
    if interaction.guild_id is None:
        raise RefusedError(NOT_IN_A_SERVER)
    return interaction.guild_id


def channel_id_of(interaction: discord.Interaction) -> int:
    """The channel or thread the interaction came from.

    Raises:
        RefusedError: Discord sent none.
    """
    if interaction.channel_id is None:
        raise RefusedError(NOT_IN_A_SERVER)
    return interaction.channel_id


def engine_as(game: AnyGame, cls: type[EngineT]) -> EngineT:
    """The engine as the kind a control or command expects.

    Raises:
        RefusedError: the game is of another kind (a control pointed at the wrong game).
    """
    if not isinstance(game, cls):
        raise RefusedError(WRONG_GAME)
    return game


async def component_game(bot: GameBot, interaction: discord.Interaction, game_id: int, kind: str) -> GameRecord:
    """The game a component's custom id names, checked against the component's kind and the clicker's server.

    Discord only sends back the components the bot made, so these checks guard against forged ids (defence in
    depth): a Manage Server member of one server must never reach a game of another.

    Raises:
        RefusedError: no such game, another kind, or another server.
    """
    record = await bot.service.get(game_id)
    if record.kind != kind:
        raise RefusedError(WRONG_GAME)
    if interaction.guild_id is not None and record.guild_id != interaction.guild_id:
        raise RefusedError("That control belongs to a game in another server.")
    return record


async def find_game(bot: GameBot, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
    """The game a command is about: the one given by number, else the one in this thread or channel.

    Raises:
        RefusedError: no such game here, or more than one and no number given.
    """
    if game_id is not None:
        record = await bot.service.get(game_id)
        if record.guild_id != interaction.guild_id:
            raise RefusedError(f"There is no game #{game_id} in this server.")
        return record
    here = await bot.service.games_in_channel(channel_id_of(interaction), statuses=("lobby", "running"))
    mine = [record for record in here if record.seat_of(interaction.user.id) is not None]
    candidates = mine or here
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise RefusedError("There is no game here. Use this in the game's thread, or give its number (see /games).")
    numbers = ", ".join(f"#{record.id}" for record in candidates)
    raise RefusedError(f"Several games are here ({numbers}); choose one in the command's `game:` list.")


async def my_running_game(bot: GameBot, interaction: discord.Interaction, kind: str) -> GameRecord:
    """The caller's running game of `kind`: the one in this thread or channel, else their only one in this server.

    Raises:
        RefusedError: none, or several and none of them here.
    """
    guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
    user_id = interaction.user.id

    def playing(records: list[GameRecord]) -> list[GameRecord]:
        return [record for record in records if record.kind == kind and record.seat_of(user_id) is not None]

    # Frozen too, so a move in a stopped game's thread is told why rather than "no game here".
    here = playing(await bot.service.games_in_channel(channel_id, statuses=("running", "frozen")))
    if len(here) == 1:
        return here[0]
    mine = playing(await bot.service.games_in_guild(guild_id, statuses=("running",)))
    if len(mine) == 1:
        return mine[0]
    title = game_kind(kind).title
    if not mine:
        raise RefusedError(f"You are not playing in a {title} game in this server.")
    raise RefusedError(f"You are in several {title} games: use this command in the game's thread.")

"""Finding the game a slash command is about, from where it was used and who used it.

A refusal here is read by the one who acted alone, so it is said in their language (`private_locale`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, cast

import discord
from discord import app_commands

from cogs.runtime.errors import acknowledge
from cogs.runtime.language import private_locale
from db.records import GameRecord
from engine.base import AnyGame
from engine.message import Joined
from engine.registry import GAME_KINDS, game_kind
from i18n import SOURCE_LOCALE, say
from service.errors import RefusedError

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot


EngineT = TypeVar("EngineT")
GAME_CHOICES = [app_commands.Choice(name=kind.title, value=kind.name) for kind in GAME_KINDS]


def game_title(record: GameRecord) -> str:
    """A game as players name it: its kind's name and its number, "Kasino #3" (the same in every language)."""
    return f"{game_kind(record.kind).title} #{record.id}"


def not_in_a_server(interaction: discord.Interaction) -> RefusedError:
    """The refusal of a game command used in a DM, in the user's language."""
    return RefusedError(say(private_locale(interaction), "lookup.not-in-a-server"))


def bot_of(interaction: discord.Interaction) -> GameBot:
    """The bot an interaction reached (discord.py types it as a plain `Client`; here it is always a `GameBot`)."""
    return cast("GameBot", interaction.client)


def guild_id_of(interaction: discord.Interaction) -> int:
    """The server the interaction came from.

    Raises:
        RefusedError: it came from a DM.
    """
    if interaction.guild_id is None:
        raise not_in_a_server(interaction)
    return interaction.guild_id


def channel_id_of(interaction: discord.Interaction) -> int:
    """The channel or thread the interaction came from.

    Raises:
        RefusedError: Discord sent none.
    """
    if interaction.channel_id is None:
        raise not_in_a_server(interaction)
    return interaction.channel_id


def engine_as(game: AnyGame, cls: type[EngineT], locale: str = SOURCE_LOCALE) -> EngineT:
    """The engine as the kind a control or command expects.

    Raises:
        RefusedError: the game is of another kind (a control pointed at the wrong game), said in `locale`.
    """
    if not isinstance(game, cls):
        raise RefusedError(say(locale, "lookup.wrong-game"))
    return game


async def component_game(bot: GameBot, interaction: discord.Interaction, game_id: int, kind: str) -> GameRecord:
    """The game a component's custom id names, checked against the component's kind and the clicker's server.

    Discord only sends back the components the bot made, so these checks guard against forged ids (defence in
    depth): a Manage Server member of one server must never reach a game of another.

    Raises:
        RefusedError: no such game, another kind, or another server.
    """
    record = await bot.service.get(game_id)
    check_component(record, interaction, kind)
    return record


def check_component(record: GameRecord, interaction: discord.Interaction, kind: str) -> None:
    """`component_game`'s checks of a game's record: the component's kind, and the clicker's server.

    Both never change for a game, so a record of any version of it will do.

    Raises:
        RefusedError: another kind, or another server.
    """
    if record.kind != kind:
        raise RefusedError(say(private_locale(interaction), "lookup.wrong-game"))
    if interaction.guild_id is not None and record.guild_id != interaction.guild_id:
        raise RefusedError(say(private_locale(interaction), "lookup.other-server"))


async def component_game_now(
    bot: GameBot, interaction: discord.Interaction, game_id: int, kind: str
) -> tuple[GameRecord, AnyGame | None]:
    """`component_game` for a display: the game as stored now and its engine (None: a lobby), read at most once.

    See `TableService.current`: the engine is the caller's own copy, restored from the snapshot only when the engine
    cache does not hold the version read.

    Raises:
        RefusedError: no such game, another kind, or another server.
    """
    record, game = await bot.service.current(game_id)
    check_component(record, interaction, kind)
    return record, game


async def component_checked(bot: GameBot, interaction: discord.Interaction, game_id: int, kind: str) -> None:
    """`component_game`'s checks before an action, which reads the game itself: without a read where it is cached.

    Raises:
        RefusedError: no such game, another kind, or another server.
    """
    known = bot.service.known(game_id)
    if known is None:
        await component_game(bot, interaction, game_id, kind)
    else:
        check_component(known, interaction, kind)


async def clicked_game(
    interaction: discord.Interaction, game_id: int, kind: str, *, ephemeral: bool = False
) -> tuple[GameBot, GameRecord]:
    """Acknowledge a component's click (privately, thinking, if `ephemeral`), then the game its custom id names.

    Raises:
        InteractionExpiredError: the click came too late to acknowledge.
        RefusedError: no such game, another kind, or another server (`component_game`).
    """
    await acknowledge(interaction, ephemeral=ephemeral, thinking=ephemeral)
    bot = bot_of(interaction)
    return bot, await component_game(bot, interaction, game_id, kind)


async def clicked_game_now(
    interaction: discord.Interaction, game_id: int, kind: str, *, ephemeral: bool = False
) -> tuple[GameBot, GameRecord, AnyGame | None]:
    """`clicked_game` for a click that shows the game: with its engine, read at most once (`component_game_now`).

    Raises:
        InteractionExpiredError: the click came too late to acknowledge.
        RefusedError: no such game, another kind, or another server.
    """
    await acknowledge(interaction, ephemeral=ephemeral, thinking=ephemeral)
    bot = bot_of(interaction)
    record, game = await component_game_now(bot, interaction, game_id, kind)
    return bot, record, game


async def find_game(bot: GameBot, interaction: discord.Interaction, game_id: int | None) -> GameRecord:
    """The game a command is about: the one given by number, else the one in this thread or channel.

    Raises:
        RefusedError: no such game here, or more than one and no number given.
    """
    locale = private_locale(interaction)
    if game_id is not None:
        record = await bot.service.get(game_id)
        if record.guild_id != interaction.guild_id:
            raise RefusedError(say(locale, "lookup.no-such-game", number=game_id))
        return record
    here = await bot.service.games_in_channel(channel_id_of(interaction), statuses=("lobby", "running"))
    mine = [record for record in here if record.seat_of(interaction.user.id) is not None]
    candidates = mine or here
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise RefusedError(say(locale, "lookup.no-game-here"))
    numbers = Joined(tuple(f"#{record.id}" for record in candidates), "join.comma")
    raise RefusedError(say(locale, "lookup.several-here", numbers=numbers))


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
    title, locale = game_kind(kind).title, private_locale(interaction)
    if not mine:
        raise RefusedError(say(locale, "lookup.not-playing", game=title))
    raise RefusedError(say(locale, "lookup.several-yours", game=title))

"""Driving the real bot through SimCord: start games, find the table, play turns, scan for leaks."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from typing import Any, TypedDict, TypeVar, cast

import discord
import simcord
from discord.ext import commands
from simcord.results import to_discord_message

from bot import CardBot
from db.records import GameRecord
from db.sql_store import SqlStore
from engine.base import AnyGame
from engine.registry import game_class

# A message the bot posted, as SimCord shows it: a channel's discord.Message, or an interaction's response.
Shown = discord.Message | simcord.ResponseMessage


class InjectedError(TypedDict, total=False):
    """The keywords of `simcord.Env.inject_error` that say what Discord answers (what is left out keeps its default)."""

    status: int
    code: int
    message: str


class LastingError(InjectedError, total=False):
    """`InjectedError` with how many times it is answered (None: for the rest of the test)."""

    times: int | None


def lobby_of(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The lobby message a `/... new` reply posted."""
    assert result.response is not None, result
    return result.response


def response_of(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The message an interaction was answered with (an ephemeral panel, a reply ...), which must be there."""
    assert result.response is not None, result
    return result.response


def seat_to_move(game: AnyGame) -> int:
    """The seat to move in a running game."""
    assert game.to_move is not None, game
    return game.to_move


def state_of(record: GameRecord) -> dict[str, Any]:
    """A started game's stored state."""
    assert record.state is not None, record
    return record.state


def given(text: str | None) -> str:
    """A text Discord may leave out (an embed's description, a field's name ...), which must be there."""
    assert text is not None
    return text


def guild_of(channel: simcord.ChannelHandle) -> simcord.GuildHandle:
    """The guild of a channel or thread (not a DM)."""
    assert channel.guild is not None, channel
    return channel.guild


async def open_and_start(
    channel: simcord.ChannelHandle,
    host: simcord.MemberActor,
    others: Iterable[simcord.MemberActor],
    command: str = "kasino new",
    **options: Any,
) -> tuple[simcord.InteractionResult, int]:
    """Open a lobby, let `others` join, start it; returns the lobby reply and the game's id."""
    opened = await host.slash(channel, command, **options)
    assert opened.acknowledged and not opened.ephemeral, opened
    game_id = int(lobby_of(opened).content.split("#", 1)[1].split("*", 1)[0])
    for member in others:
        joined = await member.click(lobby_of(opened), custom_id=lobby_button(lobby_of(opened), "join"))
        assert joined.acknowledged and not joined.ephemeral, joined
    started = await host.click(lobby_of(opened), custom_id=lobby_button(lobby_of(opened), "start"))
    assert started.acknowledged, started
    return opened, game_id


def lobby_button(message: Shown, action: str) -> str:
    """The custom id of a lobby's button by its action ("join", "start" …), whatever language its label is in."""
    return next(custom_id for custom_id in custom_ids(message) if custom_id.endswith(f":0:{action}"))


CogT = TypeVar("CogT", bound=commands.Cog)


def cog_of(env: simcord.Env, cog_type: type[CogT]) -> CogT:
    """The bot's cog of that class (looked up by its name, as discord.py does).

    discord.py loads a cog's module afresh as an extension, so the cog is an instance of that module's class, not of
    the one imported here: the class is compared by where it is defined, and the cog stands for `cog_type`.
    """
    cog = bot_of(env).get_cog(cog_type.__name__)
    assert cog is not None, cog_type
    assert (type(cog).__module__, type(cog).__qualname__) == (cog_type.__module__, cog_type.__qualname__), cog
    return cast("CogT", cog)


def bot_of(env: simcord.Env) -> CardBot:
    assert isinstance(env.bot, CardBot), env.bot
    return env.bot


def sql_store(env: simcord.Env) -> SqlStore:
    """The bot's store: SQL, on SQLite or on PostgreSQL."""
    store = bot_of(env).store
    assert isinstance(store, SqlStore), store
    return store


async def record_of(env: simcord.Env, game_id: int) -> GameRecord:
    record = await bot_of(env).store.get_game(game_id)
    assert record is not None, game_id
    return record


async def game_state(env: simcord.Env, game_id: int) -> tuple[GameRecord, AnyGame]:
    record = await record_of(env, game_id)
    assert record.state is not None, record
    return record, game_class(record.kind).from_dict(record.state)


def member_for(members: Sequence[simcord.MemberActor], record: GameRecord, seat: int) -> simcord.MemberActor:
    user_id = record.seats[seat].user_id
    return next(member for member in members if member.id == user_id)


def game_thread(channel: simcord.ChannelHandle, game_id: int) -> simcord.ChannelHandle:
    """The thread a game plays in (named after it)."""
    return next(thread for thread in channel.threads if thread.name is not None and thread.name.endswith(f"#{game_id}"))


def message_in(place: simcord.ChannelHandle, message_id: int) -> discord.Message:
    """The message `message_id` of `place`, as it is now.

    `place.history()` builds a `discord.Message` of every message in the channel, and a game's DM channel holds
    dozens: looking one up that way on every turn made a whole game's test quadratic. SimCord (3.2) offers no lookup
    by id, so this reads its backend, as `history()` does.
    """
    env: simcord.Env = place._env
    stored = env.backend.messages.get(place.id, {}).get(message_id)
    if stored is None:
        raise AssertionError(f"no message {message_id} in {place.id}")
    return to_discord_message(env, stored)


def table_message(place: simcord.ChannelHandle, game_id: int) -> discord.Message:
    """The living table: the bot's message in `place` whose embed title names the game."""
    for message in place.history():
        if message.embeds and f"#{game_id} " in (message.embeds[0].title or "") + " ":
            return message
    raise AssertionError(f"no table message for game {game_id}")


def result_message(place: simcord.ChannelHandle, game_id: int) -> discord.Message:
    """The result line where the game was played ("Kasino #3 is over. 1. …"), which offers Rematch."""
    for message in place.history():
        if re.match(rf"\w+ #{game_id} is over\. ", message.content or ""):
            return message
    raise AssertionError(f"no result line for game {game_id}")


def texts_visible_to(
    viewer: simcord.MemberActor | None,
    guild: simcord.GuildHandle,
    extra_channels: Iterable[simcord.ChannelHandle] = (),
) -> str:
    """Everything `viewer` can see in the guild's channels and threads, ephemerals included."""
    out = []
    channels = list(guild.channels.values()) + list(extra_channels)
    for channel in channels:
        places = [channel, *getattr(channel, "threads", [])]
        for place in places:
            for message in place.history(viewer=viewer):
                out += [message.content or ""]
                out += [str(embed.to_dict()) for embed in message.embeds]
                out += [str(component.to_dict()) for component in message.components]
                out += [attachment.filename for attachment in message.attachments]
    return "\n".join(out)


def public_messages(guild: simcord.GuildHandle) -> dict[int, str]:
    """Every message in the guild's channels and threads that anyone can see, as text by message id."""
    out = {}
    for channel in guild.channels.values():
        for place in [channel, *getattr(channel, "threads", [])]:
            for message in place.history():
                parts = [message.content or ""]
                parts += [str(embed.to_dict()) for embed in message.embeds]
                parts += [str(component.to_dict()) for component in message.components]
                parts += [attachment.filename for attachment in message.attachments]
                out[message.id] = "\n".join(parts)
    return out


def public_texts(guild: simcord.GuildHandle) -> str:
    """Everything posted in the guild's channels and threads that anyone can see (no ephemerals)."""
    return texts_visible_to(None, guild)


def seeded(seed: int) -> random.Random:
    return random.Random(seed)


def _rows(message: Shown) -> list[dict[str, Any]]:
    """The message's rows of components as dicts (a SimCord response has them so already)."""
    return [row if isinstance(row, dict) else cast("dict[str, Any]", row.to_dict()) for row in message.components]


def custom_ids(message: Shown) -> list[str]:
    ids = []
    for row in _rows(message):
        ids += [component.get("custom_id") for component in row.get("components", [])]
    return [cid for cid in ids if cid]


def is_enabled(message: Shown, custom_id: str) -> bool:
    for row in _rows(message):
        for component in row.get("components", []):
            if component.get("custom_id") == custom_id:
                return not component.get("disabled", False)
    return False


def components(message: Shown) -> list[dict[str, Any]]:
    """The message's components as dicts, whether it is a discord.Message or a SimCord response."""
    found = []
    for row in _rows(message):
        found += row.get("components", [])
    return found


def labels(message: Shown) -> list[str | None]:
    return [component.get("label") for component in components(message)]


def private_text(result: simcord.InteractionResult) -> str:
    """What the acting user alone was told: an ephemeral answer, and the ephemeral followups (as after a click,
    which is acknowledged first and answered after)."""
    texts = [result.response.content] if result.ephemeral and result.response is not None else []
    texts += [followup.content for followup in result.followups if followup.ephemeral]
    return "\n".join(texts)

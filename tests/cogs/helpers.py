"""Driving the real bot through SimCord: start games, find the table, play turns, scan for leaks."""

from __future__ import annotations

import random
import re

from engine.registry import game_class


def lobby_of(result):
    """The lobby message a `/... new` reply posted."""
    return result.response


async def open_and_start(channel, host, others, command="kasino new", **options):
    """Open a lobby, let `others` join, start it; returns the lobby reply and the game's id."""
    opened = await host.slash(channel, command, **options)
    assert opened.acknowledged and not opened.ephemeral, opened
    game_id = int(opened.response.content.split("#", 1)[1].split("*", 1)[0])
    for member in others:
        joined = await member.click(opened.response, custom_id=lobby_button(opened.response, "join"))
        assert joined.acknowledged and not joined.ephemeral, joined
    started = await host.click(opened.response, custom_id=lobby_button(opened.response, "start"))
    assert started.acknowledged, started
    return opened, game_id


def lobby_button(message, action):
    """The custom id of a lobby's button by its action ("join", "start" …), whatever language its label is in."""
    return next(custom_id for custom_id in custom_ids(message) if custom_id.endswith(f":0:{action}"))


def bot_of(env):
    return env.bot


async def record_of(env, game_id):
    return await env.bot.store.get_game(game_id)


async def game_state(env, game_id):
    record = await record_of(env, game_id)
    return record, game_class(record.kind).from_dict(record.state)


def member_for(members, record, seat):
    user_id = record.seats[seat].user_id
    return next(member for member in members if member.id == user_id)


def game_thread(channel, game_id):
    """The thread a game plays in (named after it)."""
    return next(thread for thread in channel.threads if thread.name.endswith(f"#{game_id}"))


def table_message(place, game_id):
    """The living table: the bot's message in `place` whose embed title names the game."""
    for message in place.history():
        if message.embeds and f"#{game_id} " in (message.embeds[0].title or "") + " ":
            return message
    raise AssertionError(f"no table message for game {game_id}")


def result_message(place, game_id):
    """The result line where the game was played ("Kasino #3 is over. 1. …"), which offers Rematch."""
    for message in place.history():
        if re.match(rf"\w+ #{game_id} is over\. ", message.content or ""):
            return message
    raise AssertionError(f"no result line for game {game_id}")


def texts_visible_to(viewer, guild, extra_channels=()):
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


def public_messages(guild):
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


def public_texts(guild):
    """Everything posted in the guild's channels and threads that anyone can see (no ephemerals)."""
    return texts_visible_to(None, guild)


def seeded(seed):
    return random.Random(seed)


def custom_ids(message):
    ids = []
    for row in message.components:
        row = row if isinstance(row, dict) else row.to_dict()
        ids += [component.get("custom_id") for component in row.get("components", [])]
    return [cid for cid in ids if cid]


def is_enabled(message, custom_id):
    for row in message.components:
        row = row if isinstance(row, dict) else row.to_dict()
        for component in row.get("components", []):
            if component.get("custom_id") == custom_id:
                return not component.get("disabled", False)
    return False


def components(message):
    """The message's components as dicts, whether it is a discord.Message or a SimCord response."""
    found = []
    for row in message.components:
        row = row if isinstance(row, dict) else row.to_dict()
        found += row.get("components", [])
    return found


def labels(message):
    return [component.get("label") for component in components(message)]


def private_text(result):
    """What the acting user alone was told: an ephemeral answer, and the ephemeral followups (as after a click,
    which is acknowledged first and answered after)."""
    texts = [result.response.content] if result.ephemeral and result.response is not None else []
    texts += [followup.content for followup in result.followups if followup.ephemeral]
    return "\n".join(texts)

"""The table as a picture: attached to the living table with a short description (the embed holds the table as text);
a server can turn pictures off and keep complete text tables."""

import random
import re

import discord
import pytest
import simcord

from i18n import say
from render import render_table
from service.errors import RefusedError
from tests.cogs.helpers import (
    InjectedError,
    Shown,
    bot_of,
    game_thread,
    given,
    open_and_start,
    private_text,
    record_of,
    response_of,
    table_message,
)
from tests.cogs.test_kasino_flow import play_turn


def picture_of(message: Shown) -> discord.Attachment | None:
    return next((a for a in message.attachments if a.filename == "table.png"), None)


async def test_the_table_shows_its_picture_with_a_short_description(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    table = table_message(game_thread(channel, game_id), game_id)
    picture = picture_of(table)
    assert picture is not None
    assert table.embeds[0].image.url == "attachment://table.png"
    assert (await picture.read()).startswith(b"\x89PNG")
    # One line saying what the picture is; the embed beside it reads the table, so a screen reader hears it once.
    alt = rf"Picture of the table: Kasino #{game_id} · round 1 · (alice|bob) to play\."
    assert re.fullmatch(alt, given(picture.description))


async def test_a_garbage_table_has_its_picture_too(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    assert picture_of(table_message(game_thread(channel, game_id), game_id)) is not None


async def test_pictures_off_gives_the_complete_text_table(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    with pytest.raises(RefusedError) as refused:  # Discord hides the command too
        await bot_of(simcord_env).service.set_pictures(guild.id, False, is_manager=False)
    assert refused.value.message.id == "refused.pictures-managers-only"
    done = await mod.slash(channel, "pictures", show="off")
    assert "text only" in private_text(done)
    await play_turn(simcord_env, channel, members, game_id, random.Random(1), "dm")
    table = table_message(game_thread(channel, game_id), game_id)
    assert picture_of(table) is None and not table.embeds[0].image.url
    assert "On the table:" in str(table.embeds[0].to_dict())


async def test_without_attach_files_the_table_goes_out_as_text(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    # A server that invited the bot before pictures: Discord refuses the upload (403), the text table still posts.
    alice, bob = members[:2]
    opened = await alice.slash(channel, "kasino new", seats=2)
    await bob.click(response_of(opened), label="Join")
    no_attach: InjectedError = {"status": 403, "code": 50013, "message": "Missing Permissions"}
    simcord_env.inject_error("POST", "/channels/*/messages", **no_attach, times=1)
    started = await alice.click(response_of(opened), label="Start")
    assert started.acknowledged
    assert opened.response is not None
    game_id = int(opened.response.content.split("#", 1)[1].split(" ", 1)[0])
    table = table_message(game_thread(channel, game_id), game_id)
    assert picture_of(table) is None and "On the table:" in str(table.embeds[0].to_dict())


async def test_each_private_panel_shows_the_seats_own_hand_as_a_picture(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record = await record_of(simcord_env, game_id)
    assert record is not None
    seat = record.seat_of(alice.id)
    assert seat is not None
    dm = next(m for m in alice.user.dm_channel.history() if m.id == record.seats[seat].hand_message_id)
    assert [a.filename for a in dm.attachments] == ["hand.png"]
    shown = await alice.click(table_message(game_thread(channel, game_id), game_id), label="Show my hand")
    assert shown.response is not None
    assert shown.ephemeral and [a.filename for a in shown.response.attachments] == ["hand.png"]


async def test_the_pictures_speak_the_servers_language_and_the_hand_its_readers(
    simcord_env: simcord.Env, members: list[simcord.MemberActor], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 25: a Norwegian server's table picture, and its description, are Norwegian; a player whose Discord
    # speaks Hungarian gets their hand's description in Hungarian.
    from tests.cogs.test_language import speaking

    guild = simcord_env.create_guild("Kortklubben", preferred_locale="no")
    channel = guild.create_text_channel("games")
    alice, bob = (guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob"))
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    table = table_message(game_thread(channel, game_id), game_id)
    picture = picture_of(table)
    assert picture is not None
    assert given(picture.description).startswith("Bilde av bordet: ")
    record = await record_of(simcord_env, game_id)
    game = bot_of(simcord_env).service.game_of(record)
    assert record is not None
    names = [seat.name for seat in record.seats]
    assert await picture.read() == render_table(game.public_view(), names, "no").png
    speaking(monkeypatch, alice, "hu")
    shown = await alice.click(table, label=say("no", "panel.show-hand"))  # the table's button: the server's words
    assert shown.response is not None
    assert [a.description for a in shown.response.attachments] == [say("hu", "kasino.table.hand-picture")]

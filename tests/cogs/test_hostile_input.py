"""Hostile input gets nowhere: forged custom ids and overlong text get a polite refusal and change nothing.

Discord only sends back components the bot made, so to forge one the bot itself posts a message whose
components carry hand-written custom ids; members then click them as they would any other.
"""

import discord
import simcord

from tests.cogs.helpers import bot_of, game_thread, member_for, open_and_start, private_text, seat_to_move
from tests.cogs.test_kasino_flow import state


async def post_forged(
    simcord_env: simcord.Env,
    place: simcord.ChannelHandle,
    *custom_ids: str,
    select: tuple[str, list[str]] | None = None,
) -> discord.Message:
    """The bot posts buttons (and optionally a select with `select` = (custom_id, values)) with these ids."""
    view = discord.ui.View(timeout=None)
    for custom_id in custom_ids:
        view.add_item(discord.ui.Button(label="Forged", custom_id=custom_id))
    if select is not None:
        custom_id, values = select
        options = [discord.SelectOption(label=value, value=value) for value in values]
        view.add_item(discord.ui.Select(custom_id=custom_id, options=options))
    channel = bot_of(simcord_env).get_channel(place.id) or await bot_of(simcord_env).fetch_channel(place.id)
    assert isinstance(channel, discord.abc.Messageable), channel
    message = await channel.send("Forged controls", view=view)
    view.stop()  # only the bot's DynamicItems may answer these ids, as they would for a forged interaction
    return next(m for m in place.history() if m.id == message.id)


async def test_a_6000_character_move_gets_an_ephemeral_refusal_and_changes_nothing(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, game = await state(simcord_env, game_id)
    mover = member_for(members, record, seat_to_move(game))
    refused = await mover.slash(game_thread(channel, game_id), "kasino play", move="7♠ take " + "x" * 5992)
    assert "is not a move" in private_text(refused)
    assert refused.response is not None
    assert len(refused.response.content) < 300
    after, _ = await state(simcord_env, game_id)
    assert after.version == record.version and after.state == record.state


async def test_an_id_past_sqlite_integers_is_refused_politely(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    forged = await post_forged(simcord_env, channel, "k:99999999999999999999:0:join", "k:1:99999999999999999999:hand")
    for custom_id in ("k:99999999999999999999:0:join", "k:1:99999999999999999999:hand"):
        refused = await alice.click(forged, custom_id=custom_id)
        assert "no longer exists" in private_text(refused), refused


async def test_a_kasino_control_pointed_at_a_garbage_game_is_refused(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=2)
    before = await bot_of(simcord_env).store.get_game(game_id)
    assert before is not None
    forged = await post_forged(simcord_env, channel, f"k:{game_id}:0:hand", f"k:{game_id}:{before.version}:refresh")
    for custom_id in (f"k:{game_id}:0:hand", f"k:{game_id}:{before.version}:refresh"):
        refused = await alice.click(forged, custom_id=custom_id)
        assert "belongs to a different game" in private_text(refused)
    after = await bot_of(simcord_env).store.get_game(game_id)
    assert after is not None
    assert after.version == before.version


async def test_a_leaderboard_page_of_10_to_the_18_shows_the_last_page(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    forged = await post_forged(simcord_env, channel, f"lb:k:rating:{10**18}")
    shown = await members[0].click(forged, custom_id=f"lb:k:rating:{10**18}")
    assert shown.acknowledged and not shown.ephemeral
    assert simcord_env.errors == []


async def test_a_malformed_menu_value_is_refused(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, game = await state(simcord_env, game_id)
    mover = member_for(members, record, seat_to_move(game))
    custom_id = f"k:{game_id}:{record.version}:move"
    forged = await post_forged(simcord_env, game_thread(channel, game_id), select=(custom_id, ["more:zz:1:2"]))
    refused = await mover.select(forged, ["more:zz:1:2"], custom_id=custom_id)
    assert "not one I know" in private_text(refused)
    after, _ = await state(simcord_env, game_id)
    assert after.version == record.version


async def test_a_manager_of_another_server_cannot_cancel_this_servers_lobby(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened = await alice.slash(channel, "kasino new")
    assert opened.response is not None
    game_id = int(opened.response.content.split("#", 1)[1].split("*", 1)[0])
    other = simcord_env.create_guild("Elsewhere")
    elsewhere = other.create_text_channel("games")
    mods = other.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = other.add_member(simcord_env.create_user("mod"), roles=[mods])
    forged = await post_forged(simcord_env, elsewhere, f"k:{game_id}:0:cancel")
    refused = await mod.click(forged, custom_id=f"k:{game_id}:0:cancel")
    assert "another server" in private_text(refused)
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert record.status == "lobby"

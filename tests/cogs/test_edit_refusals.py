"""Issue 44, item 7: an edit Discord refuses for good (30046, the cap on edits of messages older than an hour) is
answered by posting the message anew, once per refusal: the table, a DM panel and a lobby.

Each test injects the refusal on the message's own route, checks that exactly one new message stands in the old
one's place with its id stored, that the old one is gone (or, where deleting is refused, points at the new one),
that later updates edit the new message, and that a second refusal leads to one more new message and no loop.
"""

import random

import discord
import simcord

from cogs.runtime.delivery import CATCH_UP
from i18n import say
from tests.cogs.helpers import InjectedError, bot_of, game_thread, lobby_button, private_text, record_of, seat_to_move
from tests.cogs.test_kasino_flow import dm_hand_message
from tests.cogs.test_projection import (
    assert_panel_matches_the_seat_view,
    assert_table_shows_the_stored_game,
    existing_message,
    kasino_for_two,
    message_by_id,
    moves_logged,
    play_from_dm,
    stored,
)

EDIT_CAP: InjectedError = {
    "status": 400,
    "code": 30046,
    "message": "Maximum number of edits to messages older than 1 hour reached",
}
COUNTED = say("en", CATCH_UP)


def posts_to(env: simcord.Env, channel_id: int) -> int:
    """How many messages the bot has posted in a channel through its own route (counted requests)."""
    return sum(1 for r in env.http_requests if r.method == "POST" and r.path == f"/channels/{channel_id}/messages")


def tables_in(place: simcord.ChannelHandle, game_id: int) -> list[discord.Message]:
    return [m for m in place.history() if m.embeds and f"#{game_id} " in (m.embeds[0].title or "") + " "]


async def test_a_table_edit_refused_with_30046_posts_one_new_table_stores_it_and_deletes_the_old(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    game_id, record, game, mover = await kasino_for_two(simcord_env, channel, members)
    thread = game_thread(channel, game_id)
    old = record.table_message_id
    simcord_env.inject_error("PATCH", f"/channels/{thread.id}/messages/{old}", **EDIT_CAP, times=None)
    posted = posts_to(simcord_env, thread.id)
    rng = random.Random(1)
    played = await play_from_dm(simcord_env, mover, game_id, rng)
    assert played.acknowledged and COUNTED not in private_text(played)  # shown at once: nothing to catch up
    record, _ = await stored(simcord_env, game_id)
    assert record.table_message_id != old and record.shown
    assert posts_to(simcord_env, thread.id) == posted + 1
    assert message_by_id(thread, old) is None
    assert [m.id for m in tables_in(thread, game_id)] == [record.table_message_id]
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    # The next move edits the new table in place.
    new = record.table_message_id
    record, game = await stored(simcord_env, game_id)
    mover = next(m for m in members if m.id == record.seats[seat_to_move(game)].user_id)
    await play_from_dm(simcord_env, mover, game_id, rng)
    record, _ = await stored(simcord_env, game_id)
    assert record.table_message_id == new and posts_to(simcord_env, thread.id) == posted + 1
    assert any(
        r.method == "PATCH" and r.path == f"/channels/{thread.id}/messages/{new}" for r in simcord_env.http_requests
    )
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    # A second refusal (of the new table) leads to one more new table, and nothing loops.
    simcord_env.inject_error("PATCH", f"/channels/{thread.id}/messages/{new}", **EDIT_CAP, times=None)
    record, game = await stored(simcord_env, game_id)
    mover = next(m for m in members if m.id == record.seats[seat_to_move(game)].user_id)
    await play_from_dm(simcord_env, mover, game_id, rng)
    for _ in range(3):  # long enough for several retries, were any owed
        await simcord_env.advance_time(60)
    record, _ = await stored(simcord_env, game_id)
    assert record.table_message_id not in (old, new) and record.shown
    assert posts_to(simcord_env, thread.id) == posted + 2
    assert [m.id for m in tables_in(thread, game_id)] == [record.table_message_id]
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    assert await moves_logged(simcord_env, game_id) == 3


async def test_where_deleting_the_refused_table_is_refused_it_is_edited_once_to_a_jump_link(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    game_id, record, _, mover = await kasino_for_two(simcord_env, channel, members)
    thread = game_thread(channel, game_id)
    old = record.table_message_id
    simcord_env.inject_error("PATCH", f"/channels/{thread.id}/messages/{old}", **EDIT_CAP, times=1)
    simcord_env.inject_error("DELETE", f"/channels/{thread.id}/messages/{old}", status=403, code=50013,
                             message="Missing Permissions", times=None)  # fmt: skip
    await play_from_dm(simcord_env, mover, game_id, random.Random(1))
    record, _ = await stored(simcord_env, game_id)
    assert record.table_message_id != old and record.shown
    pointer = message_by_id(thread, old)
    assert pointer is not None
    assert thread is not None
    assert thread.guild is not None
    link = f"https://discord.com/channels/{thread.guild.id}/{thread.id}/{record.table_message_id})"
    assert link in pointer.content and "no more edits" in pointer.content
    assert pointer.embeds == [] and pointer.components == []
    patches = [r for r in simcord_env.http_requests if r.method == "PATCH" and r.path.endswith(f"/messages/{old}")]
    assert len(patches) == 2  # the refused edit, then the one edit to the link
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)


async def test_a_dm_panel_edit_refused_with_30046_posts_one_new_panel_stores_it_and_deletes_the_old(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    game_id, record, game, mover = await kasino_for_two(simcord_env, channel, members)
    thread = game_thread(channel, game_id)
    seat = seat_to_move(game)
    dm = mover.user.dm_channel
    old = record.seats[seat].hand_message_id
    simcord_env.inject_error("PATCH", f"/channels/{dm.id}/messages/{old}", **EDIT_CAP, times=None)
    posted = posts_to(simcord_env, dm.id)
    # A typed move: the mover's DM panel is edited through its channel (not through a click on it).
    await mover.slash(thread, "kasino play", move=str(game.legal_moves(seat)[0]))
    record, game = await stored(simcord_env, game_id)
    new = record.seats[seat].hand_message_id
    assert new != old and record.shown
    assert posts_to(simcord_env, dm.id) == posted + 1
    assert message_by_id(dm, old) is None
    assert dm_hand_message(mover, record, seat).id == new
    assert_panel_matches_the_seat_view(simcord_env, mover, record, game, seat)
    # A later update of the panel (the game is cancelled) edits the new message.
    simcord_env.inject_error("PATCH", f"/channels/{dm.id}/messages/{new}", **EDIT_CAP, times=None)
    host = next(m for m in members if m.id == record.host_id)
    await host.slash(thread, "game cancel")
    for _ in range(3):  # long enough for several retries, were any owed
        await simcord_env.advance_time(60)
    record, game = await stored(simcord_env, game_id)
    # The second refusal (of the new panel) led to one more new panel, and nothing looped.
    assert record.seats[seat].hand_message_id not in (old, new)
    assert posts_to(simcord_env, dm.id) == posted + 2
    assert message_by_id(dm, new) is None
    assert "cancelled" in dm_hand_message(mover, record, seat).content


async def test_a_lobby_edit_refused_with_30046_posts_one_new_lobby_stores_it_and_deletes_the_old(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol, dave = members[:4]
    opened = await alice.slash(channel, "kasino new", seats=4)
    assert opened.response is not None
    game_id = int(opened.response.content.split("#", 1)[1].split("*", 1)[0])
    old = opened.response.message.id
    posted = posts_to(simcord_env, channel.id)
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", **EDIT_CAP, times=1)
    joined = await bob.click(opened.response, custom_id=lobby_button(opened.response, "join"))
    assert joined.acknowledged
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    new = record.lobby_message_id
    assert new != old and posts_to(simcord_env, channel.id) == posted + 1
    assert message_by_id(channel, old) is None
    lobby = message_by_id(channel, new)
    assert lobby is not None
    assert "bob" in lobby.content
    # The next click on the new lobby edits it in place.
    await carol.click(lobby, custom_id=lobby_button(lobby, "join"))
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert record.lobby_message_id == new and posts_to(simcord_env, channel.id) == posted + 1
    assert "carol" in existing_message(channel, new).content
    # A second refusal leads to one more new lobby, and nothing loops.
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", **EDIT_CAP, times=1)
    await dave.click(existing_message(channel, new), custom_id=lobby_button(lobby, "join"))
    for _ in range(3):  # long enough for several retries, were any owed
        await simcord_env.advance_time(60)
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    newest = record.lobby_message_id
    assert newest not in (old, new) and posts_to(simcord_env, channel.id) == posted + 2
    assert message_by_id(channel, new) is None
    lobbies = [m for m in channel.history() if f"#{game_id}" in (m.content or "")]
    assert [m.id for m in lobbies] == [newest] and "dave" in lobbies[0].content
    # The game starts from the newest lobby message.
    started = await alice.click(lobbies[0], custom_id=lobby_button(lobbies[0], "start"))
    assert started.acknowledged
    assert game_thread(channel, game_id) is not None
    assert (await record_of(simcord_env, game_id)).status == "running"

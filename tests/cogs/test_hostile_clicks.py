"""Issue 44 (Why 9): hostile or odd clicks are answered privately in words (or ignored), never with the apology, an
ERROR in the log, or "This interaction failed"; and none of them changes a game or a public message.

Forged components are posted by the bot itself (`post_forged`), as in `test_hostile_input.py`.
"""

import logging
from collections.abc import Iterator

import discord
import pytest
import simcord

from cogs.runtime.errors import APOLOGY
from db.records import GameRecord
from engine.base import AnyGame
from tests.cogs.helpers import (
    bot_of,
    custom_ids,
    game_thread,
    member_for,
    open_and_start,
    private_text,
    record_of,
    seat_to_move,
    table_message,
)
from tests.cogs.test_hostile_input import post_forged
from tests.cogs.test_seat_changes import state, three_player_kasino

PAST_64_BITS = str(2**70)


def answered_in_words(result: simcord.InteractionResult, *words: str) -> str:
    """The click was answered to the clicker alone, in these words, without the apology."""
    said = private_text(result)
    assert result.acknowledged, "This interaction failed"
    assert said and APOLOGY not in said, said
    for word in words:
        assert word in said, said
    return said


@pytest.fixture
def no_error_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert not errors, [record.getMessage() for record in errors]


async def stored(env: simcord.Env, game_id: int) -> tuple[GameRecord, AnyGame]:
    record = await record_of(env, game_id)
    return record, bot_of(env).service.game_of(record)


def seat_requests(thread: simcord.ChannelHandle) -> list[discord.Message]:
    return [message for message in thread.history() if "asks to take seat" in (message.content or "")]


async def test_seat_controls_with_ids_past_64_bits_are_refused_in_words(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], no_error_logged: None
) -> None:
    alice = members[0]
    take, answer, pick = f"seat:take:{PAST_64_BITS}", f"seat:yes:{PAST_64_BITS}:0:{PAST_64_BITS}", "seat:pick:"
    forged = await post_forged(simcord_env, channel, take, answer, select=(pick + PAST_64_BITS, ["0"]))
    for custom_id in (take, answer):
        answered_in_words(await alice.click(forged, custom_id=custom_id), "no longer exists")
    answered_in_words(await alice.select(forged, ["0"], custom_id=pick + PAST_64_BITS), "no longer exists")
    assert simcord_env.errors == []


async def test_a_seat_in_an_answer_past_64_bits_is_no_seat(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], no_error_logged: None
) -> None:
    alice, dave = members[0], members[3]
    game_id, thread, _ = await three_player_kasino(simcord_env, channel, members)
    before, _ = await state(simcord_env, game_id)
    custom_id = f"seat:yes:{game_id}:{PAST_64_BITS}:{dave.id}"
    forged = await post_forged(simcord_env, thread, custom_id)
    answered_in_words(await alice.click(forged, custom_id=custom_id), "no seat")
    after, _ = await state(simcord_env, game_id)
    assert after.version == before.version and simcord_env.errors == []


async def test_a_seat_menu_value_that_is_not_a_number_is_refused_in_words(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], no_error_logged: None
) -> None:
    dave = members[3]
    game_id, thread, _ = await three_player_kasino(simcord_env, channel, members)
    custom_id = f"seat:pick:{game_id}"
    for value in ("abc", "²", PAST_64_BITS):
        forged = await post_forged(simcord_env, thread, select=(custom_id, [value]))
        answered_in_words(await dave.select(forged, [value], custom_id=custom_id), "not one I know")
    assert seat_requests(thread) == [] and simcord_env.errors == []


async def test_a_member_asking_again_for_a_seat_is_told_privately_and_the_host_is_pinged_once(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], no_error_logged: None
) -> None:
    alice, dave = members[0], members[3]
    game_id, thread, seat = await three_player_kasino(simcord_env, channel, members)
    take = f"seat:take:{game_id}"
    first = await dave.click(table_message(thread, game_id), custom_id=take)
    assert "You asked the host" in private_text(first)
    for _ in range(3):
        again = await dave.click(table_message(thread, game_id), custom_id=take)
        answered_in_words(again, "already asked")
    typed = await dave.slash(thread, "seat take", seat=seat + 1)
    answered_in_words(typed, "already asked")
    [request] = seat_requests(thread)
    assert alice.mention in request.content

    # Once the host answers, the member may ask again.
    declined = await alice.click(request, custom_id=f"seat:no:{game_id}:{seat}:{dave.id}")
    assert declined.acknowledged
    asked = await dave.click(table_message(thread, game_id), custom_id=take)
    assert "You asked the host" in private_text(asked)
    [new_request] = seat_requests(thread)  # the declined one says so now
    assert new_request.id != request.id


async def test_approving_a_member_who_left_the_server_gives_no_seat_and_tells_the_host(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    no_error_logged: None,
) -> None:
    alice, bob, dave = members[0], members[1], members[3]
    game_id, thread, seat = await three_player_kasino(simcord_env, channel, members)
    asked = await dave.click(table_message(thread, game_id), custom_id=f"seat:take:{game_id}")
    assert "You asked the host" in private_text(asked)
    [request] = seat_requests(thread)
    before, _ = await state(simcord_env, game_id)
    guild.remove_member(dave)

    refused = await alice.click(request, custom_id=f"seat:yes:{game_id}:{seat}:{dave.id}")
    answered_in_words(refused, "no longer in this server")
    after, game = await state(simcord_env, game_id)
    assert after.seats[seat].user_id == bob.id and game.public_view().seats[seat].resigned
    assert after.version == before.version and await bot_of(simcord_env).store.seat_changes(game_id) == []
    assert str(dave.id) not in str(table_message(thread, game_id).embeds[0].to_dict())
    closed = next(message for message in thread.history() if message.id == request.id)
    assert not custom_ids(closed) and "no longer in this server" in closed.content


@pytest.mark.parametrize("planted", ["k:0:0:hrpage:1", "k:0:0:hr:0:on", "k:{lobby}:0:hrpage:1", "k:{lobby}:0:hrsave"])
async def test_a_house_rules_control_planted_on_a_public_message_changes_nothing(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    planted: str,
    no_error_logged: None,
) -> None:
    alice = members[0]
    opened = await alice.slash(channel, "kasino new")
    assert opened.response is not None
    lobby_id = int(opened.response.content.split("#", 1)[1].split("*", 1)[0])
    custom_id = planted.format(lobby=lobby_id)
    before = await record_of(simcord_env, lobby_id)
    forged = await post_forged(simcord_env, channel, custom_id)
    clicked = await alice.click(forged, custom_id=custom_id)
    answered_in_words(clicked, "house rules panel")
    after = next(message for message in channel.history() if message.id == forged.id)
    assert after.content == forged.content == "Forged controls"
    assert custom_ids(after) == [custom_id]
    after_lobby = await record_of(simcord_env, lobby_id)
    assert before is not None
    assert after_lobby is not None
    assert (after_lobby.version, after_lobby.settings) == (before.version, before.settings)
    assert channel.guild is not None
    assert await bot_of(simcord_env).service.house_rules_preset(channel.guild.id, "kasino") == {}
    assert simcord_env.errors == []


@pytest.mark.parametrize("spot", ["0", "11", "99", PAST_64_BITS])
async def test_a_forged_garbage_spot_is_answered_in_words(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    spot: str,
    no_error_logged: None,
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=2)
    thread = game_thread(channel, game_id)
    record, game = await stored(simcord_env, game_id)
    mover = member_for(members, record, seat_to_move(game))
    custom_id = f"g:{game_id}:{record.version}:jack:{spot}"
    forged = await post_forged(simcord_env, thread, custom_id)
    answered_in_words(await mover.click(forged, custom_id=custom_id))
    after, _ = await stored(simcord_env, game_id)
    assert after.version == record.version and simcord_env.errors == []

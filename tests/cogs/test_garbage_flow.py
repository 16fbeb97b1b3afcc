"""Issue 7: Garbage played through the table's buttons, every step narrated, nothing face down shown."""

import asyncio
import random
from collections.abc import Callable

import pytest
import simcord

from bot import CardBot
from cogs.runtime.house_rules import house_rules_line
from db.records import GameRecord
from engine.garbage import GarbageGame
from service.errors import RefusedError
from tests.cogs.helpers import (
    bot_of,
    custom_ids,
    game_thread,
    guild_of,
    is_enabled,
    labels,
    member_for,
    open_and_start,
    private_text,
    public_texts,
    record_of,
    result_message,
    seat_to_move,
    state_of,
    table_message,
)


async def hidden_cards(env: simcord.Env, game_id: int) -> set[str]:
    """Every card face down right now, as text (Garbage shows none of them, G11)."""
    state = state_of(await record_of(env, game_id))
    hidden = {
        code
        for layout, face_up in zip(state["layouts"], state["face_up"], strict=True)
        for code, up in zip(layout, face_up, strict=True)
        if not up
    }
    return hidden | set(state["stock"])


async def play_turn_by_buttons(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    game_id: int,
    rng: random.Random,
) -> GameRecord:
    record = await bot_of(env).store.get_game(game_id)
    assert record is not None
    game = GarbageGame.from_dict(state_of(record))
    assert game.to_move is not None
    player = member_for(members, record, game.to_move)
    table = table_message(game_thread(channel, game_id), game_id)
    choices = [cid for cid in custom_ids(table) if is_enabled(table, cid)]
    assert choices, table.content
    result = await player.click(table, custom_id=rng.choice(choices))
    assert result.acknowledged and not result.ephemeral, result
    after = await bot_of(env).store.get_game(game_id)
    assert after is not None
    assert after.version == record.version + 1
    return after


async def play_to_end(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    game_id: int,
    seed: int,
    max_turns: int = 5000,
) -> tuple[GameRecord, int]:
    rng = random.Random(seed)
    for turn in range(max_turns):
        record = await play_turn_by_buttons(env, channel, members, game_id, rng)
        if record.status == "finished":
            return record, turn + 1
    raise AssertionError("game did not finish")


@pytest.mark.parametrize(("players", "size"), [(2, 2), (6, 1)])
async def test_complete_game_through_buttons(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    players: int,
    size: int,
) -> None:
    host, *others = members[:players]
    _, game_id = await open_and_start(channel, host, others, "garbage new", seats=players, size=size)
    record, turns = await play_to_end(simcord_env, channel, members, game_id, seed=players)
    assert record.status == "finished" and turns > 0
    table = table_message(game_thread(channel, game_id), game_id)
    # A layout smaller than ten is house rule GV3: the table names it under its headline (issue 26).
    layout = house_rules_line("garbage", record.settings, "en")
    assert table.content == f"**Garbage #{game_id}** is over.\n{layout}" and labels(table) == []
    assert labels(result_message(game_thread(channel, game_id), game_id)) == ["Rematch"]  # beside the result
    assert channel.last_message is not None
    result_line = channel.last_message.content
    assert result_line.startswith(f"Garbage #{game_id} is over. 1. ")
    assert channel.guild is not None
    board = await bot_of(simcord_env).store.leaderboard(channel.guild.id, "garbage", "wins")
    assert board.total == players


async def test_full_size_two_player_game_never_shows_a_face_down_card(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=10)
    rng = random.Random(7)
    seen_hidden = set()
    while True:
        record = await play_turn_by_buttons(simcord_env, channel, members, game_id, rng)
        if record.status == "finished":
            break
        hidden = await hidden_cards(simcord_env, game_id)
        table = table_message(game_thread(channel, game_id), game_id)
        shown = str(table.embeds[0].to_dict()) + table.content
        # A face-down card can share rank and suit with a face-up copy only in multi-deck games; one deck here.
        leaked = {code for code in hidden if code.split("#")[0] in shown.split("Last turn")[0]}
        seen_hidden |= leaked
    assert seen_hidden == set()


async def test_a_jack_is_placed_by_button_on_the_chosen_spot(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=10)
    thread = game_thread(channel, game_id)
    for _ in range(300):  # draw from the stock until someone must choose a spot for a Jack (G6c)
        record = await bot_of(simcord_env).store.get_game(game_id)
        assert record is not None
        player = member_for(members, record, seat_to_move(GarbageGame.from_dict(state_of(record))))
        table = table_message(thread, game_id)
        shown = labels(table)
        assert shown[0] is not None
        if shown[0].startswith("Jack"):
            break
        await player.click(table, label="Draw from stock")
    else:
        pytest.fail("no Jack needed a spot in 300 turns")
    assert record is not None
    game = GarbageGame.from_dict(state_of(record))
    seat = game.to_move
    assert seat is not None
    face_down = game.public_view().seats[seat].face_down_spots
    assert shown == [f"Jack → spot {spot}" for spot in face_down]
    chosen = face_down[-1]
    await player.click(table, label=f"Jack → spot {chosen}")
    after = GarbageGame.from_dict(state_of(await record_of(simcord_env, game_id)))
    assert after.public_view().seats[seat].spots[chosen - 1] is not None
    narration = table_message(thread, game_id).embeds[0].to_dict()["fields"][-1]["value"]
    assert f"spot {chosen}" in narration


async def test_non_player_and_out_of_turn_clicks_are_refused_and_change_nothing(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    game = GarbageGame.from_dict(state_of(record))
    assert game.to_move is not None
    waiting = member_for(members, record, 1 - game.to_move)
    table = table_message(game_thread(channel, game_id), game_id)
    stranger = await carol.click(table, label="Draw from stock")
    assert private_text(stranger) == "You are not playing in this game."
    early = await waiting.click(table, label="Draw from stock")
    mover = record.seats[game.to_move].name
    assert private_text(early) == f"It is {mover}'s turn, not yours."
    assert (await record_of(simcord_env, game_id)).version == record.version


async def test_a_double_click_applies_once(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    player = member_for(members, record, seat_to_move(GarbageGame.from_dict(state_of(record))))
    table = table_message(game_thread(channel, game_id), game_id)
    first = await player.click(table, label="Draw from stock")
    second = await player.click(table, label="Draw from stock")
    player_seat = record.seat_of(player.id)
    assert player_seat is not None
    assert not first.ephemeral and private_text(first) == ""
    # The turn has passed on (or, mid-turn, the table changed): either way the second click is refused.
    assert private_text(second) in {
        "That move is out of date; the table has changed.",
        f"It is {record.seats[1 - player_seat].name}'s turn, not yours.",
    }
    assert len(await bot_of(simcord_env).store.game_moves(game_id)) == 1


async def test_concurrent_moves_on_the_service_apply_exactly_once(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    player = record.seats[seat_to_move(GarbageGame.from_dict(state_of(record)))].user_id
    assert player is not None
    service = bot_of(simcord_env).service
    outcomes = await asyncio.gather(
        service.play(game_id, player, "draw stock", version=record.version),
        service.play(game_id, player, "draw stock", version=record.version),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(applied) == 1 and len(refused) == 1
    assert isinstance(refused[0], RefusedError), refused
    assert refused[0].message.id == "refused.out-of-date"
    assert len(await bot_of(simcord_env).store.game_moves(game_id)) == 1


async def test_slash_commands_make_the_same_decisions(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    player = member_for(members, record, seat_to_move(GarbageGame.from_dict(state_of(record))))
    thread = game_thread(channel, game_id)
    empty = await player.slash(thread, "garbage draw", source="draw discard")
    assert "discard pile is empty" in private_text(empty).lower()
    drawn = await player.slash(thread, "garbage draw", source="draw stock")
    assert drawn.response is not None
    assert drawn.ephemeral and drawn.response.content.startswith("Done: ")
    assert len(await bot_of(simcord_env).store.game_moves(game_id)) == 1


async def test_restart_mid_hand_keeps_the_old_buttons_working(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    rng = random.Random(3)
    for _ in range(3):
        await play_turn_by_buttons(simcord_env, channel, members, game_id, rng)
    before = await bot_of(simcord_env).store.get_game(game_id)
    table = table_message(game_thread(channel, game_id), game_id)
    # A restart: the old process is gone, and its database lock with it (a second open would be refused).
    await bot_of(simcord_env).store.close()
    await simcord_env.restart_bot(make_bot())
    assert before is not None
    player = member_for(members, before, seat_to_move(GarbageGame.from_dict(state_of(before))))
    clicked = await player.click(table, custom_id=next(c for c in custom_ids(table) if is_enabled(table, c)))
    assert clicked.acknowledged and not clicked.ephemeral
    after = await bot_of(simcord_env).store.get_game(game_id)
    assert after is not None
    assert after.version == before.version + 1


async def test_public_messages_only_show_face_up_cards(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=4)
    rng = random.Random(11)
    for _ in range(12):
        record = await play_turn_by_buttons(simcord_env, channel, members, game_id, rng)
        if record.status != "running":
            break
        texts = public_texts(guild_of(channel))
        for code in await hidden_cards(simcord_env, game_id):
            assert code not in texts or _shown_face_up(record, code)


def _shown_face_up(record: GameRecord, code: str) -> bool:
    # With several decks a face-down card can share rank and suit with a face-up copy.
    state = state_of(record)
    face_up = {
        c
        for layout, ups in zip(state["layouts"], state["face_up"], strict=True)
        for c, up in zip(layout, ups, strict=True)
        if up
    }
    return code.split("#")[0] in {c.split("#")[0] for c in face_up | set(state["discard"])}

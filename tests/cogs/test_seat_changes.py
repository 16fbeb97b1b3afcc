"""Issue 28: seats change hands during a game, through the bot: a late member takes a vacated seat with the host's
approval and plays it to the end (its panel theirs alone), the host gives a vacated seat to a hard computer, and the
refusals."""

from dataclasses import replace

import simcord

from cogs.computers import ComputerCog
from cogs.runtime.words import said
from db.records import GameRecord
from engine.kasino import KasinoGame
from engine.kasino.moves import Take
from service.export import export_text
from service.history import load_history
from tests.cogs.helpers import (
    bot_of,
    cog_of,
    custom_ids,
    game_thread,
    open_and_start,
    private_text,
    seat_to_move,
    sql_store,
    state_of,
    table_message,
)


async def state(env: simcord.Env, game_id: int) -> tuple[GameRecord, KasinoGame]:
    record = await bot_of(env).store.get_game(game_id)
    assert record is not None
    return record, KasinoGame.from_dict(state_of(record))


async def three_player_kasino(
    env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> tuple[int, simcord.ChannelHandle, int]:
    """alice hosts alice, bob and carol, played to 1 point (one round); bob then resigns. Returns (id, thread, seat)."""
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob, carol], seats=3, target=1)
    thread = game_thread(channel, game_id)
    record, _ = await state(env, game_id)
    seat = record.seat_of(bob.id)
    assert seat is not None
    resigned = await bob.slash(thread, "game resign")
    assert resigned.acknowledged
    return game_id, thread, seat


def a_move(game: KasinoGame) -> str:
    """A take where there is one (so rounds score and the game ends), else the engine's simple move."""
    takes = [move for move in game.legal_moves(seat_to_move(game)) if isinstance(move, Take)]
    return str(takes[0] if takes else game.auto_move(seat_to_move(game)))


def dm_texts(member: simcord.MemberActor) -> list[tuple[int, str, str]]:
    channel = member.user.dm_channel
    return [(message.id, message.content, str([e.to_dict() for e in message.embeds])) for message in channel.history()]


async def play_out(
    env: simcord.Env, thread: simcord.ChannelHandle, members: list[simcord.MemberActor], game_id: int
) -> GameRecord:
    """Play every member's turn with `/kasino play` (the engine's simple move) until the game ends."""
    for _ in range(200):
        record, game = await state(env, game_id)
        if game.to_move is None or record.status != "running":
            return record
        player = record.seats[game.to_move]
        member = next(member for member in members if member.id == player.user_id)
        played = await member.slash(thread, "kasino play", move=a_move(game))
        assert played.acknowledged, played
    raise AssertionError("the game did not end")


async def test_a_late_member_takes_a_vacated_seat_with_the_hosts_approval_and_plays_to_the_end(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol, dave = members[:4]
    game_id, thread, seat = await three_player_kasino(simcord_env, channel, members)
    table = table_message(thread, game_id)
    take = f"seat:take:{game_id}"
    assert take in custom_ids(table)
    bobs_dms_before = dm_texts(bob)

    asked = await dave.click(table, custom_id=take)
    assert "You asked the host for bob's seat" in private_text(asked)
    request = thread.last_message
    assert request is not None
    assert f"seat {seat + 1} (bob)" in request.content and alice.mention in request.content
    approve = f"seat:yes:{game_id}:{seat}:{dave.id}"
    assert approve in custom_ids(request)

    # Only the host answers; a member already seated cannot ask for another seat.
    refused = await carol.click(request, custom_id=approve)
    assert "Only the host" in private_text(refused)
    again = await carol.click(table_message(thread, game_id), custom_id=take)
    assert private_text(again) == "You already have a seat in this game."

    approved = await alice.click(request, custom_id=approve)
    assert approved.acknowledged
    answered = next(message for message in thread.history() if message.id == request.id)
    assert f"{alice.mention} approved: {dave.mention} takes seat {seat + 1}" in answered.content
    assert not custom_ids(answered)
    record, game = await state(simcord_env, game_id)
    assert record.seats[seat].user_id == dave.id and not game.public_view().seats[seat].resigned
    told = table_message(thread, game_id)
    assert "alice gives bob's seat to dave, who plays it from here." in str(told.embeds[0].to_dict()) + told.content
    changes = await bot_of(simcord_env).store.seat_changes(game_id)
    assert [(c.seat, c.before.user_id, c.after.user_id) for c in changes] == [(seat, bob.id, dave.id)]

    # dave's panel comes to dave: Show my hand answers him, and bob is a player no more.
    shown = await dave.click(told, custom_id=f"k:{game_id}:0:hand")
    assert "**Your hand** in Kasino" in private_text(shown)
    assert any("**Your hand** in Kasino" in text for _, text, _ in dm_texts(dave))  # and by DM, as any player's
    not_bob = await bob.click(told, custom_id=f"k:{game_id}:0:hand")
    assert "not playing" in private_text(not_bob).lower() or "not a player" in private_text(not_bob).lower()

    record = await play_out(simcord_env, thread, [alice, carol, dave], game_id)
    assert record.status == "finished"
    # bob's DMs got nothing of the seat after he left it: whatever he had then is all he has.
    assert dm_texts(bob) == bobs_dms_before
    async with sql_store(simcord_env).transaction() as conn:
        rows = await conn.execute_fetchall("SELECT user_id, place, score FROM results WHERE game_id = ?", (game_id,))
    places = {user_id: place for user_id, place, _ in rows}
    assert places[bob.id] == 4  # the leaver places below every seat
    assert dave.id in places  # dave played every move of the seat after bob left it, which is most of them
    # The history names each move's player as they were then: bob's moves are bob's, dave's are dave's.
    history = await load_history(bot_of(simcord_env).store, game_id, guild_id=record.guild_id)
    change = changes[0]
    before = [step for step in history.steps if step.seat == seat and 0 < step.number < change.after_move]
    after = [step for step in history.steps if step.seat == seat and step.number > change.after_move]
    assert before and after
    assert all(step.seats[seat].name == "bob" for step in before) and all(s.seats[seat].name == "dave" for s in after)
    assert "bob" in " ".join(said(replace(record, seats=before[0].seats), before[0].narration))
    # The export names the change: bob left, and dave's rejoin was the next move.
    assert f'[SeatChanges "after {change.after_move - 1}: seat {seat + 1} bob > dave"]' in export_text(history)


async def test_the_host_gives_a_vacated_seat_to_a_hard_computer_which_then_plays_it(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, _, carol = members[:3]
    game_id, thread, seat = await three_player_kasino(simcord_env, channel, members)
    refused = await carol.slash(thread, "seat give", seat=seat + 1, strength="hard")
    assert "Only the host" in private_text(refused)
    given = await alice.slash(thread, "seat give", seat=seat + 1, strength="hard")
    assert "You gave seat" in private_text(given)
    record, _ = await state(simcord_env, game_id)
    assert record.seats[seat].strength == "hard" and record.seats[seat].user_id is None
    moves_before = record.move_count
    record = await play_out_with_computer(simcord_env, thread, [alice, carol], game_id)
    logged = await bot_of(simcord_env).store.game_moves(game_id)
    assert [move.move for move in logged if move.seat == seat and move.seq > moves_before]  # the computer played
    assert record.status == "finished"


async def play_out_with_computer(
    env: simcord.Env, thread: simcord.ChannelHandle, members: list[simcord.MemberActor], game_id: int
) -> GameRecord:
    for _ in range(200):
        record, game = await state(env, game_id)
        if game.to_move is None or record.status != "running":
            return record
        player = record.seats[game.to_move]
        if player.is_computer:
            cog_of(env, ComputerCog).poke(game_id)
            await env.settle()
            continue
        member = next(member for member in members if member.id == player.user_id)
        await member.slash(thread, "kasino play", move=a_move(game))
    raise AssertionError("the game did not end")


async def test_refusals_seat_not_vacant_and_not_a_seat(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol, dave = members[:4]
    _, game_id = await open_and_start(channel, alice, [bob, carol], seats=3, target=1)
    thread = game_thread(channel, game_id)
    record, _ = await state(simcord_env, game_id)
    carols = record.seat_of(carol.id)
    assert carols is not None
    not_vacant = await alice.slash(thread, "seat give", seat=carols + 1, strength="hard")
    assert "is still played by its player" in private_text(not_vacant)
    held = await dave.slash(thread, "seat take", seat=carols + 1)
    assert "is still played by its player" in private_text(held)
    nowhere = await dave.slash(thread, "seat take", seat=9)
    assert "There is no seat 9" in private_text(nowhere)
    assert f"seat:take:{game_id}" not in custom_ids(table_message(thread, game_id))  # nothing to take: no button
    assert await bot_of(simcord_env).store.seat_changes(game_id) == []

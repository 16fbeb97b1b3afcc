"""Issue 8: turn timers with SimCord's virtual clock, AFK resigning, host skip/remove, and rematch."""

from collections.abc import Callable
from datetime import timedelta

import simcord

from ai.players import player_for
from bot import CardBot
from cogs.timers import TimerCog
from db.records import GameRecord
from engine.base import AnyGame
from engine.registry import game_class
from service.errors import RefusedError
from tests.cogs.helpers import (
    bot_of,
    cog_of,
    game_thread,
    labels,
    member_for,
    open_and_start,
    private_text,
    record_of,
    result_message,
    seat_to_move,
    state_of,
    table_message,
)


async def state(env: simcord.Env, game_id: int) -> tuple[GameRecord, AnyGame]:
    record = await bot_of(env).store.get_game(game_id)
    assert record is not None
    return record, game_class(record.kind).from_dict(state_of(record))


async def test_the_table_shows_the_deadline_and_the_lobby_the_timer(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    opened = await alice.slash(channel, "garbage new", seats=2, size=3, timer="2m")
    assert opened.response is not None
    assert "2 minutes per turn; after 3 automatic turns in a row a player is resigned." in opened.response.content
    await bob.click(opened.response, label="Join")
    await alice.click(opened.response, label="Start")
    record, _ = await state(simcord_env, 1)
    assert record.deadline is not None
    stamp = int(record.deadline.timestamp())
    assert record.deadline == simcord_env.now() + timedelta(seconds=120)
    table = table_message(game_thread(channel, 1), 1)
    assert f"This turn ends <t:{stamp}:R>" in table.content and "2 minutes per turn" in table.content


async def test_warning_then_an_automatic_move_at_the_deadline(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, timer="2m")
    record, game = await state(simcord_env, game_id)
    slow = member_for(members, record, seat_to_move(game))
    thread = game_thread(channel, game_id)
    await simcord_env.advance_time(85)
    assert not any("ends <t:" in m.content for m in thread.history() if not m.embeds)
    await simcord_env.advance_time(10)  # 95 s: inside the last quarter of the turn
    # Their turn reached them by DM, so the warning does too (issue 22: one request, a quiet thread).
    assert not [m for m in thread.history() if m.content.startswith("⏳")]
    assert slow.user.dm_channel.last_message is not None
    assert slow.user.dm_channel.last_message.content.startswith("⏳ Your turn in Kasino")
    assert record is not None and record.deadline is not None
    # The clock time, then the time left said once (a relative timestamp beside it said it twice).
    warning = slow.user.dm_channel.last_message.content
    assert f"ends at <t:{int(record.deadline.timestamp())}:t> (about " in warning, warning
    assert warning.count("second") == 1 and ":R>" not in warning, warning
    assert (await record_of(simcord_env, game_id)).version == record.version
    await simcord_env.advance_time(30)  # past the deadline
    after, game_after = await state(simcord_env, game_id)
    moves = await bot_of(simcord_env).store.game_moves(game_id)
    assert [(m.seat, m.auto) for m in moves] == [(game.to_move, True)]
    # Played by the medium computer player, from the absent player's view alone (issue 15's absent players).
    medium = player_for("kasino", "medium", seed=record.seed + seat_to_move(game))
    assert moves[0].move == str(medium.choose(game.view(seat_to_move(game))))
    assert game_after.to_move != game.to_move
    narration = table_message(thread, game_id).embeds[0].to_dict()["fields"][-1]["value"]
    assert narration.startswith(f"⏰ {record.seats[seat_to_move(game)].name} ran out of time; the bot played for them.")
    assert after.seats[seat_to_move(game)].auto_streak == 1


async def test_a_player_is_resigned_after_the_limit_of_automatic_turns(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob, carol], "garbage new", seats=3, size=3, timer="2m", afk=1)
    record, game = await state(simcord_env, game_id)
    absent = seat_to_move(game)
    await simcord_env.advance_time(125)
    after, game_after = await state(simcord_env, game_id)
    assert game_after.public_view().seats[absent].resigned
    assert after.status == "running"  # three players: the other two play on
    moves = await bot_of(simcord_env).store.game_moves(game_id)
    assert moves[-1].move == "resign" and moves[-1].auto
    table = table_message(game_thread(channel, game_id), game_id)
    assert f"{record.seats[absent].name} was resigned after 1 automatic turn in a row." in str(
        table.embeds[0].to_dict()
    )


async def test_a_two_player_game_ends_when_the_absent_player_is_resigned(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, timer="2m", afk=2)
    _, game = await state(simcord_env, game_id)
    first = seat_to_move(game)
    for _ in range(3):  # first, second, first again: the first player's second automatic turn in a row
        await simcord_env.advance_time(125)
    after, game_after = await state(simcord_env, game_id)
    assert after.status == "finished"
    outcome = game_after.outcome()
    assert outcome is not None
    assert outcome.places[first] == 2 and outcome.places[1 - first] == 1


async def test_a_player_who_moves_again_starts_a_new_afk_count(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3, timer="2m", afk=2)
    record, game = await state(simcord_env, game_id)
    await simcord_env.advance_time(125)  # the first player's turn is played for them
    after, game = await state(simcord_env, game_id)
    assert after.seats[record.seats[0].seat].auto_streak + after.seats[1].auto_streak == 1
    mover = member_for(members, after, seat_to_move(game))
    await mover.click(table_message(game_thread(channel, game_id), game_id), label="Draw from stock")
    final, _ = await state(simcord_env, game_id)
    assert final.seats[seat_to_move(game)].auto_streak == 0


async def test_a_deadline_that_passed_while_the_bot_was_down_is_acted_on_once(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, timer="2m", afk=5)
    # The bot goes down: its timer stops. Ten minutes pass, five deadlines' worth.
    await bot_of(simcord_env).remove_cog("TimerCog")
    await simcord_env.advance_time(600)
    assert await bot_of(simcord_env).store.game_moves(game_id) == []
    # A restart: the old process is gone, and its database lock with it (a second open would be refused).
    await bot_of(simcord_env).store.close()
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(1)
    moves = await bot_of(simcord_env).store.game_moves(game_id)
    assert len(moves) == 1 and moves[0].auto
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert record.deadline == simcord_env.now() - timedelta(seconds=1) + timedelta(seconds=120)


async def test_host_skips_and_removes_others_may_not(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob, carol], "garbage new", seats=3, size=3)
    thread = game_thread(channel, game_id)
    refused = await bob.slash(thread, "game skip")
    assert private_text(refused) == "Only the host or someone with Manage Server can skip a turn."
    refused = await bob.slash(thread, "game remove", player=carol)
    assert "can remove a player" in private_text(refused)
    assert await bot_of(simcord_env).store.game_moves(game_id) == []

    _, game = await state(simcord_env, game_id)
    skipped = await alice.slash(thread, "game skip")
    assert private_text(skipped) == "Turn skipped."
    after, game_after = await state(simcord_env, game_id)
    assert game_after.to_move != game.to_move
    assert after.seats[seat_to_move(game)].auto_streak == 1

    removed = await alice.slash(thread, "game remove", player=carol)
    assert private_text(removed) == "carol was removed."
    _, game_final = await state(simcord_env, game_id)
    assert game_final.public_view().seats[after.seat_of(carol.id)].resigned


async def test_rematch_opens_a_lobby_with_the_same_options_and_invites_the_players(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=3, target=7, timer="15m", afk=4)
    thread = game_thread(channel, game_id)
    await bob.slash(thread, "game resign")
    result = result_message(thread, game_id)  # Rematch is offered beside the result
    assert labels(result) == ["Rematch"] and labels(table_message(thread, game_id)) == []
    clicked = await bob.click(result, label="Rematch")
    assert clicked.acknowledged
    lobby = channel.last_message
    assert lobby is not None
    assert lobby.content.startswith(f"Rematch of Kasino #{game_id}! {alice.mention}: press **Join** to play again.")
    # The one who asked is told where the lobby is by a link, not a bare address (issue 42's stale lines).
    told = private_text(clicked)
    assert told == f"The rematch lobby, [Kasino #{game_id + 1}]({lobby.jump_url}), is open.", told
    assert "Players (1/3): bob" in lobby.content
    new = await bot_of(simcord_env).store.get_game(game_id + 1)
    old = await bot_of(simcord_env).store.get_game(game_id)
    assert new is not None
    assert old is not None
    assert (new.kind, new.settings, new.max_seats, new.turn_seconds, new.afk_limit, new.host_id) == (
        old.kind,
        old.settings,
        old.max_seats,
        old.turn_seconds,
        old.afk_limit,
        bob.id,
    )
    assert labels(table_message(thread, game_id)) == []
    joined = await alice.click(lobby, label="Join")
    assert channel.last_message is not None
    assert joined.acknowledged and "Players (2/3): bob, alice" in channel.last_message.content


async def test_a_warning_read_before_a_move_leaves_the_next_turns_deadline_alone(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    # The race: the tick reads the game, a move lands, then the warning is written for the turn that is over.
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, timer="2m")
    stale, game = await state(simcord_env, game_id)
    await simcord_env.advance_time(30)
    mover = member_for(members, stale, seat_to_move(game))
    move = str(game.legal_moves(seat_to_move(game))[-1])
    played = await mover.slash(game_thread(channel, game_id), "kasino play", move=move)
    assert played.acknowledged
    moved, _ = await state(simcord_env, game_id)
    assert stale.deadline is not None
    assert moved.deadline == stale.deadline + timedelta(seconds=30) and not moved.warned

    timers = cog_of(simcord_env, TimerCog)
    try:
        assert timers is not None
        await timers.warn(stale)
    except Exception as error:  # the tick treats a refusal as "nothing due"
        assert isinstance(error, RefusedError), error
        assert error.message.id == "refused.out-of-date"
    else:
        raise AssertionError("a warning for an old version went through")
    after, _ = await state(simcord_env, game_id)
    assert (after.deadline, after.warned, after.version) == (moved.deadline, False, moved.version)

    await simcord_env.advance_time(95)  # past the old deadline, still inside the new turn
    after, _ = await state(simcord_env, game_id)
    assert after.version == moved.version, "the next player's turn was played early"

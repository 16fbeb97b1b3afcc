"""Issue 5: leaderboards and stats after games finished through the bot; resigning."""

import random

import simcord

from db.records import GameRecord
from engine.garbage import GarbageGame
from tests.cogs.helpers import (
    bot_of,
    custom_ids,
    game_thread,
    is_enabled,
    labels,
    member_for,
    open_and_start,
    private_text,
    seat_to_move,
    state_of,
    table_message,
)


async def finish_garbage(
    env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], game_id: int, seed: int = 1
) -> GameRecord:
    rng = random.Random(seed)
    thread = game_thread(channel, game_id)
    for _ in range(3000):
        record = await bot_of(env).store.get_game(game_id)
        assert record is not None
        if record.status == "finished":
            return record
        player = member_for(members, record, seat_to_move(GarbageGame.from_dict(state_of(record))))
        table = table_message(thread, game_id)
        await player.click(table, custom_id=rng.choice([c for c in custom_ids(table) if is_enabled(table, c)]))
    raise AssertionError("game did not finish")


async def test_leaderboard_pages_and_stats_after_games_played_through_the_bot(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle
) -> None:
    players = [guild.add_member(simcord_env.create_user(f"player{n:02}")) for n in range(12)]
    for table_players in (players[:6], players[6:]):
        _, game_id = await open_and_start(channel, table_players[0], table_players[1:], "garbage new", seats=6, size=1)
        await finish_garbage(simcord_env, channel, players, game_id)
    _, game_id = await open_and_start(channel, players[0], [players[6]], "garbage new", seats=2, size=1)
    final = await finish_garbage(simcord_env, channel, players, game_id)

    shown = await players[0].slash(channel, "leaderboard", game="garbage", sort="wins")
    assert shown.response is not None
    embed = shown.response.embeds[0]
    assert embed.title == "Garbage leaderboard — Cards"
    assert embed.footer.text == "Sorted by wins · page 1 of 2"
    assert embed.description is not None
    lines = embed.description.splitlines()
    assert len(lines) == 10 and lines[0].startswith("**1.** ")
    wins = [int(line.split(" — rating ")[1].split(" · ")[1].split(" win")[0]) for line in lines]
    assert wins == sorted(wins, reverse=True) and wins[0] >= 1
    await players[0].click(shown.response, label="Next")
    assert shown.response is not None
    embed = shown.response.embeds[0]
    assert embed.footer.text == "Sorted by wins · page 2 of 2"
    assert embed.description is not None
    assert len(embed.description.splitlines()) == 2

    winner_seat = state_of(final)["game_winner"]
    winner = member_for(players, final, winner_seat)
    stats = await winner.slash(channel, "stats")
    assert stats.ephemeral
    assert stats.response is not None
    field = next(f for f in stats.response.embeds[0].fields if f.name == "Garbage")
    assert field.value is not None
    assert field.value.startswith("This server: 2 games · ")
    assert "All servers: 2 games" in field.value


async def test_win_rate_board_needs_three_games(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=1)
    await finish_garbage(simcord_env, channel, members, game_id)
    shown = await alice.slash(channel, "leaderboard", game="garbage", sort="winrate")
    nobody = "Nobody with at least 3 games yet. Finish a game to get on the board!"
    assert shown.response is not None
    assert shown.response.embeds[0].description == nobody
    assert labels(shown.response) == []


async def test_resign_in_a_two_player_game_ends_it_with_the_resigner_last(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    thread = game_thread(channel, game_id)
    done = await bob.slash(thread, "game resign")
    assert private_text(done) == "You resigned. Thanks for playing!"
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert record.status == "finished"
    assert alice is not None
    assert channel.guild is not None
    stats = await bot_of(simcord_env).store.player_stats(alice.id, channel.guild.id)
    assert stats.for_kind("kasino").server.wins == 1
    assert channel.last_message is not None
    assert channel.last_message.content.startswith(f"Kasino #{game_id} is over. 1. alice")


async def test_resign_in_a_three_player_game_lets_the_others_play_on(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob, carol], "garbage new", seats=3, size=2)
    thread = game_thread(channel, game_id)
    await carol.slash(thread, "game resign")
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert record.status == "running"
    game = GarbageGame.from_dict(state_of(record))
    carols = record.seat_of(carol.id)
    assert carols is not None
    assert game.public_view().seats[carols].resigned
    assert game.to_move != record.seat_of(carol.id)
    again = await carol.slash(thread, "game resign")
    assert "resigned" in private_text(again)

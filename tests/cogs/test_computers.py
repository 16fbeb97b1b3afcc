"""Issue 15: computer players through SimCord: seated by the host, they play by themselves, survive restarts,
never run on a timer, and are rated and listed on the boards."""

import random
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

import pytest
import simcord

from ai.players import player_for
from bot import CardBot
from cogs.computers import ComputerCog
from db.records import GameRecord
from engine.base import AnyGame
from engine.garbage import GarbageGame
from engine.kasino import KasinoGame
from engine.registry import game_class
from service.computers import decision_seed, public_history
from tests.cogs.helpers import (
    Shown,
    bot_of,
    cog_of,
    components,
    custom_ids,
    game_thread,
    guild_of,
    is_enabled,
    labels,
    private_text,
    public_texts,
    record_of,
    response_of,
    result_message,
    seat_to_move,
    state_of,
    table_message,
)


async def state(env: simcord.Env, game_id: int) -> tuple[GameRecord, AnyGame]:
    record = await bot_of(env).store.get_game(game_id)
    assert record is not None
    return record, game_class(record.kind).from_dict(state_of(record))


def menu(message: Shown, action: str) -> dict[str, Any]:
    found = next((c for c in components(message) if c.get("custom_id", "").endswith(f":{action}")), None)
    assert found is not None, f"no {action} menu"
    return found


async def solo_lobby(
    channel: simcord.ChannelHandle, host: simcord.MemberActor, command: str, strengths: Sequence[str], **options: Any
) -> tuple[simcord.InteractionResult, int]:
    """A lobby opened by `host` with computers of `strengths` added from the lobby's menu; returns (reply, id)."""
    opened = await host.slash(channel, command, **options)
    game_id = int(response_of(opened).content.split("#", 1)[1].split("*", 1)[0])
    for strength in strengths:
        adding = menu(response_of(opened), "cpuadd")
        added = await host.select(response_of(opened), [strength], custom_id=adding["custom_id"])
        assert added.acknowledged and not added.ephemeral, added
    return opened, game_id


def computer_cog(env: simcord.Env) -> ComputerCog:
    return cog_of(env, ComputerCog)


async def test_the_host_adds_computers_of_a_strength_and_removes_them_others_may_not(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    opened, game_id = await solo_lobby(channel, alice, "kasino new", ["hard", "easy", "hard"], seats=4)
    assert "Players (4/4): alice, Computer (hard), Computer (easy), Computer (hard) 2" in response_of(opened).content
    assert menu(response_of(opened), "cpuadd")["disabled"]  # full: nothing more to add
    assert [o["value"] for o in menu(response_of(opened), "cpudrop")["options"]] == [
        "Computer (hard)",
        "Computer (easy)",
        "Computer (hard) 2",
    ]
    refused = await bob.select(response_of(opened), ["Computer (easy)"], custom_id=f"k:{game_id}:0:cpudrop")
    assert private_text(refused) == "Only the host can remove computer players."
    removed = await alice.select(response_of(opened), ["Computer (hard)"], custom_id=f"k:{game_id}:0:cpudrop")
    assert removed.acknowledged and not removed.ephemeral
    assert "Players (3/4): alice, Computer (easy), Computer (hard) 2" in response_of(opened).content
    assert not menu(response_of(opened), "cpuadd")["disabled"]
    refused = await bob.select(response_of(opened), ["medium"], custom_id=f"k:{game_id}:0:cpuadd")
    assert private_text(refused) == "Only the host can add computer players."
    joined = await bob.click(response_of(opened), label="Join")
    assert joined.acknowledged and "Players (4/4): alice, Computer (easy), Computer (hard) 2, bob" in (
        response_of(opened).content
    )
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert [(seat.name, seat.strength) for seat in record.seats] == [
        ("alice", None),
        ("Computer (easy)", "easy"),
        ("Computer (hard) 2", "hard"),
        ("bob", None),
    ]


async def test_the_menu_offers_expert_only_for_a_kind_that_has_it(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    kasino, _ = await solo_lobby(channel, alice, "kasino new", ["expert"], seats=2)
    assert "Players (2/2): alice, Computer (expert)" in response_of(kasino).content
    garbage = await alice.slash(channel, "garbage new")
    assert [o["value"] for o in menu(response_of(garbage), "cpuadd")["options"]] == ["easy", "medium", "hard"]
    opened = await alice.slash(channel, "kasino new")
    assert [o["value"] for o in menu(response_of(opened), "cpuadd")["options"]] == ["easy", "medium", "hard", "expert"]
    # Each kind's menu describes its own players (issue 42: Garbage's said the Kasino players' "counts cards").
    garbage_words = [o["label"] for o in menu(response_of(garbage), "cpuadd")["options"]]
    assert garbage_words[1].startswith("Medium — takes every discard that turns up a card;"), garbage_words
    assert "counts cards" in menu(response_of(opened), "cpuadd")["options"][1]["label"]


async def test_computers_cannot_be_added_after_start_the_menus_go(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened, game_id = await solo_lobby(channel, alice, "garbage new", ["easy"], seats=3, size=2)
    before_start = response_of(opened).message
    await alice.click(response_of(opened), label="Start")
    assert response_of(opened).components == []  # buttons and menus are gone with the lobby
    # Discord no longer offers the menu (a forged or stale one is refused by the service: tests/service).
    with pytest.raises(simcord.SetupError):
        await alice.select(before_start, ["hard"], custom_id=f"g:{game_id}:0:cpuadd")
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert [seat.name for seat in record.seats if seat.is_computer] == ["Computer (easy)"]


async def test_a_single_member_without_computers_is_told_to_add_one(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened = await alice.slash(channel, "garbage new")
    refused = await alice.click(response_of(opened), label="Start")
    assert private_text(refused) == "At least two players are needed: wait for someone to join, or add a computer."


async def test_b1_one_member_and_computers_play_garbage_to_the_end_and_the_log_replays(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened, game_id = await solo_lobby(channel, alice, "garbage new", ["easy", "hard"], seats=3, size=2)
    await alice.click(response_of(opened), label="Start")
    thread = game_thread(channel, game_id)
    rng = random.Random(4)
    for _ in range(500):
        record, game = await state(simcord_env, game_id)
        if record.status != "running":
            break
        # Whenever the bot is idle, it is the member's turn: the computers never hold the game up.
        assert not record.seats[seat_to_move(game)].is_computer
        table = table_message(thread, game_id)
        enabled = [cid for cid in custom_ids(table) if is_enabled(table, cid)]
        await alice.click(table, custom_id=rng.choice(enabled))
    assert record.status == "finished"
    moves = await bot_of(simcord_env).store.game_moves(game_id)
    computer_seats = {seat.seat for seat in record.seats if seat.is_computer}
    assert {move.seat for move in moves} >= computer_seats  # every computer moved, and saved its moves (B1)
    assert not any(move.auto for move in moves)  # their own moves, not moves made for an absent player
    replayed = GarbageGame.replay(3, record.seed, record.settings, [(move.seat, move.move) for move in moves])
    assert replayed.to_dict() == record.state
    pings = [
        entry.json["content"]
        for entry in simcord_env.http_requests
        if entry.method == "POST" and entry.json and "your turn" in (entry.json.get("content") or "")
    ]
    # Computers are never pinged, and neither is a member alone with computers: their turn comes back within seconds
    # of their own move (issue 22).
    assert pings == []
    assert not [m for m in thread.history() if "your turn" in m.content]  # and the last ping went with the game
    assert channel.last_message is not None
    assert f"Garbage #{game_id} is over." in channel.last_message.content
    assert "Computer (easy)" in public_texts(guild_of(channel)) and "Computer (hard)" in public_texts(guild_of(channel))


@pytest.mark.parametrize("strength", ["medium", "expert"])
async def test_b1_one_member_and_a_computer_play_kasino_to_the_end_each_move_from_its_seed(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], strength: str
) -> None:
    alice = members[0]
    opened, game_id = await solo_lobby(channel, alice, "kasino new", [strength], seats=2, target=1)
    await alice.click(response_of(opened), label="Start")
    thread = game_thread(channel, game_id)
    rng = random.Random(2)
    for _ in range(200):
        record, game = await state(simcord_env, game_id)
        if record.status != "running":
            break
        assert not record.seats[seat_to_move(game)].is_computer
        choices = await alice.autocomplete(thread, "kasino play", "move", "")
        played = await alice.slash(thread, "kasino play", move=rng.choice(choices)["value"])
        assert played.acknowledged
    assert record.status == "finished"
    moves = await bot_of(simcord_env).store.game_moves(game_id)
    replayed = KasinoGame.replay(2, record.seed, record.settings, [(move.seat, move.move) for move in moves])
    assert replayed.to_dict() == record.state
    # Each computer move is the one its seed gives in that position (B1: the log holds the move, not the dice).
    check = KasinoGame.new(2, record.seed, KasinoGame.settings_from_dict(record.settings))
    for number, move in enumerate(moves):
        seat_record = record.seats[move.seat]
        if seat_record.is_computer:
            assert seat_record.strength is not None
            player = player_for("kasino", seat_record.strength, seed=decision_seed(record.seed, move.seat, number))
            history = public_history(record, moves[:number])
            assert str(player.choose(check.view(move.seat), history)) == move.move
        check.play(move.seat, move.move)
    assert channel.last_message is not None
    assert f"Kasino #{game_id} is over." in channel.last_message.content


async def test_computers_pause_before_each_decision(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened, game_id = await solo_lobby(channel, alice, "garbage new", ["easy"], seats=2, size=3)
    computer_cog(simcord_env).pause = 60.0  # longer than SimCord's settling: the wait parks until time moves
    await alice.click(response_of(opened), label="Start")
    thread = game_thread(channel, game_id)
    for _ in range(4):
        record, game = await state(simcord_env, game_id)
        if record.seats[seat_to_move(game)].is_computer:
            await simcord_env.advance_time(59)
            assert record is not None
            assert (await record_of(simcord_env, game_id)).version == record.version  # still thinking
            await simcord_env.advance_time(1)
            assert (await record_of(simcord_env, game_id)).version > record.version
            narration = table_message(thread, game_id).embeds[0].to_dict()["fields"][-1]["value"]
            assert "Computer (easy)" in narration  # the table shows the computer's move like anyone's
        else:
            table = table_message(thread, game_id)
            await alice.click(table, custom_id=next(c for c in custom_ids(table) if c.endswith(":stock")))


async def test_turn_timers_never_run_for_computer_seats(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened, game_id = await solo_lobby(channel, alice, "garbage new", ["medium"], seats=2, size=3, timer="2m")
    cog = computer_cog(simcord_env)
    cog.pause = 300.0  # the computer "thinks" for five minutes: far past the 2-minute timer
    await alice.click(response_of(opened), label="Start")
    thread = game_thread(channel, game_id)
    record, game = await state(simcord_env, game_id)
    if not record.seats[seat_to_move(game)].is_computer:
        table = table_message(thread, game_id)
        await alice.click(table, custom_id=next(c for c in custom_ids(table) if c.endswith(":stock")))
        record, game = await state(simcord_env, game_id)
    assert record.seats[seat_to_move(game)].is_computer
    assert record.deadline is None and "This turn ends" not in table_message(thread, game_id).content
    moves = await bot_of(simcord_env).store.game_moves(game_id)
    await simcord_env.advance_time(290)  # more than twice the timer: the timer loop ticked 58 times
    after = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert after is not None
    assert after.version == record.version and await bot_of(simcord_env).store.game_moves(game_id) == moves
    assert all(seat.auto_streak == 0 for seat in after.seats)
    assert not any(m.content.startswith("⏳") for m in thread.history())  # no warning either
    await simcord_env.advance_time(10)  # the five minutes are up: the computer moves, and the member's clock starts
    record, game = await state(simcord_env, game_id)
    assert not record.seats[seat_to_move(game)].is_computer
    assert record.deadline == simcord_env.now() + timedelta(seconds=120)


async def test_g6c_a_restart_while_a_computer_holds_a_jack_continues_its_turn(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice = members[0]
    opened, game_id = await solo_lobby(channel, alice, "garbage new", ["medium"], seats=2, size=10)
    computer_cog(simcord_env).pause = 60.0
    await alice.click(response_of(opened), label="Start")
    thread = game_thread(channel, game_id)
    # Play until the computer has drawn a Jack and must still choose its spot (G6c): its turn is half done.
    for _ in range(400):
        record, game = await state(simcord_env, game_id)
        seat = seat_to_move(game)
        if record.seats[seat].is_computer and game.public_view().seats[seat].pending is not None:
            break
        if record.seats[seat].is_computer:
            await simcord_env.advance_time(60)
        else:
            table = table_message(thread, game_id)
            await alice.click(table, custom_id=next(c for c in custom_ids(table) if c.endswith(":stock")))
    else:
        pytest.fail("the computer never held a Jack")
    moves_before = await bot_of(simcord_env).store.game_moves(game_id)
    # The bot goes down while the computer thinks about its Jack, and comes back.
    await bot_of(simcord_env).store.close()
    await simcord_env.restart_bot(make_bot())  # a new bot: no pause (tests' default)
    after, game_after = await state(simcord_env, game_id)
    moves = await bot_of(simcord_env).store.game_moves(game_id)
    assert moves[: len(moves_before)] == moves_before
    jack = moves[len(moves_before)]
    assert (jack.seat, jack.move.startswith("jack ")) == (seat, True)
    medium = player_for("garbage", "medium", seed=decision_seed(record.seed, seat, len(moves_before)))
    assert jack.move == str(medium.choose(game.view(seat)))
    assert not after.seats[seat_to_move(game_after)].is_computer or after.status != "running"
    narration = table_message(thread, game_id).embeds[0].to_dict()["fields"][-1]["value"]
    assert "Computer (medium) put J" in narration and f"on spot {jack.move.split()[1]}" in narration


async def test_computers_are_rated_and_the_leaderboard_shows_or_hides_them(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened, game_id = await solo_lobby(channel, alice, "garbage new", ["hard"], seats=2, size=1)
    await alice.click(response_of(opened), label="Start")
    thread = game_thread(channel, game_id)
    for _ in range(200):
        record, _ = await state(simcord_env, game_id)
        if record.status != "running":
            break
        table = table_message(thread, game_id)
        await alice.click(table, custom_id=next(c for c in custom_ids(table) if c.endswith(":stock")))
    assert record.status == "finished"
    shown = await alice.slash(channel, "leaderboard", game="garbage")
    assert shown.response is not None
    assert shown.response.embeds[0].description is not None
    assert shown.response.embeds[0].footer.text is not None
    lines = shown.response.embeds[0].description.splitlines()
    assert len(lines) == 2
    assert any(line.startswith("🤖 Computer (hard) — rating ") for line in lines)
    assert any(line.startswith("**1.** alice — rating ") for line in lines)  # alice's rank ignores the computer
    assert "🤖 computer player, unranked" in shown.response.embeds[0].footer.text
    hidden = await alice.slash(channel, "leaderboard", game="garbage", computers="hide")
    assert hidden.response is not None
    assert hidden.response.embeds[0].description is not None
    assert hidden.response.embeds[0].footer.text is not None
    assert hidden.response.embeds[0].description.splitlines() == [next(line for line in lines if "alice" in line)]
    assert hidden.response.embeds[0].footer.text.endswith("computer players hidden")
    stats = await alice.slash(channel, "stats")
    assert stats.response is not None
    field = next(f for f in stats.response.embeds[0].fields if f.name == "Garbage")
    assert field.value is not None
    assert "(#1 of 1)" in field.value  # rated against the computer, ranked among members


async def test_a_rematch_seats_the_same_computers_again(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened, game_id = await solo_lobby(channel, alice, "kasino new", ["hard"], seats=2)
    await alice.click(response_of(opened), label="Start")
    thread = game_thread(channel, game_id)
    await alice.slash(thread, "game resign")
    record, _ = await state(simcord_env, game_id)
    assert record.status == "finished"
    await alice.click(result_message(thread, game_id), label="Rematch")
    lobby = channel.last_message
    assert lobby is not None
    # Nobody else to ask: the host, seated already, is not told to press Join (issue 42's stale lines).
    assert lobby.content.startswith(f"Rematch of Kasino #{game_id}!\n\n") and "Join**" not in lobby.content
    assert "Players (2/2): alice, Computer (hard)" in lobby.content
    assert labels(lobby)[:4] == ["Join", "Leave", "Start", "Cancel"]


async def test_a_computer_whose_poke_was_lost_moves_at_the_next_sweep(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened, game_id = await solo_lobby(channel, alice, "garbage new", ["easy"], seats=2, size=3)
    await alice.click(response_of(opened), label="Start")
    record, game = await state(simcord_env, game_id)
    assert not record.seats[seat_to_move(game)].is_computer  # seed 1: alice starts
    # alice's move is saved by the service alone (as if the process stopped before showing it): nothing pokes the
    # computers.
    await bot_of(simcord_env).service.play(game_id, alice.id, "draw stock")
    record, game = await state(simcord_env, game_id)
    assert record.seats[seat_to_move(game)].is_computer  # alice's move was saved; the computer has not moved
    await simcord_env.advance_time(60)  # the sweep finds it
    after, game = await state(simcord_env, game_id)
    assert after.version > record.version
    assert not after.seats[seat_to_move(game)].is_computer or after.status != "running"

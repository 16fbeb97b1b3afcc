"""Issue 11: what players see is a projection of the stored game, whatever Discord does.

Each test injects the fault players met (a failed table edit, ping, DM edit, an expired interaction, a deleted
thread or table message, a crash between saving and showing) and checks what the players see afterwards, and that
the move was saved exactly once.
"""

import itertools
import logging
import random
from collections.abc import Callable
from typing import Any

import discord
import pytest
import simcord

from bot import CardBot
from cogs.runtime.backoff import retry_delay
from cogs.runtime.delivery import CATCH_UP as CATCH_UP_ID
from cogs.runtime.errors import APOLOGY
from cogs.runtime.text import legible
from cogs.runtime.words import said as said_words
from db.records import GameRecord
from engine.base import AnyGame
from engine.garbage import GarbageGame
from i18n import say
from tests.cogs.helpers import (
    InjectedError,
    LastingError,
    bot_of,
    components,
    custom_ids,
    game_thread,
    is_enabled,
    member_for,
    open_and_start,
    private_text,
    record_of,
    seat_to_move,
    state_of,
    table_message,
)
from tests.cogs.test_kasino_flow import choose_on_panel, dm_hand_message
from tests.said import label

CATCH_UP = say("en", CATCH_UP_ID)  # what a player is told when the table could not be updated

UNAVAILABLE: InjectedError = {"status": 503, "message": "Service Unavailable"}


async def stored(env: simcord.Env, game_id: int) -> tuple[GameRecord, AnyGame]:
    record = await record_of(env, game_id)
    return record, bot_of(env).service.game_of(record)


def message_by_id(place: simcord.ChannelHandle, message_id: int | None) -> discord.Message | None:
    return next((message for message in place.history() if message.id == message_id), None)


def existing_message(place: simcord.ChannelHandle, message_id: int | None) -> discord.Message:
    """The message of that id, which must be there."""
    found = message_by_id(place, message_id)
    assert found is not None, message_id
    return found


def custom_id_of(item: discord.ui.Item[Any]) -> str | None:
    """The custom id of a view's button or menu."""
    assert isinstance(item, discord.ui.Button | discord.ui.Select | discord.ui.DynamicItem), item
    return item.custom_id


def embed_text(message: discord.Message) -> tuple[Any, Any, list[tuple[Any, Any]]]:
    data = message.embeds[0].to_dict() if message.embeds else {}
    return data.get("title"), data.get("description"), [(f["name"], f["value"]) for f in data.get("fields", [])]


async def assert_table_shows_the_stored_game(env: simcord.Env, place: simcord.ChannelHandle, game_id: int) -> None:
    """The living table is exactly the projection of the stored game: text, embed and buttons."""
    record, game = await stored(env, game_id)
    expected = bot_of(env).presenter.render(record, game)
    table = message_by_id(place, record.table_message_id)
    assert table is not None, "no table message"
    assert table.content == expected.content
    assert embed_text(table)[:3] == (
        expected.embed.title,
        expected.embed.description,
        [(field.name, field.value) for field in expected.embed.fields],
    )
    wanted = [custom_id_of(item) for item in expected.view.children] if expected.view else []
    assert custom_ids(table) == wanted
    assert record.shown


def assert_panel_matches_the_seat_view(
    env: simcord.Env, member: simcord.MemberActor, record: GameRecord, game: AnyGame, seat: int
) -> None:
    """A seat's DM panel is the panel drawn from that seat's view of the stored game."""
    expected = bot_of(env).presenter.uis[record.kind].hand_panel(record, game, seat, "en")
    shown = dm_hand_message(member, record, seat)
    assert shown.content == expected["content"], (seat, shown.content)
    wanted = [custom_id_of(item) for item in expected["view"].children]
    assert custom_ids(shown) == wanted


def turn_pings(place: simcord.ChannelHandle) -> list[discord.Message]:
    return [message for message in place.history() if "your turn in" in (message.content or "")]


async def moves_logged(env: simcord.Env, game_id: int) -> int:
    return len(await bot_of(env).store.game_moves(game_id))


async def kasino_for_two(
    env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> tuple[int, GameRecord, AnyGame, simcord.MemberActor]:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, game = await stored(env, game_id)
    return game_id, record, game, member_for(members, record, seat_to_move(game))


async def play_from_dm(
    env: simcord.Env, member: simcord.MemberActor, game_id: int, rng: random.Random
) -> simcord.InteractionResult:
    record, game = await stored(env, game_id)
    return await choose_on_panel(member.user, dm_hand_message(member, record, seat_to_move(game)), rng)


async def test_a_failed_table_edit_says_the_move_counted_and_the_table_catches_up(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    game_id, record, _, mover = await kasino_for_two(simcord_env, channel, members)
    thread = game_thread(channel, game_id)
    simcord_env.inject_error("PATCH", f"/channels/*/messages/{record.table_message_id}", **UNAVAILABLE)
    played = await play_from_dm(simcord_env, mover, game_id, random.Random(1))
    assert played.acknowledged
    told = private_text(played)
    assert CATCH_UP in told and APOLOGY not in told
    assert await moves_logged(simcord_env, game_id) == 1
    assert not (await record_of(simcord_env, game_id)).shown
    await simcord_env.advance_time(7)  # the retry
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    assert await moves_logged(simcord_env, game_id) == 1


async def test_garbage_is_not_stuck_after_a_failed_table_update(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, bob = members[:2]
    # The retry waits a minute, so "before the retry" holds however slowly this machine runs the test (a retry
    # sleep shorter than the test's own wall time would fire on the real clock in the middle of it).
    monkeypatch.setattr("cogs.runtime.delivery.retry_delay", lambda *_args, **_kwargs: 60.0)
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    thread = game_thread(channel, game_id)
    record, game = await stored(simcord_env, game_id)
    player = member_for(members, record, seat_to_move(game))
    old_table = table_message(thread, game_id)
    # The click's own table update (through the interaction) fails once.
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", **UNAVAILABLE)
    first = await player.click(old_table, label="Draw from stock")
    assert CATCH_UP in private_text(first)
    assert await moves_logged(simcord_env, game_id) == 1
    # Before the retry, someone clicks the old table: refused, and the refusal brings the table up to date.
    again = await player.click(old_table, custom_id=custom_ids(old_table)[0])
    assert "out of date" in private_text(again) or "turn, not yours" in private_text(again)
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    # And play goes on from the redrawn table.
    record, game = await stored(simcord_env, game_id)
    table = table_message(thread, game_id)
    choice = next(cid for cid in custom_ids(table) if is_enabled(table, cid))
    await member_for(members, record, seat_to_move(game)).click(table, custom_id=choice)
    assert await moves_logged(simcord_env, game_id) == 2
    # The retry, when it comes, finds nothing owed and changes nothing.
    await simcord_env.advance_time(61)
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    assert await moves_logged(simcord_env, game_id) == 2


async def test_a_failed_ping_is_posted_later_exactly_once(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    thread = game_thread(channel, game_id)
    record, game = await stored(simcord_env, game_id)
    player = member_for(members, record, seat_to_move(game))
    table = table_message(thread, game_id)
    # Draw, then (unless a Jack waits for a spot) the turn passes and the next player is pinged by a followup.
    simcord_env.inject_error("POST", "/webhooks/*", status=403, code=50013, message="Missing Permissions", times=1)
    clicked = await player.click(table, label="Draw from stock")
    assert await moves_logged(simcord_env, game_id) == 1
    record, game = await stored(simcord_env, game_id)
    assert game.to_move != record.seat_of(player.id), "with these seeds the turn passes (no Jack drawn)"
    assert CATCH_UP in private_text(clicked)
    await simcord_env.advance_time(7)
    record, game = await stored(simcord_env, game_id)
    pings = turn_pings(thread)
    assert [ping.id for ping in pings] == [record.ping_message_id]
    assert f"<@{record.seats[seat_to_move(game)].user_id}>" in pings[0].content
    assert record.shown and await moves_logged(simcord_env, game_id) == 1


async def test_a_failed_dm_edit_is_redone_and_the_player_told(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    game_id, record, game, mover = await kasino_for_two(simcord_env, channel, members)
    thread = game_thread(channel, game_id)
    seat = seat_to_move(game)
    dm = mover.user.dm_channel
    simcord_env.inject_error("PATCH", f"/channels/{dm.id}/messages/*", **UNAVAILABLE)
    move = game.legal_moves(seat)[0]
    played = await mover.slash(thread, "kasino play", move=str(move))
    told = private_text(played)
    assert told.startswith(legible(f"Done: {label(game, move)}.")) and CATCH_UP in told
    assert await moves_logged(simcord_env, game_id) == 1
    await simcord_env.advance_time(7)
    record, game = await stored(simcord_env, game_id)
    assert_panel_matches_the_seat_view(simcord_env, mover, record, game, seat)
    assert record.shown


async def test_an_interaction_that_expired_changes_nothing(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id, _, _, mover = await kasino_for_two(simcord_env, channel, members)
    simcord_env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction")
    with caplog.at_level(logging.INFO):
        late = await play_from_dm(simcord_env, mover, game_id, random.Random(2))
    assert not late.acknowledged  # the player saw Discord's own failure, and indeed nothing happened
    assert await moves_logged(simcord_env, game_id) == 0
    assert not [entry for entry in caplog.records if entry.levelno >= logging.ERROR]
    simcord_env.errors.clear()
    # Trying again works.
    await play_from_dm(simcord_env, mover, game_id, random.Random(2))
    assert await moves_logged(simcord_env, game_id) == 1


async def test_a_deleted_thread_moves_the_game_to_its_channel(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id, _, _, mover = await kasino_for_two(simcord_env, channel, members)
    thread = game_thread(channel, game_id)
    gone: LastingError = {"status": 404, "code": 10003, "message": "Unknown Channel", "times": None}
    for method in ("GET", "POST", "PATCH", "DELETE"):
        simcord_env.inject_error(method, f"/channels/{thread.id}/*", **gone)
    with caplog.at_level(logging.INFO):
        played = await play_from_dm(simcord_env, mover, game_id, random.Random(3))
    assert CATCH_UP not in private_text(played)
    record, _ = await stored(simcord_env, game_id)
    assert record.thread_id is None and record.status == "running"
    assert await moves_logged(simcord_env, game_id) == 1
    said = [message.content for message in channel.history()]
    assert said.count(f"The thread of Kasino #{game_id} is gone, so the game goes on here.") == 1
    await assert_table_shows_the_stored_game(simcord_env, channel, game_id)
    assert not [entry for entry in caplog.records if entry.levelno >= logging.ERROR]


async def test_a_deleted_table_message_is_posted_again(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    game_id, record, _, mover = await kasino_for_two(simcord_env, channel, members)
    thread = game_thread(channel, game_id)
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    table = message_by_id(thread, record.table_message_id)
    assert table is not None
    await mod.delete(table)
    await play_from_dm(simcord_env, mover, game_id, random.Random(4))
    after, _ = await stored(simcord_env, game_id)
    assert after.table_message_id != record.table_message_id
    tables = [m for m in thread.history() if m.embeds and f"#{game_id} " in (m.embeds[0].title or "") + " "]
    assert len(tables) == 1
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)


async def test_stopping_between_saving_and_showing_is_repaired_at_start_up(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    bob.user.dm_channel  # noqa: B018 - opens bob's DM channel, so that sends into it can be refused
    closed: LastingError = {"status": 403, "code": 50007, "message": "Cannot send messages to this user", "times": None}
    simcord_env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", **closed)
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    thread = game_thread(channel, game_id)
    record, game = await stored(simcord_env, game_id)
    mover = record.seats[seat_to_move(game)]
    assert mover.user_id is not None
    # The move is saved, and the process stops before anything is shown.
    await bot_of(simcord_env).service.play(game_id, mover.user_id, str(game.legal_moves(seat_to_move(game))[0]))
    saved, _ = await stored(simcord_env, game_id)
    assert not saved.shown
    await bot_of(simcord_env).store.close()
    await simcord_env.restart_bot(make_bot())
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    record, game = await stored(simcord_env, game_id)
    assert embed_text(table_message(thread, game_id))[2][-1][1].endswith(
        said_words(record, record.narration)[-1].split()[-1]
    )
    assert "The game continues." not in str(embed_text(table_message(thread, game_id)))
    # Whoever moves next is told: bob (DMs closed) by one ping in the thread, alice by a new DM panel.
    next_player = record.seats[seat_to_move(game)]
    pings = turn_pings(thread)
    if next_player.user_id == bob.id:
        assert [ping.id for ping in pings] == [record.ping_message_id]
    else:
        assert pings == []
        assert_panel_matches_the_seat_view(simcord_env, alice, record, game, seat_to_move(game))
    assert await moves_logged(simcord_env, game_id) == 1


async def test_every_seat_sees_its_own_current_panel_after_every_move(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    for players in (2, 3, 4):
        host, *others = members[:players]
        _, game_id = await open_and_start(channel, host, others, "kasino new", seats=players, target=3)
        rng = random.Random(players)
        checks = 0
        while True:
            record, game = await stored(simcord_env, game_id)
            for seat in range(players):
                assert_panel_matches_the_seat_view(simcord_env, member_for(members, record, seat), record, game, seat)
                checks += 1
            if record.status == "finished":
                break
            await play_from_dm(simcord_env, member_for(members, record, seat_to_move(game)), game_id, rng)
        assert checks > players * 20
        # Finished: no panel keeps a live menu.
        for seat in range(players):
            message = dm_hand_message(member_for(members, record, seat), record, seat)
            assert all(component["type"] != 3 for component in components(message))


async def test_a_finished_game_leaves_no_ping_and_posts_round_scores_before_the_result(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    bob.user.dm_channel  # noqa: B018 - bob plays with DMs closed, so his turns are pinged in the thread
    closed: LastingError = {"status": 403, "code": 50007, "message": "Cannot send messages to this user", "times": None}
    simcord_env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", **closed)
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, target=3)
    thread = game_thread(channel, game_id)
    rng = random.Random(5)
    while True:
        record, game = await stored(simcord_env, game_id)
        if record.status == "finished":
            break
        member = member_for(members, record, seat_to_move(game))
        move = rng.choice([str(move) for move in game.legal_moves(seat_to_move(game))])
        await member.slash(thread, "kasino play", move=move)
    assert turn_pings(thread) == []
    texts = [message.content or "" for message in thread.history()]
    scored = [index for index, text in enumerate(texts) if text.startswith("Round ")]
    over = [index for index, text in enumerate(texts) if f"Kasino #{game_id} is over." in text]
    assert len(over) == 1 and scored and max(scored) < over[0]
    table = table_message(thread, game_id)
    # Rematch is offered beside the result, not on the table far above it.
    assert components(table) == []
    result = next(m for m in thread.history() if f"Kasino #{game_id} is over." in (m.content or ""))
    assert [c.get("label") for c in components(result)] == ["Rematch"]


async def test_cancelling_retires_the_table_the_ping_and_every_dm_menu(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    game_id, *_ = await kasino_for_two(simcord_env, channel, members)
    thread = game_thread(channel, game_id)
    await members[0].slash(thread, "game cancel")
    record, _ = await stored(simcord_env, game_id)
    assert record.status == "cancelled" and record.shown
    table = table_message(thread, game_id)
    assert custom_ids(table) == [] and "▶" not in str(embed_text(table))
    assert turn_pings(thread) == []
    for seat in range(2):
        message = dm_hand_message(member_for(members, record, seat), record, seat)
        assert all(component["type"] != 3 for component in components(message))
        assert "was cancelled" in message.content
        assert message.attachments == []  # no picture still saying "waiting"


async def test_garbage_pings_each_turn_once_and_never_reposts_for_the_same_player(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob, carol], "garbage new", seats=3, size=3)
    thread = game_thread(channel, game_id)
    rng = random.Random(6)
    start = len(simcord_env.http_requests)
    for _ in range(120):
        record, game = await stored(simcord_env, game_id)
        if record.status == "finished":
            break
        table = table_message(thread, game_id)
        choice = rng.choice([cid for cid in custom_ids(table) if is_enabled(table, cid)])
        await member_for(members, record, seat_to_move(game)).click(table, custom_id=choice)
        record, game = await stored(simcord_env, game_id)
        pings = turn_pings(thread)
        if record.status == "running":
            assert len(pings) == 1 and f"<@{record.seats[seat_to_move(game)].user_id}>" in pings[0].content
    posted = [
        entry.json["content"]
        for entry in simcord_env.http_requests[start:]
        if entry.method == "POST" and entry.json and "your turn in" in (entry.json.get("content") or "")
    ]
    targets = [text.split(">")[0] for text in posted]
    assert all(a != b for a, b in itertools.pairwise(targets)), "a ping was re-posted to the same player"


async def test_a_turn_warning_goes_once_the_turn_is_played(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3, timer="2m")
    thread = game_thread(channel, game_id)
    await simcord_env.advance_time(100)  # inside the warning window, before the deadline
    record, game = await stored(simcord_env, game_id)
    assert record.warned and record.warning_message_id is not None
    assert message_by_id(thread, record.warning_message_id) is not None
    table = table_message(thread, game_id)
    await member_for(members, record, seat_to_move(game)).click(table, label="Draw from stock")
    after, _ = await stored(simcord_env, game_id)
    assert after.warning_message_id is None
    assert message_by_id(thread, record.warning_message_id) is None


async def test_settling_twice_changes_nothing(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    game_id, _, _, mover = await kasino_for_two(simcord_env, channel, members)
    await play_from_dm(simcord_env, mover, game_id, random.Random(7))
    before = len(simcord_env.http_requests)
    assert await bot_of(simcord_env).delivery.settle(game_id)
    assert await bot_of(simcord_env).delivery.settle(game_id)
    # Only the bot's own bookkeeping: no Discord request at all.
    assert simcord_env.http_requests[before:] == []


async def test_a_finishing_move_whose_edit_failed_is_repaired_by_a_restart(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=1)
    thread = game_thread(channel, game_id)
    rng = random.Random(8)
    for _ in range(500):
        record, game = await stored(simcord_env, game_id)
        table = table_message(thread, game_id)
        choice = rng.choice([cid for cid in custom_ids(table) if is_enabled(table, cid)])
        trial = GarbageGame.from_dict(state_of(record))
        action = choice.split(":")[3]
        text = {"stock": "draw stock", "discard": "draw discard"}.get(action) or f"jack {choice.split(':')[4]}"
        trial.play(seat_to_move(game), text)
        if trial.is_over():
            break
        await member_for(members, record, seat_to_move(game)).click(table, custom_id=choice)
    # Every edit through the click fails (not only the first: which edit comes first is not fixed).
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", **UNAVAILABLE, times=None)
    await member_for(members, record, seat_to_move(game)).click(table, custom_id=choice)
    record, _ = await stored(simcord_env, game_id)
    assert record.status == "finished" and not record.shown
    # The bot stops before its retry; Discord is well again, and the new bot repairs the table at start-up.
    simcord_env.backend.faults.clear()
    await bot_of(simcord_env).store.close()
    await simcord_env.restart_bot(make_bot())
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    assert components(table_message(thread, game_id)) == []  # Rematch is on the result line
    result = next(m for m in thread.history() if "is over." in (m.content or "") and m.embeds == [])
    assert [c.get("label") for c in components(result)] == ["Rematch"]
    results = [m for m in thread.history() if f"Garbage #{game_id} is over." in (m.content or "")]
    assert len(results) == 1
    assert turn_pings(thread) == []


def test_retries_double_up_to_five_minutes_and_honour_retry_after() -> None:
    assert [retry_delay(n, None) for n in (1, 2, 3, 4)] == [5.0, 10.0, 20.0, 40.0]
    assert retry_delay(20, None) == 300.0
    assert retry_delay(1, 30.0) == 30.0
    assert retry_delay(5, 1.0) == 80.0
    assert retry_delay(1, None, jitter=1.2) == 6.0

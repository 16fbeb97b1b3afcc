"""Issue 22: the faults found in play. Each test names the fault it injects and checks what players see after it.

Missing access is a passing condition, not a lost place; each one-off post goes out exactly once; a click on a
table that is behind redraws it through the click; a full disk that is freed gets a truthful first answer.
"""

import logging
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import simcord

from cogs.runtime.delivery import PAUSED
from db.errors import StorageUnavailableError
from db.records import GameRecord
from engine.kasino import KasinoGame
from i18n import say
from tests.cogs.helpers import (
    InjectedError,
    Shown,
    bot_of,
    custom_ids,
    game_thread,
    is_enabled,
    member_for,
    open_and_start,
    private_text,
    seat_to_move,
    state_of,
    table_message,
)
from tests.cogs.test_kasino_flow import play_turn
from tests.cogs.test_projection import assert_table_shows_the_stored_game, moves_logged, stored
from tests.conftest import mounted_tmpfs
from tests.said import refusal

MISSING_ACCESS: InjectedError = {"status": 403, "code": 50001, "message": "Missing Access"}
UNAVAILABLE: InjectedError = {"status": 503, "message": "Service Unavailable"}
DRAWS = ("draw stock", "draw discard")


def enabled_ids(table: Shown) -> list[str]:
    return [cid for cid in custom_ids(table) if is_enabled(table, cid)]


async def click_any(
    env: simcord.Env,
    members: list[simcord.MemberActor],
    place: simcord.ChannelHandle,
    game_id: int,
    rng: random.Random,
) -> simcord.InteractionResult:
    """The player to move clicks one of the table's live buttons."""
    record, game = await stored(env, game_id)
    table = table_message(place, game_id)
    return await member_for(members, record, seat_to_move(game)).click(table, custom_id=rng.choice(enabled_ids(table)))


async def play_garbage_to_the_end(
    env: simcord.Env,
    members: list[simcord.MemberActor],
    place: simcord.ChannelHandle,
    game_id: int,
    rng: random.Random,
    limit: int = 600,
) -> GameRecord:
    for _ in range(limit):
        record, _ = await stored(env, game_id)
        if record.status != "running":
            return record
        await click_any(env, members, place, game_id, rng)
    raise AssertionError("the game did not end")


def deny_access(env: simcord.Env, *channels: simcord.ChannelHandle, times: int | None) -> None:
    for channel in channels:
        for method in ("POST", "PATCH", "DELETE"):
            env.inject_error(method, f"/channels/{channel.id}/*", **MISSING_ACCESS, times=times)


async def test_missing_access_50001_on_thread_and_channel_for_one_move_then_the_game_plays_to_its_result(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    caplog: pytest.LogCaptureFixture,
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, target=5)
    thread = game_thread(channel, game_id)
    rng = random.Random(5)
    before, _ = await stored(simcord_env, game_id)
    # A moderator edits the permissions: for one move, Discord answers Missing Access in the thread and its channel.
    deny_access(simcord_env, thread, channel, times=1)
    with caplog.at_level(logging.INFO):
        await play_turn(simcord_env, channel, members, game_id, rng, "slash")
    during, _ = await stored(simcord_env, game_id)
    assert during.thread_id == before.thread_id and during.status == "running"  # the game keeps its place
    assert not during.shown  # Discord is behind, and the delivery knows it
    # Access returns: the retry brings the table back, in the same thread, and play goes on to the result.
    await simcord_env.advance_time(7)
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    for turn in range(400):
        record = await play_turn(simcord_env, channel, members, game_id, rng, ("dm", "slash")[turn % 2])
        if record.status == "finished":
            break
    assert record.status == "finished" and record.thread_id == before.thread_id
    assert KasinoGame.from_dict(state_of(record)).outcome() is not None
    assert alice is not None
    assert channel.guild is not None
    results = await bot_of(simcord_env).store.player_stats(alice.id, channel.guild.id)
    assert results.for_kind("kasino").server.games == 1  # recorded as any finished game
    assert not [entry for entry in caplog.records if "cancel" in entry.getMessage()]


async def test_missing_access_for_half_an_hour_pauses_delivery_and_tells_the_host_privately(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    thread = game_thread(channel, game_id)
    deny_access(simcord_env, thread, channel, times=None)
    await play_turn(simcord_env, channel, members, game_id, random.Random(2), "slash")
    tries = len(simcord_env.http_requests)
    for _ in range(40):
        await simcord_env.advance_time(60)
    retried = [entry for entry in simcord_env.http_requests[tries:] if f"/channels/{thread.id}/" in entry.path]
    # Backing off from 5 s to 5 minutes, one request a try: a handful in half an hour, far from the invalid limit.
    assert 3 <= len(retried) <= 15
    record, _ = await stored(simcord_env, game_id)
    assert record.status == "running" and record.thread_id == thread.id
    told = [message.content for message in alice.user.dm_channel.history() if "half an hour" in message.content]
    title = f"Kasino #{game_id}"
    assert told == [say("en", PAUSED, title=title, channel=f"<#{thread.id}>")]
    paused_at = len(simcord_env.http_requests)
    for _ in range(30):
        await simcord_env.advance_time(60)
    assert not [entry for entry in simcord_env.http_requests[paused_at:] if f"/channels/{thread.id}/" in entry.path]
    # Access comes back; the next move brings everything up to date again.
    simcord_env.backend.faults.clear()
    await play_turn(simcord_env, channel, members, game_id, random.Random(3), "slash")
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)


async def test_a_failed_parent_channel_result_post_appears_exactly_once_later(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=1)
    thread = game_thread(channel, game_id)
    simcord_env.inject_error("POST", f"/channels/{channel.id}/messages", **UNAVAILABLE, times=1)
    record = await play_garbage_to_the_end(simcord_env, members, thread, game_id, random.Random(1))
    await simcord_env.advance_time(7)
    over = f"Garbage #{game_id} is over."
    in_parent = [m.content for m in channel.history() if m.content.startswith(over)]
    assert len(in_parent) == 1 and f"<#{thread.id}>" in in_parent[0]
    assert [m.content for m in thread.history() if m.content.startswith(over)] == [in_parent[0].split(" — ")[0]]
    record, _ = await stored(simcord_env, game_id)
    assert record.shown and record.shown_moves == record.move_count


async def test_a_later_notice_failing_after_the_first_succeeded_sends_no_duplicate(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, target=5)
    thread = game_thread(channel, game_id)
    # The finishing move posts the round's scores and the result in the thread, then the result in the channel.
    # The last one fails once: the retry must send it alone, not the scores and the result again.
    simcord_env.inject_error("POST", f"/channels/{channel.id}/messages", **UNAVAILABLE, times=1)
    rng = random.Random(3)
    for turn in range(400):
        record = await play_turn(simcord_env, channel, members, game_id, rng, ("dm", "slash")[turn % 2])
        if record.status == "finished":
            break
    await simcord_env.advance_time(7)
    notices = [m.content for m in thread.history() if m.author.bot and not m.embeds and "your turn" not in m.content]
    assert notices and len(notices) == len(set(notices)), notices
    over = f"Kasino #{game_id} is over."
    assert sum(text.startswith(over) for text in notices) == 1
    assert sum(m.content.startswith(over) for m in channel.history()) == 1
    record, _ = await stored(simcord_env, game_id)
    assert record.shown and record.shown_moves == record.move_count


@pytest.fixture
def roomy_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A real 16 MiB tmpfs at tmp_path/mnt, to fill and free (needs root, else the test skips)."""
    with mounted_tmpfs(tmp_path / "mnt", "16m") as mount_point:
        yield mount_point


@pytest.fixture
def db_path(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    if "disk_full" not in request.node.name:
        return tmp_path / "games.sqlite3"
    mount_point: Path = request.getfixturevalue("roomy_tmpfs")
    return mount_point / "games.sqlite3"


def fill(folder: Path) -> Path:
    """Fill the file system until a write fails; returns the filler."""
    filler = folder / "filler"
    with filler.open("wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        except OSError:
            pass
    return filler


async def test_disk_full_then_freed_the_first_click_counts_or_is_truthfully_refused(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], db_path: Path
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob, carol], "garbage new", seats=3, size=3)
    thread = game_thread(channel, game_id)
    filler = fill(db_path.parent)
    record, game = await stored(simcord_env, game_id)
    player = member_for(members, record, seat_to_move(game))
    table = table_message(thread, game_id)
    full = await player.click(table, label="Draw from stock")
    said = private_text(full)
    assert full.acknowledged and said == refusal(StorageUnavailableError())
    assert await moves_logged(simcord_env, game_id) == 0
    filler.unlink()
    # Room again: the first click on the table as the player sees it counts.
    table = table_message(thread, game_id)
    again = await player.click(table, label="Draw from stock")
    assert "out of date" not in private_text(again), private_text(again)
    assert await moves_logged(simcord_env, game_id) == 1
    record, game = await stored(simcord_env, game_id)
    assert (await bot_of(simcord_env).store.game_moves(game_id))[0].move in DRAWS


async def test_table_edits_failing_the_next_click_redraws_through_the_interaction_and_the_following_click_counts(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob, carol], "garbage new", seats=3, size=3)
    thread = game_thread(channel, game_id)
    record, game = await stored(simcord_env, game_id)
    # Every edit of the table through the channel fails for a while; edits through a click still work.
    simcord_env.inject_error("PATCH", f"/channels/{thread.id}/messages/{record.table_message_id}", **UNAVAILABLE,
                             times=None)  # fmt: skip
    first = member_for(members, record, seat_to_move(game))
    await first.slash(thread, "garbage draw", source="draw stock")  # typed: the table is edited through the channel
    after_first, game = await stored(simcord_env, game_id)
    assert after_first.version == record.version + 1 and not after_first.shown
    # The player now to move clicks the table they see, which is behind: it is redrawn through their click at once.
    stale = table_message(thread, game_id)
    clicker = member_for(members, after_first, seat_to_move(game))
    refused = await clicker.click(stale, custom_id=enabled_ids(stale)[0])
    assert refused.acknowledged and "out of date" in private_text(refused)
    now, game = await stored(simcord_env, game_id)
    assert now.version == after_first.version  # refused: nothing changed
    await assert_table_shows_the_stored_game(simcord_env, thread, game_id)
    # The following click, on the redrawn table, counts.
    moves = await moves_logged(simcord_env, game_id)
    table = table_message(thread, game_id)
    await member_for(members, now, seat_to_move(game)).click(table, custom_id=enabled_ids(table)[0])
    assert await moves_logged(simcord_env, game_id) == moves + 1

"""Issue 11: what Discord still owes is recorded with the move, and one worker at a time delivers it."""

import random
from pathlib import Path

from db.sql_store import SqlStore
from db.store import Store
from engine.cards import Card
from engine.message import Message, Seat
from tests.db.helpers import NOW, later, play_random, real_game, record_in
from tests.db.test_migrate_rebuild import full_file_at


async def test_a_move_is_owed_to_discord_in_the_same_write_that_saves_it(store: SqlStore) -> None:
    record, game = await real_game(store, "kasino", (1, 2))
    assert not record.shown  # the start itself is owed
    started = record.version
    record = await play_random(store, record, game, 1, random.Random(1))
    assert (record.shown_version, record.version) == (0, started + 1)
    assert [game.id for game in await store.unshown_games()] == [record.id]


async def test_narration_is_stored_with_the_move(store: SqlStore) -> None:
    record, game = await real_game(store, "garbage", (1, 2))
    seat = game.to_move
    assert seat is not None
    game.apply(seat, game.parse_move(seat, "draw stock"))
    told = (
        Message("garbage.drew-from-stock", {"player": Seat(seat), "card": Card.parse("7♣")}),
        Message("shared.game-on"),
    )
    saved = await store.save_move(
        record.id, record.version, seat, "draw stock", game.to_dict(), later(1), narration=told
    )
    assert saved.narration == told
    assert (await record_in(store, record.id)).narration == told


async def test_one_worker_at_a_time_holds_a_games_delivery(store: SqlStore) -> None:
    record, _ = await real_game(store, "kasino", (1, 2))
    assert await store.claim_delivery(record.id, "a", later(120), NOW) is not None
    assert await store.claim_delivery(record.id, "b", later(120), later(1)) is None  # a holds it
    assert await store.claim_delivery(record.id, "a", later(240), later(2)) is not None  # a may renew
    # b's release does nothing: it holds no lease.
    await store.release_delivery(record.id, "b", shown_version=record.version, shown_moves=0)
    assert not (await record_in(store, record.id)).shown
    await store.release_delivery(record.id, "a", shown_version=record.version, shown_moves=0)
    assert (await record_in(store, record.id)).shown
    assert await store.claim_delivery(record.id, "b", later(360), later(3)) is not None


async def test_a_crashed_workers_lease_lapses(store: SqlStore) -> None:
    record, _ = await real_game(store, "kasino", (1, 2))
    assert await store.claim_delivery(record.id, "gone", later(120), NOW) is not None
    assert await store.claim_delivery(record.id, "b", later(200), later(60)) is None
    assert await store.claim_delivery(record.id, "b", later(240), later(121)) is not None


async def test_start_up_voids_the_leases_of_a_process_that_died(store: SqlStore) -> None:
    record, _ = await real_game(store, "kasino", (1, 2))
    assert await store.claim_delivery(record.id, "dead", later(120), NOW) is not None
    assert await store.release_all_deliveries() == 1
    assert await store.claim_delivery(record.id, "new", later(120), later(1)) is not None


async def test_shown_marks_never_move_back(store: SqlStore) -> None:
    record, game = await real_game(store, "kasino", (1, 2))
    record = await play_random(store, record, game, 2, random.Random(2))
    await store.claim_delivery(record.id, "a", later(120), NOW)
    await store.release_delivery(record.id, "a", shown_version=record.version, shown_moves=2)
    await store.claim_delivery(record.id, "a", later(120), NOW)
    await store.release_delivery(record.id, "a", shown_version=1, shown_moves=1)  # a late, older delivery
    after = await store.get_game(record.id)
    assert after is not None
    assert (after.shown_version, after.shown_moves) == (record.version, 2)


async def test_a_lost_thread_sends_the_game_to_its_channel_to_be_shown_anew(store: SqlStore) -> None:
    record, _ = await real_game(store, "kasino", (1, 2))
    await store.set_messages(record.id, thread_id=55, table_message_id=66, ping_message_id=77, ping_user_id=1)
    await store.claim_delivery(record.id, "a", later(120), NOW)
    await store.release_delivery(record.id, "a", shown_version=record.version, shown_moves=0)
    moved = await store.move_to_channel(record.id)
    assert (moved.thread_id, moved.table_message_id, moved.ping_message_id, moved.ping_user_id) == (None,) * 4
    assert not moved.shown and moved.version == record.version


async def test_games_from_before_the_projection_count_as_shown(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await full_file_at(path, 4)  # lobbies, running, finished and cancelled games, as schema 4 stored them
    store = await Store.open(path)  # migrates 4 -> 6 (0006 marks every game as shown)
    try:
        assert await store.unshown_games() == []
        games = [await store.get_game(game_id) for game_id in range(1, 12)]
        assert all(game.shown for game in games if game is not None)
    finally:
        await store.close()

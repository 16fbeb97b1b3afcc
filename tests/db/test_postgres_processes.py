"""Issue 27: several bot processes on one PostgreSQL. Each "process" here is a store and a coordinator of its own,
on pools of their own, as a process would have them; bench/bench_cluster.py kills real ones.
"""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from db.errors import DatabaseUnusableError, SchemaTooNewError, StaleVersionError, StorageUnavailableError
from db.postgres.locks import AdvisoryLocks
from db.postgres.migrate import MIGRATIONS_DIR
from db.postgres.store import PostgresStore
from db.ratings import DEFAULT_SKILL
from db.records import GameRecord, TurnClock
from db.sql_store import SqlStore, shard_condition
from engine.base import AnyGame
from engine.registry import game_class
from tests.db.helpers import NOW, TeamOutcome, later, real_game, record_in, running_game

SHARD_BIT = 1 << 22  # Discord: a server's shard is (guild_id >> 22) % shard_count


async def opened_twice(kind: type[PostgresStore], url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two processes' own `kind` of store on one database, closed afterwards."""
    first, second = await kind.open(url), await kind.open(url)
    yield first, second
    await first.close()
    await second.close()


@pytest.fixture
async def two(postgres_url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two processes' stores on one database."""
    async for pair in opened_twice(PostgresStore, postgres_url):
        yield pair


@pytest.fixture
async def locks(two: tuple[PostgresStore, PostgresStore]) -> tuple[AdvisoryLocks, AdvisoryLocks]:
    """Two processes' coordinators on one database."""
    first, second = two
    return AdvisoryLocks(first), AdvisoryLocks(second)


async def acquired_within(locks: AdvisoryLocks, game_id: int, seconds: float) -> bool:
    """Whether an action through `locks` gets the game's lock within `seconds` (released again at once).

    The lock is taken with the action's first statement, here a read of the game as every action's is.
    """

    async def take() -> bool:
        async with locks.lock(game_id):
            await locks.store.get_game(game_id)
            return True

    try:
        return await asyncio.wait_for(take(), seconds)
    except TimeoutError:
        return False


async def _backend_pid(store: SqlStore) -> int:
    async with store._reading() as conn:
        rows = list(await conn.execute_fetchall("SELECT pg_backend_pid()"))
        pid: int = rows[0][0]
        return pid


async def _lock_holder(postgres_url: str, game_id: int) -> Any:
    admin = await asyncpg.connect(postgres_url)
    try:
        return await admin.fetchval(
            "SELECT pid FROM pg_locks JOIN pg_database ON pg_database.oid = pg_locks.database "
            "WHERE locktype = 'advisory' AND objid = $1 AND granted AND datname = current_database()",
            game_id,
        )
    finally:
        await admin.close()


async def game_with_first_move_made(store: SqlStore, *, seed: int) -> tuple[GameRecord, AnyGame, int, Any]:
    """A stored two-player Kasino game, and its engine with the first move applied (not yet saved)."""
    game = game_class("kasino").new(2, seed)
    record = await running_game(store, (1, 2), state=game.to_dict(), seed=seed)
    seat = game.to_move
    assert seat is not None
    move = game.legal_moves(seat)[0]
    game.apply(seat, move)
    return record, game, seat, move


async def test_two_processes_never_act_on_one_game_at_once(locks: tuple[AdvisoryLocks, AdvisoryLocks]) -> None:
    first, second = locks
    async with first.lock(7):
        await first.store.get_game(7)  # the action's first statement takes the game's lock
        assert not await acquired_within(second, 7, 0.3)  # the other process waits...
        assert await acquired_within(second, 8, 2)  # ...for this game only
    assert await acquired_within(second, 7, 2)


async def test_a_lock_held_by_a_process_that_lost_its_connection_ends_with_it(
    locks: tuple[AdvisoryLocks, AdvisoryLocks], postgres_url: str
) -> None:
    first, second = locks
    async with first.lock(7):
        await first.store.get_game(7)
        holder = await _lock_holder(postgres_url, 7)
        admin = await asyncpg.connect(postgres_url)
        try:
            await admin.execute("SELECT pg_terminate_backend($1)", holder)  # as when its process dies
        finally:
            await admin.close()
        assert await acquired_within(second, 7, 5)
    # The first process's action ends normally: releasing a lock the server already dropped is no error.


async def test_an_action_runs_its_statements_on_the_connection_holding_its_game(
    two: tuple[PostgresStore, PostgresStore], locks: tuple[AdvisoryLocks, AdvisoryLocks], postgres_url: str
) -> None:
    store, _ = two
    first, _ = locks
    async with first.lock(7):
        assert await _lock_holder(postgres_url, 7) is None  # taken by the action's first statement...
        pid = await _backend_pid(store)
        holder = await _lock_holder(postgres_url, 7)
        assert pid == holder  # ...which ran on the connection that now holds it
        # A task started during the action may outlive it: it takes a connection of its own.
        assert await asyncio.create_task(_backend_pid(store)) != holder
    assert await _lock_holder(postgres_url, 7) is None  # released before the connection went back to the pool
    async with first.lock(8):
        assert await _backend_pid(store) == pid  # kept for the next action, not handed back to the pool


async def test_an_action_that_fails_or_is_cancelled_leaves_its_game_free(
    locks: tuple[AdvisoryLocks, AdvisoryLocks]
) -> None:
    first, second = locks
    with pytest.raises(RuntimeError):
        async with first.lock(7):
            await first.store.get_game(7)
            raise RuntimeError("the action failed")
    assert first.store._spare == []  # not kept for the next action: the pool waits out what the action left
    assert await acquired_within(second, 7, 2)
    # Cancelled while waiting for the lock: however the wait ended, the pooled connection keeps nothing.
    async with second.lock(7):
        await second.store.get_game(7)
        waiting = asyncio.create_task(acquired_within(first, 7, 30))
        await asyncio.sleep(0.3)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    assert await acquired_within(second, 7, 2)
    assert await acquired_within(first, 7, 2)


async def test_a_move_takes_its_game_with_its_read_and_gives_it_back_with_its_write(
    two: tuple[PostgresStore, PostgresStore], locks: tuple[AdvisoryLocks, AdvisoryLocks], postgres_url: str
) -> None:
    store, _ = two
    first, second = locks
    record, game, seat, move = await game_with_first_move_made(store, seed=5)
    await store.checked_game(record.id)  # checked against its log once, by the process's first action on it
    statements = []
    async with first.lock(record.id):
        held = store._held()
        assert held is not None
        held.raw.add_query_logger(lambda logged: statements.append(logged.query))
        read = await store.checked_game(record.id)
        assert read is not None
        assert await _lock_holder(postgres_url, record.id) == await _backend_pid(store)
        assert not await acquired_within(second, record.id, 0.3)
        saved = await store.save_move(record.id, read.version, seat, str(move), game.to_dict(), later(1))
        assert await _lock_holder(postgres_url, record.id) is None  # given back with the write
    assert saved.version == record.version + 1
    # Two round trips in all (the lock holder's pid aside): the read that took the lock, the write that gave it back.
    assert [query.split()[0] for query in statements if "pg_backend_pid" not in query] == ["SELECT", "UPDATE"]
    assert await acquired_within(second, record.id, 2)


async def held_elsewhere(store: SqlStore, other: SqlStore, postgres_url: str) -> tuple[GameRecord, asyncpg.Connection]:
    """A game `other` has checked already, and a connection (another process's) whose session holds its lock."""
    record, _ = await real_game(store, "kasino", (1, 2))
    await other.checked_game(record.id)  # checked against its log once, by the process's first action on it
    holder = await asyncpg.connect(postgres_url)
    await holder.execute("SELECT take_game($1)", record.id)
    return record, holder


def reading_in_an_action(locks: AdvisoryLocks, game_id: int) -> asyncio.Task[GameRecord | None]:
    """An action's first read of the game, through `locks`, as a task."""

    async def action() -> GameRecord | None:
        async with locks.lock(game_id):
            return await locks.store.checked_game(game_id)

    return asyncio.create_task(action())


async def test_a_read_waits_for_the_commit_of_the_write_that_gave_its_game_back(
    two: tuple[PostgresStore, PostgresStore], locks: tuple[AdvisoryLocks, AdvisoryLocks], postgres_url: str
) -> None:
    record, writer = await held_elsewhere(*two, postgres_url)
    try:
        commit = writer.transaction()
        await commit.start()
        await writer.execute("UPDATE games SET version = version + 1 WHERE id = $1", record.id)
        assert await writer.fetchval("SELECT give_game($1)", record.id)  # the lock is free, the write not committed
        reading = reading_in_an_action(locks[1], record.id)
        await asyncio.sleep(0.3)
        assert not reading.done()  # past the lock, waiting at the gate for the commit
        await commit.commit()
        done_reading = await asyncio.wait_for(reading, 5)
        assert done_reading is not None
        assert done_reading.version == record.version + 1
    finally:
        await writer.close()


async def test_a_read_that_waited_for_its_game_reads_what_the_holder_committed_meanwhile(
    two: tuple[PostgresStore, PostgresStore], locks: tuple[AdvisoryLocks, AdvisoryLocks], postgres_url: str
) -> None:
    record, holder = await held_elsewhere(*two, postgres_url)
    try:
        reading = reading_in_an_action(locks[1], record.id)  # its statement's snapshot predates the write below
        await asyncio.sleep(0.3)
        assert not reading.done()
        given = await holder.fetchval(
            "UPDATE games SET version = version + 1 WHERE id = $1 RETURNING give_game(id)", record.id
        )
        assert given
        done_reading = await asyncio.wait_for(reading, 5)
        assert done_reading is not None
        assert done_reading.version == record.version + 1
    finally:
        await holder.close()


async def test_a_move_saved_by_one_process_is_seen_and_version_checked_by_the_other(
    two: tuple[PostgresStore, PostgresStore]
) -> None:
    first, second = two
    record, game, seat, move = await game_with_first_move_made(first, seed=3)
    theirs = await second.save_move(record.id, record.version, seat, str(move), game.to_dict(), later(1))
    assert (await record_in(first, record.id)).version == theirs.version
    assert [logged.move for logged in await first.game_moves(record.id)] == [str(move)]
    with pytest.raises(StaleVersionError):  # the first process still holds the old version
        await first.save_move(record.id, record.version, seat, str(move), game.to_dict(), later(2))
    assert len(await second.game_moves(record.id)) == 1


async def test_delivery_is_claimed_by_one_process_and_a_claim_in_progress_is_skipped(
    two: tuple[PostgresStore, PostgresStore], postgres_url: str
) -> None:
    first, second = two
    record = await running_game(first, (1, 2))
    assert await first.claim_delivery(record.id, "a", later(120), NOW) is not None
    assert await second.claim_delivery(record.id, "b", later(120), later(1)) is None
    assert await second.claim_delivery(record.id, "b", later(300), later(121)) is not None  # a's lease lapsed
    # A claim in progress elsewhere holds the row: SKIP LOCKED moves on at once instead of waiting for it.
    other = await asyncpg.connect(postgres_url)
    try:
        async with other.transaction():
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", record.id)
            claim = first.claim_delivery(record.id, "c", later(999), later(998))
            assert await asyncio.wait_for(claim, 2) is None
    finally:
        await other.close()


async def test_each_process_looks_after_the_games_of_its_own_shards(postgres_url: str) -> None:
    owners = [await PostgresStore.open(postgres_url, own_games=shard_condition([shard], 2)) for shard in (0, 1)]
    try:
        games = {}
        for shard in (0, 1):
            guild = 5 * 2 * SHARD_BIT + shard * SHARD_BIT  # (guild >> 22) % 2 == shard
            record = await running_game(owners[0], (1, 2, None), guild=guild)
            await owners[0].set_timer(record.id, TurnClock(NOW), expected_version=record.version)
            games[shard] = record.id
        for shard, store in enumerate(owners):
            mine = [games[shard]]
            assert (await store.start_up_check()).running == tuple(mine)
            assert await store.unchecked_games() == []  # its own were checked at start-up
            assert [timer.id for timer in await store.due_timers(later(1))] == mine
            assert [game.id for game in await store.running_games_with_computers()] == mine
            assert await store.unshown_game_ids(0, 10) == mine
        # Any process can still act on any game (a DM's interaction arrives on shard 0's process).
        assert (await record_in(owners[0], games[1])).status == "running"
    finally:
        for store in owners:
            await store.close()


async def test_two_games_finishing_at_once_in_two_processes_both_count_in_the_ratings(
    two: tuple[PostgresStore, PostgresStore]
) -> None:
    first, second = two
    records = [await running_game(store, (1, 2)) for store in two]

    async def finish(store: SqlStore, record: GameRecord) -> GameRecord:
        outcome = TeamOutcome((1, 2), (9, 8))
        return await store.save_move(record.id, record.version, 0, "resign", {"over": True}, later(9), outcome=outcome)

    await asyncio.gather(finish(first, records[0]), finish(second, records[1]))
    stats = (await first.player_stats(1, records[0].guild_id)).for_kind("kasino")
    assert stats.server.games == 2
    async with first.transaction() as conn:
        rows = list(
            await conn.execute_fetchall("SELECT mu_before, mu_after FROM results WHERE user_id = 1 ORDER BY mu_before")
        )
    # One finish read the ratings the other wrote: the second game starts from the first one's result.
    (fresh_before, first_after), (second_before, _) = sorted(rows, key=lambda row: row[0] != DEFAULT_SKILL.mu)
    assert fresh_before == DEFAULT_SKILL.mu
    assert second_before == first_after


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    stores = await asyncio.gather(*(PostgresStore.open(postgres_url) for _ in range(3)))
    try:
        async with stores[0].transaction() as conn:
            rows = list(await conn.execute_fetchall("SELECT version FROM schema_migrations ORDER BY version"))
        assert [row[0] for row in rows] == list(range(1, len(list(MIGRATIONS_DIR.glob("*.sql"))) + 1))
    finally:
        for store in stores:
            await store.close()


async def test_a_database_a_newer_bot_migrated_is_refused_unchanged(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    async with store.transaction() as conn:
        await conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, '0999_future.sql')")
    await store.close()
    with pytest.raises(SchemaTooNewError, match="999"):
        await PostgresStore.open(postgres_url)


async def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    with pytest.raises(DatabaseUnusableError) as refused:
        await PostgresStore.open("postgresql://bot:s3cret@/games?host=/nonexistent-folder")
    message = str(refused.value)
    assert "DATABASE_URL" in message and "\n" not in message
    assert "s3cret" not in message


async def test_a_lost_connection_never_misreports_a_write_and_the_pool_connects_again(
    two: tuple[PostgresStore, PostgresStore], postgres_url: str
) -> None:
    first, _ = two
    record, game, seat, move = await game_with_first_move_made(first, seed=4)
    admin = await asyncpg.connect(postgres_url)
    try:  # the server drops every other connection to this database (a restart, a failover)
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    finally:
        await admin.close()
    # The pool may have noticed the loss and connected again already; if not, the write is refused as unsaved.
    try:
        saved = await first.save_move(record.id, record.version, seat, str(move), game.to_dict(), later(1))
    except StorageUnavailableError:  # players are told nothing was saved, and indeed nothing was
        assert (await record_in(first, record.id)).version == record.version
        saved = await first.save_move(record.id, record.version, seat, str(move), game.to_dict(), later(2))
    assert saved.version == record.version + 1
    assert [logged.move for logged in await first.game_moves(record.id)] == [str(move)]

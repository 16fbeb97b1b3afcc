"""The cache of live engines is an optimisation whose absence changes nothing: stale or evicted entries go unused."""

import random
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from db.errors import StoreError
from db.records import GameRecord
from db.sql_store import SqlStore
from db.store import Store
from engine.base import AnyGame
from engine.registry import game_class
from service.engine_cache import EngineCache
from service.errors import RefusedError
from service.tables import LobbyOptions, MoveResult, TableService
from tests.db.helpers import NOW

USERS = (10, 11, 12)


@pytest.fixture
async def store(any_store: SqlStore) -> SqlStore:
    return any_store


@pytest.fixture
def restores(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the service restored an engine from a stored snapshot."""
    count = [0]
    game_of = TableService.game_of

    def counting(record: GameRecord) -> AnyGame:
        count[0] += 1
        return game_of(record)

    monkeypatch.setattr(TableService, "game_of", staticmethod(counting))
    return count


async def new_game(service: TableService, kind: str = "kasino", players: int = 2) -> GameRecord:
    options = LobbyOptions(players, {"start_size": 3} if kind == "garbage" else {})
    lobby = await service.open_lobby(kind, options, guild_id=1, channel_id=2, host_id=USERS[0], host_name="u10")
    for user in USERS[1:players]:
        await service.join(lobby.id, user, f"u{user}")
    return (await service.start(lobby.id, USERS[0])).record


async def stored_game(service: TableService, game_id: int) -> tuple[GameRecord, AnyGame]:
    record = await service.get(game_id)
    return record, TableService.game_of(record)


async def move(service: TableService, game_id: int, rng: random.Random, *, version: int | None = None) -> MoveResult:
    """A random legal move of the stored position, played through the service."""
    record, game = await stored_game(service, game_id)
    seat = game.to_move
    assert seat is not None
    user = record.seats[seat].user_id
    assert user is not None
    return await service.play(
        game_id, user, str(rng.choice(game.legal_moves(seat))), version=version
    )


def test_take_hands_the_entry_over_and_keep_drops_the_least_recently_kept() -> None:
    cache = EngineCache(capacity=2)
    a, b, c = (game_class("kasino").new(2, seed) for seed in range(3))
    cache.keep(1, 5, a)
    cache.keep(2, 7, b)
    cache.keep(1, 6, a)  # kept again: now the most recent
    cache.keep(3, 1, c)  # over capacity: game 2 goes
    assert len(cache) == 2 and cache.take(2) is None
    held = cache.take(1)
    assert held is not None
    assert (held.version, held.game) == (6, a) and cache.take(1) is None
    empty = EngineCache(capacity=0)
    empty.keep(1, 1, a)
    assert len(empty) == 0


async def test_the_next_move_starts_from_the_cached_engine_without_reading_the_snapshot(
    store: SqlStore, restores: list[int]
) -> None:
    service = TableService(store, clock=lambda: NOW)
    record = await new_game(service)
    rng = random.Random(1)
    await move(service, record.id, rng)
    before = restores[0]
    for _ in range(5):
        result = await move(service, record.id, rng)
    assert restores[0] - before == 5  # only the test's own reads of the stored game
    assert TableService.game_of(await service.get(record.id)) == result.game


@pytest.mark.sqlite_only  # another SQLite client on the same file
async def test_a_stale_entry_is_never_used_after_another_writer_moved(
    store: SqlStore, restores: list[int], tmp_path: Path
) -> None:
    service = TableService(store, clock=lambda: NOW)
    record = await new_game(service)
    rng = random.Random(2)
    result = await move(service, record.id, rng)
    assert service.engines.take(result.record.id) is not None  # cached at this version...
    service.engines.keep(result.record.id, result.record.version, result.game.copy())
    # ... when another SQLite client (it does not take the bot's file lock) plays the next move.
    assert isinstance(store, Store)  # SQLite only: another client opens its file
    conn = await aiosqlite.connect(store.path, isolation_level=None)
    other = Store(conn, store.path)
    try:
        theirs = await other.get_game(record.id)
        assert theirs is not None
        game = TableService.game_of(theirs)
        seat = game.to_move
        assert seat is not None
        played = game.legal_moves(seat)[0]
        game.apply(seat, played)
        await other.save_move(record.id, theirs.version, seat, str(played), game.to_dict(), NOW)
    finally:
        await conn.close()
    restores[0] = 0
    mine = await move(service, record.id, rng)  # a move of the position after theirs: the stale engine would refuse it
    assert restores[0] == 2  # the test's read, and the service's: the snapshot, not the stale engine
    moves = await store.game_moves(record.id)
    assert [m.move for m in moves][-2:] == [str(played), mine.move]
    replayed = game_class("kasino").replay(2, record.seed, None, [(m.seat, m.move) for m in moves])
    assert TableService.game_of(await service.get(record.id)) == replayed == mine.game


async def test_an_evicted_entry_is_not_used_and_the_game_goes_on_from_its_snapshot(
    store: SqlStore, restores: list[int]
) -> None:
    service = TableService(store, clock=lambda: NOW)
    service.engines = EngineCache(capacity=1)
    first, second = await new_game(service), await new_game(service)
    rng = random.Random(3)
    await move(service, first.id, rng)
    await move(service, second.id, rng)  # evicts the first game's engine
    assert service.engines.take(first.id) is None
    restores[0] = 0
    result = await move(service, first.id, rng)
    assert restores[0] == 2
    assert TableService.game_of(await service.get(first.id)) == result.game


async def test_an_engine_changed_by_a_failed_save_is_not_kept(store: SqlStore, monkeypatch: pytest.MonkeyPatch) -> None:
    service = TableService(store, clock=lambda: NOW)
    record = await new_game(service)
    rng = random.Random(4)
    await move(service, record.id, rng)
    stored, game = await stored_game(service, record.id)

    async def failing(*args: Any, **kwargs: Any) -> None:
        raise StoreError("the disk is full")

    monkeypatch.setattr(store, "save_move", failing)
    seat = game.to_move
    assert seat is not None
    user = stored.seats[seat].user_id
    assert user is not None
    with pytest.raises(StoreError):
        await service.play(record.id, user, str(game.legal_moves(seat)[0]))
    monkeypatch.undo()
    assert service.engines.take(record.id) is None  # the engine that applied the unsaved move is gone
    result = await service.play(record.id, user, str(game.legal_moves(seat)[0]))
    assert result.record.version == stored.version + 1


async def test_the_engine_handed_out_is_not_the_cached_one(store: SqlStore) -> None:
    service = TableService(store, clock=lambda: NOW)
    record = await new_game(service)
    rng = random.Random(5)
    result = await move(service, record.id, rng)
    snapshot = result.game.to_dict()
    game = result.game  # the caller plays on with what it was handed (as a presenter could read it meanwhile)
    while game.to_move is not None and game.move_count < snapshot[game.MOVE_COUNT_KEY] + 6:
        game.apply(game.to_move, game.legal_moves(game.to_move)[0])
    held = service.engines.take(record.id)
    assert held is not None
    assert result.record is not None
    assert held.version == result.record.version and held.game.to_dict() == snapshot


@pytest.mark.parametrize("kind", ["kasino", "garbage"])
async def test_without_the_cache_every_move_and_snapshot_is_the_same(tmp_path: Path, kind: str) -> None:
    records = []
    for capacity in (0, 100):
        store = await Store.open(tmp_path / f"bot-{capacity}.db")
        try:
            service = TableService(store, clock=lambda: NOW, new_seed=lambda: 99)
            service.engines = EngineCache(capacity)
            record = await new_game(service, kind, players=3)
            rng = random.Random(6)
            played = []
            for number in range(60):
                if number == 10:  # a refused click on an older table drops the cached engine
                    with pytest.raises(RefusedError) as refused:
                        await move(service, record.id, rng, version=record.version)
                    assert refused.value.message.id == "refused.out-of-date"
                result = await move(service, record.id, rng)
                played.append((result.move, result.record.version, result.record.state))
                if result.finished:
                    break
            records.append(played)
        finally:
            await store.close()
    assert records[0] == records[1]


def test_a_peek_hands_out_a_copy_so_no_consumer_changes_the_cached_engine() -> None:
    kasino = game_class("kasino")
    game = kasino.new(2, 7)
    cache = EngineCache()
    cache.keep(1, 5, game)
    before = game.to_dict()
    seen = cache.peek(1, 5)
    assert seen is not None and seen.game is not game
    seat = seen.game.to_move
    assert seat is not None
    seen.game.apply(seat, seen.game.legal_moves(seat)[0])
    taken = cache.take(1)
    assert taken is not None and taken.game.to_dict() == before
    assert cache.peek(1) is None


def test_a_peek_at_another_version_finds_nothing() -> None:
    cache = EngineCache()
    cache.keep(1, 5, game_class("kasino").new(2, 7))
    assert cache.peek(1, 4) is None
    assert cache.peek(1, 5) is not None

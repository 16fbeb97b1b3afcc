"""After a cheap start-up, the service checks each game against its whole log before it first changes it, and all
of them in the background; a game found broken either way is frozen, refused, and reported once."""

import asyncio
import json
import random
from pathlib import Path

import pytest

from db.records import GameRecord, StartUpCheck
from db.store import Store
from engine.base import AnyGame
from service.errors import RefusedError
from service.tables import FROZEN, TableService
from tests.db.helpers import later, play_random, real_game
from tests.db.test_recovery import break_first_move, overwrite_snapshot, played_file


async def restarted(path: Path) -> tuple[Store, TableService, StartUpCheck]:
    store = await Store.open(path)
    service = TableService(store, clock=lambda: later(10_000))
    return store, service, await service.recover()


def first_legal(record: GameRecord, game: AnyGame) -> tuple[int, str]:
    seat = game.to_move
    assert seat is not None
    user = record.seats[seat].user_id
    assert user is not None
    return user, str(game.legal_moves(seat)[0])


async def test_the_first_move_after_start_up_finds_a_broken_log_and_is_refused(tmp_path: Path) -> None:
    path, record, game = await played_file(tmp_path, "garbage", (1, 2))
    break_first_move(path, record.id)
    store, service, found = await restarted(path)
    try:
        assert found.running == (record.id,)  # the counts agree: start-up cannot tell
        user, move = first_legal(record, game)
        with pytest.raises(RefusedError) as refused:
            await service.play(record.id, user, move)
        assert refused.value.message == FROZEN
        assert (await service.get(record.id)).status == "frozen"
        assert [frozen.id for frozen in await service.check_games()] == [record.id]  # to be told, once
        assert await service.check_games() == []
    finally:
        await store.close()


async def test_a_click_on_a_snapshot_repaired_at_its_first_move_is_out_of_date(tmp_path: Path) -> None:
    path, record, game = await played_file(tmp_path, "kasino", (1, 2))
    assert record.state is not None
    other = dict(record.state)
    other["hands"] = list(reversed(other["hands"]))
    overwrite_snapshot(path, record.id, json.dumps(other))
    store, service, _ = await restarted(path)
    try:
        user, move = first_legal(record, game)
        with pytest.raises(RefusedError) as refused:
            await service.play(record.id, user, move, version=record.version)
        assert refused.value.message.id == "refused.out-of-date"
        result = await service.play(record.id, user, move)  # typed again: played on the log's position
        assert result.record.version == record.version + 2 and result.record.move_count == record.move_count + 1
    finally:
        await store.close()


async def broken_and_played(
    tmp_path: Path, count: int, moves: int
) -> tuple[Path, GameRecord, list[tuple[GameRecord, AnyGame]]]:
    """A file with a Garbage game whose log is broken, and `count` Kasino games `moves` moves in.

    Returns the file's path, the broken game's record, and each Kasino game's record and engine.
    """
    path, broken, _ = await played_file(tmp_path, "garbage", (1, 2))
    break_first_move(path, broken.id)
    store = await Store.open(path)
    try:
        games = []
        for seed in range(count):
            record, game = await real_game(store, "kasino", (10 + seed, 20 + seed), seed=seed)
            games.append((await play_random(store, record, game, moves, random.Random(seed)), game))
    finally:
        await store.close()
    return path, broken, games


async def test_check_games_checks_every_game_once_while_play_goes_on(tmp_path: Path) -> None:
    path, broken, games = await broken_and_played(tmp_path, 5, 10)
    store, service, found = await restarted(path)
    try:
        assert len(found.running) == 6
        record, game = games[0]
        user, move = first_legal(record, game)
        frozen, moved = await asyncio.gather(service.check_games(), service.play(record.id, user, move))
        assert [game.id for game in frozen] == [broken.id]
        assert moved.record.move_count == record.move_count + 1
        assert await store.unchecked_games() == []
    finally:
        await store.close()


async def test_check_games_leaves_each_running_game_ready_for_its_next_move(tmp_path: Path) -> None:
    path, broken, games = await broken_and_played(tmp_path, 3, 6)
    store, service, _ = await restarted(path)
    try:
        await service.check_games()
        for record, game in games:  # each one's engine, at its stored version, as its log leaves it
            held = service.engines.take(record.id)
            assert held is not None and held.version == record.version
            assert held.game.to_dict() == game.to_dict()
        assert service.engines.take(broken.id) is None  # frozen by the check: nothing kept
        record, game = games[0]
        user, move = first_legal(record, game)
        assert (await service.play(record.id, user, move)).record.move_count == record.move_count + 1
    finally:
        await store.close()


async def test_check_games_keeps_few_engines_and_never_drops_a_played_games(tmp_path: Path) -> None:
    # With thousands of running games, the check would fill the cache with games that may not move for hours
    # (bench_startup's peak): it keeps engines only while the cache holds fewer than `check_kept`.
    path, _, games = await broken_and_played(tmp_path, 4, 6)
    store, service, _ = await restarted(path)
    try:
        service.check_kept = 2
        played, game = games[-1]  # moved since start-up (so checked already, and cached)
        user, move = first_legal(played, game)
        played = (await service.play(played.id, user, move)).record
        await service.check_games()
        assert len(service.engines) == 2  # the played game's, and the first game checked
        assert games[0][0].id in service.engines
        held = service.engines.take(played.id)
        assert held is not None and held.version == played.version
        assert await store.unchecked_games() == []  # every game checked all the same
    finally:
        await store.close()

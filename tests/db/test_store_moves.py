"""Saving moves: one transaction per move, stale versions refused, real engine snapshots round-tripped."""

import asyncio
import random
from pathlib import Path

import pytest

from db.errors import GameNotRunningError, StaleVersionError
from db.records import TurnClock
from db.sql_store import SqlStore
from db.store import Store
from engine.base import Outcome
from engine.message import Message
from engine.registry import game_class
from tests.db.helpers import NOW, later, new_lobby, play_random, real_game, record_in, running_game


async def test_save_move_logs_the_move_and_stores_the_snapshot(store: SqlStore) -> None:
    game = await running_game(store, (1, 2))
    timer = TurnClock(later(65))
    saved = await store.save_move(game.id, game.version, 0, "Q♠ place", {"turn": 1}, later(5), timer=timer)
    saved = await store.save_move(saved.id, saved.version, 1, "A♥ place", {"turn": 2}, later(6), auto=True)
    assert (saved.version, saved.move_count, saved.state) == (game.version + 2, 2, {"turn": 2})
    assert saved.deadline is None and saved.updated_at == later(6)
    assert await store.get_game(game.id) == saved
    moves = await store.game_moves(game.id)
    assert [(m.seq, m.seat, m.move, m.auto, m.created_at) for m in moves] == [
        (1, 0, "Q♠ place", False, later(5)),
        (2, 1, "A♥ place", True, later(6)),
    ]


async def test_save_move_with_an_old_version_is_refused_and_changes_nothing(store: SqlStore) -> None:
    game = await running_game(store)
    saved = await store.save_move(game.id, game.version, 0, "Q♠ place", {"turn": 1}, NOW)
    with pytest.raises(StaleVersionError):
        await store.save_move(game.id, game.version, 0, "Q♠ place", {"turn": 1}, NOW)
    assert await store.get_game(game.id) == saved
    assert len(await store.game_moves(game.id)) == 1


async def test_two_concurrent_saves_of_one_version_apply_exactly_once(store: SqlStore) -> None:
    game = await running_game(store)
    results = await asyncio.gather(
        *(store.save_move(game.id, game.version, 0, f"move {i}", {"turn": i}, NOW) for i in range(2)),
        return_exceptions=True,
    )
    winners = [result for result in results if not isinstance(result, Exception)]
    assert len(winners) == 1
    assert [type(result) for result in results if isinstance(result, Exception)] == [StaleVersionError]
    moves = await store.game_moves(game.id)
    assert len(moves) == 1
    assert (await record_in(store, game.id)).state == {"turn": int(moves[0].move.split()[1])}


async def test_save_move_refuses_a_lobby_and_a_finished_game(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    with pytest.raises(GameNotRunningError) as refused:
        await store.save_move(lobby.id, lobby.version, 0, "x", {}, NOW)
    assert refused.value.status == "lobby"
    game = await running_game(store)
    done = await store.save_move(game.id, game.version, 0, "resign", {}, NOW, outcome=Outcome((2, 1), (0, 0)))
    with pytest.raises(GameNotRunningError) as refused:
        await store.save_move(game.id, done.version, 1, "x", {}, NOW)
    assert refused.value.status == "finished"


async def test_save_move_for_a_seat_that_does_not_exist_writes_nothing(store: SqlStore) -> None:
    game = await running_game(store)
    with pytest.raises(ValueError, match="no seat 2"):
        await store.save_move(game.id, game.version, 2, "x", {}, NOW)
    assert await store.get_game(game.id) == game
    assert await store.game_moves(game.id) == []


async def test_finishing_move_closes_the_game_in_the_same_transaction(store: SqlStore) -> None:
    game = await running_game(store, (1, 2))
    await store.set_timer(game.id, TurnClock(later(30), warned=True), expected_version=game.version)
    done = await store.save_move(
        game.id,
        game.version,
        1,
        "resign",
        {"over": True},
        later(3),
        timer=TurnClock(later(99), warned=True),
        outcome=Outcome((1, 2), (16, 9)),
    )
    assert (done.status, done.finished_at, done.deadline, done.warned) == ("finished", later(3), None, False)
    board = await store.leaderboard(done.guild_id, "kasino", "wins")
    assert [(row.user_id, row.wins, row.points) for row in board.rows] == [(1, 1, 16), (2, 0, 9)]


async def test_an_outcome_not_covering_every_seat_rolls_the_move_back(store: SqlStore) -> None:
    game = await running_game(store, (1, 2))
    with pytest.raises(ValueError, match="covers 3 seats"):
        await store.save_move(game.id, game.version, 0, "x", {}, NOW, outcome=Outcome((1, 2, 3), (0, 0, 0)))
    assert await store.get_game(game.id) == game
    assert await store.game_moves(game.id) == []


async def test_a_failed_transaction_rolls_back_and_does_not_take_other_writers_with_it(store: SqlStore) -> None:
    lobby = await new_lobby(store)

    async def failing_writer() -> None:
        async with store.transaction() as conn:
            await conn.execute("UPDATE games SET host_id = 999 WHERE id = ?", (lobby.id,))
            await asyncio.sleep(0.01)  # let the other coroutine try to write meanwhile
            raise RuntimeError("boom")

    results = await asyncio.gather(failing_writer(), store.join_lobby(lobby.id, 2, "u2", NOW), return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    stored = await store.get_game(lobby.id)
    assert stored is not None
    assert stored.host_id == 1
    assert [seat.user_id for seat in stored.seats] == [1, 2]


@pytest.mark.parametrize(("kind", "users"), [("kasino", (1, 2, 3)), ("garbage", (1, None, 2, 3))])
async def test_real_snapshots_round_trip_and_match_the_replayed_log(
    tmp_path: Path, kind: str, users: tuple[int | None, ...]
) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    try:
        record, game = await real_game(store, kind, users)
        record = await play_random(store, record, game, 40, random.Random(3))
        assert record.game() == game
    finally:
        await store.close()
    store = await Store.open(path)
    try:
        stored = await store.get_game(record.id)
        moves = await store.game_moves(record.id)
    finally:
        await store.close()
    cls = game_class(kind)
    assert stored is not None and stored.state is not None
    assert cls.from_dict(stored.state) == game
    assert stored is not None
    assert len(moves) == stored.move_count == 40
    log = [(move.seat, move.move) for move in moves]
    assert cls.replay(len(users), stored.seed, cls.settings_from_dict(stored.settings), log) == game


@pytest.mark.parametrize("steps_before_cancel", range(8))
async def test_a_cancelled_save_is_all_or_nothing_and_the_store_keeps_working(
    store: SqlStore, steps_before_cancel: int
) -> None:
    game = await running_game(store)
    task = asyncio.create_task(store.save_move(game.id, game.version, 0, "Q♠ place", {"turn": 1}, NOW))
    for _ in range(steps_before_cancel):
        await asyncio.sleep(0)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await store.flush()  # a move already queued is saved (or not) all the same: let it land before looking

    stored = await store.get_game(game.id)
    moves = await store.game_moves(game.id)
    assert stored is not None
    assert (stored.move_count, len(moves), stored.state) in [(0, 0, {"schema": 1, "turn": 0}), (1, 1, {"turn": 1})]
    saved = await store.save_move(game.id, stored.version, 1, "A♥ place", {"turn": 9}, later(1))
    assert saved is not None
    assert saved.move_count == stored.move_count + 1


async def test_a_snapshot_keeps_any_integer_and_any_letter_exactly(store: SqlStore) -> None:
    # orjson writes and reads the JSON columns, but reads an integer beyond 64 bits as a float: snapshots (whose seed
    # may be any integer) are read exactly all the same.
    game = await running_game(store)
    state = {"seed": 2**70 + 1, "small": -(2**63), "name": "Ærlig ø 🂡", "nested": [1, 2.5, None, True]}
    saved = await store.save_move(game.id, game.version, 0, "Q♠ place", state, later(1))
    assert saved.state == state
    assert (await record_in(store, game.id)).state == state


async def test_a_read_for_the_held_version_leaves_out_the_snapshot_and_the_narration(store: SqlStore) -> None:
    game = await running_game(store)
    told = (Message("shared.game-on"),)
    saved = await store.save_move(game.id, game.version, 0, "Q♠ place", {"turn": 1}, later(1), narration=told)
    held = await store.checked_game(game.id, held_version=saved.version)
    assert held is not None
    assert saved is not None
    assert (held.state, held.narration, held.version) == (None, (), saved.version)
    # At another version, all of it: the caller's engine is out of date.
    stale = await store.checked_game(game.id, held_version=saved.version - 1)
    assert stale is not None
    assert (stale.state, stale.narration) == ({"turn": 1}, told)

"""Issue 28: a seat changes hands in the store, and a finished game credits such a seat (db.results)."""

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from db.errors import AlreadySeatedError, StaleVersionError
from db.migrate import load_migrations, migrate
from db.records import GameRecord, Occupant
from db.sql_store import SqlStore
from db.store import Store
from engine.base import Outcome
from engine.message import Message
from tests.db.helpers import later, record_in, running_game

STATE = {"schema": 1, "turn": 0}


async def _moves(store: SqlStore, record: GameRecord, seats: Sequence[int | tuple[int]]) -> GameRecord:
    for seat in seats:
        move = "resign" if isinstance(seat, tuple) else "x"
        number = seat[0] if isinstance(seat, tuple) else seat
        record = await store.save_move(record.id, record.version, number, move, STATE, later(record.move_count + 1))
    return record


async def _change(store: SqlStore, record: GameRecord, seat: int, to: Occupant, *, rejoin: bool = True) -> GameRecord:
    return await store.change_seat(
        record.id,
        record.version,
        seat,
        to,
        host_id=1,
        state=STATE,
        now=later(record.move_count + 1),
        narration=[Message("shared.seat-given-member", {"host": "u1", "before": "u3", "after": to.name})],
        move="rejoin" if rejoin else None,
    )


async def _finish(store: SqlStore, record: GameRecord, places: tuple[int, ...], scores: tuple[int, ...]) -> GameRecord:
    return await store.save_move(record.id, record.version, 0, "x", STATE, later(99), outcome=Outcome(places, scores))


async def _results(store: SqlStore) -> list[tuple[Any, ...]]:
    async with store.transaction() as conn:
        rows = await conn.execute_fetchall("SELECT user_id, seat, place, score, rated FROM results ORDER BY user_id")
    return [tuple(row) for row in rows]


async def test_the_change_is_stored_with_its_move_and_the_seat_forgets_how_the_last_holder_was_reached(
    store: SqlStore,
) -> None:
    record = await running_game(store, (1, 2, 3))
    await store.note_seat(record.id, 2, holder=3, hand_message_id=555, dm_channel_id=666, panel="abc")
    record = await _moves(store, record, [0, 1, (2,)])
    changed = await _change(store, record, 2, Occupant(4, "u4"))
    assert changed.version == record.version + 1 and changed.move_count == record.move_count + 1
    seat = changed.seats[2]
    reach = (seat.hand_message_id, seat.dm_channel_id, seat.panel)
    assert (seat.user_id, seat.name, reach) == (4, "u4", (None, None, None))
    assert [move.move for move in await store.game_moves(record.id)][-1] == "rejoin"
    [kept] = await store.seat_changes(record.id)
    assert (kept.number, kept.seat, kept.after_move) == (1, 2, changed.move_count)
    assert (kept.before, kept.after) == (Occupant(3, "u3"), Occupant(4, "u4"))
    assert kept.narration == changed.narration and kept.narration[0].id == "shared.seat-given-member"


async def test_a_change_is_refused_on_an_old_version_or_for_a_member_already_seated(store: SqlStore) -> None:
    record = await running_game(store, (1, 2, 3))
    with pytest.raises(AlreadySeatedError):
        await _change(store, record, 2, Occupant(2, "u2"))
    moved = await _moves(store, record, [0])
    with pytest.raises(StaleVersionError):
        await _change(store, record, 2, Occupant(4, "u4"))
    assert await store.seat_changes(record.id) == []
    assert moved is not None
    assert (await record_in(store, record.id)).version == moved.version


async def test_the_member_who_played_most_of_a_taken_seat_is_credited_and_the_leaver_places_last(
    store: SqlStore,
) -> None:
    record = await running_game(store, (1, 2, 3))
    record = await _moves(store, record, [0, 1, 2, (2,)])  # u3: one move, then resigns
    record = await _change(store, record, 2, Occupant(4, "u4"))
    record = await _moves(store, record, [0, 1, 2, 0, 1, 2])  # u4: two moves (then seat 0 finishes)
    await _finish(store, record, (2, 3, 1), (10, 5, 12))
    assert await _results(store) == [(1, 0, 2, 10, 1), (2, 1, 3, 5, 1), (3, 2, 4, 0, 1), (4, 2, 1, 12, 1)]


async def test_a_seat_taken_late_counts_for_nobody_but_the_leaver_still_loses(store: SqlStore) -> None:
    record = await running_game(store, (1, 2, 3))
    record = await _moves(store, record, [0, 1, 2, 0, 1, 2, (2,)])  # u3: two moves
    record = await _change(store, record, 2, Occupant(4, "u4"))
    record = await _moves(store, record, [0, 1, 2])  # u4: one move, not most
    await _finish(store, record, (2, 3, 1), (10, 5, 12))
    assert await _results(store) == [(1, 0, 2, 10, 1), (2, 1, 3, 5, 1), (3, 2, 4, 0, 1)]


async def test_a_computer_that_took_a_seat_over_is_never_rated_for_it(store: SqlStore) -> None:
    record = await running_game(store, (1, 2, 3))
    record = await _moves(store, record, [0, 1, (2,)])
    record = await _change(store, record, 2, Occupant(None, "Computer (hard)", "hard"))
    record = await _moves(store, record, [0, 1, 2, 0, 1, 2])
    await _finish(store, record, (1, 3, 2), (10, 5, 8))
    assert await _results(store) == [(1, 0, 1, 10, 1), (2, 1, 3, 5, 1), (3, 2, 4, 0, 1)]


async def test_a_member_who_took_a_computers_seat_early_is_credited_and_the_computer_is_not(store: SqlStore) -> None:
    record = await running_game(store, (1, None, 2), strengths=["hard"])
    record = await _change(store, record, 1, Occupant(4, "u4"), rejoin=False)
    assert record.move_count == 0
    record = await _moves(store, record, [0, 1, 2, 0, 1, 2])
    await _finish(store, record, (3, 1, 2), (1, 9, 5))
    assert await _results(store) == [(1, 0, 3, 1, 1), (2, 2, 2, 5, 1), (4, 1, 1, 9, 1)]


async def test_migration_0013_adds_seat_changes_to_an_existing_database(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    try:
        record = await running_game(store, (1, 2, 3))
    finally:
        await store.close()
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("DROP TABLE seat_changes")
        await conn.execute("DROP TABLE departed_guilds")  # migrations 0014's and 0015's, which come after it
        await conn.execute("ALTER TABLE games DROP COLUMN dm_notice_message_id")
        await conn.execute("PRAGMA user_version = 12")
        assert await migrate(conn) == load_migrations()[-1].version
    store = await Store.open(path)
    try:
        assert await store.seat_changes(record.id) == []
        changed = await _change(store, record, 2, Occupant(4, "u4"), rejoin=False)
        assert [change.after for change in await store.seat_changes(record.id)] == [Occupant(4, "u4")]
        assert changed.seats[2].user_id == 4
    finally:
        await store.close()

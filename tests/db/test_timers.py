"""Turn timers in storage: the options kept with a lobby, deadlines saved with moves, and finding due games."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import pytest

from db.errors import GameNotFoundError, StaleVersionError
from db.records import NO_TIMER, GameRecord, NewLobby, TurnClock
from db.sql_store import SqlStore
from db.store import Store
from engine.base import Outcome
from tests.db.helpers import NOW, later, new_lobby, record_in, running_game


async def test_a_lobby_keeps_its_turn_timer_and_afk_limit(store: SqlStore) -> None:
    lobby = await store.create_lobby(NewLobby("garbage", 1, 2, 3, "host", {}, 9, 6, turn_seconds=120, afk_limit=2), NOW)
    again = await store.get_game(lobby.id)
    assert again is not None
    assert (again.turn_seconds, again.afk_limit) == (120, 2)


async def test_without_options_there_is_no_timer_and_the_limit_is_three(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    assert (lobby.turn_seconds, lobby.afk_limit) == (None, 3)


@pytest.mark.parametrize(("turn_seconds", "afk_limit"), [(0, 3), (-5, 3), (60, 0)])
async def test_impossible_timer_options_are_refused(store: SqlStore, turn_seconds: int, afk_limit: int) -> None:
    with pytest.raises(ValueError, match="turn_seconds must be positive"):
        lobby = NewLobby("kasino", 1, 2, 3, "h", {}, 1, 2, turn_seconds=turn_seconds, afk_limit=afk_limit)
        await store.create_lobby(lobby, NOW)


async def test_due_games_are_the_running_ones_whose_deadline_has_come(store: SqlStore) -> None:
    early = await running_game(store, (1, 2))
    late = await running_game(store, (3, 4))
    untimed = await running_game(store, (5, 6))
    early = await store.save_move(early.id, early.version, 0, "a", {"n": 1}, NOW, timer=TurnClock(later(60)))
    late = await store.save_move(late.id, late.version, 0, "a", {"n": 1}, NOW, timer=TurnClock(later(120)))
    await store.save_move(untimed.id, untimed.version, 0, "a", {"n": 1}, NOW)
    assert [game.id for game in await store.due_games(later(59))] == []
    assert [game.id for game in await store.due_games(later(60))] == [early.id]
    assert [game.id for game in await store.due_games(later(500))] == [early.id, late.id]
    await store.cancel_game(late.id, later(1))
    assert [game.id for game in await store.due_games(later(500))] == [early.id]


async def test_set_timer_moves_the_deadline_and_remembers_the_warning(store: SqlStore) -> None:
    game = await running_game(store, (1, 2))
    await store.set_timer(game.id, TurnClock(later(30), warned=True), expected_version=game.version)
    stored = await store.get_game(game.id)
    assert stored is not None
    assert game is not None
    assert (stored.deadline, stored.warned, stored.version) == (later(30), True, game.version)


async def test_a_warning_read_before_a_move_cannot_reset_the_next_players_deadline(store: SqlStore) -> None:
    game = await running_game(store, (1, 2))
    moved = await store.save_move(game.id, game.version, 0, "a", {"n": 1}, NOW, timer=TurnClock(later(120)))
    with pytest.raises(StaleVersionError):
        await store.set_timer(game.id, TurnClock(later(30), warned=True), expected_version=game.version)
    stored = await store.get_game(game.id)
    assert stored is not None
    assert (stored.deadline, stored.warned) == (later(120), False)
    assert stored == moved


async def test_set_timer_on_a_missing_game_says_so(store: SqlStore) -> None:
    with pytest.raises(GameNotFoundError):
        await store.set_timer(999, TurnClock(later(30), warned=True), expected_version=0)


async def test_a_seat_update_read_before_a_move_is_refused_and_changes_nothing(store: SqlStore) -> None:
    game = await running_game(store, (1, 2))
    await store.save_move(game.id, game.version, 0, "a", {"n": 1}, NOW)
    with pytest.raises(StaleVersionError):
        await store.update_seat(game.id, 0, auto_streak=2, expected_version=game.version)
    assert (await record_in(store, game.id)).seats[0].auto_streak == 0
    await store.update_seat(game.id, 0, auto_streak=2, expected_version=game.version + 1)
    assert (await record_in(store, game.id)).seats[0].auto_streak == 2


# -- due timers: what the timer loop reads, through an index, without snapshots ---------------------------------


async def timed(
    store: SqlStore, users: Sequence[int | None], deadline: datetime | None, warn_at: datetime | None
) -> GameRecord:
    game = await running_game(store, users)
    timer = TurnClock(deadline, warn_at)
    return await store.save_move(game.id, game.version, 0, "a", {"n": 1}, NOW, timer=timer)


async def test_due_timers_are_the_expired_turns_and_the_warnings_due_earliest_first(store: SqlStore) -> None:
    warn_soon = await timed(store, (1, 2), deadline=later(120), warn_at=later(90))
    expire_soon = await timed(store, (3, 4), deadline=later(60), warn_at=None)  # no warning asked for
    far = await timed(store, (5, 6), deadline=later(3600), warn_at=later(3000))
    untimed = await running_game(store, (7, 8))
    assert untimed.deadline is None
    assert await store.due_timers(later(59)) == []
    assert [(due.id, due.is_expired(later(60))) for due in await store.due_timers(later(60))] == [
        (expire_soon.id, True)
    ]
    due = await store.due_timers(later(90))
    assert [(timer.id, timer.version, timer.is_expired(later(90))) for timer in due] == [
        (expire_soon.id, expire_soon.version, True),
        (warn_soon.id, warn_soon.version, False),
    ]
    assert due[1].timer == TurnClock(later(120), later(90), warned=False)
    assert far.id not in {timer.id for timer in await store.due_timers(later(2999))}


async def test_a_turns_timer_is_saved_and_read_back_as_one_value(store: SqlStore) -> None:
    timer = TurnClock(later(120), later(90))
    assert (timer.due_at, timer.as_warned().due_at, NO_TIMER.due_at) == (later(90), later(120), None)
    game = await timed(store, (1, 2), deadline=timer.deadline, warn_at=timer.warn_at)
    assert game.timer == timer == (await record_in(store, game.id)).timer
    assert (game.deadline, game.warned) == (later(120), False)
    await store.set_timer(game.id, timer.as_warned(), expected_version=game.version)
    assert (await record_in(store, game.id)).timer == TurnClock(later(120), None, warned=True)
    done = await store.save_move(
        game.id, game.version, 1, "b", {"n": 2}, NOW, timer=timer, outcome=Outcome((1, 2), (5, 3))
    )
    assert done.timer == NO_TIMER == (await record_in(store, game.id)).timer


async def test_a_warned_turn_is_due_again_only_at_its_deadline(store: SqlStore) -> None:
    game = await timed(store, (1, 2), deadline=later(120), warn_at=later(90))
    await store.set_timer(game.id, TurnClock(later(120), warned=True), expected_version=game.version)
    assert await store.due_timers(later(119)) == []
    (due,) = await store.due_timers(later(120))
    assert (due.id, due.timer, due.is_expired(later(120))) == (game.id, TurnClock(later(120), warned=True), True)


async def test_a_new_deadline_replaces_the_old_timer_and_a_finished_or_cancelled_game_has_none(store: SqlStore) -> None:
    game = await timed(store, (1, 2), deadline=later(60), warn_at=later(30))
    moved = await store.save_move(game.id, game.version, 1, "b", {"n": 2}, NOW, timer=TurnClock(later(600), later(500)))
    assert await store.due_timers(later(499)) == []
    assert [due.id for due in await store.due_timers(later(500))] == [moved.id]
    await store.cancel_game(moved.id, later(1))
    other = await timed(store, (3, 4), deadline=later(60), warn_at=later(30))
    await store.save_move(other.id, other.version, 1, "b", {"n": 2}, NOW, outcome=Outcome((1, 2), (5, 3)))
    lobby = await store.add_computer((await new_lobby(store, host=9)).id, "medium", NOW)
    started = await store.start_game(
        lobby.id, lobby.version, [9, None], {"n": 0}, NOW, timer=TurnClock(later(60), later(45))
    )
    assert [due.id for due in await store.due_timers(later(10**6))] == [started.id]


def captured_sql(store: SqlStore) -> list[str]:
    """The statements the store runs from now on, on either of its connections."""
    assert isinstance(store, Store)  # SQLite's connections
    seen: list[str] = []
    for conn in {store._conn, store._reader} - {None}:
        assert conn is not None
        execute_fetchall = conn.execute_fetchall

        async def wrapped(sql: str, *args: Any, execute_fetchall: Any = execute_fetchall, **kwargs: Any) -> Any:
            seen.append(sql)
            return await execute_fetchall(sql, *args, **kwargs)

        vars(conn)["execute_fetchall"] = wrapped  # this connection's own
    return seen


@pytest.mark.sqlite_only  # SQLite's own pragmas and connections
async def test_the_due_timer_query_is_a_range_scan_of_the_timer_index(store: SqlStore) -> None:
    for number in range(20):
        await timed(store, (10 + 2 * number, 11 + 2 * number), deadline=later(60 + number), warn_at=later(number))
    seen = captured_sql(store)
    assert isinstance(store, Store)
    await store.due_timers(later(5))
    (query,) = seen
    plan = [row[-1] for row in await store._conn.execute_fetchall(f"EXPLAIN QUERY PLAN {query}", (NOW.isoformat(),))]
    # One search of the index, bounded above by now; its order is the index's (no sorting step).
    assert len(plan) == 1 and plan[0].startswith("SEARCH games USING INDEX games_by_timer ("), plan
    assert "timer_at<?" in plan[0], plan
    assert "state" not in query.split("FROM")[0]  # no snapshot is read

"""The store's ports in SQL, written once for SQLite (`db.store.Store`) and PostgreSQL (`db.postgres.store`).

A backend supplies its connections and its transactions through the hooks at the top of `SqlStore`: `transaction`
(a durable write), `_bookkeeping` (a write whose loss costs only a redraw), `_reading`, `_run_single` (one
statement, atomic on its own: SQLite commits those of many coroutines together), `_recovering` and `_begin_on` (the
start-up check's own connection and transactions), and the few statements its database says its own way. The rest,
every refusal and every version check, is here.

Every write that depends on what it read names the version it read, and a backend where several processes write
at once (PostgreSQL) locks the game's row first (`_lock_game`): the read, the check and the write then see one game.

The caller owns the clock: every method that stamps a time takes `now` (an aware UTC datetime).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from datetime import datetime
from typing import Any, Final, TypeVar, Unpack

from db import privacy, recovery, stats
from db._codec import (
    GAME_COLUMNS,
    GAME_COLUMNS_NO_STATE,
    MOVE_COLUMNS,
    game_from_row,
    move_from_row,
    narration_to_json,
    optional_time_to_text,
    text_to_time,
    time_to_text,
    to_json,
)
from db._queries import (
    fetch_game,
    fetch_games,
    fetch_moves,
    fetch_seat_changes,
    marks,
    rewrite_seats,
    touch,
    update_given,
)
from db.errors import (
    AlreadySeatedError,
    GameAlreadyOverError,
    GameNotFoundError,
    GameNotRunningError,
    HostCannotLeaveError,
    LobbyFullError,
    NotInLobbyError,
    NotSeatedError,
    StaleVersionError,
)
from db.records import (
    COMPUTER_USER_IDS,
    DueTimer,
    Forgotten,
    GameCounts,
    GameRecord,
    GameStatus,
    LeaderboardPage,
    LeaderboardSort,
    MemberData,
    MessageIds,
    MoveRecord,
    NewLobby,
    Occupant,
    PlayerStats,
    SeatChange,
    SeatChanges,
    SeatReach,
    SeatRecord,
    StartUpCheck,
    free_computer_name,
)
from db.results import record_results
from db.sql import Connection
from engine import registry
from engine.base import Outcome
from engine.message import Message

log = logging.getLogger(__name__)

UNFINISHED: Final[tuple[GameStatus, ...]] = ("lobby", "running")
# Statuses a game may be cancelled from: a frozen game is cleared by cancelling it.
CANCELLABLE: Final[tuple[GameStatus, ...]] = (*UNFINISHED, "frozen")
# How often the start-up check reads a game again when another writer changed it between its read and its write.
_RECOVERY_ATTEMPTS: Final = 10
ALL_GAMES: Final = "1 = 1"

T = TypeVar("T")


def shard_condition(shard_ids: Iterable[int], shard_count: int) -> str:
    """The SQL condition for games of servers on `shard_ids` (Discord's rule: (guild_id >> 22) % shard_count).

    Raises:
        ValueError: no shard, or a shard id outside 0..shard_count-1.
    """
    ids = sorted(set(shard_ids))
    if not ids or shard_count < 1 or not all(0 <= shard < shard_count for shard in ids):
        raise ValueError(f"shard ids {ids} must be within 0..{shard_count - 1}")
    # Plain integers checked above: safe to write into the statement, and both databases read this form.
    return f"((guild_id / 4194304) % {shard_count}) IN ({', '.join(str(shard) for shard in ids)})"


class SqlStore:
    """Games, moves, delivery notes, results and server settings in SQL; a backend subclass gives the connections."""

    def __init__(self, own_games: str = ALL_GAMES) -> None:
        # The games this process looks after in the background (start-up check, timers, computers, catching up):
        # every game with one process; with several, the games of its shards' servers.
        self.own_games = own_games
        self._checked: set[int] = set()  # games whose snapshot this process has checked against the whole log
        self._frozen: list[GameRecord] = []  # games a check froze, until `take_frozen`

    # -- what a backend provides ------------------------------------------------------------------------------------

    def describe(self) -> str:
        """Where the games are kept, for the log (never a password)."""
        raise NotImplementedError

    async def flush(self) -> None:
        """Wait until every write queued so far is saved or refused."""
        raise NotImplementedError

    async def close(self) -> None:
        """Close the connections once the writes in progress are done."""
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One durable write transaction: committed (and on disk) when the block ends, rolled back if it raises."""
        raise NotImplementedError

    def _bookkeeping(self) -> AbstractAsyncContextManager[Connection]:
        """A write transaction for notes on what Discord shows: losing it to a power cut costs only a redraw."""
        raise NotImplementedError

    def _reading(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads that see every committed write."""
        raise NotImplementedError

    async def _run_single(self, write: Callable[[Connection], Awaitable[T]]) -> T:
        """Run and commit `write`, one statement (with reads), durably; its result once committed."""
        raise NotImplementedError

    def _recovering(self) -> AbstractAsyncContextManager[Connection]:
        """The connection the start-up check reads and writes with, held for the whole check of one game."""
        raise NotImplementedError

    def _begin_on(self, conn: Connection) -> AbstractAsyncContextManager[Connection]:
        """A durable transaction on the start-up check's connection."""
        raise NotImplementedError

    async def _read_checked(self, game_id: int, unless_version: int | None) -> GameRecord:
        """A checked game's read (`fetch_game`); a backend may take the game's action lock with it.

        Raises:
            GameNotFoundError: no game has this id.
        """
        async with self._reading() as conn:
            return await fetch_game(conn, game_id, unless_version=unless_version)

    def _give_back_with(self, game_id: int) -> str | None:
        """A column for a move's RETURNING that gives the game's action lock back as the move is saved, if any.

        A backend whose action lock is held that way (`PostgresStore.hold_game`) gives SQL with one `?`, for the
        game's id; the move's write then calls `_given_back`. None: nothing to give back.
        """
        return None

    def _given_back(self, game_id: int) -> None:
        """The move's write gave the game's action lock back (see `_give_back_with`)."""

    async def _lock_game(self, conn: Connection, game_id: int) -> None:
        """Within a transaction: keep other writers off the game until it ends (nothing to do with one writer)."""

    async def _lock_board(self, conn: Connection, game: GameRecord) -> None:
        """Within a transaction: keep other writers off the game's ratings until it ends (nothing with one writer)."""

    async def _start_up_rows(self, conn: Connection) -> Iterable[Sequence[Any]]:
        """Unfinished games as (id, status, kind, move_count, snapshot's kind, snapshot's move count, last logged)."""
        raise NotImplementedError

    # -- lobby ------------------------------------------------------------------------------------------------------

    async def create_lobby(self, lobby: NewLobby, now: datetime) -> GameRecord:
        """A new lobby (version 0) with the host in the first seat.

        Raises:
            ValueError: an unknown kind, fewer than one seat, or a timer or AFK limit below one.
        """
        if lobby.kind not in registry.KINDS:
            raise ValueError(f"unknown game kind {lobby.kind!r}; expected one of {', '.join(registry.KINDS)}")
        if lobby.max_seats < 1:
            raise ValueError(f"a game needs at least one seat, not {lobby.max_seats}")
        if (lobby.turn_seconds is not None and lobby.turn_seconds < 1) or lobby.afk_limit < 1:
            timer, afk = lobby.turn_seconds, lobby.afk_limit
            raise ValueError(f"turn_seconds must be positive or None and afk_limit at least 1: {timer}, {afk}")
        stamp = time_to_text(now)
        async with self.transaction() as conn:
            rows = await conn.execute_fetchall(
                """INSERT INTO games (kind, guild_id, channel_id, status, host_id, settings, seed, max_seats,
                                      turn_seconds, afk_limit, created_at, updated_at)
                   VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id""",
                (
                    lobby.kind,
                    lobby.guild_id,
                    lobby.channel_id,
                    lobby.host_id,
                    to_json(lobby.settings),
                    str(lobby.seed),
                    lobby.max_seats,
                    lobby.turn_seconds,
                    lobby.afk_limit,
                    stamp,
                    stamp,
                ),
            )
            game_id = next(iter(rows))[0]
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                (game_id, lobby.host_id, lobby.host_name),
            )
            return await fetch_game(conn, game_id)

    async def _locked_lobby(self, conn: Connection, game_id: int) -> GameRecord:
        """The lobby, its row locked until the transaction ends (any other status is refused).

        Raises:
            GameNotFoundError, NotInLobbyError.
        """
        await self._lock_game(conn, game_id)
        game = await fetch_game(conn, game_id, tolerate_bad_state=True)  # whatever its snapshot: refused unless a lobby
        _require_lobby(game)
        return game

    async def join_lobby(self, game_id: int, user_id: int, name: str, now: datetime) -> GameRecord:
        """Seat `user_id` in the next free seat; version + 1.

        Raises:
            GameNotFoundError, NotInLobbyError, AlreadySeatedError, LobbyFullError.
        """
        async with self.transaction() as conn:
            game = await self._locked_lobby(conn, game_id)
            if game.seat_of(user_id) is not None:
                raise AlreadySeatedError()
            if game.is_full:
                raise LobbyFullError(len(game.seats), game.max_seats)
            await conn.execute(
                "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                (game_id, len(game.seats), user_id, name),
            )
            await touch(conn, game_id, now)
            return await fetch_game(conn, game_id)

    async def leave_lobby(self, game_id: int, user_id: int, now: datetime, *, allow_host: bool = False) -> GameRecord:
        """Free `user_id`'s seat (later joiners move up one seat); version + 1.

        With `allow_host` the host may leave too, and the earliest remaining joiner becomes the host (an empty
        lobby keeps its host id: cancelling it is the caller's decision).

        Raises:
            GameNotFoundError, NotInLobbyError, NotSeatedError, HostCannotLeaveError.
        """
        async with self.transaction() as conn:
            game = await self._locked_lobby(conn, game_id)
            if game.seat_of(user_id) is None:
                raise NotSeatedError()
            if user_id == game.host_id and not allow_host:
                raise HostCannotLeaveError()
            remaining = [seat for seat in game.seats if seat.user_id != user_id]
            await rewrite_seats(conn, game_id, remaining)
            if user_id == game.host_id and remaining:
                await conn.execute("UPDATE games SET host_id = ? WHERE id = ?", (remaining[0].user_id, game_id))
            await touch(conn, game_id, now)
            return await fetch_game(conn, game_id)

    async def add_computer(self, game_id: int, strength: str, now: datetime) -> GameRecord:
        """Seat a computer player of `strength` in the next free seat; version + 1.

        It is named by its strength, "Computer (hard)"; a second one of the same strength "Computer (hard) 2" (the
        lowest number free), so every name in a game is its own.

        Raises:
            GameNotFoundError, NotInLobbyError, LobbyFullError.
            ValueError: an unknown strength.
        """
        if strength not in COMPUTER_USER_IDS:
            raise ValueError(f"unknown strength {strength!r}; expected one of {', '.join(COMPUTER_USER_IDS)}")
        async with self.transaction() as conn:
            game = await self._locked_lobby(conn, game_id)
            if game.is_full:
                raise LobbyFullError(len(game.seats), game.max_seats)
            await conn.execute(
                """INSERT INTO seats (game_id, seat, user_id, name, is_computer, dm_ok, strength)
                   VALUES (?, ?, NULL, ?, 1, 0, ?)""",
                (game_id, len(game.seats), free_computer_name(game.seats, strength), strength),
            )
            await touch(conn, game_id, now)
            return await fetch_game(conn, game_id)

    async def remove_computer(self, game_id: int, name: str, now: datetime) -> GameRecord:
        """Take the computer player called `name` out of the lobby (later seats move up one); version + 1.

        Raises:
            GameNotFoundError, NotInLobbyError.
            NotSeatedError: no computer player of that name sits in the lobby.
        """
        async with self.transaction() as conn:
            game = await self._locked_lobby(conn, game_id)
            if not any(seat.is_computer and seat.name == name for seat in game.seats):
                raise NotSeatedError(name=name)
            remaining = [seat for seat in game.seats if not (seat.is_computer and seat.name == name)]
            await rewrite_seats(conn, game_id, remaining)
            await touch(conn, game_id, now)
            return await fetch_game(conn, game_id)

    async def set_lobby_settings(
        self, game_id: int, settings: dict[str, Any], now: datetime, *, expected_version: int
    ) -> GameRecord:
        """Replace a lobby's settings (the host chose a house rule); version + 1.

        Raises:
            GameNotFoundError, NotInLobbyError.
            StaleVersionError: the lobby is no longer at `expected_version`; nothing changed.
        """
        async with self.transaction() as conn:
            game = await self._locked_lobby(conn, game_id)
            if game.version != expected_version:
                raise StaleVersionError()
            await conn.execute("UPDATE games SET settings = ? WHERE id = ?", (to_json(settings), game_id))
            await touch(conn, game_id, now)
            return await fetch_game(conn, game_id)

    async def start_game(
        self,
        game_id: int,
        expected_version: int,
        seat_user_ids: Sequence[int | None],
        state: dict[str, Any],
        now: datetime,
        deadline: datetime | None = None,
        narration: Sequence[Message] = (),
        *,
        warn_at: datetime | None = None,
    ) -> GameRecord:
        """Lobby → running: seats in the given order, first snapshot stored; version + 1.

        `seat_user_ids` lists each member of the lobby once and None once for each of its computer seats; the
        computer seats fill the None places in the order they were added to the lobby.

        `narration` is the start (messages), shown on the table until the first move.

        `deadline` is the first turn's (None: no timer), `warn_at` when to warn its player (None: no warning).

        Raises:
            GameNotFoundError, NotInLobbyError, StaleVersionError.
            ValueError: `seat_user_ids` is not exactly the lobby's members and computers.
        """
        async with self.transaction() as conn:
            game = await self._locked_lobby(conn, game_id)
            if game.version != expected_version:
                raise StaleVersionError()
            await rewrite_seats(conn, game_id, _starting_seats(game, seat_user_ids))
            await conn.execute(
                """UPDATE games SET status = 'running', state = ?, version = version + 1, deadline = ?, warned = 0,
                                    timer_at = ?, updated_at = ?, narration = ?
                   WHERE id = ?""",
                (
                    to_json(state),
                    optional_time_to_text(deadline),
                    _timer_at(deadline, False, warn_at),
                    time_to_text(now),
                    narration_to_json(narration),
                    game_id,
                ),
            )
            self._checked.add(game_id)  # the first snapshot, and no move logged: nothing to check
            return await fetch_game(conn, game_id)

    async def cancel_game(self, game_id: int, now: datetime) -> GameRecord:
        """Lobby, running or frozen → cancelled (no results, no rating change); version + 1.

        Raises:
            GameNotFoundError, GameAlreadyOverError.
        """
        async with self.transaction() as conn:
            await self._lock_game(conn, game_id)
            game = await fetch_game(conn, game_id, tolerate_bad_state=True)  # a frozen game's snapshot may be bad
            if game.status not in CANCELLABLE:
                raise GameAlreadyOverError(game.status)
            stamp = time_to_text(now)
            await conn.execute(
                """UPDATE games SET status = 'cancelled', version = version + 1, deadline = NULL, timer_at = NULL,
                                    updated_at = ?,
                                    finished_at = ?
                   WHERE id = ?""",
                (stamp, stamp, game_id),
            )
            return await fetch_game(conn, game_id, tolerate_bad_state=True)

    # -- Discord bookkeeping (message ids are not version-checked; seats and deadlines can be) ----------------------

    async def set_messages(self, game_id: int, **ids: Unpack[MessageIds]) -> None:
        """Record Discord message and thread ids; only the given ones change, None clears one.

        Raises:
            GameNotFoundError.
        """
        # Where the game lives (lobby message, thread) is kept durably; what the table shows now is bookkeeping.
        placed = "lobby_message_id" in ids or "thread_id" in ids
        async with self.transaction() if placed else self._bookkeeping() as conn:
            if not await update_given(conn, "games", dict(ids), "id = ?", (game_id,)):
                raise GameNotFoundError(game_id)

    async def update_seat(
        self, game_id: int, seat: int, *, expected_version: int | None = None, **changes: Unpack[SeatChanges]
    ) -> None:
        """Change a seat's DM flag, automatic-move streak, DM channel, hand message or panel digest (given ones only).

        With `expected_version` nothing changes unless the game is still at that version (checked in the same
        transaction); the game's version itself does not change.

        Raises:
            GameNotFoundError, NotSeatedError.
            StaleVersionError: the game is no longer at `expected_version`.
        """
        # The automatic-turn streak is part of the game; the rest says what Discord shows (see the top).
        durable = "auto_streak" in changes or expected_version is not None
        async with self.transaction() if durable else self._bookkeeping() as conn:
            if expected_version is not None:
                await self._lock_game(conn, game_id)
            if expected_version is not None and (await fetch_game(conn, game_id)).version != expected_version:
                raise StaleVersionError()
            if not await update_given(conn, "seats", dict(changes), "game_id = ? AND seat = ?", (game_id, seat)):
                await fetch_game(conn, game_id)  # raises GameNotFoundError first when the game is missing
                raise NotSeatedError(seat=seat)

    async def set_auto_streak(self, game_id: int, seat: int, streak: int, *, expected_version: int) -> None:
        """Set a seat's count of automatic turns in a row, if the game is still at `expected_version` (durable).

        Raises:
            GameNotFoundError, NotSeatedError, StaleVersionError.
        """
        await self.update_seat(game_id, seat, auto_streak=streak, expected_version=expected_version)

    async def note_seat(self, game_id: int, seat: int, *, holder: int, **reach: Unpack[SeatReach]) -> bool:
        """Record how the seat's player `holder` is reached (DMs, DM channel, panel message and digest); bookkeeping.

        Only while `holder` still holds the seat: the delivery reaches a player across awaits (a slow or retried DM
        edit), and the seat may change hands meanwhile (`change_seat`, which forgets how the holder before was
        reached). Written unconditionally, the old holder's DM channel and panel would come back, and every later
        panel of the seat would go to them. The holder alone names the tenure: a member never holds a seat of a game
        again once they left it (`service.seats`), and a delivery of one game runs one at a time, so a later
        version's notes are never overwritten by an earlier one's.

        Returns:
            Whether the notes were written: False when `holder` no longer holds the seat (or there is no such seat).
        """
        where = "game_id = ? AND seat = ? AND user_id = ?"
        async with self._bookkeeping() as conn:
            return await update_given(conn, "seats", dict(reach), where, (game_id, seat, holder))

    async def set_deadline(
        self,
        game_id: int,
        deadline: datetime | None,
        warned: bool,
        *,
        expected_version: int,
        warn_at: datetime | None = None,
    ) -> None:
        """Set (or clear) the turn deadline and its warning flag, if the game is still at `expected_version`.

        A move since the caller read the game has set the next player's deadline, which must not be undone. The
        version does not change. `warn_at` is when to warn the player (only while not `warned`; None: no warning).

        Raises:
            GameNotFoundError.
            StaleVersionError: the game is no longer at `expected_version`; nothing changed.
        """
        async with self.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE games SET deadline = ?, warned = ?, timer_at = ? WHERE id = ? AND version = ?",
                (
                    optional_time_to_text(deadline),
                    warned,
                    _timer_at(deadline, warned, warn_at),
                    game_id,
                    expected_version,
                ),
            )
            if cursor.rowcount == 0:
                await fetch_game(conn, game_id)  # raises GameNotFoundError when the game is missing
                raise StaleVersionError()

    # -- moves ------------------------------------------------------------------------------------------------------

    async def save_move(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        move: str,
        state: dict[str, Any],
        now: datetime,
        *,
        auto: bool = False,
        deadline: datetime | None = None,
        warned: bool = False,
        warn_at: datetime | None = None,
        outcome: Outcome | None = None,
        narration: Sequence[Message] = (),
    ) -> GameRecord:
        """Log a move and store the new snapshot atomically, with `narration` (the move's messages); version + 1.

        `deadline` is the next turn's (None: no timer), `warn_at` when to warn its player (None: no warning). With
        `outcome` the game also finishes in that transaction: status finished, deadline cleared, one result row per
        human seat, ratings updated.

        Raises:
            GameNotFoundError, GameNotRunningError.
            StaleVersionError: the version is not `expected_version`; nothing was saved.
            ValueError: no such seat, or an outcome that does not cover every seat.
        """
        stamp = time_to_text(now)
        finished = outcome is not None
        # One statement checks the version and the seat, stores the snapshot, bumps the version and (through
        # trigger `log_move`) appends the move as number move_count + 1; a second save of the same version
        # matches no row, so a move is never applied twice.
        # Only a finishing move writes `status`: an UPDATE that names an indexed column rewrites that column's index
        # entries (four indexes hold `status`), even when the value stays the same.
        finish = ", status = 'finished', finished_at = ?" if finished else ""
        give_back = None if finished else self._give_back_with(game_id)
        returning = GAME_COLUMNS_NO_STATE if give_back is None else f"{GAME_COLUMNS_NO_STATE}, {give_back}"
        statement = f"""UPDATE games SET state = ?, version = version + 1, move_count = move_count + 1, last_seat = ?,
                                     last_move = ?, last_auto = ?, deadline = ?, warned = ?, timer_at = ?,
                                     updated_at = ?, narration = ?{finish}
                    WHERE id = ? AND version = ? AND status = 'running'
                      AND EXISTS (SELECT 1 FROM seats WHERE seats.game_id = games.id AND seats.seat = ?)
                    RETURNING {returning}"""
        parameters = (
            to_json(state),
            seat,
            move,
            auto,
            None if finished else optional_time_to_text(deadline),
            warned and not finished,
            None if finished else _timer_at(deadline, warned, warn_at),
            stamp,
            narration_to_json(narration),
            *((stamp,) if finished else ()),
            game_id,
            expected_version,
            seat,
            *(() if give_back is None else (game_id,)),
        )
        if outcome is None:
            # A single statement (trigger included) is atomic on its own, so ordinary moves go through group commit:
            # those that arrive while a commit is under way are saved together, by one COMMIT (db/_group_commit.py).

            async def write(conn: Connection) -> GameRecord:
                rows = await conn.execute_fetchall(statement, parameters)
                if not rows:
                    await _refuse_move(conn, game_id, expected_version, seat)
                row = next(iter(rows))
                if give_back is not None:
                    self._given_back(game_id)
                    row = row[:-1]
                return game_from_row(row, known_state=state)

            return await self._run_single(write)
        async with self.transaction() as conn:
            rows = await conn.execute_fetchall(statement, parameters)
            if not rows:
                await _refuse_move(conn, game_id, expected_version, seat)
            game = game_from_row(next(iter(rows)), known_state=state)
            await self._lock_board(conn, game)
            await record_results(conn, game, outcome, stamp)
            return game

    async def change_seat(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        to: Occupant,
        *,
        host_id: int,
        state: dict[str, Any],
        now: datetime,
        narration: Sequence[Message],
        move: str | None = None,
        deadline: datetime | None = None,
        warned: bool = False,
        warn_at: datetime | None = None,
    ) -> GameRecord:
        """Give a running game's seat to `to` (issue 28), in one transaction; version + 1.

        The seat's row then names its new player, with nothing of the one before kept for reaching them (their DM
        channel, panel message and digest are cleared, so no panel of the seat ever goes to them again), and its
        automatic-turn streak restarts. `move` (the engine's `rejoin`, when the seat had been vacated) is logged like
        any move; `state` is the snapshot after it. `deadline`, `warned` and `warn_at` are the turn timer's after the
        change (the turn's own, unless the seat to move changed hands). The change is kept in `seat_changes` (see
        `seat_changes`) and `narration` is what the table tells, as for a move.

        Raises:
            GameNotFoundError, GameNotRunningError, StaleVersionError, NotSeatedError.
            AlreadySeatedError: the member `to` already holds another seat of this game.
        """
        stamp = time_to_text(now)
        async with self.transaction() as conn:
            await self._lock_game(conn, game_id)
            game = await fetch_game(conn, game_id)
            if game.status != "running":
                raise GameNotRunningError(game.status)
            if game.version != expected_version:
                raise StaleVersionError()
            if not 0 <= seat < len(game.seats):
                raise NotSeatedError(seat=seat)
            if to.user_id is not None and game.seat_of(to.user_id) not in (None, seat):
                raise AlreadySeatedError()
            before = Occupant.of(game.seats[seat])
            logged = (
                ", move_count = move_count + 1, last_seat = ?, last_move = ?, last_auto = 0" if move is not None else ""
            )
            await conn.execute(
                f"""UPDATE games SET state = ?, version = version + 1, deadline = ?, warned = ?, timer_at = ?,
                                     updated_at = ?, narration = ?{logged}
                    WHERE id = ?""",
                (
                    to_json(state),
                    optional_time_to_text(deadline),
                    warned,
                    _timer_at(deadline, warned, warn_at),
                    stamp,
                    narration_to_json(narration),
                    *((seat, move) if move is not None else ()),
                    game_id,
                ),
            )
            await conn.execute(
                """UPDATE seats SET user_id = ?, name = ?, is_computer = ?, strength = ?, dm_ok = 1, auto_streak = 0,
                                    hand_message_id = NULL, dm_channel_id = NULL, panel = NULL
                   WHERE game_id = ? AND seat = ?""",
                (to.user_id, to.name, to.is_computer, to.strength, game_id, seat),
            )
            rows = await conn.execute_fetchall(
                "SELECT move_count, (SELECT COUNT(*) FROM seat_changes WHERE game_id = ?) FROM games WHERE id = ?",
                (game_id, game_id),
            )
            after_move, changes = next(iter(rows))
            await conn.execute(
                """INSERT INTO seat_changes (game_id, number, seat, after_move, from_user_id, from_name, from_strength,
                                             to_user_id, to_name, to_strength, host_id, narration, created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                (
                    game_id,
                    changes + 1,
                    seat,
                    after_move,
                    before.user_id,
                    before.name,
                    before.strength,
                    to.user_id,
                    to.name,
                    to.strength,
                    host_id,
                    narration_to_json(narration),
                    stamp,
                ),
            )
            return await fetch_game(conn, game_id)

    async def seat_changes(self, game_id: int) -> list[SeatChange]:
        """The seats that changed hands during the game, in order (empty for none, or an unknown game)."""
        async with self._reading() as conn:
            return await fetch_seat_changes(conn, game_id)

    async def game_moves(self, game_id: int) -> list[MoveRecord]:
        """The move log in order (empty for an unknown game or one that has not started)."""
        async with self._reading() as conn:
            return await fetch_moves(conn, game_id)

    # -- queries ----------------------------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        async with self._reading() as conn:
            try:
                return await fetch_game(conn, game_id)
            except GameNotFoundError:
                return None

    async def running_games_with_computers(self) -> list[GameRecord]:
        """Running games with at least one computer seat, oldest first (start-up looks for computers to move)."""
        async with self._reading() as conn:
            return await fetch_games(
                conn,
                "status = 'running' AND EXISTS (SELECT 1 FROM seats WHERE game_id = games.id AND is_computer = 1) "
                f"AND {self.own_games}",
                (),
            )

    async def due_games(self, before: datetime) -> list[GameRecord]:
        """Running games whose turn deadline is at or before `before`, earliest deadline first."""
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(
                f"""SELECT {GAME_COLUMNS} FROM games
                    WHERE status = 'running' AND deadline IS NOT NULL AND deadline <= ?
                    ORDER BY deadline""",
                (time_to_text(before),),
            )
            return [game_from_row(row) for row in rows]

    async def due_timers(self, now: datetime) -> list[DueTimer]:
        """Running games whose turn timer needs the bot at `now`, earliest first (see `DueTimer`).

        Due means the deadline has passed, or the player to move is not yet warned and their warning time has passed.
        One range scan of index `games_by_timer`, which holds only running games with a timer: the cost follows the
        number of games due, not the number of games.
        """
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(
                f"""SELECT id, version, deadline, warned FROM games
                   WHERE status = 'running' AND timer_at IS NOT NULL AND timer_at <= ? AND {self.own_games}
                   ORDER BY timer_at""",
                (time_to_text(now),),
            )
            return [
                DueTimer(game_id, version, text_to_time(deadline), bool(warned))
                for game_id, version, deadline, warned in rows
            ]

    async def games_in_guild(self, guild_id: int, statuses: Sequence[GameStatus] = UNFINISHED) -> list[GameRecord]:
        """The server's games with one of `statuses`, oldest first."""
        async with self._reading() as conn:
            return await fetch_games(conn, f"guild_id = ? AND status IN ({marks(statuses)})", (guild_id, *statuses))

    async def running_games_in_channel(
        self, channel_id: int, statuses: Sequence[GameStatus] = ("running",)
    ) -> list[GameRecord]:
        """Games (running ones, unless `statuses` says otherwise) whose channel or thread is `channel_id`."""
        async with self._reading() as conn:
            return await fetch_games(
                conn,
                f"(channel_id = ? OR thread_id = ?) AND status IN ({marks(statuses)})",
                (channel_id, channel_id, *statuses),
            )

    # -- start-up: each running game's snapshot against its move log (B1) --------------------------------------------
    #
    # The full check replays a game's whole log (about 11 µs a move) and compares the result with the snapshot: a
    # snapshot that cannot be read or differs is replaced by the replay (version + 1, a warning logged); a game whose
    # log cannot be replayed is frozen (status "frozen", version + 1, deadline cleared): it accepts no more moves and
    # one error line names it. Every write checks the version it read: a game another writer changed in between is
    # read and checked again, never overwritten. Each game is checked in full once per process: `start_up_check`
    # finds cheaply the games whose snapshot and log plainly disagree and checks those at once; `checked_game` checks
    # any other the first time it is asked for (the service asks before it changes a game), and `unchecked_games`
    # lists those still to check, for a check of them all in the background.

    async def start_up_check(self) -> StartUpCheck:
        """Start-up in time independent of how long the games are: lobbies and running games, cheaply checked.

        One statement reads, without decoding any snapshot in Python, each running game's move count three ways: the
        game's row, its snapshot (`MOVE_COUNT_KEY` of the engine) and its log's last entry, with the snapshot's kind.
        A game where they disagree, whose snapshot is not JSON, or whose kind is unknown is checked in full now
        (repaired or frozen); the others are left to `checked_game`. Returns game ids, and the games frozen now.
        """
        async with self._recovering() as conn:
            rows = await self._start_up_rows(conn)
            lobbies, running = [], []
            for game_id, status, kind, move_count, snapshot_kind, snapshot_count, last_logged in rows:
                if status == "lobby":
                    lobbies.append(game_id)
                    continue
                if snapshot_kind == kind and snapshot_count == move_count == (last_logged or 0):
                    running.append(game_id)
                    continue
                game = await self._recover(conn, await fetch_game(conn, game_id, tolerate_bad_state=True))
                if game.status == "running":
                    running.append(game_id)
        return StartUpCheck(tuple(lobbies), tuple(running), tuple(self.take_frozen()))

    async def checked_game(self, game_id: int, *, held_version: int | None = None) -> GameRecord | None:
        """The game with this id (None if there is none), checked in full first if this process has not yet.

        A running game's snapshot is then repaired from its log, or the game frozen (see above). When the caller
        holds the game at `held_version` already and the game is still at that version, `state` is None and the
        narration empty: the caller is about to change the game, so neither is read nor decoded.

        Raises:
            ValueError: a checked game's snapshot is no longer JSON (another program wrote it), as `get_game`.
        """
        try:
            if game_id in self._checked:
                return await self._read_checked(game_id, held_version)
            async with self._recovering() as conn:
                return await self._recover(conn, await fetch_game(conn, game_id, tolerate_bad_state=True))
        except GameNotFoundError:
            return None

    async def unchecked_games(self) -> list[int]:
        """Running games this process has not checked in full yet, oldest first."""
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT id FROM games WHERE status = 'running' AND {self.own_games} ORDER BY id"
            )
        return [game_id for (game_id,) in rows if game_id not in self._checked]

    def take_frozen(self) -> list[GameRecord]:
        """The games a check froze since this was last asked (each once), so that the caller can say so."""
        frozen, self._frozen = self._frozen, []
        return frozen

    async def load_unfinished(self) -> list[GameRecord]:
        """Lobbies and running games, oldest first, each running game checked in full (see above) unless it was.

        A game frozen now is returned this once (`state` as stored, None if unreadable), so that the caller can say
        so; later calls do not return it. This replays every log: the bot starts with `start_up_check` instead.
        """
        async with self._recovering() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status IN ({marks(UNFINISHED)}) ORDER BY id", UNFINISHED
            )
            games = [game_from_row(row, tolerate_bad_state=True) for row in rows]
            checked = [
                await self._recover(conn, game) if game.status == "running" and game.id not in self._checked else game
                for game in games
            ]
            self.take_frozen()  # reported in the list
            return [game for game in checked if game.status in CANCELLABLE]

    async def _recover(self, conn: Connection, game: GameRecord) -> GameRecord:
        # Only on the connection `_recovering` gave. Another process may write between each statement here (another
        # bot process on PostgreSQL, any SQLite client on a file), so each write names the version it was decided on.
        for _ in range(_RECOVERY_ATTEMPTS):
            if game.status != "running":
                self._checked.add(game.id)
                return game
            rows = list(
                await conn.execute_fetchall(
                    f"SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = ? ORDER BY seq", (game.id,)
                )
            )
            if len(rows) != game.move_count:  # a move landed between the two reads
                game = await fetch_game(conn, game.id, tolerate_bad_state=True)
                continue
            # Reading the log's rows and replaying it is pure computation (up to a tenth of a second for a long log):
            # a worker thread does it, so the event loop goes on meanwhile. The connections stay with this task, which
            # holds the lock: the thread gets only the rows.
            check = await asyncio.to_thread(replayed_check, game, rows)
            if isinstance(check, Exception):  # any failure to replay the log means the game cannot go on
                frozen = await self._freeze(conn, game, check)
                if frozen is not None:
                    self._checked.add(game.id)
                    return frozen
            elif check.problem is None:
                self._checked.add(game.id)
                return game
            else:
                repaired = await self._write_back(conn, game, check.state)
                if repaired is not None:
                    log.warning(
                        "game #%d: %s; restored the state replayed from its %d logged moves",
                        game.id,
                        check.problem,
                        len(rows),
                    )
                    self._checked.add(game.id)
                    return repaired
            game = await fetch_game(conn, game.id, tolerate_bad_state=True)
        log.warning("game #%d kept changing while it was checked against its log; left as it is now", game.id)
        return game

    async def _write_back(self, conn: Connection, game: GameRecord, state: dict[str, Any]) -> GameRecord | None:
        """Store the replayed state if the game is still at the version it was read at; None if it was not."""
        async with self._begin_on(conn):
            cursor = await conn.execute(
                "UPDATE games SET state = ?, version = version + 1 WHERE id = ? AND version = ?",
                (to_json(state), game.id, game.version),
            )
            return await fetch_game(conn, game.id) if cursor.rowcount else None

    async def _freeze(self, conn: Connection, game: GameRecord, error: Exception) -> GameRecord | None:
        """Running → frozen if the game is still at the version it was read at; None if it was not."""
        async with self._begin_on(conn):
            cursor = await conn.execute(
                """UPDATE games SET status = 'frozen', version = version + 1, deadline = NULL, timer_at = NULL
                   WHERE id = ? AND version = ? AND status = 'running'""",
                (game.id, game.version),
            )
            if not cursor.rowcount:
                return None
            frozen = await fetch_game(conn, game.id, tolerate_bad_state=True)
        reason = " ".join(f"{type(error).__name__}: {error}".split())
        log.error("game #%d could not be restored from its move log and was frozen: %s", game.id, reason)
        self._frozen.append(frozen)
        return frozen

    # -- delivery to Discord ----------------------------------------------------------------------------------------

    async def claim_delivery(self, game_id: int, owner: str, until: datetime, now: datetime) -> GameRecord | None:
        """Lease the game's delivery to `owner` until `until`; None if another owner holds an unexpired lease.

        The lease lets several workers (or processes) share one database without showing a change twice.
        """
        async with self._bookkeeping() as conn:
            cursor = await conn.execute(
                """UPDATE games SET delivery_owner = ?, delivery_until = ?
                   WHERE id = ? AND (delivery_owner IS NULL OR delivery_owner = ? OR delivery_until < ?)""",
                (owner, time_to_text(until), game_id, owner, time_to_text(now)),
            )
            if not cursor.rowcount:
                return None
            return await fetch_game(conn, game_id, tolerate_bad_state=True)

    async def release_delivery(
        self, game_id: int, owner: str, *, shown_version: int | None = None, shown_moves: int | None = None
    ) -> None:
        """End `owner`'s lease; with `shown_version`/`shown_moves`, record that Discord caught up that far."""
        async with self._bookkeeping() as conn:
            # SET reads the old values, so `shown_notices` restarts only when `shown_moves` moves on.
            await conn.execute(
                """UPDATE games SET delivery_owner = NULL, delivery_until = NULL,
                                    shown_version = CASE WHEN coalesce(?1, 0) > shown_version THEN ?1
                                                         ELSE shown_version END,
                                    shown_notices = CASE WHEN coalesce(?2, 0) > shown_moves THEN 0
                                                         ELSE shown_notices END,
                                    shown_moves = CASE WHEN coalesce(?2, 0) > shown_moves THEN ?2 ELSE shown_moves END
                   WHERE id = ?3 AND delivery_owner = ?4""",
                (shown_version, shown_moves, game_id, owner),
            )

    async def note_notices(self, game_id: int, owner: str, *, moves: int, notices: int = 0) -> None:
        """Record (under `owner`'s lease) that the posts of the first `moves` moves went out, and `notices` of the next.

        Never goes back: a note behind what is recorded changes nothing.
        """
        async with self._bookkeeping() as conn:
            await conn.execute(
                """UPDATE games SET shown_moves = ?1, shown_notices = ?2
                   WHERE id = ?3 AND delivery_owner = ?4
                     AND (shown_moves < ?1 OR (shown_moves = ?1 AND shown_notices < ?2))""",
                (moves, notices, game_id, owner),
            )

    async def release_all_deliveries(self) -> int:
        """Void every delivery lease of this process's games; returns how many there were.

        Only for start-up: a lease still on record belongs to a process that died while delivering (on SQLite this
        process holds the file's lock; on PostgreSQL these are the games of its own shards).
        """
        async with self._bookkeeping() as conn:
            cursor = await conn.execute(
                "UPDATE games SET delivery_owner = NULL, delivery_until = NULL "
                f"WHERE delivery_owner IS NOT NULL AND {self.own_games}"
            )
            return cursor.rowcount

    async def unshown_games(self) -> list[GameRecord]:
        """Games that started and that Discord is behind on, oldest first (an index finds them without a scan)."""
        async with self._reading() as conn:
            return await fetch_games(
                conn, "shown_version < version AND status IN ('running', 'finished', 'cancelled')", ()
            )

    async def unshown_game_ids(self, after: int, limit: int) -> list[int]:
        """A page of the started games Discord is behind on: at most `limit` ids above `after`, in order.

        Keyset paging through the partial index `games_unshown`: each page costs the same however many games are
        owed, and no record is loaded.
        """
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(
                f"""SELECT id FROM games
                   WHERE shown_version < version AND status IN ('running', 'finished', 'cancelled') AND id > ?
                     AND {self.own_games}
                   ORDER BY id LIMIT ?""",
                (after, limit),
            )
        return [game_id for (game_id,) in rows]

    async def game_counts(self) -> GameCounts:
        """How many of this process's games run, and how many Discord is behind on: two counts on partial indexes.

        Also the health check's question to the database (`cogs.runtime.health`): cheap whatever the number of games.
        """
        async with self._reading() as conn:
            rows = await conn.execute_fetchall(
                f"""SELECT (SELECT count(*) FROM games
                             WHERE status IN ('lobby', 'running') AND status = 'running' AND {self.own_games}),
                           (SELECT count(*) FROM games
                             WHERE shown_version < version AND status IN ('running', 'finished', 'cancelled')
                               AND {self.own_games})"""
            )
        ((running, unshown),) = rows
        return GameCounts(int(running), int(unshown))

    async def move_to_channel(self, game_id: int) -> GameRecord:
        """The game's thread is gone: play on in its channel, where everything is to be shown anew.

        Raises:
            GameNotFoundError.
        """
        async with self._bookkeeping() as conn:
            await conn.execute(
                """UPDATE games SET thread_id = NULL, table_message_id = NULL, ping_message_id = NULL,
                                    ping_user_id = NULL, warning_message_id = NULL, shown_version = 0
                   WHERE id = ?""",
                (game_id,),
            )
            return await fetch_game(conn, game_id, tolerate_bad_state=True)

    # -- results ----------------------------------------------------------------------------------------------------

    async def leaderboard(
        self,
        guild_id: int,
        kind: str,
        sort: LeaderboardSort = "rating",
        page: int = 0,
        per_page: int = 10,
        min_games: int = 3,
        computers: bool = True,
    ) -> LeaderboardPage:
        """One page (from 0) of the server's leaderboard for `kind`, by rating, wins or win rate.

        "rating" lists players with a rated game; "win_rate" only players with at least `min_games` games. Computer
        players are listed (unranked) unless `computers` is False.

        Raises:
            ValueError: an unknown kind or sort, a negative page, or a page size below 1.
        """
        async with self._reading() as conn:
            return await stats.leaderboard(conn, guild_id, kind, sort, page, per_page, min_games, computers)

    async def player_stats(self, user_id: int, guild_id: int) -> PlayerStats:
        """A player's figures per kind in this server (with rating and rank) and across all servers."""
        async with self._reading() as conn:
            return await stats.player_stats(conn, user_id, guild_id)

    # -- a member's data and a departed server's (issue 45) -----------------------------------------------------------

    async def member_data(self, user_id: int) -> MemberData:
        """Everything stored under `user_id` (`/privacy show`)."""
        async with self._reading() as conn:
            return await privacy.member_data(conn, user_id)

    async def member_games(self, user_id: int, statuses: Sequence[GameStatus] = UNFINISHED) -> list[GameRecord]:
        """The games of `statuses` in which `user_id` holds a seat, in id order."""
        async with self._reading() as conn:
            return await fetch_games(
                conn,
                f"id IN (SELECT game_id FROM seats WHERE user_id = ?) AND status IN ({marks(statuses)})",
                (user_id, *statuses),
            )

    async def forget_member(self, user_id: int, names: Sequence[str] = ()) -> Forgotten:
        """Take `user_id` and their names out of every row, delete their results and ratings (`db.privacy`)."""
        async with self.transaction() as conn:
            return await privacy.forget_member(conn, user_id, names)

    async def mark_departed(self, guild_id: int, now: datetime) -> None:
        """Note that the bot was removed from `guild_id` at `now` (a first mark stands)."""
        async with self.transaction() as conn:
            await privacy.mark_departed(conn, guild_id, now)

    async def clear_departed(self, guild_id: int) -> bool:
        """The bot is in `guild_id` (again): keep its data. True if it had been marked as departed."""
        async with self.transaction() as conn:
            cursor = await conn.execute("DELETE FROM departed_guilds WHERE guild_id = ?", (guild_id,))
            return bool(cursor.rowcount)

    async def departed_since(self, guild_id: int) -> datetime | None:
        """When the bot was removed from `guild_id`; None while it is there."""
        async with self._reading() as conn:
            return await privacy.departed_since(conn, guild_id)

    async def departed_before(self, cutoff: datetime) -> list[int]:
        """The servers the bot was removed from before `cutoff`."""
        async with self._reading() as conn:
            return await privacy.departed_before(conn, cutoff)

    async def purge_guild(self, guild_id: int) -> list[int]:
        """Delete every row of `guild_id` (games, moves, results, ratings, settings); the deleted games' ids."""
        async with self.transaction() as conn:
            return await privacy.purge_guild(conn, guild_id)

    # -- server settings --------------------------------------------------------------------------------------------

    async def pictures_on(self, guild_id: int) -> bool:
        """Whether the server's tables are shown as pictures (yes unless a manager turned them off)."""
        async with self._reading() as conn:
            rows = list(
                await conn.execute_fetchall("SELECT pictures FROM guild_settings WHERE guild_id = ?", (guild_id,))
            )
            return bool(rows[0][0]) if rows else True

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        """Turn the server's table pictures on or off."""
        async with self.transaction() as conn:
            await conn.execute(
                """INSERT INTO guild_settings (guild_id, pictures) VALUES (?, ?)
                   ON CONFLICT (guild_id) DO UPDATE SET pictures = excluded.pictures""",
                (guild_id, on),
            )

    async def language(self, guild_id: int) -> str | None:
        """The locale a manager chose for the server's public text, or None: the server's own default."""
        async with self._reading() as conn:
            rows = list(
                await conn.execute_fetchall("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
            )
            return str(rows[0][0]) if rows and rows[0][0] is not None else None

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Choose the locale of the server's public text (None: back to the server's own default)."""
        async with self.transaction() as conn:
            await conn.execute(
                """INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)
                   ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language""",
                (guild_id, language),
            )

    async def house_rules_preset(self, guild_id: int, kind: str) -> dict[str, Any]:
        """The server's usual house rules for `kind` (settings by key), empty when none are saved."""
        async with self._reading() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT settings FROM house_rule_presets WHERE guild_id = ? AND kind = ?", (guild_id, kind)
                )
            )
        if not rows:
            return {}
        loaded = json.loads(rows[0][0])
        return dict(loaded) if isinstance(loaded, dict) else {}

    async def save_house_rules_preset(self, guild_id: int, kind: str, settings: dict[str, Any], now: datetime) -> None:
        """Keep `settings` as the server's usual house rules for `kind`; an empty one removes the preset."""
        async with self.transaction() as conn:
            if not settings:
                await conn.execute("DELETE FROM house_rule_presets WHERE guild_id = ? AND kind = ?", (guild_id, kind))
                return
            await conn.execute(
                """INSERT INTO house_rule_presets (guild_id, kind, settings, updated_at) VALUES (?, ?, ?, ?)
                   ON CONFLICT (guild_id, kind) DO UPDATE SET settings = excluded.settings,
                                                             updated_at = excluded.updated_at""",
                (guild_id, kind, to_json(settings), time_to_text(now)),
            )

    async def reset_house_rules_preset(self, guild_id: int, kind: str) -> bool:
        """Forget the server's usual house rules for `kind`: new lobbies start from the main rules. True if any were."""
        async with self.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM house_rule_presets WHERE guild_id = ? AND kind = ?", (guild_id, kind)
            )
            return bool(cursor.rowcount)


def replayed_check(game: GameRecord, rows: Sequence[Sequence[Any]]) -> recovery.SnapshotCheck | Exception:
    """The verdict on a game's snapshot against the replay of its log (rows of `MOVE_COLUMNS`), or the replay's error.

    Runs in a worker thread: it touches no connection.
    """
    try:
        moves = [move_from_row(row) for row in rows]
        replayed = recovery.replay(game.kind, len(game.seats), game.seed, game.settings, moves)
    except Exception as error:  # returned, not raised: the caller freezes the game
        return error
    return recovery.check_snapshot(replayed, game.state)


def _timer_at(deadline: datetime | None, warned: bool, warn_at: datetime | None) -> str | None:
    """Column `timer_at`: when the turn timer next needs the bot (the warning while one is due, then the deadline)."""
    if deadline is None:
        return None
    if warn_at is not None and not warned:
        return time_to_text(min(warn_at, deadline))
    return time_to_text(deadline)


def _require_lobby(game: GameRecord) -> None:
    if game.status != "lobby":
        raise NotInLobbyError(game.status)


async def _refuse_move(conn: Connection, game_id: int, expected_version: int, seat: int) -> None:
    """Raise the reason a move's UPDATE matched no row."""
    game = await fetch_game(conn, game_id, tolerate_bad_state=True)
    if game.status != "running":
        raise GameNotRunningError(game.status)
    if game.version != expected_version:
        raise StaleVersionError()
    raise ValueError(f"game #{game_id} has no seat {seat}")


def _starting_seats(game: GameRecord, seat_user_ids: Sequence[int | None]) -> list[SeatRecord]:
    """The lobby's seats in the starting order; the None places take the lobby's computer seats in lobby order."""
    humans = [user_id for user_id in seat_user_ids if user_id is not None]
    members = {seat.user_id: seat for seat in game.seats if not seat.is_computer}
    computers = [seat for seat in game.seats if seat.is_computer]
    if len(set(humans)) != len(humans) or set(humans) != set(members) or len(seat_user_ids) != len(game.seats):
        listed = sorted(user_id for user_id in members if user_id is not None)
        raise ValueError(
            f"the seating {list(seat_user_ids)} must list each lobby member once {listed} and None for each of the "
            f"{len(computers)} computer seats"
        )
    waiting = iter(computers)
    return [
        replace(next(waiting) if user_id is None else members[user_id], seat=number)
        for number, user_id in enumerate(seat_user_ids)
    ]

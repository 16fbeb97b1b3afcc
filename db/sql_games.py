"""Games and their move logs in SQL (the port `GameRepository`): lobbies, starts, version-checked moves and timers.

The caller owns the clock: every method that stamps a time takes `now` (an aware UTC datetime).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, Unpack

from db._codec import (
    GAME_COLUMNS,
    GAME_COLUMNS_NO_STATE,
    game_from_row,
    narration_to_json,
    time_to_text,
    timer_from_columns,
    timer_to_columns,
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
    NO_TIMER,
    DueTimer,
    GameRecord,
    GameStatus,
    MoveRecord,
    NewLobby,
    Occupant,
    SeatChange,
    SeatChanges,
    SeatRecord,
    TurnClock,
    free_computer_name,
)
from db.results import record_results
from db.sql import Connection
from db.sql_backend import CANCELLABLE, UNFINISHED
from db.sql_checks import SqlChecks
from engine import registry
from engine.base import Outcome
from engine.message import Message


class SqlGames(SqlChecks):
    """Lobbies, running games and their logs on a backend's connections; the start-up check is `SqlChecks`'."""

    # -- lobby --------------------------------------------------------------------------------------------------

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
        async with self._db.transaction() as conn:
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
        await self._db._lock_game(conn, game_id)
        game = await fetch_game(conn, game_id, tolerate_bad_state=True)  # whatever its snapshot: refused unless a lobby
        _require_lobby(game)
        return game

    async def join_lobby(self, game_id: int, user_id: int, name: str, now: datetime) -> GameRecord:
        """Seat `user_id` in the next free seat; version + 1.

        Raises:
            GameNotFoundError, NotInLobbyError, AlreadySeatedError, LobbyFullError.
        """
        async with self._db.transaction() as conn:
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
        async with self._db.transaction() as conn:
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
        async with self._db.transaction() as conn:
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
        async with self._db.transaction() as conn:
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
        async with self._db.transaction() as conn:
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
        narration: Sequence[Message] = (),
        *,
        timer: TurnClock = NO_TIMER,
    ) -> GameRecord:
        """Lobby → running: seats in the given order, first snapshot stored; version + 1.

        `seat_user_ids` lists each member of the lobby once and None once for each of its computer seats; the
        computer seats fill the None places in the order they were added to the lobby.

        `narration` is the start (messages), shown on the table until the first move.

        `timer` is the first turn's (`NO_TIMER`: none).

        Raises:
            GameNotFoundError, NotInLobbyError, StaleVersionError.
            ValueError: `seat_user_ids` is not exactly the lobby's members and computers.
        """
        async with self._db.transaction() as conn:
            game = await self._locked_lobby(conn, game_id)
            if game.version != expected_version:
                raise StaleVersionError()
            await rewrite_seats(conn, game_id, _starting_seats(game, seat_user_ids))
            await conn.execute(
                """UPDATE games SET status = 'running', state = ?, version = version + 1, deadline = ?, warned = ?,
                                    timer_at = ?, updated_at = ?, narration = ?
                   WHERE id = ?""",
                (
                    to_json(state),
                    *timer_to_columns(timer),
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
        async with self._db.transaction() as conn:
            await self._db._lock_game(conn, game_id)
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

    # -- seats and the turn's timer (version-checked) -----------------------------------------------------------

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
        async with self._db.transaction() if durable else self._db._bookkeeping() as conn:
            if expected_version is not None:
                await self._db._lock_game(conn, game_id)
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

    async def set_timer(self, game_id: int, timer: TurnClock, *, expected_version: int) -> None:
        """Set (or clear, with `NO_TIMER`) the turn's timer, if the game is still at `expected_version`.

        A move since the caller read the game has set the next player's timer, which must not be undone. The version
        does not change.

        Raises:
            GameNotFoundError.
            StaleVersionError: the game is no longer at `expected_version`; nothing changed.
        """
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "UPDATE games SET deadline = ?, warned = ?, timer_at = ? WHERE id = ? AND version = ?",
                (*timer_to_columns(timer), game_id, expected_version),
            )
            if cursor.rowcount == 0:
                await fetch_game(conn, game_id)  # raises GameNotFoundError when the game is missing
                raise StaleVersionError()

    # -- moves --------------------------------------------------------------------------------------------------

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
        timer: TurnClock = NO_TIMER,
        outcome: Outcome | None = None,
        narration: Sequence[Message] = (),
    ) -> GameRecord:
        """Log a move and store the new snapshot atomically, with `narration` (the move's messages); version + 1.

        `timer` is the next turn's (`NO_TIMER`: none). With `outcome` the game also finishes in that transaction:
        status finished, timer cleared, one result row per human seat, ratings updated.

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
        give_back = None if finished else self._db._give_back_with(game_id)
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
            *timer_to_columns(NO_TIMER if finished else timer),
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
                    self._db._given_back(game_id)
                    row = row[:-1]
                return game_from_row(row, known_state=state)

            return await self._db._run_single(write)
        async with self._db.transaction() as conn:
            rows = await conn.execute_fetchall(statement, parameters)
            if not rows:
                await _refuse_move(conn, game_id, expected_version, seat)
            game = game_from_row(next(iter(rows)), known_state=state)
            await self._db._lock_board(conn, game)
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
        timer: TurnClock = NO_TIMER,
    ) -> GameRecord:
        """Give a running game's seat to `to` (issue 28), in one transaction; version + 1.

        The seat's row then names its new player, with nothing of the one before kept for reaching them (their DM
        channel, panel message and digest are cleared, so no panel of the seat ever goes to them again), and its
        automatic-turn streak restarts. `move` (the engine's `rejoin`, when the seat had been vacated) is logged like
        any move; `state` is the snapshot after it. `timer` is the turn's timer after the change (the turn's own,
        unless the seat to move changed hands). The change is kept in `seat_changes` (see
        `seat_changes`) and `narration` is what the table tells, as for a move.

        Raises:
            GameNotFoundError, GameNotRunningError, StaleVersionError, NotSeatedError.
            AlreadySeatedError: the member `to` already holds another seat of this game.
        """
        stamp = time_to_text(now)
        async with self._db.transaction() as conn:
            await self._db._lock_game(conn, game_id)
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
                    *timer_to_columns(timer),
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
        async with self._db._reading() as conn:
            return await fetch_seat_changes(conn, game_id)

    async def game_moves(self, game_id: int) -> list[MoveRecord]:
        """The move log in order (empty for an unknown game or one that has not started)."""
        async with self._db._reading() as conn:
            return await fetch_moves(conn, game_id)

    # -- queries ------------------------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        async with self._db._reading() as conn:
            try:
                return await fetch_game(conn, game_id)
            except GameNotFoundError:
                return None

    async def running_games_with_computers(self) -> list[GameRecord]:
        """Running games with at least one computer seat, oldest first (start-up looks for computers to move)."""
        async with self._db._reading() as conn:
            return await fetch_games(
                conn,
                "status = 'running' AND EXISTS (SELECT 1 FROM seats WHERE game_id = games.id AND is_computer = 1) "
                f"AND {self._db.own_games}",
                (),
            )

    async def due_games(self, before: datetime) -> list[GameRecord]:
        """Running games whose turn deadline is at or before `before`, earliest deadline first."""
        async with self._db._reading() as conn:
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
        async with self._db._reading() as conn:
            rows = await conn.execute_fetchall(
                f"""SELECT id, version, deadline, warned, timer_at FROM games
                   WHERE status = 'running' AND timer_at IS NOT NULL AND timer_at <= ? AND {self._db.own_games}
                   ORDER BY timer_at""",
                (time_to_text(now),),
            )
            return [
                DueTimer(game_id, version, timer_from_columns(deadline, warned, timer_at))
                for game_id, version, deadline, warned, timer_at in rows
            ]

    async def games_in_guild(self, guild_id: int, statuses: Sequence[GameStatus] = UNFINISHED) -> list[GameRecord]:
        """The server's games with one of `statuses`, oldest first."""
        async with self._db._reading() as conn:
            return await fetch_games(conn, f"guild_id = ? AND status IN ({marks(statuses)})", (guild_id, *statuses))

    async def running_games_in_channel(
        self, channel_id: int, statuses: Sequence[GameStatus] = ("running",)
    ) -> list[GameRecord]:
        """Games (running ones, unless `statuses` says otherwise) whose channel or thread is `channel_id`."""
        async with self._db._reading() as conn:
            return await fetch_games(
                conn,
                f"(channel_id = ? OR thread_id = ?) AND status IN ({marks(statuses)})",
                (channel_id, channel_id, *statuses),
            )


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

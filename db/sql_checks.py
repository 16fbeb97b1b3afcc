"""Each running game's snapshot against its move log, once per process (the port `StartUpChecks`), in SQL.

The full check replays a game's log in a worker thread and compares the result with the snapshot; the games role
(`db.sql_games.SqlGames`) is built on this one, and notes the games it starts as checked.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, Final

from db import recovery
from db._codec import GAME_COLUMNS, MOVE_COLUMNS, game_from_row, move_from_row, to_json
from db._queries import fetch_game, marks
from db.errors import GameNotFoundError
from db.records import GameRecord, StartUpCheck
from db.sql import Connection
from db.sql_backend import CANCELLABLE, UNFINISHED, SqlBackend

log = logging.getLogger(__name__)


# How often the start-up check reads a game again when another writer changed it between its read and its write.
_RECOVERY_ATTEMPTS: Final = 10


class SqlChecks:
    """The start-up check and the full check of each game before it changes, on a backend's connections."""

    def __init__(self, db: SqlBackend) -> None:
        self._db = db  # the backend: its connections, transactions and the statements its database says its own way
        self._checked: set[int] = set()  # games whose snapshot this process has checked against the whole log
        self._frozen: list[GameRecord] = []  # games a check froze, until `take_frozen`

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
        async with self._db._recovering() as conn:
            rows = await self._db._start_up_rows(conn)
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
                return await self._db._read_checked(game_id, held_version)
            async with self._db._recovering() as conn:
                return await self._recover(conn, await fetch_game(conn, game_id, tolerate_bad_state=True))
        except GameNotFoundError:
            return None

    async def unchecked_games(self) -> list[int]:
        """Running games this process has not checked in full yet, oldest first."""
        async with self._db._reading() as conn:
            rows = await conn.execute_fetchall(
                f"SELECT id FROM games WHERE status = 'running' AND {self._db.own_games} ORDER BY id"
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
        async with self._db._recovering() as conn:
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
        async with self._db._begin_on(conn):
            cursor = await conn.execute(
                "UPDATE games SET state = ?, version = version + 1 WHERE id = ? AND version = ?",
                (to_json(state), game.id, game.version),
            )
            return await fetch_game(conn, game.id) if cursor.rowcount else None

    async def _freeze(self, conn: Connection, game: GameRecord, error: Exception) -> GameRecord | None:
        """Running → frozen if the game is still at the version it was read at; None if it was not."""
        async with self._db._begin_on(conn):
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

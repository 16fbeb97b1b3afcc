"""Group commit: single-statement writes of many coroutines saved by one COMMIT, so one fsync for all of them.

With `synchronous=FULL` every COMMIT waits for the disk to flush the WAL; one flush per move caps the bot at one
move per flush (0.2 ms on a quiet disk, several ms on a busy one) however many games are played. Writes that arrive
while a commit is under way wait in a queue, and the next round runs all of them in one transaction: each still
gets its own result or error, and none is answered before the COMMIT that made it durable has returned.

A queued write is one statement (reads besides are fine): SQLite undoes a failed statement on its own and keeps the
transaction, so one write refused by a constraint takes nothing else with it. Should SQLite roll the whole
transaction back itself (a full disk, an I/O error), or the COMMIT fail, every write of the round fails with that
error: none of them was saved. A round of one write runs without BEGIN and COMMIT, as a statement of its own.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import aiosqlite

log = logging.getLogger(__name__)

MAX_ROUND: Final = 256  # writes per transaction, so that reads waiting for the lock are not held up long

Write = Callable[[aiosqlite.Connection], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class _Queued:
    write: Write
    answer: asyncio.Future[Any]


class GroupCommit:
    """Runs queued writes on `conn` in rounds, each round under `lock` and in one transaction."""

    def __init__(
        self, conn: aiosqlite.Connection, lock: asyncio.Lock, *, on_commit: Callable[[], None] = lambda: None
    ) -> None:
        self._conn = conn
        self._lock = lock
        self._on_commit = on_commit  # told of each round that committed (one flush to disk)
        self._queue: list[_Queued] = []
        self._committer: asyncio.Task[None] | None = None

    async def run(self, write: Write) -> Any:
        """The result of `write(conn)` once it is committed, or the error that kept it from being saved."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append(_Queued(write, answer))
        if self._committer is None:
            self._committer = asyncio.create_task(self._commit_rounds())
        return await answer

    async def drain(self) -> None:
        """Wait until every queued write is answered."""
        while self._committer is not None:
            await asyncio.shield(self._committer)

    async def _commit_rounds(self) -> None:
        round_: list[_Queued] = []
        try:
            while self._queue:
                round_, self._queue = self._queue[:MAX_ROUND], self._queue[MAX_ROUND:]
                async with self._lock:
                    outcomes = await (self._alone(round_[0]) if len(round_) == 1 else self._together(round_))
                if not all(isinstance(outcome, BaseException) for outcome in outcomes):
                    self._on_commit()
                for queued, outcome in zip(round_, outcomes, strict=True):
                    if queued.answer.done():  # the writer stopped waiting; its write stands or falls all the same
                        continue
                    if isinstance(outcome, BaseException):
                        queued.answer.set_exception(outcome)
                    else:
                        queued.answer.set_result(outcome)
        finally:
            self._committer = None
            for queued in (*round_, *self._queue):  # left unanswered only when this task itself was cancelled
                if not queued.answer.done():
                    queued.answer.set_exception(sqlite3.OperationalError("the store closed before this was saved"))
            self._queue = []

    async def _alone(self, queued: _Queued) -> list[Any]:
        try:
            return [await queued.write(self._conn)]
        except Exception as error:
            return [error]

    async def _together(self, round_: list[_Queued]) -> list[Any]:
        outcomes: list[Any] = []
        try:
            await self._conn.execute("BEGIN IMMEDIATE")
            for queued in round_:
                try:
                    outcomes.append(await queued.write(self._conn))
                except sqlite3.Error as error:
                    if not self._conn.in_transaction:
                        raise  # SQLite rolled back the whole round: nothing of it was saved
                    outcomes.append(error)
                except Exception as error:  # the write's own refusal (a stale version...): nothing written
                    outcomes.append(error)
            await self._conn.execute("COMMIT")
        except Exception as error:
            await self._rollback()
            return [error] * len(round_)
        except BaseException:
            await self._rollback()
            raise
        return outcomes

    async def _rollback(self) -> None:
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            log.debug("no transaction left to roll back")

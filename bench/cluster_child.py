"""One bot process of the cluster benchmark, without Discord: plays random legal moves on every running game.

Usage, from the repository root: python -m bench.cluster_child DSN SHARD_ID SHARD_COUNT SEED [IN_FLIGHT]

It opens the database as a bot process of shard SHARD_ID of SHARD_COUNT would (`PostgresStore` whose own games are
its shard's servers', `AdvisoryLocks` as the coordinator, `TableService` on both) and runs its start-up check. Then
IN_FLIGHT workers play moves through `TableService.play` on random running games, routed as Discord routes
interactions: mostly games of its own shard's servers (their buttons and commands arrive at this process), and one
move in `CROSS_SHARE` on a game of any shard (a DM's button arrives at shard 0's process; a server may move to another
shard), which the game locks and version checks must keep safe. Each move is decided on the game as it is when
picked (one light read, see `Player.current`) and sent with that version, as a button click is: when another process
moved in between, the service refuses it as out of date (or the game as finished), which is expected, not an error.

Before its first move it checks every running game of every shard against its log (`checked_game`): what a process
does at its first action on a game anyway, done up front so that the parent's throughput runs measure steady play.

Prints `<game id> <seq> <user id> <move>` and flushes after each acknowledged move (`play` returned), so a line cut
short by a kill was never acknowledged. A refusal other than those expected goes to stderr as `unexpected: ...`.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
import traceback
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from db.errors import GameNotRunningError, StaleVersionError
from db.postgres.locks import AdvisoryLocks
from db.postgres.store import PostgresStore
from db.records import GameRecord
from db.sql_store import shard_condition
from engine.base import AnyGame
from engine.registry import game_class
from process import event_loop, heap
from service.errors import RefusedError
from service.tables import TableService

ROOT = Path(__file__).resolve().parents[1]
IN_FLIGHT = 48  # moves in flight in one process, unless the command line says otherwise
CROSS_SHARE = 0.2  # of moves on a game of any shard, not only this process's own
REFRESH_SECONDS = 0.5  # how often the list of running games is read again (the parent starts new ones)
# Refusals that mean "another process acted first" (out of date, or it finished the game): expected, not errors.
EXPECTED = frozenset({"refused.out-of-date", "refused.game-finished"})


async def spawn(
    dsn: str, shard_id: int, shard_count: int, seed: int, in_flight: int, errors: Path
) -> asyncio.subprocess.Process:
    """Start a child; its stdout carries the acknowledged moves, one a line; its stderr goes to the file `errors`."""
    with errors.open("ab") as sink:  # the child keeps its own copy of the descriptor
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.cluster_child",
            dsn,
            str(shard_id),
            str(shard_count),
            str(seed),
            str(in_flight),
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=sink,
        )


class Player:
    """Workers playing random legal moves on random running games; what this process last saw of each game."""

    def __init__(
        self, service: TableService, store: PostgresStore, rng: random.Random, shard_id: int, shard_count: int
    ) -> None:
        self.service = service
        self.shard_id = shard_id
        self.shard_count = shard_count
        self.own: list[int] = []  # running games of this process's shard
        self.store = store
        self.rng = rng
        self.known: dict[int, tuple[GameRecord, AnyGame]] = {}
        self.running: list[int] = []
        self.busy: set[int] = set()  # games this process has a move in flight on (other processes' are not known)
        self.acked = self.refused = self.loads = 0

    async def refresh(self) -> None:
        """The running games of every shard (read outside any lock: it is only a list to pick from)."""
        rows = await self.store.pool.fetch("SELECT id, guild_id FROM games WHERE status = 'running'")
        self.running = [row["id"] for row in rows]
        self.own = [row["id"] for row in rows if (row["guild_id"] >> 22) % self.shard_count == self.shard_id]
        alive = set(self.running)
        for game_id in [game_id for game_id in self.known if game_id not in alive]:
            del self.known[game_id]

    async def keep_refreshing(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            await self.refresh()

    def pick(self) -> int | None:
        """A random running game with no move of this process in flight: its own shard's, or any one's at times."""
        for _ in range(8):
            games = self.running if self.rng.random() < CROSS_SHARE or not self.own else self.own
            if not games:
                return None
            game_id = self.rng.choice(games)
            if game_id not in self.busy:
                return game_id
        return None

    async def worker(self) -> None:
        while True:
            game_id = self.pick()
            if game_id is None:
                await asyncio.sleep(0.01)
                continue
            self.busy.add(game_id)
            try:
                await self.move(game_id)
            finally:
                self.busy.discard(game_id)

    async def move(self, game_id: int) -> None:
        """One move on the game as it is now, sent with the version it was decided on (as a click on the table)."""
        seen = await self.current(game_id)
        if seen is None:
            return
        record, game = seen
        seat = game.to_move
        if seat is None:
            return
        user_id = record.seats[seat].user_id
        assert user_id is not None  # human seats only
        move = str(self.rng.choice(game.legal_moves(seat)))
        try:
            result = await self.service.play(game_id, user_id, move, version=record.version)
        except (RefusedError, StaleVersionError, GameNotRunningError) as refusal:
            self.known.pop(game_id, None)  # read again next time
            self.refused += 1
            if isinstance(refusal, RefusedError) and refusal.message.id not in EXPECTED:
                print(f"unexpected: game #{game_id}: {refusal}", file=sys.stderr, flush=True)
            return
        sys.stdout.write(f"{game_id} {result.record.move_count} {user_id} {result.move}\n")
        sys.stdout.flush()
        self.acked += 1
        if result.record.status == "running":
            self.known[game_id] = (result.record, result.game)
        else:
            self.known.pop(game_id, None)

    async def current(self, game_id: int) -> tuple[GameRecord, AnyGame] | None:
        """The running game as it is now (None: no longer running), in one read; stands for the table a player sees.

        The bot itself reads nothing before a move (a click carries its version, the table is drawn from the move's
        result), so this read is kept light: while the game is at the version this process left it at, not even
        the snapshot. Seats never change in this benchmark: the record is kept with the version brought up to date.
        """
        seen = self.known.get(game_id)
        if seen is None:
            record = await self.store.get_game(game_id)
            if record is None or record.status != "running":
                return None
            self.loads += 1
            return record, self.service.game_of(record)
        row = await self.store.pool.fetchrow(
            "SELECT version, status, CASE WHEN version = $2 THEN NULL ELSE state END AS state FROM games WHERE id = $1",
            game_id,
            seen[0].version,
        )
        if row is None or row["status"] != "running":
            return None
        if row["state"] is None:
            return seen
        self.loads += 1  # another process moved it since this one last did
        record = replace(seen[0], version=row["version"])
        return record, game_class(record.kind).from_dict(json.loads(row["state"]))

    async def check_all(self) -> None:
        """Check every running game against its log now, not at its first move here (see the module's docstring)."""
        for game_id in list(self.running):
            await self.store.checked_game(game_id)

    async def report(self) -> None:
        """Figures for the parent, on stderr four times a second: moves acknowledged, refused, reads, CPU seconds."""
        while True:
            await asyncio.sleep(0.25)
            print(
                f"stats: acked={self.acked} refused={self.refused} loads={self.loads} cpu={time.process_time():.2f}",
                file=sys.stderr,
                flush=True,
            )


async def guarded(player: Player) -> None:
    """A worker that outlives any failure: an error is said on stderr (the parent counts them) and play goes on."""
    while True:
        try:
            await player.worker()
        except Exception as error:
            print(f"unexpected: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
            traceback.print_exc(file=sys.stderr)
            await asyncio.sleep(0.05)


async def main(dsn: str, shard_id: int, shard_count: int, seed: int, in_flight: int) -> None:
    store = await PostgresStore.open(dsn, own_games=shard_condition([shard_id], shard_count))
    heap.settle()  # as the bot does once its storage is open
    locks = AdvisoryLocks(store)
    service = TableService(store, clock=lambda: datetime.now(UTC), coordinator=locks)
    started = time.perf_counter()
    check = await service.recover()  # what a bot process does at start: its own shard's games, cheaply checked
    print(
        f"shard {shard_id}/{shard_count}: start-up check of {len(check.running)} games in"
        f" {time.perf_counter() - started:.2f} s, {len(check.frozen)} frozen",
        file=sys.stderr,
        flush=True,
    )
    player = Player(service, store, random.Random(seed), shard_id, shard_count)
    await player.refresh()
    started = time.perf_counter()
    await player.check_all()
    print(f"checked {len(player.running)} games in {time.perf_counter() - started:.2f} s", file=sys.stderr, flush=True)
    await asyncio.gather(player.keep_refreshing(), player.report(), *(guarded(player) for _ in range(in_flight)))


if __name__ == "__main__":
    event_loop.run(
        main(
            sys.argv[1],
            int(sys.argv[2]),
            int(sys.argv[3]),
            int(sys.argv[4]),
            int(sys.argv[5]) if len(sys.argv) > 5 else IN_FLIGHT,
        )
    )

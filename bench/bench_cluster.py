"""Several bot processes on one PostgreSQL, SIGKILLed again and again: no acknowledged move lost or applied twice.

Run from the repository root:

    python -m bench.bench_cluster [--processes 3] [--games 200] [--kills 50] [--seconds-between-kills 3] [--seed 1]

The database is a fresh one: on `DATABASE_URL`'s server when it is set, else on a throwaway PostgreSQL started for
the run (`tests/postgres.py`). The parent sets up `--games` running games through a `TableService` (lobby, joins,
start; human players only; Kasino to 21 points and Garbage of ten spots, 2 to 4 seats; servers spread over every
shard by Discord's rule, shard = (guild_id >> 22) % shard count), and keeps that many running: a game that finishes
is replaced by a new one within half a second. Each child (`bench.cluster_child`) is a bot process of one shard,
without Discord, playing random legal moves routed as Discord routes interactions: mostly on its own shard's games,
and one move in five (`cluster_child.CROSS_SHARE`) on a game of any shard (a DM's button arrives at shard 0's
process; a server may move shards), so that two processes often act on the same game: the coordinator
(`AdvisoryLocks`) and the version checks must keep that safe. A child prints
each move once `TableService.play` has returned; a line cut short by a kill was never acknowledged.

1. Throughput without kills: 1, 2, ... `--processes` children (shard counts 1, 2, 3: servers move shards between
   the runs), each count for `--seconds` in all, in four parts run in the order 1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1
   (so that a drift of the shared machine's load weighs on each count alike), each timed from when every child has
   made its first move (each checks every game against its log before that). The same offered load each time:
   IN_FLIGHT moves in flight in all, split over the processes (a bot's load is its players', not its number of
   processes), so the runs differ only in how many processes share it. Moves refused because another process
   moved first do not count. Each part prints how many moves were refused so, how many found the game moved by
   another process (its snapshot read again), and the children's CPU per move.
2. The kill run: `--processes` children with KILL_IN_FLIGHT moves in flight each; every `--seconds-between-kills`
   (0.5 to 1.5 times that, at random) one of them, at random, is SIGKILLed by the PID it was started with and
   started again, until `--kills` kills.
3. Verification, with every child stopped, of every game of the database against every acknowledgement of every
   phase: `lost` counts acknowledged moves (game, seq, player, move) that are not that entry of the game's log;
   `double-applied` counts acknowledgements of a (game, seq) another acknowledgement also claims, plus games whose
   log has a gap or does not replay legally; `snapshot≠replay` counts games whose stored snapshot differs from the
   replay of their log (`db.recovery`), or whose status disagrees with it. The store's start-up check runs last
   over every game, and frozen games (by it, or by any child) must be none.

Prints one summary line (here folded in two),

    processes: 3, kills: N, acknowledged moves: M, lost: 0, double-applied: 0, snapshot≠replay: 0,
    moves/s: X (1 process: Y, 2 processes: Z)

where X is the rate of `--processes` processes without kills (step 1), and M counts every phase's moves; then a
line on the kill run's own rate. Exits 1 if anything was lost, double-applied, inconsistent or frozen, or if a
child failed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench.cluster_child import spawn
from db import recovery
from db.postgres.locks import AdvisoryLocks
from db.postgres.store import PostgresStore
from engine.errors import GameError
from process import event_loop
from service.tables import LobbyOptions, TableService

# Moves in flight in all during a throughput run, split over its processes. Near one process's ACTIONS (20
# actions at once): with more, one process runs only 20 while three run them all, and the runs differ in how often
# two processes act on one game at once (each such clash costs a wait and a refused move), not in processes.
IN_FLIGHT = 24
KILL_IN_FLIGHT = 32  # moves in flight in each process of the kill run: more clashes than in use, for the checks
TOP_UP_SECONDS = 0.5  # how often the parent replaces finished games
GUILDS = 64  # servers the games are spread over: every shard of any count up to a few gets several
GUILD_BASE = 10**17 >> 22  # guild ids look like Discord's snowflakes
SETTINGS = {"kasino": {"target": 21}, "garbage": {}}  # games of a few hundred moves, so that some finish
SLOWER_AT_MOST = 0.2  # the most processes may be slower than one; more is said on stderr
SEGMENTS = 4  # parts each count's throughput run is made of (even)
START_TIMEOUT = 60  # seconds a child may take to make its first move

Ack = tuple[int, int, int, str]  # game id, seq, user id, move text


@dataclass(slots=True)
class Outcome:
    """What the run found; `failed` is true when anything was lost, applied twice, inconsistent, frozen or broken."""

    processes: int
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0
    double_applied: int = 0
    snapshot_mismatch: int = 0
    frozen: int = 0
    rates: dict[int, float] = field(default_factory=dict)  # processes -> moves/s without kills
    kill_rate: float = 0.0
    kill_seconds: float = 0.0
    games_checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.lost or self.double_applied or self.snapshot_mismatch or self.frozen or self.problems)

    def summary(self) -> str:
        others = ", ".join(
            f"{count} process{'es' if count > 1 else ''}: {rate:.0f}"
            for count, rate in sorted(self.rates.items())
            if count != self.processes
        )
        rate = self.rates.get(self.processes)
        return (
            f"processes: {self.processes}, kills: {self.kills}, acknowledged moves: {self.acknowledged},"
            f" lost: {self.lost}, double-applied: {self.double_applied}, snapshot≠replay: {self.snapshot_mismatch},"
            f" moves/s: {'-' if rate is None else f'{rate:.0f}'}" + (f" ({others})" if others else "")
        )


class Child:
    """One child process as started (its PID is the only handle it is ever signalled by), and what it acknowledged."""

    def __init__(self, process: asyncio.subprocess.Process, shard_id: int, errors: Path, acks: list[Ack]) -> None:
        self.process = process
        self.shard_id = shard_id
        self.errors = errors
        self.first = asyncio.Event()
        self.reader = asyncio.create_task(self._read(acks))

    async def _read(self, acks: list[Ack]) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            if not line.endswith(b"\n"):
                break  # cut short by the kill: never acknowledged
            game_id, seq, user_id, move = line.decode().rstrip("\n").split(" ", 3)
            acks.append((int(game_id), int(seq), int(user_id), move))
            self.first.set()

    async def stop(self, how: signal.Signals) -> int | None:
        """Signal the process (by its PID, through its handle), wait for it and for the last of its output."""
        if self.process.returncode is None:
            self.process.send_signal(how)
        returncode = await self.process.wait()
        await self.reader
        return returncode


class Cluster:
    """The parent: the database's games kept topped up, the children started and stopped, and their moves."""

    def __init__(
        self, dsn: str, store: PostgresStore, service: TableService, games: int, seed: int, folder: Path
    ) -> None:
        self.dsn = dsn
        self.store = store
        self.service = service
        self.games = games
        self.rng = random.Random(seed)
        self.seed = seed
        self.folder = folder
        self.acks: list[Ack] = []
        self.children: list[Child] = []
        self.started = 0  # children started so far: each gets its own seed and error file
        self.problems: list[str] = []
        self.created = 0

    # -- games --------------------------------------------------------------------------------------------------------

    async def new_game(self) -> None:
        """A running game of a random kind, seats and server, started as players would through the service."""
        self.created += 1
        kind = self.rng.choice(sorted(SETTINGS))
        seats = self.rng.randint(2, 4)
        guild_id = (GUILD_BASE + self.rng.randrange(GUILDS)) << 22
        users = [self.created * 10 + seat + 1 for seat in range(seats)]
        service = self.service
        lobby = await service.open_lobby(
            kind,
            LobbyOptions(seats, dict(SETTINGS[kind])),
            guild_id=guild_id,
            channel_id=guild_id + 1,
            host_id=users[0],
            host_name=f"u{users[0]}",
        )
        for user in users[1:]:
            await service.join(lobby.id, user, f"u{user}")
        await service.start(lobby.id, users[0])

    async def running(self) -> int:
        count: int = await self.store.pool.fetchval("SELECT count(*) FROM games WHERE status = 'running'")
        return count

    async def top_up(self) -> None:
        for _ in range(self.games - await self.running()):
            await self.new_game()

    async def keep_topped_up(self) -> None:
        while True:
            await asyncio.sleep(TOP_UP_SECONDS)
            await self.top_up()

    # -- children -----------------------------------------------------------------------------------------------------

    async def start_child(self, shard_id: int, shard_count: int, in_flight: int) -> Child:
        self.started += 1
        errors = self.folder / f"child-{self.started}.err"
        seed = self.seed * 100_003 + self.started
        process = await spawn(self.dsn, shard_id, shard_count, seed, in_flight, errors)
        child = Child(process, shard_id, errors, self.acks)
        self.children.append(child)
        return child

    async def end_child(self, child: Child, how: signal.Signals) -> None:
        """Stop one child with `how`; anything but that signal ending it, or an unexpected refusal, is a problem."""
        returncode = await child.stop(how)
        self.children.remove(child)
        if returncode != -how:
            self.problems.append(f"child #{child.shard_id} ended with {returncode}, not by {how.name}")
        said = child.errors.read_text(errors="replace")
        unexpected = [line for line in said.splitlines() if line.startswith("unexpected")]
        self.problems += [f"child of shard {child.shard_id}: {line}" for line in unexpected]
        if returncode not in (-how, None) and not unexpected:
            self.problems.append(said[-2000:])

    async def start_all(self, processes: int, in_flight: int) -> None:
        """`processes` children, shards 0..processes-1 of that many; returns once each has made a move."""
        for shard_id in range(processes):
            await self.start_child(shard_id, processes, in_flight)
        await self.first_moves(self.children)

    async def first_moves(self, children: list[Child]) -> None:
        waits = [asyncio.create_task(child.first.wait()) for child in children]
        _, pending = await asyncio.wait(waits, timeout=START_TIMEOUT)
        for task in pending:
            task.cancel()
        if pending:
            said = "\n".join(child.errors.read_text(errors="replace")[-2000:] for child in children)
            raise RuntimeError(f"a child made no move within {START_TIMEOUT} s:\n{said}")

    async def stop_all(self) -> None:
        for child in list(self.children):
            await self.end_child(child, signal.SIGTERM)

    # -- phases -------------------------------------------------------------------------------------------------------

    async def throughput(self, processes: int, seconds: float) -> tuple[int, float]:
        """`processes` children sharing IN_FLIGHT moves in flight: (moves, seconds) from when each has moved."""
        await self.start_all(processes, max(1, IN_FLIGHT // processes))
        children = list(self.children)
        at_start = [last_stats(child.errors) for child in children]
        before, started = len(self.acks), time.perf_counter()
        await asyncio.sleep(seconds)
        moves, elapsed = len(self.acks) - before, time.perf_counter() - started
        # The children's own figures over the same window (they say them four times a second), start-up left out.
        said = Counter[str]()
        for child, start in zip(children, at_start, strict=True):
            said.update(last_stats(child.errors))
            said.subtract(start)
        await self.stop_all()
        acked = max(1, said["acked"])
        print(
            f"{processes} process{'es' if processes > 1 else ''}, no kills: {moves / elapsed:.0f} moves/s"
            f" (refused as another process moved first: {said['refused'] / (acked + said['refused']):.1%},"
            f" snapshot read again: {said['loads'] / acked:.0%} of moves, children's CPU:"
            f" {said['cpu'] / acked * 1000:.2f} ms per move)",
            flush=True,
        )
        return moves, elapsed

    async def kill_run(self, processes: int, kills: int, between: float) -> tuple[float, float]:
        """Kill a random child `kills` times and start it again; returns (moves/s, seconds) of the whole run."""
        await self.start_all(processes, KILL_IN_FLIGHT)
        before, started = len(self.acks), time.perf_counter()
        for _ in range(kills):
            await asyncio.sleep(between * self.rng.uniform(0.5, 1.5))
            victim = self.rng.choice(self.children)
            await self.end_child(victim, signal.SIGKILL)
            await self.start_child(victim.shard_id, processes, KILL_IN_FLIGHT)
        seconds = time.perf_counter() - started
        rate = (len(self.acks) - before) / seconds
        await self.stop_all()
        return rate, seconds


def last_stats(errors: Path) -> Counter[str]:
    """A child's last `stats:` line (what it did since it started), as counts; empty if it said none."""
    lines = [line for line in errors.read_text(errors="replace").splitlines() if line.startswith("stats:")]
    if not lines:
        return Counter()
    pairs = (item.split("=") for item in lines[-1].removeprefix("stats:").split())
    return Counter({name: float(value) for name, value in pairs})


async def verify(store: PostgresStore, acks: list[Ack], outcome: Outcome) -> None:
    """Every game of the database against its log and every acknowledgement; then the store's start-up check."""
    claims = Counter((game_id, seq) for game_id, seq, _, _ in acks)
    outcome.double_applied += sum(count - 1 for count in claims.values())
    by_game: dict[int, list[Ack]] = {}
    for ack in acks:
        by_game.setdefault(ack[0], []).append(ack)
    ids = [row["id"] for row in await store.pool.fetch("SELECT id FROM games ORDER BY id")]
    for game_id in ids:
        record = await store.get_game(game_id)
        assert record is not None
        moves = await store.game_moves(game_id)
        logged = {move.seq: move for move in moves}
        for _, seq, user_id, move in by_game.pop(game_id, []):
            entry = logged.get(seq)
            if entry is None or entry.move != move or record.seats[entry.seat].user_id != user_id:
                outcome.lost += 1
        if record.status == "lobby":
            continue
        outcome.games_checked += 1
        if [move.seq for move in moves] != list(range(1, len(moves) + 1)) or len(moves) != record.move_count:
            outcome.double_applied += 1
            outcome.problems.append(f"game #{game_id}: its log's seqs are not 1..{record.move_count}")
            continue
        try:
            replayed = recovery.replay(record.kind, len(record.seats), record.seed, record.settings, moves)
        except GameError as error:
            outcome.double_applied += 1
            outcome.problems.append(f"game #{game_id}: its log does not replay ({error})")
            continue
        if record.status == "frozen":
            continue  # counted below
        check = recovery.check_snapshot(replayed, record.state)
        if check.problem is not None or (record.status == "finished") != (replayed.outcome() is not None):
            outcome.snapshot_mismatch += 1
    outcome.lost += sum(len(left) for left in by_game.values())  # acknowledged in a game that is not there
    # The start-up check a bot process runs, over every shard's games (a fresh store: nothing checked yet).
    checker = PostgresStore(store.pool)
    start_up = await checker.start_up_check()
    frozen_now = {record.id for record in start_up.frozen}
    frozen_before = {row["id"] for row in await store.pool.fetch("SELECT id FROM games WHERE status = 'frozen'")}
    outcome.frozen = len(frozen_now | frozen_before)


async def bench(
    dsn: str,
    *,
    processes: int = 3,
    games: int = 200,
    kills: int = 50,
    between: float = 3.0,
    seed: int = 1,
    seconds: float = 20.0,
    counts: tuple[int, ...] | None = None,
) -> Outcome:
    """The whole benchmark on the empty database at `dsn`; throughput runs for `counts` processes (none: 0 seconds)."""
    outcome = Outcome(processes)
    store = await PostgresStore.open(dsn)
    locks = AdvisoryLocks(store)
    service = TableService(store, clock=lambda: datetime.now(UTC), coordinator=locks)
    with tempfile.TemporaryDirectory(prefix="cluster-") as folder:
        cluster = Cluster(dsn, store, service, games, seed, Path(folder))
        try:
            await cluster.top_up()
            topping = asyncio.create_task(cluster.keep_topped_up())
            try:
                if seconds > 0:
                    # Each count in SEGMENTS parts, in the order 1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1: a drift of the
                    # shared machine's load, or of the games' length, weighs on every count alike.
                    order = counts or tuple(range(1, processes + 1))
                    done: dict[int, tuple[int, float]] = {}
                    for count in (*order, *reversed(order)) * (SEGMENTS // 2):
                        moves, elapsed = await cluster.throughput(count, seconds / SEGMENTS)
                        before = done.get(count, (0, 0.0))
                        done[count] = (before[0] + moves, before[1] + elapsed)
                    outcome.rates = {count: moves / elapsed for count, (moves, elapsed) in done.items()}
                outcome.kill_rate, outcome.kill_seconds = await cluster.kill_run(processes, kills, between)
                outcome.kills = kills
            finally:
                topping.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await topping
                await cluster.stop_all()
            outcome.acknowledged = len(cluster.acks)
            outcome.problems += cluster.problems
            await verify(store, cluster.acks, outcome)
        finally:
            await store.close()
    return outcome


@contextlib.contextmanager
def fresh_database() -> Iterator[str]:
    """A fresh database: on DATABASE_URL's server when set, else on a throwaway server started here."""
    from tests.postgres import bin_dir, throwaway_server
    from tests.postgres import fresh_database as fresh_on

    given = os.environ.get("DATABASE_URL", "").strip()
    if given:
        with fresh_on(given) as dsn:
            yield dsn
        return
    binaries = bin_dir()
    if binaries is None:
        raise SystemExit("no PostgreSQL: set DATABASE_URL, or install PostgreSQL 15 (initdb, pg_ctl, postgres)")
    with throwaway_server(binaries) as admin, fresh_on(admin) as dsn:
        yield dsn


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=3, help="bot processes, one shard each (3)")
    parser.add_argument("--games", type=int, default=200, help="games kept running (200)")
    parser.add_argument("--kills", type=int, default=50, help="SIGKILLs of a random child (50)")
    parser.add_argument("--seconds-between-kills", type=float, default=3.0, help="mean time between kills (3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games, the moves and the kills (1)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each throughput run; 0: none (20)")
    options = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    with fresh_database() as dsn:
        outcome = event_loop.run(
            bench(
                dsn,
                processes=options.processes,
                games=options.games,
                kills=options.kills,
                between=options.seconds_between_kills,
                seed=options.seed,
                seconds=options.seconds,
            )
        )
    print(outcome.summary())
    print(
        f"kill run: {outcome.kill_rate:.0f} moves/s over {outcome.kill_seconds:.0f} s with {outcome.kills} kills"
        f" ({KILL_IN_FLIGHT} moves in flight in each process);"
        f" {outcome.games_checked} games checked, frozen: {outcome.frozen}",
        flush=True,
    )
    one, most = outcome.rates.get(1), outcome.rates.get(options.processes)
    if one and most is not None and most < one * (1 - SLOWER_AT_MOST):
        print(f"{options.processes} processes are {1 - most / one:.0%} slower than one", file=sys.stderr)
    for problem in outcome.problems:
        print(problem, file=sys.stderr)
    return 1 if outcome.failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Crash soak: SIGKILL a writer playing real games through `db/` again and again; no acknowledged move may be lost.

Run from the repository root: python -m bench.bench_crash_soak [--kills 200] [--seed 1] [--writers 4] [--keep PATH]

Each round starts `bench.crash_child` on one database file, with several writers at once (so their moves share
commits: group commit), each move followed by the delivery's bookkeeping (committed without a flush), and kills it
with SIGKILL: mostly at a random moment
after its first acknowledged move, sometimes at a random moment of its start-up (while it opens, checks and
migrates the file). After every kill the file is opened again (which also proves the dead writer's lock went with
it) and checked: every move the child acknowledged is in the log, every game it may have touched has a snapshot
equal to the replay of its log, and finished games are exactly those whose replay is over. Prints
`kills: N, acknowledged moves: M, lost: L`; exits 1 if anything was lost or inconsistent.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.crash_child import spawn
from db.store import Store
from engine.registry import game_class

AFTER_FIRST_MOVE = 0.15  # seconds of play after the first acknowledged move, at most
DURING_START_UP = 0.8  # seconds after spawning, at most, for kills that may land before any move
START_UP_SHARE = 0.15  # the share of kills timed from the spawn instead


async def run_and_kill(path: Path, seed: int, rng: random.Random, writers: int) -> list[tuple[int, int, int, str]]:
    """One child, killed with SIGKILL; returns the moves it acknowledged as (game id, seq, seat, move text)."""
    child = await spawn(path, seed, writers)
    assert child.stdout is not None
    if rng.random() < START_UP_SHARE:
        await asyncio.sleep(rng.uniform(0, DURING_START_UP))
    else:
        first = await asyncio.wait_for(child.stdout.readline(), timeout=60)
        if not first:
            _, errors = await child.communicate()
            raise RuntimeError(f"the child exited with {child.returncode} before its first move: {errors.decode()}")
        await asyncio.sleep(rng.uniform(0, AFTER_FIRST_MOVE))
        child.send_signal(signal.SIGKILL)
        rest, errors = await child.communicate()
        return _parse(first + rest, child.returncode, errors)
    if child.returncode is None:
        child.send_signal(signal.SIGKILL)
    output, errors = await child.communicate()
    return _parse(output, child.returncode, errors)


def _parse(output: bytes, returncode: int | None, errors: bytes) -> list[tuple[int, int, int, str]]:
    if returncode != -signal.SIGKILL:
        raise RuntimeError(f"the child ended with {returncode}, not by SIGKILL: {errors.decode()}")
    acknowledged = []
    for line in output.decode().split("\n")[:-1]:  # a line cut short by the kill was never acknowledged
        game_id, seq, seat, move = line.split(" ", 3)
        acknowledged.append((int(game_id), int(seq), int(seat), move))
    return acknowledged


Acknowledged = dict[int, dict[int, tuple[int, str]]]  # game id -> seq -> (seat, move text)


async def check(path: Path, acknowledged: Acknowledged, touched: set[int], newest: int) -> tuple[int, list[str], int]:
    """Open the file and check it; returns (acknowledged moves missing, other problems, newest game id)."""
    store = await Store.open(path)
    lost = 0
    problems = []
    try:
        games = await store.games_in_guild(1, ("running", "finished", "frozen", "cancelled"))
        for record in games:
            moves = await store.game_moves(record.id)
            logged = {move.seq: (move.seat, move.move) for move in moves}
            lost += sum(1 for seq, entry in acknowledged.get(record.id, {}).items() if logged.get(seq) != entry)
            if record.status != "running" and record.id not in touched and record.id <= newest:
                continue  # nobody wrote to it since the last check
            if record.status not in ("running", "finished"):
                problems.append(f"game #{record.id} is {record.status}")
                continue
            if len(moves) != record.move_count:
                problems.append(f"game #{record.id}: {len(moves)} logged moves but move_count {record.move_count}")
            cls = game_class(record.kind)
            replayed = cls.replay(
                len(record.seats),
                record.seed,
                cls.settings_from_dict(record.settings),
                [(move.seat, move.move) for move in moves],
            )
            if record.game() != replayed:
                problems.append(f"game #{record.id}: the snapshot differs from the replay of its log")
            if (record.status == "finished") != (replayed.outcome() is not None):
                problems.append(f"game #{record.id}: status {record.status} but the replay says otherwise")
        return lost, problems, max((record.id for record in games), default=0)
    finally:
        await store.close()


async def soak(path: Path, kills: int, seed: int, writers: int) -> int:
    """Kill and check `kills` times; prints the figures and returns the exit status."""
    rng = random.Random(seed)
    acknowledged: Acknowledged = {}
    total = lost = 0
    problems: list[str] = []
    newest = 0
    for run in range(kills):
        acked = await run_and_kill(path, seed * 100_003 + run, rng, writers)
        for game_id, seq, seat, move in acked:
            acknowledged.setdefault(game_id, {})[seq] = (seat, move)
        total += len(acked)
        lost, found, newest = await check(path, acknowledged, {ack[0] for ack in acked}, newest)
        problems += [f"after kill {run + 1}: {problem}" for problem in found]
    print(f"kills: {kills}, writers: {writers}, acknowledged moves: {total}, lost: {lost}")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if lost or problems else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options and run the soak on a fresh file (in a temporary folder unless --keep names one)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200, help="how many times to SIGKILL the writer (200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill timing and of the games (1)")
    parser.add_argument("--writers", type=int, default=4, help="writers playing at once in each child (4)")
    parser.add_argument("--keep", type=Path, help="database file to use and keep (must not exist yet)")
    options = parser.parse_args(argv)
    if options.keep is not None:
        if options.keep.exists():
            parser.error(f"{options.keep} exists already; the soak starts from an empty file")
        return asyncio.run(soak(options.keep, options.kills, options.seed, options.writers))
    with tempfile.TemporaryDirectory(prefix="crash-soak-") as folder:
        return asyncio.run(soak(Path(folder) / "soak.db", options.kills, options.seed, options.writers))


if __name__ == "__main__":
    sys.exit(main())

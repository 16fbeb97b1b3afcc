"""Crash test: a child process plays through the store and is SIGKILLed at random moments, again and again.

After every kill the file must hold every move the child acknowledged (printed after `save_move` returned), every
snapshot must equal the replay of its move log (B1), and the next child must be able to carry on playing.
"""

import asyncio
import logging
import random
import signal
from pathlib import Path

import pytest

from bench.crash_child import spawn
from db.store import Store
from engine.registry import game_class
from tests.db.helpers import record_in

KILLS = 20
MAX_DELAY = 0.12  # seconds of play after the first acknowledged move before the kill


async def run_and_kill(path: Path, seed: int, delay: float, writers: int = 1) -> list[tuple[int, int, int, str]]:
    """Start a child, let it play for `delay` seconds after its first acknowledged move, SIGKILL it.

    Returns the acknowledged moves as (game id, seq, seat, move text).
    """
    child = await spawn(path, seed, writers)
    assert child.stdout is not None
    first = await asyncio.wait_for(child.stdout.readline(), timeout=30)
    if not first:  # the child died on its own before its first move
        _, errors = await child.communicate()
        raise AssertionError(f"the child exited with {child.returncode}: {errors.decode()}")
    await asyncio.sleep(delay)
    child.send_signal(signal.SIGKILL)
    rest, errors = await child.communicate()
    assert child.returncode == -signal.SIGKILL, errors.decode()
    # A line cut short by the kill was never acknowledged: keep complete lines only.
    lines = (first + rest).decode().split("\n")[:-1]
    acknowledged: list[tuple[int, int, int, str]] = []
    for line in lines:
        game_id, seq, seat, move = line.split(" ", 3)
        acknowledged.append((int(game_id), int(seq), int(seat), move))
    return acknowledged


async def check_file(
    path: Path,
    acknowledged: list[tuple[int, int, int, str]],
    acked_now: list[tuple[int, int, int, str]],
    newest_before: int,
) -> int:
    """Every acknowledged move is in the log, and every game the last child may have written to has a snapshot
    equal to the replay of its log: running games, games with moves acknowledged in this run, and new games.

    Returns the newest game id in the file.
    """
    store = await Store.open(path)
    try:
        games = await store.games_in_guild(1, ("running", "finished"))
        touched = {game_id for game_id, *_ in acked_now}
        for record in games:
            if record.status != "running" and record.id not in touched and record.id <= newest_before:
                continue
            moves = await store.game_moves(record.id)
            logged = {(move.seq, move.seat, move.move) for move in moves}
            assert [ack for ack in acknowledged if ack[0] == record.id and ack[1:] not in logged] == []
            assert len(moves) == record.move_count
            cls = game_class(record.kind)
            replayed = cls.replay(
                len(record.seats),
                record.seed,
                cls.settings_from_dict(record.settings),
                [(move.seat, move.move) for move in moves],
            )
            assert record.state is not None
            assert cls.from_dict(record.state) == replayed, f"game #{record.id}"
            assert (record.status == "finished") == (replayed.outcome() is not None)
        return max(record.id for record in games)
    finally:
        await store.close()


async def test_acknowledged_moves_survive_sigkill_and_play_continues(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "crash.db"
    rng = random.Random(20250301)
    acknowledged: list[tuple[int, int, int, str]] = []
    newest = 0
    for run in range(KILLS):
        acked = await run_and_kill(path, seed=run, delay=rng.uniform(0, MAX_DELAY))
        assert acked, "the child acknowledged no move"
        acknowledged += acked
        newest = await check_file(path, acknowledged, acked, newest)

    store = await Store.open(path)
    try:
        with caplog.at_level(logging.WARNING, logger="db.store"):
            running = [record for record in await store.load_unfinished() if record.status == "running"]
        assert caplog.records == []  # nothing needed repair
        assert running  # the child keeps one game of each kind going; a kill may land between a finish and the next
        for record in running:
            game = record.game()
            for _ in range(3):
                seat = game.to_move
                assert seat is not None
                move = game.legal_moves(seat)[0]
                game.apply(seat, move)
                record = await store.save_move(
                    record.id,
                    record.version,
                    seat,
                    str(move),
                    game.to_dict(),
                    record.updated_at,
                    outcome=game.outcome(),
                )
                if record.status == "finished":
                    break
            assert (await record_in(store, record.id)).game() == game
    finally:
        await store.close()
    assert len({game_id for game_id, *_ in acknowledged}) > 2  # games finished and new ones began


async def test_moves_committed_together_survive_sigkill_too(tmp_path: Path) -> None:
    # Six writers at once: their moves share commits (group commit); each acknowledged one must survive a kill.
    path = tmp_path / "together.db"
    rng = random.Random(20250302)
    acknowledged: list[tuple[int, int, int, str]] = []
    newest = 0
    for run in range(KILLS // 2):
        acked = await run_and_kill(path, seed=run, delay=rng.uniform(0, MAX_DELAY), writers=6)
        assert acked, "the child acknowledged no move"
        acknowledged += acked
        newest = await check_file(path, acknowledged, acked, newest)
    assert len({game_id for game_id, *_ in acknowledged}) > 6

"""Writer child of the crash test and the crash soak: plays random games of every kind through the store until killed.

Usage, from the repository root: python -m bench.crash_child DB_PATH SEED [WRITERS]

Prints `<game id> <seq> <seat> <move>` for each move, only after `save_move` has returned (the move is
acknowledged). On start it resumes every running game of the file, so play continues across kills. With WRITERS
above 1, that many writers play at once, each its own games, so that moves are committed together (group commit).
"""

from __future__ import annotations

import asyncio
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from db.records import GameRecord, NewLobby
from db.store import Store
from engine.base import AnyGame
from engine.kinds import WholeNumber
from engine.registry import KINDS, game_class, game_kind

ROOT = Path(__file__).resolve().parents[1]
MOST_SEATS = 4  # a game of more seats is slower to play and proves nothing more here
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)


async def spawn(path: Path, seed: int, writers: int = 1) -> asyncio.subprocess.Process:
    """Start a writer child on `path`; its stdout carries the acknowledged moves, one a line."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bench.crash_child",
        str(path),
        str(seed),
        str(writers),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def new_game(store: Store, kind: str, rng: random.Random) -> tuple[GameRecord, AnyGame]:
    about = game_kind(kind)
    users = list(range(1, rng.randint(about.min_seats, min(about.max_seats, MOST_SEATS)) + 1))
    seed = rng.getrandbits(64)
    # The shortest games each kind allows (each lobby option at its lowest), so that many finish.
    settings = {
        option.setting: option.low if isinstance(option, WholeNumber) else option.default for option in about.options
    }
    lobby = await store.create_lobby(NewLobby(kind, 1, 1, users[0], "u1", settings, seed, len(users)), EPOCH)
    for user in users[1:]:
        lobby = await store.join_lobby(lobby.id, user, f"u{user}", EPOCH)
    cls = game_class(kind)
    game = cls.new(len(users), seed, cls.settings_from_dict(settings))
    return await store.start_game(lobby.id, lobby.version, users, game.to_dict(), EPOCH), game


async def main(path: str, seed: int, writers: int = 1) -> None:
    store = await Store.open(path)
    running = [(record, record.game()) for record in await store.load_unfinished() if record.status == "running"]
    await asyncio.gather(
        *(play(store, random.Random(seed + 1000 * number), running[number::writers]) for number in range(writers))
    )


async def play(store: Store, rng: random.Random, resumed: list[tuple[GameRecord, AnyGame]]) -> None:
    """One writer: one game of each kind at a time (resumed ones first), played until the process is killed."""
    tables = {record.kind: (record, game) for record, game in resumed}
    for kind in KINDS:
        if kind not in tables:
            tables[kind] = await new_game(store, kind, rng)
    while True:
        kind = rng.choice(KINDS)
        record, game = tables[kind]
        seat = game.to_move
        assert seat is not None  # a finished game is replaced below
        move = rng.choice(game.legal_moves(seat))
        game.apply(seat, move)
        record = await store.save_move(
            record.id,
            record.version,
            seat,
            str(move),
            game.to_dict(),
            EPOCH + timedelta(seconds=record.move_count + 1),
            outcome=game.outcome(),
        )
        sys.stdout.write(f"{record.id} {record.move_count} {seat} {move}\n")
        sys.stdout.flush()
        await deliver(store, record)
        tables[kind] = await new_game(store, kind, rng) if record.status == "finished" else (record, game)


async def deliver(store: Store, record: GameRecord) -> None:
    """What the bot's delivery writes after a move, committed without a flush between the moves' synchronous ones."""
    owner = "crash-child"
    now = EPOCH + timedelta(seconds=record.move_count)
    if await store.claim_delivery(record.id, owner, now + timedelta(minutes=2), now) is None:
        return
    await store.note_notices(record.id, owner, moves=record.move_count - 1, notices=1)
    await store.set_messages(record.id, table_message_id=record.move_count, ping_message_id=None)
    await store.release_delivery(record.id, owner, shown_version=record.version, shown_moves=record.move_count)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1))

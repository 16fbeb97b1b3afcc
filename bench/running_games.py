"""Databases of running games for the capacity benchmarks: real random games, cut at random points of play.

`build_database(path, games)` writes `games` running games straight into a migrated file, as the store would have
left them after that many moves: seats, the whole move log (with the trigger's columns), the snapshot and the
version. Half are Kasino and half Garbage, with 2 to 4 players and the default settings, so a log holds about 160
moves on average (a whole Kasino game is about 150 moves, a Garbage game 350 to 850). Games are recorded once per
process and reused (with their own game ids) so that 10,000 of them take seconds to build, not minutes.

Timed games get a 24-hour turn timer (`timed` of them, the first ones); `due` of those have their deadline in the
past, the others spread over the next 24 hours (those within the hour already warned).
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any, Final

from bench.random_play import random_moves
from engine.registry import GAME_KINDS, game_class

EPOCH: Final = datetime(2025, 1, 1, tzinfo=UTC)
NOW: Final = EPOCH + timedelta(days=30)  # the benchmarks' "now": every game was last moved before it
TURN_SECONDS: Final = 86_400
WARNING_LEAD: Final = timedelta(hours=1)  # for a 24-hour turn (`service.timers.warning_lead`)
PLAYERS: Final = (2, 3, 4)
CUTS_PER_GAME: Final = 25  # positions taken from each recorded game
GUILDS: Final = 50


@dataclass(frozen=True, slots=True)
class Position:
    """A recorded game cut after `len(moves)` moves (still running), with its snapshot as the store keeps it."""

    kind: str
    players: int
    seed: int
    moves: tuple[tuple[int, str], ...]
    state: str


def _to_json(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _random_play(
    kind: str, players: int, seed: int, keep: frozenset[int] = frozenset()
) -> tuple[list[tuple[int, str]], dict[int, str]]:
    """Play one seeded random game to its end: its move log, and the snapshots after the move counts in `keep`."""
    game = game_class(kind).new(players, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    states = {0: _to_json(game.to_dict())} if 0 in keep else {}
    for seat, move, _ in random_moves(game, rng):
        log.append((seat, str(move)))
        if len(log) in keep:
            states[len(log)] = _to_json(game.to_dict())
    return log, states


def record_game(kind: str, players: int, seed: int, cuts: int) -> list[Position]:
    """One random game, cut at `cuts` random points before its end (played twice: to learn its length, then to
    take the snapshots at the cuts, which is cheaper than a snapshot after every move)."""
    log, _ = _random_play(kind, players, seed)
    rng = random.Random(seed)
    chosen = sorted(rng.randrange(len(log)) for _ in range(cuts))
    _, states = _random_play(kind, players, seed, frozenset(chosen))
    return [Position(kind, players, seed, tuple(log[:at]), states[at]) for at in chosen]


@cache
def positions(count: int) -> tuple[Position, ...]:
    """`count` running positions from `count / CUTS_PER_GAME` recorded games (at least one), every kind alike."""
    games = max(1, -(-count // CUTS_PER_GAME))
    found: list[Position] = []
    for number in range(games):
        kind = GAME_KINDS[number % len(GAME_KINDS)]
        seats = [players for players in PLAYERS if kind.min_seats <= players <= kind.max_seats]
        players = seats[(number // len(GAME_KINDS)) % len(seats)]
        found += record_game(kind.name, players, seed=1000 + number, cuts=CUTS_PER_GAME)
    random.Random(count).shuffle(found)
    return tuple(found[:count])


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _rows(
    game_id: int, position: Position, *, timed: bool, due: bool, rng: random.Random, columns: set[str]
) -> tuple[dict[str, Any], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The games row (by column), seat rows and move rows of one running game."""
    players = position.players
    users = [game_id * 10 + seat for seat in range(players)]
    updated = NOW - timedelta(seconds=rng.uniform(60, TURN_SECONDS - 60))
    count = len(position.moves)
    deadline: datetime | None = None
    warned = False
    if timed:
        ahead = -rng.uniform(1, 60) if due else rng.uniform(60, TURN_SECONDS)
        deadline = NOW + timedelta(seconds=ahead)
        warned = not due and deadline - WARNING_LEAD <= NOW  # its warning went out already
    game: dict[str, Any] = {
        "id": game_id,
        "kind": position.kind,
        "guild_id": 1 + game_id % GUILDS,
        "channel_id": 10_000 + game_id % (GUILDS * 4),
        "thread_id": 1_000_000 + game_id,
        "table_message_id": 2_000_000 + game_id,
        "status": "running",
        "host_id": users[0],
        "settings": "{}",
        "seed": str(position.seed),
        "max_seats": players,
        "state": position.state,
        "version": players + count,  # lobby 0, one per join, the start, one per move
        "move_count": count,
        "last_seat": position.moves[-1][0] if count else None,
        "last_move": position.moves[-1][1] if count else None,
        "last_auto": 0,
        "deadline": None if deadline is None else _stamp(deadline),
        "warned": int(warned),
        "created_at": _stamp(EPOCH),
        "updated_at": _stamp(updated),
        "turn_seconds": TURN_SECONDS if timed else None,
        "afk_limit": 3,
    }
    if "timer_at" in columns:
        # When the timer next needs the bot, as the store keeps it: the warning until it went out, then the deadline.
        game["timer_at"] = None if deadline is None else _stamp(deadline if warned else deadline - WARNING_LEAD)
    seats = [(game_id, seat, user, f"player {user}", 0, 1, 0, None) for seat, user in enumerate(users)]
    step = (updated - EPOCH) / max(count, 1)
    moves = [
        (game_id, seq, seat, text, 0, _stamp(EPOCH + step * seq))
        for seq, (seat, text) in enumerate(position.moves, start=1)
    ]
    return game, seats, moves


async def build_database(path: Path, games: int, *, timed: int = 0, due: int = 0) -> None:
    """A closed, migrated database file at `path` holding `games` running games (see the module's docstring)."""
    from db.store import Store  # the store migrates the new file to the current schema

    store = await Store.open(path)
    await store.close()
    rng = random.Random(games)
    conn = sqlite3.connect(path)
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        conn.execute("BEGIN")
        for chunk in _chunks(range(games), 500):
            rows = [
                _rows(game_id, positions(games)[game_id - 1], timed=game_id <= timed, due=game_id <= due, rng=rng,
                      columns=columns)
                for game_id in (number + 1 for number in chunk)
            ]  # fmt: skip
            names = list(rows[0][0])
            conn.executemany(
                f"INSERT INTO games ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
                [tuple(game[name] for name in names) for game, _, _ in rows],
            )
            conn.executemany(
                """INSERT INTO seats (game_id, seat, user_id, name, is_computer, dm_ok, auto_streak, hand_message_id)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                [seat for _, seats, _ in rows for seat in seats],
            )
            conn.executemany(
                "INSERT INTO moves (game_id, seq, seat, move, auto, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [move for _, _, moves in rows for move in moves],
            )
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def _chunks(numbers: range, size: int) -> Iterator[range]:
    for start in range(0, len(numbers), size):
        yield numbers[start : start + size]


def logged_moves(path: Path) -> int:
    """How many moves the file's logs hold in all."""
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM moves").fetchone()[0])

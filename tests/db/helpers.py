"""Helpers for the storage tests: virtual time, lobbies, started games and random play with the real engines."""

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.random_play import random_moves
from db.records import GameRecord, NewLobby
from db.sql_store import SqlStore
from db.store import Store
from engine.base import AnyGame, Outcome
from engine.registry import game_class

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
GUILD = 1001
CHANNEL = 2002


def later(seconds: float) -> datetime:
    """A virtual time `seconds` after NOW."""
    return NOW + timedelta(seconds=seconds)


async def new_lobby(
    store: SqlStore,
    *,
    kind: str = "kasino",
    host: int = 1,
    max_seats: int = 4,
    guild: int = GUILD,
    channel: int = CHANNEL,
    seed: int = 42,
    settings: dict[str, Any] | None = None,
) -> GameRecord:
    """A lobby hosted by user `host` (named "u<host>")."""
    lobby = NewLobby(kind, guild, channel, host, f"u{host}", settings or {}, seed, max_seats)
    return await store.create_lobby(lobby, NOW)


async def running_game(
    store: SqlStore,
    users: Sequence[int | None] = (1, 2),
    *,
    kind: str = "kasino",
    state: dict[str, Any] | None = None,
    guild: int = GUILD,
    max_seats: int = 4,
    seed: int = 42,
    strengths: Sequence[str] | None = None,
    settings: dict[str, Any] | None = None,
) -> GameRecord:
    """A started game with `users` seated in that order (None: a computer seat, of `strengths` in turn, else medium)."""
    humans = [user for user in users if user is not None]
    lobby = await new_lobby(
        store, kind=kind, host=humans[0], guild=guild, max_seats=max_seats, seed=seed, settings=settings
    )
    for user in humans[1:]:
        lobby = await store.join_lobby(lobby.id, user, f"u{user}", NOW)
    computers = sum(user is None for user in users)
    for strength in strengths or ["medium"] * computers:
        lobby = await store.add_computer(lobby.id, strength, NOW)
    return await store.start_game(lobby.id, lobby.version, list(users), state or {"schema": 1, "turn": 0}, NOW)


async def real_game(
    store: SqlStore, kind: str, users: Sequence[int | None], seed: int = 7
) -> tuple[GameRecord, AnyGame]:
    """A started game of `kind` whose snapshot is the real engine's; returns (record, engine game)."""
    game = game_class(kind).new(len(users), seed)
    record = await running_game(store, users, kind=kind, state=game.to_dict(), seed=seed)
    return record, game


async def play_random(store: SqlStore, record: GameRecord, game: AnyGame, moves: int, rng: random.Random) -> GameRecord:
    """Play up to `moves` random legal moves through the store; returns the last record."""
    for seat, move, _ in random_moves(game, rng, moves):
        record = await store.save_move(
            record.id,
            record.version,
            seat,
            str(move),
            game.to_dict(),
            later(record.move_count + 1),
            outcome=game.outcome(),
        )
    return record


@dataclass(frozen=True, slots=True)
class TeamOutcome(Outcome):
    """An outcome with partnerships (`teams`: seats by team), as a kind with teams reports it (issue 26)."""

    teams: tuple[tuple[int, ...], ...] | None = None


async def finish_game(
    store: SqlStore,
    users: Sequence[int | None],
    places: Sequence[int],
    scores: Sequence[int] | None = None,
    *,
    kind: str = "kasino",
    guild: int = GUILD,
    names: Mapping[int | None, str] | None = None,
    strengths: Sequence[str] | None = None,
    settings: dict[str, Any] | None = None,
    teams: tuple[tuple[int, ...], ...] | None = None,
) -> GameRecord:
    """A game of `users` (None: computer, see `running_game`) that ends at once with `places`; the finished record.

    With `teams` (seats by team) it is played in partnerships.
    """
    record = await running_game(
        store, users, kind=kind, guild=guild, max_seats=max(len(users), 2), strengths=strengths, settings=settings
    )
    for seat, user in enumerate(users):
        if names and user in names:
            await rename(store, record.id, seat, names[user])
    outcome = TeamOutcome(tuple(places), tuple(scores or [10 - place for place in places]), teams)
    return await store.save_move(record.id, record.version, 0, "resign", {"over": True}, later(60), outcome=outcome)


async def rename(store: SqlStore, game_id: int, seat: int, name: str) -> None:
    """Give a seat another display name (as if the member had changed nickname before the game)."""
    async with store.transaction() as conn:
        await conn.execute("UPDATE seats SET name = ? WHERE game_id = ? AND seat = ?", (name, game_id, seat))


async def filled_database(path: Path, games: int = 6) -> None:
    """A closed database file of several pages: games of both kinds with their moves."""
    store = await Store.open(path)
    try:
        rng = random.Random(5)
        for number in range(games):
            kind = ("kasino", "garbage")[number % 2]
            record, game = await real_game(store, kind, (1, 2), seed=number)
            await play_random(store, record, game, 30, rng)
    finally:
        await store.close()


async def record_in(store: SqlStore, game_id: int) -> GameRecord:
    """The stored record of a game the test knows is there."""
    record = await store.get_game(game_id)
    assert record is not None, game_id
    return record

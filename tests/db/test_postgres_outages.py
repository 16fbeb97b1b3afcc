"""Issue 44: PostgreSQL outages and stalls, through the service, on a real server of this module's own.

The server is stopped (`pg_ctl stop -m immediate`) and started in the middle of play, and every session is ended
(`pg_terminate_backend`): each move while it is down is refused with the database's words, the first move after it
is accepted, and the move logs hold every acknowledged move once. A game whose lock another session holds is refused
as busy within the bound while the other games play on; a busy server, and only a read-only one as "not writable".
"""

import asyncio
import logging
from collections.abc import Sequence
from typing import Self
from urllib.parse import urlsplit

import asyncpg
import pytest

import db.postgres.store as postgres_store
from db.errors import StoreError
from db.postgres.locks import AdvisoryLocks
from db.postgres.store import PostgresStore
from db.records import GameRecord
from engine.base import AnyGame
from service.errors import refusal_message
from service.tables import TableService
from tests import pg_outages
from tests.db.helpers import NOW, real_game
from tests.pg_outages import OwnServer

own_server = pg_outages.own_server  # fixtures: a PostgreSQL of this module's own, a new database on it
outage_url = pg_outages.outage_url

BOUND = 5  # seconds: the store's LOCK_WAIT_SECONDS (checked below), the longest a game's lock is waited for
PLAYERS = 4  # games in play at once


class Table:
    """Games played through the service, as players at their tables: each move sent with the version last seen."""

    def __init__(self, store: PostgresStore, games: Sequence[tuple[GameRecord, AnyGame]]) -> None:
        self.store = store
        self.service = TableService(store, clock=lambda: NOW, coordinator=AdvisoryLocks(store))
        self.seen = {record.id: (record, game) for record, game in games}
        self.acknowledged: dict[int, list[str]] = {record.id: [] for record, _ in games}

    @classmethod
    async def opened(cls, url: str, games: int = PLAYERS) -> Self:
        store = await PostgresStore.open(url)
        played = [await real_game(store, "kasino", (2 * n + 1, 2 * n + 2), seed=n + 1) for n in range(games)]
        return cls(store, played)

    @property
    def ids(self) -> list[int]:
        return list(self.seen)

    async def move(self, game_id: int) -> None:
        """The player to move plays their first legal move; kept only once the service acknowledged it."""
        record, game = self.seen[game_id]
        seat = game.to_move
        assert seat is not None
        user = record.seats[seat].user_id
        assert user is not None
        move = str(game.legal_moves(seat)[0])
        result = await self.service.play(game_id, user, move, version=record.version)
        self.seen[game_id] = (result.record, result.game)
        self.acknowledged[game_id].append(move)

    async def round(self) -> None:
        """One move on every game at once."""
        await asyncio.gather(*(self.move(game_id) for game_id in self.ids))

    async def refusal(self, game_id: int) -> str:
        """The message a move on the game is refused with (it must be refused)."""
        with pytest.raises(StoreError) as refused:
            await self.move(game_id)
        return refusal_message(refused.value).id

    async def refusal_or_none(self, game_id: int) -> str | None:
        """The message a move on the game is refused with; None if it was acknowledged."""
        try:
            await self.move(game_id)
        except StoreError as refused:
            return refusal_message(refused).id
        return None

    async def logged_as_acknowledged(self) -> bool:
        """Whether every game's move log is exactly its acknowledged moves: none lost, none applied twice."""
        for game_id, moves in self.acknowledged.items():
            assert [logged.move for logged in await self.store.game_moves(game_id)] == moves, game_id
        return True


async def admin_says(url: str, *statements: str) -> None:
    """Run `statements` on a connection of their own (as the server's administrator would)."""
    admin = await asyncpg.connect(url)
    try:
        for statement in statements:
            await admin.execute(statement)
    finally:
        await admin.close()


async def test_a_server_stopped_and_started_mid_play_refuses_moves_as_unreachable_then_takes_the_first_after_it(
    own_server: OwnServer, outage_url: str
) -> None:
    table = await Table.opened(outage_url)
    try:
        for _ in range(3):  # connections kept between actions, as in steady play
            await table.round()
        own_server.stop_immediately()
        for game_id in table.ids:
            assert await table.refusal(game_id) == "refused.database-unreachable"
        own_server.start()
        await table.round()  # the first move on each game after the server returns counts
        await table.round()
        assert await own_server.end_every_session(outage_url) > 0
        await table.round()  # and after every session was ended under the process
        await table.round()
        assert await table.logged_as_acknowledged()
        assert all(len(moves) == 7 for moves in table.acknowledged.values())
    finally:
        await table.store.close()


async def test_an_outage_is_logged_once_when_it_starts_and_once_when_it_ends(
    own_server: OwnServer, outage_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    table = await Table.opened(outage_url, games=2)
    try:
        await table.round()
        own_server.stop_immediately()
        with caplog.at_level(logging.INFO, logger="db.postgres"):
            for _ in range(3):
                for game_id in table.ids:
                    assert await table.refusal(game_id) == "refused.database-unreachable"
            own_server.start()
            await table.round()
            await table.round()
        said = [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]
        assert len(said) == 2, said
        assert "cannot be reached" in said[0] and "can be reached again" in said[1] and "6 actions refused" in said[1]
        assert await table.logged_as_acknowledged()
    finally:
        await table.store.close()


async def test_a_game_whose_lock_another_session_holds_is_refused_as_busy_within_the_bound_while_others_play_on(
    outage_url: str,
) -> None:
    table = await Table.opened(outage_url)
    stuck, *others = table.ids
    holder = await asyncpg.connect(outage_url)  # a process stopped in the middle of an action on the game
    try:
        await holder.execute("SELECT pg_advisory_lock($1)", stuck)
        loop = asyncio.get_running_loop()
        began = loop.time()
        waiting = asyncio.create_task(table.refusal(stuck))
        await asyncio.sleep(0.2)
        for _ in range(3):  # the other games play on meanwhile
            await asyncio.gather(*(table.move(game_id) for game_id in others))
        assert not waiting.done() and loop.time() - began < BOUND
        assert await asyncio.wait_for(waiting, BOUND + 5) == "refused.game-busy"
        assert BOUND - 0.5 <= loop.time() - began <= BOUND + 2
        await holder.execute("SELECT pg_advisory_unlock($1)", stuck)
        await table.move(stuck)  # free again: it plays on
        assert await table.logged_as_acknowledged()
        assert postgres_store.LOCK_WAIT_SECONDS == BOUND
    finally:
        await holder.close()
        await table.store.close()


async def test_a_statement_timeout_is_refused_as_a_busy_database_not_with_an_apology(
    own_server: OwnServer, outage_url: str
) -> None:
    table = await Table.opened(outage_url, games=1)
    (game_id,) = table.ids
    await admin_says(outage_url, "ALTER ROLE postgres SET statement_timeout = '200ms'")
    admin = None
    try:  # the role's setting is reset whatever happens: the module's next tests share the server
        await own_server.end_every_session(outage_url)  # the setting reaches new sessions only
        admin = await asyncpg.connect(outage_url)
        async with admin.transaction():
            await admin.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")  # holds every statement on games
            assert await table.refusal(game_id) == "refused.database-busy"
        await table.move(game_id)
        assert await table.logged_as_acknowledged()
    finally:
        if admin is not None:
            await admin.close()
        await admin_says(outage_url, "ALTER ROLE postgres RESET statement_timeout")
        await table.store.close()


async def test_too_many_connections_are_refused_as_a_busy_database_not_as_storage_full(
    own_server: OwnServer, outage_url: str
) -> None:
    database = urlsplit(outage_url).path.lstrip("/")
    await admin_says(
        outage_url,
        "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'player') THEN CREATE ROLE player LOGIN; "
        "END IF; END $$",
        f'ALTER DATABASE "{database}" OWNER TO player',
    )
    table = await Table.opened(outage_url.replace("postgres@", "player@"))  # a bot's role, not a superuser
    try:
        await admin_says(outage_url, f'ALTER DATABASE "{database}" CONNECTION LIMIT 1')  # superusers are exempt
        await own_server.end_every_session(outage_url)
        said = await asyncio.gather(*(table.refusal_or_none(game_id) for game_id in table.ids))
        assert "refused.database-busy" in said and set(said) <= {"refused.database-busy", None}, said
        await admin_says(outage_url, f'ALTER DATABASE "{database}" CONNECTION LIMIT -1')
        assert await table.logged_as_acknowledged()
    finally:
        await table.store.close()


async def test_only_a_database_that_cannot_be_written_is_said_as_storage_full_or_not_writable(
    own_server: OwnServer, outage_url: str
) -> None:
    table = await Table.opened(outage_url, games=1)
    (game_id,) = table.ids
    database = urlsplit(outage_url).path.lstrip("/")
    await admin_says(outage_url, f'ALTER DATABASE "{database}" SET default_transaction_read_only = on')
    try:
        await own_server.end_every_session(outage_url)  # the setting reaches new sessions only
        assert await table.refusal(game_id) == "refused.storage-unavailable"
    finally:
        await admin_says(
            outage_url,
            "SET default_transaction_read_only = off",
            f'ALTER DATABASE "{database}" RESET default_transaction_read_only',
        )
    await own_server.end_every_session(outage_url)
    try:
        await table.move(game_id)
        assert await table.logged_as_acknowledged()
    finally:
        await table.store.close()


async def test_sessions_ended_by_idle_session_timeout_cost_no_move(outage_url: str) -> None:
    database = urlsplit(outage_url).path.lstrip("/")
    await admin_says(outage_url, f"ALTER DATABASE \"{database}\" SET idle_session_timeout = '300ms'")  # as poolers do
    table = await Table.opened(outage_url)
    try:
        for _ in range(3):
            await table.round()
            await asyncio.sleep(0.6)  # every kept connection's session ends meanwhile
        await table.round()
        assert await table.logged_as_acknowledged()
    finally:
        await table.store.close()

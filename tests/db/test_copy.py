"""Issue 27: `python -m db.copy` copies an SQLite database into an empty PostgreSQL one, and checks the copy."""

import asyncio
import json
import random
import sqlite3
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

import db.copy as copy_module
from db.copy import TABLES, CopyError, copy_database, main, mask_url, verify
from db.postgres.store import PostgresStore
from db.records import NewLobby, Occupant
from db.store import Store
from engine.message import Message
from engine.registry import game_class
from tests.db.helpers import GUILD, NOW, finish_game, later, new_lobby, play_random, real_game, record_in

# Tests here open the SQLite file themselves, so they need no `backend`; PostgreSQL comes from `postgres_url`.


# The copy's source: a closed SQLite file, and the ids of its games by what they are.
Source = tuple[Path, dict[str, list[int]]]


async def build_source(path: Path) -> dict[str, list[int]]:
    """A closed SQLite database with every table in use; the ids of its games by what they are."""
    store = await Store.open(path)
    try:
        rng = random.Random(3)
        running = []
        for number, kind in enumerate(("kasino", "garbage", "kasino")):
            record, game = await real_game(store, kind, (1, 2), seed=number)
            record = await play_random(store, record, game, 8 + number, rng)
            running.append(record.id)
        # A seat changes hands in the first running game (no move logged: the replay is by seat).
        record = await record_in(store, running[0])
        assert record.state is not None
        await store.change_seat(
            record.id,
            record.version,
            1,
            Occupant(8, "u8"),
            host_id=1,
            state=record.state,
            now=later(500),
            narration=[Message("shared.seat-given-member", {"host": "u1", "before": "u2", "after": "u8"})],
        )
        finished = [
            (await finish_game(store, (1, 2), (1, 2))).id,
            (await finish_game(store, (2, 3, None), (2, 1, 3), strengths=["hard"])).id,
        ]
        cancelled = await new_lobby(store, host=5)
        await store.cancel_game(cancelled.id, later(600))
        lobby = await new_lobby(store, host=6)
        await store.join_lobby(lobby.id, 7, "u7", later(601))
        await store.set_pictures(GUILD, False)
        await store.set_language(GUILD, "no")
        await store.save_house_rules_preset(GUILD, "kasino", {"target": 21}, NOW)
        return {"running": running, "finished": finished, "cancelled": [cancelled.id], "lobby": [lobby.id]}
    finally:
        await store.close()


@pytest.fixture
async def source(tmp_path: Path) -> Source:
    path = tmp_path / "data" / "bot.db"
    path.parent.mkdir()
    games = await build_source(path)
    return path, games


async def counts_of(url: str) -> dict[str, Any]:
    conn = await asyncpg.connect(url)
    try:
        return {table: await conn.fetchval(f"SELECT count(*) FROM {table}") for table in TABLES}
    finally:
        await conn.close()


async def tables_of(url: str) -> list[Any]:
    conn = await asyncpg.connect(url)
    try:
        return [row[0] for row in await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]
    finally:
        await conn.close()


async def test_every_table_is_copied_and_verified(source: Source, postgres_url: str) -> None:
    path, _ = source
    report = await copy_database(path, postgres_url)
    assert report.ok, report.lines()
    assert dict(report.copied) == {
        "games": 7,
        "seats": 14,
        "moves": 8 + 9 + 10 + 2,
        "results": 5,
        "ratings": 4,
        "guild_settings": 1,
        "house_rule_presets": 1,
        "seat_changes": 1,
        "departed_guilds": 0,
    }
    assert list(report.copied) == list(TABLES)  # foreign-key order
    verification = report.verification
    assert verification.counts_equal and verification.replayed == 3
    assert dict(verification.by_status) == {"running": 3, "finished": 2, "cancelled": 1, "lobby": 1}
    assert await counts_of(postgres_url) == dict(report.copied)
    assert report.lines()[1] == (
        "verified: counts equal; 3 running games replay to their snapshots; finished 2, cancelled 1, frozen 0, lobby 1"
    )


async def test_an_empty_database_copies_to_an_empty_one(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "bot.db"
    await (await Store.open(path)).close()
    report = await copy_database(path, postgres_url)
    assert report.ok and dict(report.copied) == dict.fromkeys(TABLES, 0)
    target = await PostgresStore.open(postgres_url)
    try:
        assert (await new_lobby(target)).id == 1
    finally:
        await target.close()


async def test_the_target_store_reads_what_the_source_store_read(source: Source, postgres_url: str) -> None:
    path, games = source
    assert (await copy_database(path, postgres_url)).ok
    before, after = await Store.open(path), await PostgresStore.open(postgres_url)
    try:
        for game_id in sorted(id_ for ids in games.values() for id_ in ids):
            assert await after.get_game(game_id) == await before.get_game(game_id)
            assert await after.game_moves(game_id) == await before.game_moves(game_id)
            assert await after.seat_changes(game_id) == await before.seat_changes(game_id)
        for sort in ("rating", "wins", "win_rate"):
            board = await before.leaderboard(GUILD, "kasino", sort, min_games=1)
            assert board.rows and await after.leaderboard(GUILD, "kasino", sort, min_games=1) == board
        for user in (1, 2, 3, 8):
            assert await after.player_stats(user, GUILD) == await before.player_stats(user, GUILD)
        assert (await after.pictures_on(GUILD), await after.language(GUILD)) == (False, "no")
        assert await after.house_rules_preset(GUILD, "kasino") == {"target": 21}
    finally:
        await before.close()
        await after.close()


async def test_a_copied_game_plays_on_and_a_new_lobby_gets_the_next_id(source: Source, postgres_url: str) -> None:
    path, games = source
    assert (await copy_database(path, postgres_url)).ok
    target = await PostgresStore.open(postgres_url)
    try:
        record = await target.get_game(games["running"][1])
        assert record is not None and record.state is not None
        game = game_class(record.kind).from_dict(record.state)
        seat = game.to_move
        assert seat is not None
        move = game.legal_moves(seat)[0]
        game.apply(seat, move)
        assert record is not None
        saved = await target.save_move(record.id, record.version, seat, str(move), game.to_dict(), later(900))
        assert saved is not None
        assert saved.move_count == record.move_count + 1
        logged = await target.game_moves(record.id)  # the trigger logged it, after the copied ones
        assert [entry.seq for entry in logged] == list(range(1, saved.move_count + 1))
        assert (logged[-1].seat, logged[-1].move) == (seat, str(move))
        lobby = await target.create_lobby(NewLobby("kasino", GUILD, 2002, 9, "u9", {}, 1, 2), later(901))
        assert lobby.id == max(id_ for ids in games.values() for id_ in ids) + 1
    finally:
        await target.close()


async def test_a_target_holding_any_row_is_refused_and_left_as_it_was(source: Source, postgres_url: str) -> None:
    path, _ = source
    target = await PostgresStore.open(postgres_url)
    try:
        await target.set_pictures(GUILD, True)  # no game, but not empty
    finally:
        await target.close()
    with pytest.raises(CopyError, match="copying is into an empty database only"):
        await copy_database(path, postgres_url)
    assert await counts_of(postgres_url) == dict.fromkeys(TABLES, 0) | {"guild_settings": 1}


async def test_a_second_copy_into_the_same_target_is_refused(source: Source, postgres_url: str) -> None:
    path, _ = source
    first = await copy_database(path, postgres_url)
    with pytest.raises(CopyError, match="table games is not empty"):
        await copy_database(path, postgres_url)
    assert await counts_of(postgres_url) == dict(first.copied)


async def test_tables_whose_columns_differ_are_refused_before_anything_is_written(
    source: Source, postgres_url: str
) -> None:
    path, _ = source
    await (await PostgresStore.open(postgres_url)).close()  # the schema, migrated
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("ALTER TABLE ratings ADD COLUMN streak INTEGER")
    finally:
        await conn.close()
    with pytest.raises(CopyError, match=r"table ratings differs in the target \(extra streak\)"):
        await copy_database(path, postgres_url)
    assert await counts_of(postgres_url) == dict.fromkeys(TABLES, 0)


async def test_a_source_table_the_copy_does_not_know_is_refused(source: Source, postgres_url: str) -> None:
    path, _ = source
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    conn.close()
    with pytest.raises(CopyError, match=r"tables this copy does not know \(notes\)"):
        await copy_database(path, postgres_url)
    assert await counts_of(postgres_url) == dict.fromkeys(TABLES, 0)


async def test_a_missing_source_is_refused_and_not_created(tmp_path: Path, postgres_url: str) -> None:
    with pytest.raises(CopyError, match="does not exist"):
        await copy_database(tmp_path / "nothing.db", postgres_url)
    assert not (tmp_path / "nothing.db").exists()


async def test_verify_reports_a_tampered_snapshot_and_a_lost_move(source: Source, postgres_url: str) -> None:
    path, games = source
    assert (await copy_database(path, postgres_url)).ok
    tampered, shortened = games["running"][0], games["running"][2]
    conn = await asyncpg.connect(postgres_url)
    try:
        # A real snapshot of the kind, but of another game: it reads, and differs from the replay.
        other = game_class("kasino").new(2, 99).to_dict()
        await conn.execute("UPDATE games SET state = $1 WHERE id = $2", json.dumps(other), tampered)
        await conn.execute(
            "DELETE FROM moves WHERE game_id = $1 AND seq = (SELECT max(seq) FROM moves WHERE game_id = $1)", shortened
        )
    finally:
        await conn.close()
    source_store, target_store = await Store.open(path), await PostgresStore.open(postgres_url)
    try:
        verification = await verify(source_store, target_store)
    finally:
        await source_store.close()
        await target_store.close()
    assert not verification.ok and not verification.counts_equal
    assert verification.replayed == 1
    said = "\n".join(verification.differences)
    assert "table moves: 29 rows in the source, 28 in the target" in said
    assert f"game #{shortened}: source running, 10 moves (10 logged); target running, 10 moves (9 logged)" in said
    assert f"game #{tampered}: the snapshot differs from the replay of the move log" in said
    assert f"game #{shortened}: the snapshot differs from the replay of the move log" in said
    assert "the same in the source" not in said  # the copy, not the source, differs


# -- the command ------------------------------------------------------------------------------------------------------


def with_password(url: str) -> tuple[str, str]:
    """`url` with a password (the test server trusts local connections, so any will do), and that password."""
    parts = urlsplit(url)
    if parts.password:
        return url, parts.password
    user, _, host = parts.netloc.rpartition("@")
    return urlunsplit(parts._replace(netloc=f"{user or 'postgres'}:s3cret-word@{host}")), "s3cret-word"


def test_main_copies_verifies_and_never_prints_the_password(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.db"
    asyncio.run(build_source(path))
    url, password = with_password(postgres_url)
    assert main([f"sqlite:///{path}", url]) == 0
    out, err = capsys.readouterr()
    assert password not in out + err
    assert out.splitlines() == [
        f"copying {path} into {mask_url(url)}",
        "copied games 7, seats 14, moves 29, results 5, ratings 4, guild_settings 1, house_rule_presets 1, "
        "seat_changes 1, departed_guilds 0",
        "verified: counts equal; 3 running games replay to their snapshots; finished 2, cancelled 1, frozen 0, lobby 1",
    ]
    # Run again: the target is no longer empty.
    assert main([str(path), url]) == 2
    out, err = capsys.readouterr()
    assert "copying is into an empty database only" in err and password not in out + err


def test_a_snapshot_damaged_in_the_source_is_repaired_from_its_log_before_the_copy(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bot.db"
    games = asyncio.run(build_source(path))
    damaged = games["running"][0]
    # The store does not check snapshots when it opens; the copy checks them, as the bot would, and repairs this one.
    with sqlite3.connect(path) as conn:
        conn.execute('UPDATE games SET state = \'{"kind": "kasino"}\' WHERE id = ?', (damaged,))
    conn.close()
    assert main([str(path), postgres_url]) == 0
    assert "3 running games replay to their snapshots" in capsys.readouterr().out


def test_main_exits_1_when_the_copy_does_not_verify(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "bot.db"
    asyncio.run(build_source(path))
    copy_table = copy_module._copy_table

    # as if a row went missing on the way
    async def losing_a_move(reader: Any, raw: Any, table: str, columns: Any) -> Any:
        sent = await copy_table(reader, raw, table, columns)
        if table == "moves":
            await raw.execute(
                "DELETE FROM moves WHERE (game_id, seq) = (SELECT game_id, max(seq) FROM moves "
                "GROUP BY game_id ORDER BY game_id LIMIT 1)"
            )
        return sent

    monkeypatch.setattr(copy_module, "_copy_table", losing_a_move)
    assert main([str(path), postgres_url]) == 1
    out, _ = capsys.readouterr()
    assert "verification FAILED" in out
    assert "table moves:" in out and "rows in the source" in out
    assert "drop that database" in out


@pytest.mark.parametrize(
    "argv",
    [[], ["only.db"], ["a.db", "postgresql://x/y", "extra"], ["mysql://h/db", "postgresql://x/y"], ["a.db", "b.db"]],
)
def test_main_refuses_bad_arguments_with_one_line_and_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1


def test_main_refuses_a_database_a_running_bot_holds(
    holder: tuple[Path, subprocess.Popen[str]], postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = holder
    assert main([str(path), postgres_url]) == 2
    _, err = capsys.readouterr()
    assert "in use by a running bot" in err and "stop the bot" in err
    assert asyncio.run(tables_of(postgres_url)) == []  # refused before the target was even opened


def test_mask_url_hides_the_password_wherever_it_is() -> None:
    assert mask_url("postgresql://bot:pw@db.example:5432/cards") == "postgresql://bot:***@db.example:5432/cards"
    assert mask_url("postgresql://bot@/cards?host=/run/pg&password=pw") == (
        "postgresql://bot@/cards?host=/run/pg&password=***"
    )
    assert mask_url("postgresql:///cards") == "postgresql:///cards"
    assert mask_url("postgresql:///cards?password=pw") == "postgresql:///cards?password=***"


async def test_a_copy_that_fails_midway_is_rolled_back_as_a_whole(source: Source, postgres_url: str) -> None:
    path, games = source
    # SQLite's INTEGER holds 64 bits, PostgreSQL's 32: the seats fail after the games went over.
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE seats SET auto_streak = ? WHERE game_id = ?", (1 << 40, games["lobby"][0]))
    conn.close()
    failed = r"copying table seats failed and was rolled back, nothing was written \(value out of int32 range\)"
    with pytest.raises(CopyError, match=failed):
        await copy_database(path, postgres_url)
    assert await counts_of(postgres_url) == dict.fromkeys(TABLES, 0)

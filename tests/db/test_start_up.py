"""Start-up in a time that does not grow with the logs: a cheap check of every game, the full check once per game later.

The cheap check compares each running game's move count in its row, its snapshot and its log's last entry; a game
where they disagree is checked in full at once (repaired or frozen). What the counts cannot see (a move's text
changed, a snapshot of the same length but another position) the full check finds the first time the game is
asked for through `checked_game`, or when `unchecked_games` are checked in the background.
"""

import json
import logging
import threading
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from db import recovery
from db.records import MoveRecord
from db.sql_store import SqlStore
from db.store import Store
from engine.base import AnyGame
from engine.registry import game_class
from tests.db.helpers import later, new_lobby, record_in
from tests.db.test_recovery import break_first_move, overwrite_snapshot, played_file


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of each log replayed from now on."""
    seen: list[int] = []
    replay = recovery.replay

    def counting(kind: str, players: int, seed: int, settings: Any, moves: Sequence[MoveRecord]) -> AnyGame:
        seen.append(len(moves))
        return replay(kind, players, seed, settings, moves)

    monkeypatch.setattr(recovery, "replay", counting)
    return seen


async def opened(path: Path) -> Store:
    return await Store.open(path)


async def test_intact_games_are_not_replayed_at_start_up(
    tmp_path: Path, replays: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    path, record, _ = await played_file(tmp_path, "kasino", (1, 2, 3))
    store = await opened(path)
    try:
        lobby = await new_lobby(store, host=50)
        with caplog.at_level(logging.WARNING, logger="db.store"):
            found = await store.start_up_check()
        assert (found.lobbies, found.running, found.frozen) == ((lobby.id,), (record.id,), ())
        assert replays == [] and caplog.records == []
        assert await store.unchecked_games() == [record.id]
        assert await store.checked_game(record.id) == record  # the full check, once: it agrees
        assert len(replays) == 1 and await store.unchecked_games() == []
        await store.checked_game(record.id)
        assert len(replays) == 1  # never twice in one process
    finally:
        await store.close()


@pytest.mark.parametrize(("kind", "users"), [("kasino", (1, 2)), ("garbage", (1, 2, None))])
@pytest.mark.parametrize("corruption", ["{not json", '{"schema": 1, "kind": "nonsense"}', "initial", "no count"])
async def test_a_snapshot_that_plainly_disagrees_is_repaired_at_start_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str, users: tuple[int | None, ...], corruption: str
) -> None:
    path, record, game = await played_file(tmp_path, kind, users)
    cls = game_class(kind)
    if corruption == "initial":  # a readable snapshot of the position before every move: its count is 0
        overwrite_snapshot(path, record.id, json.dumps(cls.new(len(users), record.seed).to_dict()))
    elif corruption == "no count":
        assert record.state is not None
        state = dict(record.state)
        del state[cls.MOVE_COUNT_KEY]
        overwrite_snapshot(path, record.id, json.dumps(state))
    else:
        overwrite_snapshot(path, record.id, corruption)
    store = await opened(path)
    try:
        with caplog.at_level(logging.WARNING, logger="db.store"):
            found = await store.start_up_check()
        stored = await store.get_game(record.id)
        assert (found.running, found.frozen) == ((record.id,), ())
        assert stored is not None
        assert record is not None
        assert stored.game() == game and stored.version == record.version + 1
        assert [rec.levelname for rec in caplog.records] == ["WARNING"]
        assert await store.unchecked_games() == []  # checked in full already
    finally:
        await store.close()


async def test_an_unreplayable_game_whose_snapshot_disagrees_is_frozen_at_start_up_and_named_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path, record, _ = await played_file(tmp_path, "kasino", (1, 2))
    break_first_move(path, record.id)
    overwrite_snapshot(path, record.id, "{not json")
    store = await opened(path)
    try:
        with caplog.at_level(logging.WARNING, logger="db.store"):
            found = await store.start_up_check()
        assert found.running == () and [(game.id, game.status) for game in found.frozen] == [(record.id, "frozen")]
        assert [rec.levelname for rec in caplog.records] == ["ERROR"]
        assert store.take_frozen() == []  # reported once, in `frozen`
    finally:
        await store.close()


async def test_a_broken_log_the_counts_cannot_see_freezes_the_game_when_it_is_first_asked_for(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path, record, _ = await played_file(tmp_path, "garbage", (1, 2))
    break_first_move(path, record.id)
    store = await opened(path)
    try:
        found = await store.start_up_check()
        assert (found.running, found.frozen) == ((record.id,), ())  # the cheap check cannot tell
        with caplog.at_level(logging.WARNING, logger="db.store"):
            frozen = await store.checked_game(record.id)
        assert frozen is not None
        assert record is not None
        assert (frozen.status, frozen.version, frozen.state) == ("frozen", record.version + 1, record.state)
        assert [rec.levelname for rec in caplog.records] == ["ERROR"]
        assert [game.id for game in store.take_frozen()] == [record.id]
        assert store.take_frozen() == []  # once
        assert await store.unchecked_games() == []
    finally:
        await store.close()
    store = await opened(path)
    try:
        found = await store.start_up_check()  # the next start-up: not running any more, nothing logged
        assert (found.running, found.frozen) == ((), ())
    finally:
        await store.close()


async def test_a_snapshot_of_the_same_length_but_another_position_is_repaired_when_first_asked_for(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path, record, game = await played_file(tmp_path, "kasino", (1, 2))
    assert record.state is not None
    other = dict(record.state)
    other["hands"] = list(reversed(other["hands"]))  # the same cards and count, dealt to the other seats
    overwrite_snapshot(path, record.id, json.dumps(other))
    store = await opened(path)
    try:
        assert (await store.start_up_check()).running == (record.id,)
        assert (await record_in(store, record.id)).state == other  # served as stored until checked
        with caplog.at_level(logging.WARNING, logger="db.store"):
            repaired = await store.checked_game(record.id)
        assert repaired is not None
        assert record is not None
        assert repaired.game() == game and repaired.version == record.version + 1
        assert "replayed" in caplog.text
    finally:
        await store.close()


async def test_checked_game_of_a_missing_game_is_none_and_lobbies_need_no_check(
    store: SqlStore, replays: list[int]
) -> None:
    assert await store.checked_game(404) is None
    lobby = await new_lobby(store)
    assert await store.checked_game(lobby.id) == lobby
    assert replays == []


async def test_a_game_started_or_moved_by_this_process_needs_no_check(store: SqlStore, replays: list[int]) -> None:
    lobby = await new_lobby(store)
    game = game_class("kasino").new(2, 42)
    await store.join_lobby(lobby.id, 2, "u2", later(1))
    started = await store.start_game(lobby.id, lobby.version + 1, [1, 2], game.to_dict(), later(2))
    assert await store.unchecked_games() == []
    assert await store.checked_game(started.id) == started
    assert replays == []


async def test_a_caller_holding_the_current_version_gets_the_game_without_its_snapshot(store: SqlStore) -> None:
    game = game_class("kasino").new(2, 42)
    lobby = await new_lobby(store)
    await store.join_lobby(lobby.id, 2, "u2", later(1))
    started = await store.start_game(lobby.id, lobby.version + 1, [1, 2], game.to_dict(), later(2))
    light = await store.checked_game(started.id, held_version=started.version)
    assert light is not None
    assert light.state is None and light == replace(started, state=None)
    assert await store.checked_game(started.id, held_version=started.version - 1) == started


async def test_the_full_check_replays_logs_in_a_worker_thread_and_still_freezes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    threads = []
    replay = recovery.replay

    def recording(kind: str, players: int, seed: int, settings: Any, moves: Sequence[MoveRecord]) -> AnyGame:
        threads.append(threading.current_thread())
        return replay(kind, players, seed, settings, moves)

    monkeypatch.setattr(recovery, "replay", recording)
    path, record, _ = await played_file(tmp_path, "garbage", (1, 2))
    break_first_move(path, record.id)
    store = await opened(path)
    try:
        await store.start_up_check()
        with caplog.at_level(logging.ERROR, logger="db.store"):
            frozen = await store.checked_game(record.id)
        assert frozen is not None and frozen.status == "frozen"
        assert [game.id for game in store.take_frozen()] == [record.id]
        assert threads and threading.main_thread() not in threads  # the event loop went on meanwhile
    finally:
        await store.close()

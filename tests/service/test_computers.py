"""Issue 15: computer seats in the table service: seating them, their turns, their decisions and their timers."""

import itertools
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest

from ai.players import player_for
from db.records import GameRecord
from db.sql_store import SqlStore
from engine.base import AnyGame
from engine.kasino import KasinoGame
from engine.message import Joined, Message
from service.computers import ComputerPlayers, decide, decision_seed, public_history
from service.errors import RefusedError
from service.tables import LobbyOptions, TableService
from tests.db.helpers import CHANNEL, GUILD, NOW
from tests.said import refusal

HOST, GUEST = 11, 22


@pytest.fixture
async def tables(any_store: SqlStore) -> TableService:
    seeds = itertools.count(5)
    return TableService(any_store, clock=lambda: NOW, new_seed=lambda: next(seeds))


@pytest.fixture
def computers(tables: TableService) -> ComputerPlayers:
    return ComputerPlayers(tables)


async def lobby(tables: TableService, kind: str = "garbage", seats: int = 3, **options: Any) -> GameRecord:
    return await tables.open_lobby(
        kind,
        LobbyOptions(seats, **options),
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="host",
    )


async def solo_game(
    tables: TableService, computers: ComputerPlayers, strengths: Sequence[str], kind: str = "garbage", **options: Any
) -> tuple[GameRecord, AnyGame]:
    """A started game: the host and computers of `strengths`; returns (record, game)."""
    record = await lobby(tables, kind, seats=len(strengths) + 1, **options)
    for strength in strengths:
        await computers.add(record.id, HOST, strength)
    started = await tables.start(record.id, HOST)
    return started.record, started.game


async def test_only_the_host_adds_and_removes_computers_and_only_in_the_lobby(
    tables: TableService, computers: ComputerPlayers
) -> None:
    record = await lobby(tables)
    await tables.join(record.id, GUEST, "guest")
    with pytest.raises(RefusedError) as refused:
        await computers.add(record.id, GUEST, "hard")
    assert refused.value.message == Message("refused.host-only-add-computers")
    record = await computers.add(record.id, HOST, "hard")
    assert [seat.name for seat in record.seats] == ["host", "guest", "Computer (hard)"]
    with pytest.raises(RefusedError) as refused:
        await computers.remove(record.id, GUEST, "Computer (hard)")
    assert refused.value.message == Message("refused.host-only-remove-computers")
    offered = Message(
        "refused.no-such-computer", {"strengths": Joined(("easy", "medium", "hard"), "join.comma", "join.or")}
    )
    for strength in ("brutal", "expert"):  # expert plays Kasino only
        with pytest.raises(RefusedError) as refused:
            await computers.add(record.id, HOST, strength)
        assert refused.value.message == offered
    assert refusal(refused.value) == "There is no such computer player; pick easy, medium or hard."
    await tables.start(record.id, HOST)
    with pytest.raises(RefusedError) as refused:
        await computers.add(record.id, HOST, "easy")
    assert refused.value.message == Message("refused.computers-after-start", {"game": "Garbage", "number": 1})
    with pytest.raises(RefusedError) as refused:
        await computers.remove(record.id, HOST, "Computer (hard)")
    assert refused.value.message.id == "refused.computers-after-start"


async def test_one_member_and_a_computer_may_start_but_one_member_alone_may_not(
    tables: TableService, computers: ComputerPlayers
) -> None:
    record = await lobby(tables, seats=2)
    with pytest.raises(RefusedError) as refused:
        await tables.start(record.id, HOST)
    assert refused.value.message == Message("refused.too-few-players")
    await computers.add(record.id, HOST, "easy")
    started = await tables.start(record.id, HOST)
    assert [(seat.is_computer, seat.strength) for seat in started.record.seats] in (
        [(False, None), (True, "easy")],
        [(True, "easy"), (False, None)],
    )


async def test_b1_a_computer_plays_one_decision_of_its_turn_from_its_seed(
    tables: TableService, computers: ComputerPlayers
) -> None:
    # B1: the log holds the move; deciding again in the same position gives the same move.
    for _ in range(20):
        record, game = await solo_game(tables, computers, ["medium", "easy"])
        assert game.to_move is not None
        if record.seats[game.to_move].is_computer:
            break
    seat = game.to_move
    assert seat is not None
    strength = record.seats[seat].strength
    assert strength is not None
    expected = player_for("garbage", strength, seed=decision_seed(record.seed, seat, 0))
    result = await computers.play(record.id, version=record.version)
    assert (result.seat, result.move, result.auto) == (seat, str(expected.choose(game.view(seat))), False)
    moves = await tables.store.game_moves(record.id)
    assert [(move.seat, move.move, move.auto) for move in moves] == [(seat, result.move, False)]
    assert decide(record, game, seat, []) == expected.choose(game.view(seat))


async def test_a_computer_move_is_refused_when_the_table_moved_or_a_member_is_to_move(
    tables: TableService, computers: ComputerPlayers
) -> None:
    record = await lobby(tables, seats=2)
    await computers.add(record.id, HOST, "easy")
    started = await tables.start(record.id, HOST)
    record, game = started.record, started.game
    assert game.to_move is not None
    if record.seats[game.to_move].is_computer:
        result = await computers.play(record.id, version=record.version)
        record, game = result.record, result.game
        assert game.to_move is not None
        while record.seats[game.to_move].is_computer:
            result = await computers.play(record.id, version=record.version)
            record, game = result.record, result.game
            assert game.to_move is not None
    assert await computers.waiting(record.id) is None
    with pytest.raises(RefusedError) as refused:
        await computers.play(record.id, version=record.version)
    assert refused.value.message == Message("refused.no-computer-to-move")
    with pytest.raises(RefusedError) as refused:
        await computers.play(record.id, version=record.version - 1)
    assert refused.value.message == Message("refused.out-of-date")


async def test_computer_turns_get_no_deadline_and_cannot_be_skipped(
    tables: TableService, computers: ComputerPlayers
) -> None:
    record, game = await solo_game(tables, computers, ["easy", "easy"], turn_seconds=120)
    for _ in range(30):  # play on until both kinds of turn have been seen
        assert game.to_move is not None
        if record.seats[game.to_move].is_computer:
            assert record.deadline is None
            assert (await computers.waiting(record.id)) == record
            assert [found.id for found in await computers.games_waiting()] == [record.id]
            with pytest.raises(RefusedError) as refused:
                await tables.skip(record.id, HOST, is_manager=False)
            name = record.seats[game.to_move].name
            assert refused.value.message == Message("refused.computer-moves-itself", {"player": name})
            result = await computers.play(record.id, version=record.version)
        else:
            assert record.deadline == NOW + timedelta(seconds=120)
            assert await computers.games_waiting() == []
            result = await tables.play(record.id, HOST, game.legal_moves(game.to_move)[0])
        record, game = result.record, result.game
        if record.status != "running":
            break


async def test_a_failing_computer_player_is_replaced_by_medium_then_by_the_simple_move(
    monkeypatch: pytest.MonkeyPatch, tables: TableService, computers: ComputerPlayers
) -> None:
    record, game = await solo_game(tables, computers, ["hard"], kind="kasino")
    seat = next(seat.seat for seat in record.seats if seat.is_computer)
    game = KasinoGame.new(2, record.seed)
    while game.to_move != seat:
        assert game.to_move is not None
        game.apply(game.to_move, game.legal_moves(game.to_move)[0])

    class Broken:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def choose(self, view: Any, history: Sequence[Any] = ()) -> None:
            raise RuntimeError("kaboom")

    medium = player_for("kasino", "medium", seed=decision_seed(record.seed, seat, 0)).choose(game.view(seat))
    monkeypatch.setattr("ai.kasino_hard.HardKasino", Broken)
    assert decide(record, game, seat, []) == medium
    monkeypatch.setattr("ai.kasino_medium.MediumKasino", Broken)
    assert decide(record, game, seat, []) == game.auto_move(seat)


async def test_b1_the_history_a_computer_sees_is_the_events_of_every_logged_move(
    tables: TableService, computers: ComputerPlayers
) -> None:
    record, game = await solo_game(tables, computers, ["easy"], kind="kasino")
    seen: list[Any] = []
    for _ in range(12):
        assert game.to_move is not None
        if record.seats[game.to_move].is_computer:
            result = await computers.play(record.id, version=record.version)
        else:
            result = await tables.play(record.id, HOST, game.legal_moves(game.to_move)[-1])
        seen.extend(result.events)
        record, game = result.record, result.game
    assert public_history(record, await tables.store.game_moves(record.id)) == seen


async def test_a_kasino_lobby_seats_an_expert(tables: TableService, computers: ComputerPlayers) -> None:
    record, _ = await solo_game(tables, computers, ["expert"], kind="kasino")
    seat = next(seat.seat for seat in record.seats if seat.is_computer)
    assert record.seats[seat].strength == "expert" and record.seats[seat].name == "Computer (expert)"

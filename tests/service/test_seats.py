"""Issue 28: seats changing hands in the table service, and how the results credit such a seat."""

import itertools

import pytest

from db.records import GameRecord, MoveRecord, Occupant, SeatChange
from db.results import Stint, credited, stints
from db.sql_store import SqlStore
from service.computers import ComputerPlayers, decide
from service.errors import RefusedError
from service.seats import SeatChanges
from service.tables import LobbyOptions, TableService
from tests.db.helpers import CHANNEL, GUILD, NOW

HOST, GUEST, LATE, OTHER = 11, 22, 33, 44


@pytest.fixture
async def tables(any_store: SqlStore) -> TableService:
    seeds = itertools.count(5)
    return TableService(any_store, clock=lambda: NOW, new_seed=lambda: next(seeds))


@pytest.fixture
def seats(tables: TableService) -> SeatChanges:
    return SeatChanges(tables)


async def three_players(tables: TableService, kind: str = "garbage") -> GameRecord:
    """A running game of the host, a guest and a third member; returns the record."""
    record = await tables.open_lobby(
        kind, LobbyOptions(3), guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="host"
    )
    await tables.join(record.id, GUEST, "guest")
    await tables.join(record.id, OTHER, "other")
    return (await tables.start(record.id, HOST)).record


async def play_humans(tables: TableService, record: GameRecord, moves: int) -> GameRecord:
    """Play up to `moves` decisions for whichever member is to move (the engine's simple move)."""
    for _ in range(moves):
        record, game = await tables.load(record.id)
        if game.to_move is None:
            break
        seat = record.seats[game.to_move]
        if seat.is_computer:
            record = (await tables.play_computer(record.id, version=record.version, decide=decide)).record
            continue
        assert game.to_move is not None
        assert seat.user_id is not None
        record = (await tables.play(record.id, seat.user_id, game.auto_move(game.to_move))).record
    return record


async def test_a_vacated_seat_goes_to_a_hard_computer_which_plays_it(tables: TableService, seats: SeatChanges) -> None:
    record = await three_players(tables)
    await tables.resign(record.id, GUEST)
    seat = record.seat_of(GUEST)
    assert seat is not None
    result = await seats.give_to_computer(record.id, HOST, seat, "hard", is_manager=False)
    assert result.record.seats[seat].is_computer and result.record.seats[seat].strength == "hard"
    assert result.move == "rejoin"
    assert not result.game.public_view().seats[seat].resigned
    assert result.record.narration[0].id == "shared.seat-given-computer"
    moves = await tables.store.game_moves(record.id)
    assert [(move.seat, move.move) for move in moves][-2:] == [(seat, "resign"), (seat, "rejoin")]
    changes = await tables.store.seat_changes(record.id)
    assert [(c.seat, c.before, c.after.strength, c.after_move) for c in changes] == [
        (seat, Occupant(GUEST, "guest"), "hard", len(moves))
    ]
    # The computer plays its turns now: its seat is waited for, not played automatically.
    record = await play_humans(tables, result.record, 12)
    logged = await tables.store.game_moves(record.id)
    assert any(move.seat == seat for move in logged if move.seq > len(moves))


async def test_refusals_change_nothing(tables: TableService, seats: SeatChanges) -> None:
    record = await three_players(tables)
    seat = record.seat_of(GUEST)
    assert seat is not None
    with pytest.raises(RefusedError) as refused:
        await seats.give_to_computer(record.id, HOST, seat, "hard", is_manager=False)
    assert refused.value.message.id == "refused.seat-not-vacated"
    with pytest.raises(RefusedError) as refused:
        await seats.ask(record.id, LATE, seat)
    assert refused.value.message.id == "refused.seat-still-played"
    await tables.resign(record.id, GUEST)
    with pytest.raises(RefusedError) as refused:
        await seats.give_to_computer(record.id, GUEST, seat, "hard", is_manager=False)
    assert refused.value.message.id == "refused.host-only-seats"
    with pytest.raises(RefusedError) as refused:
        await seats.ask(record.id, OTHER, seat)
    assert refused.value.message.id == "refused.already-seated-here"
    with pytest.raises(RefusedError) as refused:
        await seats.approve(record.id, OTHER, seat, LATE, "late", is_manager=False)
    assert refused.value.message.id == "refused.host-only-seats"
    with pytest.raises(RefusedError) as refused:
        await seats.give_to_computer(record.id, HOST, 7, "hard", is_manager=False)
    assert refused.value.message.id == "refused.no-seat-number"
    before = await tables.get(record.id)
    assert await tables.store.seat_changes(record.id) == []
    # Taken by a late member; the one who left may not come back in another seat.
    await seats.approve(record.id, HOST, seat, LATE, "late", is_manager=False)
    assert (await tables.get(record.id)).version == before.version + 1
    with pytest.raises(RefusedError) as refused:
        await seats.ask(record.id, LATE, seat)
    assert refused.value.message.id == "refused.already-seated-here"


async def test_a_member_takes_a_computers_seat_without_a_move(tables: TableService, seats: SeatChanges) -> None:
    record = await tables.open_lobby(
        "kasino", LobbyOptions(3), guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="host"
    )
    await tables.join(record.id, GUEST, "guest")
    await ComputerPlayers(tables).add(record.id, HOST, "easy")
    record = (await tables.start(record.id, HOST)).record
    seat = next(s.seat for s in record.seats if s.is_computer)
    request = await seats.ask(record.id, LATE, seat)
    assert request.holder.strength == "easy"
    result = await seats.approve(record.id, HOST, seat, LATE, "late", is_manager=False)
    assert result.record.seats[seat].user_id == LATE and result.record.move_count == record.move_count
    assert result.record.narration[0].id == "shared.seat-given-member"


def _change(seat: int, after_move: int, before: Occupant, after: Occupant) -> SeatChange:
    return SeatChange(1, seat, after_move, before, after, HOST, (), NOW)


def test_stints_count_each_holders_moves_but_not_resign_or_rejoin() -> None:
    moves = [MoveRecord(seq, seq % 2, "x", False, NOW) for seq in range(1, 11)]
    moves[4] = MoveRecord(5, 1, "resign", False, NOW)
    moves[5] = MoveRecord(6, 1, "rejoin", False, NOW)
    change = _change(1, 6, Occupant(GUEST, "guest"), Occupant(LATE, "late"))
    found = stints(1, [change], moves)
    assert found == [Stint(GUEST, "guest", 2), Stint(LATE, "late", 2)]
    assert not credited(found)  # half is not most
    assert credited([Stint(GUEST, "guest", 1), Stint(LATE, "late", 2)])
    assert stints(0, [change], moves) == []

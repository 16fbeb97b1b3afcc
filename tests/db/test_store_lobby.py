"""Lobbies, starting, cancelling and the Discord bookkeeping columns."""

import asyncio
from datetime import datetime

import pytest

from db.errors import (
    AlreadySeatedError,
    GameAlreadyOverError,
    GameNotFoundError,
    HostCannotLeaveError,
    LobbyFullError,
    NotInLobbyError,
    NotSeatedError,
    StaleVersionError,
)
from db.records import NO_TIMER, NewLobby, TurnClock
from db.sql_store import SqlStore
from tests.db.helpers import CHANNEL, GUILD, NOW, later, new_lobby, record_in, running_game


async def test_create_lobby_seats_the_host_and_keeps_settings_seed_and_times(store: SqlStore) -> None:
    big_seed = 2**80 + 3  # wider than SQLite's integers
    lobby = await new_lobby(store, host=7, seed=big_seed, settings={"target": 21}, max_seats=3)
    assert (lobby.status, lobby.version, lobby.host_id, lobby.max_seats) == ("lobby", 0, 7, 3)
    assert [(seat.seat, seat.user_id, seat.name) for seat in lobby.seats] == [(0, 7, "u7")]
    assert (lobby.seed, lobby.settings, lobby.state, lobby.move_count) == (big_seed, {"target": 21}, None, 0)
    assert lobby.created_at == NOW and lobby.created_at.tzinfo is not None
    assert await store.get_game(lobby.id) == lobby


async def test_create_lobby_refuses_a_naive_time(store: SqlStore) -> None:
    with pytest.raises(ValueError, match="time zone"):
        await store.create_lobby(NewLobby("kasino", GUILD, CHANNEL, 1, "u1", {}, 1, 4), datetime(2025, 1, 1))  # noqa: DTZ001


async def test_create_lobby_refuses_an_unknown_kind(store: SqlStore) -> None:
    with pytest.raises(ValueError, match="unknown game kind"):
        await store.create_lobby(NewLobby("poker", GUILD, CHANNEL, 1, "u1", {}, 1, 4), NOW)


async def test_join_seats_players_in_join_order_and_bumps_the_version(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    lobby = await store.join_lobby(lobby.id, 2, "Kari", later(1))
    lobby = await store.join_lobby(lobby.id, 3, "Ola", later(2))
    seats = [(seat.seat, seat.user_id, seat.name) for seat in lobby.seats]
    assert seats == [(0, 1, "u1"), (1, 2, "Kari"), (2, 3, "Ola")]
    assert lobby.version == 2
    assert lobby.updated_at == later(2)
    assert lobby.seat_of(3) == 2 and lobby.seat_of(99) is None


async def test_join_twice_is_refused(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    with pytest.raises(AlreadySeatedError):
        await store.join_lobby(lobby.id, 1, "u1", NOW)


async def test_join_a_full_lobby_is_refused_with_the_count(store: SqlStore) -> None:
    lobby = await new_lobby(store, max_seats=2)
    await store.join_lobby(lobby.id, 2, "u2", NOW)
    with pytest.raises(LobbyFullError) as refused:
        await store.join_lobby(lobby.id, 3, "u3", NOW)
    assert (refused.value.taken, refused.value.seats) == (2, 2)  # the facts; the service says them in words


async def test_join_unknown_game_is_refused(store: SqlStore) -> None:
    with pytest.raises(GameNotFoundError) as refused:
        await store.join_lobby(999, 2, "u2", NOW)
    assert refused.value.game_id == 999


async def test_join_after_start_or_cancel_is_refused(store: SqlStore) -> None:
    started = await running_game(store, (1, 2))
    with pytest.raises(NotInLobbyError) as refused:
        await store.join_lobby(started.id, 3, "u3", NOW)
    assert refused.value.status == "running"
    cancelled = await new_lobby(store)
    await store.cancel_game(cancelled.id, NOW)
    with pytest.raises(NotInLobbyError) as refused:
        await store.join_lobby(cancelled.id, 3, "u3", NOW)
    assert refused.value.status == "cancelled"


async def test_concurrent_joins_never_overfill_nor_duplicate_a_seat(store: SqlStore) -> None:
    lobby = await new_lobby(store, max_seats=4)
    users = [*range(10, 30), 10, 11, 12]  # 20 players, three of them clicking twice
    results = await asyncio.gather(
        *(store.join_lobby(lobby.id, user, f"u{user}", NOW) for user in users), return_exceptions=True
    )
    assert sum(not isinstance(result, Exception) for result in results) == 3
    refusals = [result for result in results if isinstance(result, Exception)]
    assert all(isinstance(refusal, (LobbyFullError, AlreadySeatedError)) for refusal in refusals)
    final = await store.get_game(lobby.id)
    assert final is not None
    assert [seat.seat for seat in final.seats] == [0, 1, 2, 3]
    assert len({seat.user_id for seat in final.seats}) == 4
    assert final.version == 3


async def test_leave_moves_later_joiners_up_one_seat(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    for user in (2, 3, 4):
        lobby = await store.join_lobby(lobby.id, user, f"u{user}", NOW)
    lobby = await store.leave_lobby(lobby.id, 2, later(5))
    assert [(seat.seat, seat.user_id) for seat in lobby.seats] == [(0, 1), (1, 3), (2, 4)]
    assert lobby.version == 4


async def test_leave_refuses_someone_not_seated(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    with pytest.raises(NotSeatedError) as refused:
        await store.leave_lobby(lobby.id, 5, NOW)
    assert (refused.value.name, refused.value.seat) == (None, None)  # the player who asked is not seated


async def test_host_cannot_leave_unless_the_caller_allows_it(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    lobby = await store.join_lobby(lobby.id, 2, "u2", NOW)
    with pytest.raises(HostCannotLeaveError):
        await store.leave_lobby(lobby.id, 1, NOW)
    lobby = await store.leave_lobby(lobby.id, 1, NOW, allow_host=True)
    assert lobby.host_id == 2
    assert [seat.user_id for seat in lobby.seats] == [2]


async def test_start_orders_seats_places_computers_and_stores_the_snapshot(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    lobby = await store.add_computer(lobby.id, "hard", NOW)
    lobby = await store.join_lobby(lobby.id, 2, "u2", NOW)
    lobby = await store.add_computer(lobby.id, "easy", NOW)
    deadline = later(60)
    seating = [2, None, 1, None]
    game = await store.start_game(lobby.id, lobby.version, seating, {"schema": 1}, later(1), timer=TurnClock(deadline))
    assert game.status == "running" and game.version == lobby.version + 1
    assert [(seat.user_id, seat.name, seat.is_computer, seat.strength) for seat in game.seats] == [
        (2, "u2", False, None),
        (None, "Computer (hard)", True, "hard"),
        (1, "u1", False, None),
        (None, "Computer (easy)", True, "easy"),
    ]
    assert (game.state, game.deadline, game.warned) == ({"schema": 1}, deadline, False)


async def test_computers_of_one_strength_get_their_own_names_and_leave_by_name(store: SqlStore) -> None:
    lobby = await new_lobby(store, max_seats=5)
    for strength in ("hard", "hard", "medium", "hard"):
        lobby = await store.add_computer(lobby.id, strength, later(1))
    assert [seat.name for seat in lobby.seats] == [
        "u1", "Computer (hard)", "Computer (hard) 2", "Computer (medium)", "Computer (hard) 3"
    ]  # fmt: skip
    assert lobby.version == 4 and all(seat.dm_ok is False for seat in lobby.seats[1:])
    lobby = await store.remove_computer(lobby.id, "Computer (hard)", later(2))
    assert [(seat.seat, seat.name) for seat in lobby.seats] == [
        (0, "u1"), (1, "Computer (hard) 2"), (2, "Computer (medium)"), (3, "Computer (hard) 3")
    ]  # fmt: skip
    lobby = await store.add_computer(lobby.id, "hard", later(3))  # the lowest free name again
    assert lobby.seats[-1].name == "Computer (hard)"
    with pytest.raises(NotSeatedError) as refused:
        await store.remove_computer(lobby.id, "Computer (easy)", later(4))
    assert refused.value.name == "Computer (easy)"
    with pytest.raises(NotSeatedError):
        await store.remove_computer(lobby.id, "u1", later(4))  # a member is not a computer
    with pytest.raises(LobbyFullError):
        await store.add_computer(lobby.id, "easy", later(5))
    with pytest.raises(ValueError, match="unknown strength"):
        await store.add_computer(lobby.id, "brutal", later(5))


async def test_computers_cannot_be_added_or_removed_once_started(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    lobby = await store.add_computer(lobby.id, "easy", NOW)
    await store.start_game(lobby.id, lobby.version, [None, 1], {"schema": 1}, NOW)
    for refused_write in (
        store.add_computer(lobby.id, "hard", later(1)),
        store.remove_computer(lobby.id, "Computer (easy)", later(1)),
    ):
        with pytest.raises(NotInLobbyError) as refused:
            await refused_write
        assert refused.value.status == "running"


async def test_running_games_with_computers_lists_only_those(store: SqlStore) -> None:
    with_computer = await running_game(store, (1, None))
    await running_game(store, (3, 4))
    assert [game.id for game in await store.running_games_with_computers()] == [with_computer.id]


async def test_start_with_an_old_version_is_refused(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    joined = await store.join_lobby(lobby.id, 2, "u2", NOW)
    with pytest.raises(StaleVersionError):
        await store.start_game(lobby.id, lobby.version, [1, 2], {}, NOW)
    assert (await store.get_game(lobby.id)) == joined


@pytest.mark.parametrize("seating", [[1], [1, 3], [1, 2, 2], [1, 2, None], [None, 1, 2, None, None]])
async def test_start_needs_exactly_the_lobby_members_within_the_seat_limit(
    store: SqlStore, seating: list[int | None]
) -> None:
    lobby = await new_lobby(store)
    lobby = await store.join_lobby(lobby.id, 2, "u2", NOW)
    with pytest.raises(ValueError, match="seat"):
        await store.start_game(lobby.id, lobby.version, seating, {}, NOW)
    assert (await record_in(store, lobby.id)).status == "lobby"


async def test_cancel_ends_a_running_game_once(store: SqlStore) -> None:
    game = await running_game(store)
    cancelled = await store.cancel_game(game.id, later(9))
    assert (cancelled.status, cancelled.finished_at, cancelled.version) == ("cancelled", later(9), game.version + 1)
    with pytest.raises(GameAlreadyOverError) as refused:
        await store.cancel_game(game.id, later(10))
    assert refused.value.status == "cancelled"
    assert (await store.leaderboard(GUILD, "kasino", "wins")).total == 0


async def test_set_messages_changes_only_what_is_given(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    await store.set_messages(lobby.id, lobby_message_id=11, thread_id=12)
    await store.set_messages(lobby.id, table_message_id=13, lobby_message_id=None)
    game = await store.get_game(lobby.id)
    assert game is not None
    assert (game.lobby_message_id, game.thread_id, game.table_message_id, game.ping_message_id) == (None, 12, 13, None)
    assert lobby is not None
    assert game.version == lobby.version


async def test_set_messages_on_unknown_game_is_refused(store: SqlStore) -> None:
    with pytest.raises(GameNotFoundError):
        await store.set_messages(404, thread_id=1)


async def test_update_seat_changes_only_what_is_given(store: SqlStore) -> None:
    game = await running_game(store, (1, 2))
    await store.update_seat(game.id, 1, dm_ok=False, hand_message_id=77)
    await store.update_seat(game.id, 1, auto_streak=2)
    seat = (await record_in(store, game.id)).seats[1]
    assert (seat.dm_ok, seat.auto_streak, seat.hand_message_id) == (False, 2, 77)
    with pytest.raises(NotSeatedError) as refused:
        await store.update_seat(game.id, 5, dm_ok=True)
    assert refused.value.seat == 5


async def test_set_timer_keeps_the_version(store: SqlStore) -> None:
    game = await running_game(store)
    await store.set_timer(game.id, TurnClock(later(300), warned=True), expected_version=game.version)
    stored = await store.get_game(game.id)
    assert stored is not None
    assert game is not None
    assert (stored.deadline, stored.warned, stored.version) == (later(300), True, game.version)
    await store.set_timer(game.id, NO_TIMER, expected_version=game.version)
    assert (await record_in(store, game.id)).deadline is None


async def test_games_in_guild_and_channel_queries(store: SqlStore) -> None:
    lobby = await new_lobby(store)
    game = await running_game(store, (3, 4))
    await store.set_messages(game.id, thread_id=555)
    finished = await running_game(store, (5, 6))
    await store.cancel_game(finished.id, NOW)
    other_guild = await running_game(store, (7, 8), guild=GUILD + 1)

    assert [g.id for g in await store.games_in_guild(GUILD)] == [lobby.id, game.id]
    assert [g.id for g in await store.games_in_guild(GUILD, ("cancelled",))] == [finished.id]
    assert [g.id for g in await store.running_games_in_channel(CHANNEL)] == [game.id, other_guild.id]
    assert [g.id for g in await store.running_games_in_channel(555)] == [game.id]
    assert [g.id for g in await store.running_games_in_channel(CHANNEL, ("lobby",))] == [lobby.id]
    assert await store.get_game(12345) is None

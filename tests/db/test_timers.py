"""Turn timers in storage: the options kept with a lobby, deadlines saved with moves, and finding due games."""

import pytest

from db.errors import GameNotFoundError, StaleVersionError
from tests.db.helpers import NOW, later, new_lobby, running_game


async def test_a_lobby_keeps_its_turn_timer_and_afk_limit(store):
    lobby = await store.create_lobby("garbage", 1, 2, 3, "host", {}, 9, 6, NOW, turn_seconds=120, afk_limit=2)
    again = await store.get_game(lobby.id)
    assert (again.turn_seconds, again.afk_limit) == (120, 2)


async def test_without_options_there_is_no_timer_and_the_limit_is_three(store):
    lobby = await new_lobby(store)
    assert (lobby.turn_seconds, lobby.afk_limit) == (None, 3)


@pytest.mark.parametrize(("turn_seconds", "afk_limit"), [(0, 3), (-5, 3), (60, 0)])
async def test_impossible_timer_options_are_refused(store, turn_seconds, afk_limit):
    with pytest.raises(ValueError, match="turn_seconds must be positive"):
        await store.create_lobby("kasino", 1, 2, 3, "h", {}, 1, 2, NOW, turn_seconds=turn_seconds, afk_limit=afk_limit)


async def test_due_games_are_the_running_ones_whose_deadline_has_come(store):
    early = await running_game(store, (1, 2))
    late = await running_game(store, (3, 4))
    untimed = await running_game(store, (5, 6))
    early = await store.save_move(early.id, early.version, 0, "a", {"n": 1}, NOW, deadline=later(60))
    late = await store.save_move(late.id, late.version, 0, "a", {"n": 1}, NOW, deadline=later(120))
    await store.save_move(untimed.id, untimed.version, 0, "a", {"n": 1}, NOW)
    assert [game.id for game in await store.due_games(later(59))] == []
    assert [game.id for game in await store.due_games(later(60))] == [early.id]
    assert [game.id for game in await store.due_games(later(500))] == [early.id, late.id]
    await store.cancel_game(late.id, later(1))
    assert [game.id for game in await store.due_games(later(500))] == [early.id]


async def test_set_deadline_moves_the_deadline_and_remembers_the_warning(store):
    game = await running_game(store, (1, 2))
    await store.set_deadline(game.id, later(30), warned=True, expected_version=game.version)
    stored = await store.get_game(game.id)
    assert (stored.deadline, stored.warned, stored.version) == (later(30), True, game.version)


async def test_a_warning_read_before_a_move_cannot_reset_the_next_players_deadline(store):
    game = await running_game(store, (1, 2))
    moved = await store.save_move(game.id, game.version, 0, "a", {"n": 1}, NOW, deadline=later(120))
    with pytest.raises(StaleVersionError):
        await store.set_deadline(game.id, later(30), warned=True, expected_version=game.version)
    stored = await store.get_game(game.id)
    assert (stored.deadline, stored.warned) == (later(120), False)
    assert stored == moved


async def test_set_deadline_on_a_missing_game_says_so(store):
    with pytest.raises(GameNotFoundError):
        await store.set_deadline(999, later(30), warned=True, expected_version=0)


async def test_a_seat_update_read_before_a_move_is_refused_and_changes_nothing(store):
    game = await running_game(store, (1, 2))
    await store.save_move(game.id, game.version, 0, "a", {"n": 1}, NOW)
    with pytest.raises(StaleVersionError):
        await store.update_seat(game.id, 0, auto_streak=2, expected_version=game.version)
    assert (await store.get_game(game.id)).seats[0].auto_streak == 0
    await store.update_seat(game.id, 0, auto_streak=2, expected_version=game.version + 1)
    assert (await store.get_game(game.id)).seats[0].auto_streak == 2

"""Issue 26 in storage: a lobby's house rules, a server's usual ones (migration 0012), games counted as played under
house rules, and partnerships rated as teams."""

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import aiosqlite
import pytest

from db.errors import NotInLobbyError, StaleVersionError
from db.migrate import migrate
from db.ratings import DEFAULT_SKILL, Skill, rate
from db.sql_store import SqlStore
from db.store import Store
from engine import registry
from engine.kinds import GameKind
from tests import toy_game
from tests.db.helpers import GUILD, NOW, finish_game, later, new_lobby, record_in, running_game


@pytest.fixture
def toy() -> Iterator[GameKind]:
    with registry.registered(toy_game.KIND) as kind:
        yield kind


# -- migration 0012 ---------------------------------------------------------------------------------------------------


async def test_migration_0012_adds_presets_and_leaves_earlier_results_outside_house_rules(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        assert await migrate(conn, target=11) == 11
    store = await Store.open(path)  # migrates to the newest
    try:
        assert await store.house_rules_preset(GUILD, "kasino") == {}
    finally:
        await store.close()
    # A result recorded before 0012, written as 0011's schema had it, says "not under house rules".
    path2 = tmp_path / "old.db"
    async with aiosqlite.connect(path2, isolation_level=None) as conn:
        await migrate(conn, target=11)
        await conn.execute(
            """INSERT INTO games (id, kind, guild_id, channel_id, status, host_id, settings, seed, max_seats,
                                  created_at, updated_at)
               VALUES (1, 'kasino', 1, 2, 'finished', 10, '{"target": 21}', '7', 2, 'x', 'x')"""
        )
        await conn.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (1, 0, 10, 'Kari')")
        await conn.execute(
            """INSERT INTO results (game_id, user_id, guild_id, kind, seat, name, place, score, rated, mu_before,
                                    sigma_before, mu_after, sigma_after, finished_at)
               VALUES (1, 10, 1, 'kasino', 0, 'Kari', 1, 21, 1, 25, 8, 26, 7, 'x')"""
        )
        assert await migrate(conn) >= 12
        rows = await conn.execute_fetchall("SELECT house_rules FROM results")
        assert [tuple(row) for row in rows] == [(0,)]
        with pytest.raises(sqlite3.IntegrityError):  # settings are a JSON object, nothing else
            await conn.execute("INSERT INTO house_rule_presets VALUES (1, 'kasino', '[1]', 'x')")


# -- a lobby's settings -----------------------------------------------------------------------------------------------


async def test_a_lobbys_settings_change_with_its_version_and_only_in_the_lobby(store: SqlStore) -> None:
    lobby = await new_lobby(store, settings={"target": 16})
    changed = await store.set_lobby_settings(lobby.id, {"target": 21}, later(1), expected_version=lobby.version)
    assert changed.settings == {"target": 21} and changed.version == lobby.version + 1
    with pytest.raises(StaleVersionError):
        await store.set_lobby_settings(lobby.id, {"target": 11}, later(2), expected_version=lobby.version)
    assert (await record_in(store, lobby.id)).settings == {"target": 21}
    game = await running_game(store)
    with pytest.raises(NotInLobbyError):
        await store.set_lobby_settings(game.id, {"target": 11}, later(3), expected_version=game.version)


# -- a server's usual house rules -------------------------------------------------------------------------------------


async def test_a_servers_usual_house_rules_are_kept_per_server_and_kind_and_forgotten_on_reset(store: SqlStore) -> None:
    await store.save_house_rules_preset(GUILD, "kasino", {"sweeps": "cancel"}, NOW)
    await store.save_house_rules_preset(GUILD, "garbage", {"jokers": True}, NOW)
    await store.save_house_rules_preset(GUILD + 1, "kasino", {"building": False}, NOW)
    await store.save_house_rules_preset(GUILD, "kasino", {"sweeps": "off"}, later(1))  # saved again: replaced
    assert await store.house_rules_preset(GUILD, "kasino") == {"sweeps": "off"}
    assert await store.house_rules_preset(GUILD, "garbage") == {"jokers": True}
    assert await store.house_rules_preset(GUILD + 1, "kasino") == {"building": False}
    assert await store.reset_house_rules_preset(GUILD, "kasino") is True
    assert await store.reset_house_rules_preset(GUILD, "kasino") is False  # nothing left to forget
    assert await store.house_rules_preset(GUILD, "kasino") == {}
    await store.save_house_rules_preset(GUILD, "garbage", {}, later(2))  # saving none forgets them too
    assert await store.house_rules_preset(GUILD, "garbage") == {}
    assert await store.house_rules_preset(GUILD + 1, "kasino") == {"building": False}


# -- played under house rules -----------------------------------------------------------------------------------------


async def test_a_game_off_its_default_rules_counts_as_played_under_house_rules(store: SqlStore, toy: GameKind) -> None:
    await finish_game(store, (1, 2), (1, 2), kind="toy", settings={"rounds": 1})
    await finish_game(store, (1, 2), (2, 1), kind="toy", settings={"rounds": 3, "aces_low": False})  # the defaults
    await finish_game(store, (1, 3), (1, 2), kind="toy", settings={"aces_low": True}, guild=GUILD + 1)
    stats = (await store.player_stats(1, GUILD)).for_kind("toy")
    assert (stats.server.games, stats.server.house_rules) == (2, 1)
    assert (stats.overall.games, stats.overall.house_rules) == (3, 2)
    assert (await store.player_stats(2, GUILD)).for_kind("toy").server.house_rules == 1
    async with store.transaction() as conn:
        rows = await conn.execute_fetchall("SELECT house_rules FROM results ORDER BY game_id, user_id")
    assert [row[0] for row in rows] == [1, 1, 0, 0, 1, 1]


# -- partnerships rated as teams --------------------------------------------------------------------------------------


def test_rating_in_teams_moves_partners_together_and_sharing_the_teams_place() -> None:
    skills = [DEFAULT_SKILL, Skill(30.0, 4.0), DEFAULT_SKILL, Skill(30.0, 4.0)]
    after = rate(skills, [1, 2, 1, 2], teams=["a", "b", "a", "b"])
    assert after[0].mu > skills[0].mu and after[2].mu > skills[2].mu  # both winners gain
    assert after[1].mu < skills[1].mu and after[3].mu < skills[3].mu  # both losers lose
    assert after[0] == after[2] and after[1] == after[3]  # equal partners move alike
    alone = rate(skills, [1, 2, 1, 2])  # the same places rated one by one: the partners would be two players each
    assert alone != after


def test_rating_a_single_team_changes_nothing_and_teams_need_one_per_player() -> None:
    skills = [DEFAULT_SKILL, Skill(20.0, 3.0)]
    assert rate(skills, [1, 1], teams=[0, 0]) == tuple(skills)
    with pytest.raises(ValueError, match="teams"):
        rate(skills, [1, 2], teams=[0])


async def test_a_game_in_partnerships_is_rated_as_teams(store: SqlStore) -> None:
    await finish_game(store, (1, 2, 3, 4), (1, 2, 1, 2), (16, 9, 16, 9), teams=((0, 2), (1, 3)))
    ratings = {user: (await store.player_stats(user, GUILD)).for_kind("kasino").rating for user in (1, 2, 3, 4)}
    assert ratings[1] == pytest.approx(ratings[3]) and ratings[2] == pytest.approx(ratings[4])
    assert ratings[1] is not None and ratings[2] is not None
    assert ratings[1] > DEFAULT_SKILL.rating > ratings[2]
    # The same places without teams: four players, two pairs tied, rated differently.
    await finish_game(store, (5, 6, 7, 8), (1, 2, 1, 2), (16, 9, 16, 9))
    singles = (await store.player_stats(5, GUILD)).for_kind("kasino").rating
    assert singles != pytest.approx(ratings[1])

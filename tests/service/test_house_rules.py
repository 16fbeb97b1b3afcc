"""Issue 26 in the table service: the host's house rules in a lobby, checked against the seats, and a server's usual
house rules that new lobbies start from. Played with the toy kind (tests/toy_game.py): TV1 rounds (a choice), TV2
showdown (on/off, three seats only), TV3 aces low (on/off, also an option of `/toy new`)."""

import itertools
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest

from db.records import GameRecord
from db.sql_store import SqlStore
from engine import registry
from engine.message import Message
from service.errors import RefusedError
from service.tables import LobbyOptions, TableService
from tests import toy_game
from tests.db.helpers import CHANNEL, GUILD, NOW

HOST, GUEST, THIRD = 11, 22, 33


@pytest.fixture
async def tables(any_store: SqlStore) -> AsyncIterator[TableService]:
    seeds = itertools.count(5)
    with registry.registered(toy_game.KIND):
        yield TableService(any_store, clock=lambda: NOW, new_seed=lambda: next(seeds))


async def lobby(
    tables: TableService, seats: int = 3, settings: dict[str, Any] | None = None, guild: int = GUILD, kind: str = "toy"
) -> GameRecord:
    return await tables.open_lobby(
        kind,
        LobbyOptions(seats, settings or {}),
        guild_id=guild,
        channel_id=CHANNEL,
        host_id=HOST,
        host_name="host",
    )


def refused_with(error: pytest.ExceptionInfo[RefusedError]) -> Message:
    return error.value.message


async def test_the_host_sets_each_house_rule_and_the_lobby_keeps_it(tables: TableService) -> None:
    record = await lobby(tables)
    record = await tables.set_house_rule(record.id, HOST, "rounds", 1)
    record = await tables.set_house_rule(record.id, HOST, "showdown", True)
    assert record.settings == {"rounds": 1, "showdown": True}
    kind = registry.game_kind("toy")
    assert [(rule.rule_id, value) for rule, value in kind.rules_in_force(record.settings)] == [
        ("TV1", 1),
        ("TV2", True),
    ]
    record = await tables.set_house_rule(record.id, HOST, "rounds", 3)  # back to the default
    assert [rule.rule_id for rule, _ in kind.rules_in_force(record.settings)] == ["TV2"]


async def test_a_guest_a_wrong_value_a_rule_that_does_not_fit_and_a_started_game_are_refused(
    tables: TableService,
) -> None:
    record = await lobby(tables, seats=2)
    await tables.join(record.id, GUEST, "guest")
    with pytest.raises(RefusedError) as refused:
        await tables.set_house_rule(record.id, GUEST, "rounds", 1)
    assert refused_with(refused) == Message("refused.host-only-house-rules")
    with pytest.raises(RefusedError) as refused:
        await tables.set_house_rule(record.id, HOST, "rounds", 7)
    assert refused_with(refused) == Message("refused.house-rule-value", {"rule": "TV1"})
    with pytest.raises(RefusedError) as refused:
        await tables.set_house_rule(record.id, HOST, "rounds", "1")  # a value of the wrong type is no value
    assert refused_with(refused) == Message("refused.house-rule-value", {"rule": "TV1"})
    with pytest.raises(RefusedError) as refused:
        await tables.set_house_rule(record.id, HOST, "no_such_rule", True)
    assert refused_with(refused).id == "refused.no-such-house-rule"
    with pytest.raises(RefusedError) as refused:  # showdown needs three seats; this lobby has two
        await tables.set_house_rule(record.id, HOST, "showdown", True)
    assert refused_with(refused) == Message("toy.refused.showdown-three", {"seats": 2})
    assert (await tables.get(record.id)).settings == {}  # nothing changed
    await tables.start(record.id, HOST)
    with pytest.raises(RefusedError) as refused:
        await tables.set_house_rule(record.id, HOST, "rounds", 1)
    assert refused_with(refused) == Message("refused.house-rules-started")


async def test_start_checks_the_house_rules_again_against_the_players_seated(tables: TableService) -> None:
    record = await lobby(tables, seats=3)
    await tables.join(record.id, GUEST, "guest")
    await tables.set_house_rule(record.id, HOST, "showdown", True)  # fits the lobby's three seats
    with pytest.raises(RefusedError) as refused:  # but two are seated
        await tables.start(record.id, HOST)
    reason = Message("toy.refused.showdown-three", {"seats": 2})
    assert refused_with(refused) == Message("refused.house-rules-start", {"reason": reason})
    await tables.join(record.id, THIRD, "third")
    started = await tables.start(record.id, HOST)
    assert started.game.settings.showdown and started.record.settings["showdown"] is True


async def test_a_kind_without_house_rules_refuses_them(tables: TableService) -> None:
    titled = type("Plain", (toy_game.KIND.engine,), {"TITLE": "Plain Card"})  # a kind's title is its own
    plain = replace(toy_game.KIND, name="plain", code="q", engine=titled, house_rules=(), house_rules_fit=None)
    with registry.registered(plain):
        record = await lobby(tables, seats=2, kind="plain")
        with pytest.raises(RefusedError) as refused:
            await tables.set_house_rule(record.id, HOST, "rounds", 1)
    assert refused_with(refused) == Message("refused.no-house-rules", {"game": plain.title})


async def test_a_new_lobby_starts_from_the_servers_usual_house_rules_under_what_the_host_chose(
    tables: TableService,
) -> None:
    preset = await tables.set_preset_rule(GUILD, "toy", "rounds", 2, is_manager=True)
    preset = await tables.set_preset_rule(GUILD, "toy", "aces_low", True, is_manager=True)
    assert preset == {"rounds": 2, "aces_low": True}
    assert (await lobby(tables)).settings == {"rounds": 2, "aces_low": True}
    assert (await lobby(tables, settings={"aces_low": False})).settings == {"rounds": 2, "aces_low": False}
    assert (await lobby(tables, guild=GUILD + 1)).settings == {}  # another server's lobbies: the main rules


async def test_a_preset_rule_that_does_not_fit_a_lobbys_seats_is_left_out_there(tables: TableService) -> None:
    await tables.set_preset_rule(GUILD, "toy", "showdown", True, is_manager=True)
    await tables.set_preset_rule(GUILD, "toy", "rounds", 1, is_manager=True)
    assert (await lobby(tables, seats=3)).settings == {"showdown": True, "rounds": 1}
    assert (await lobby(tables, seats=2)).settings == {"rounds": 1}


async def test_a_preset_keeps_only_rules_off_their_defaults_and_forgets_them_on_reset(tables: TableService) -> None:
    await tables.set_preset_rule(GUILD, "toy", "rounds", 1, is_manager=True)
    assert await tables.set_preset_rule(GUILD, "toy", "rounds", 3, is_manager=True) == {}
    assert await tables.house_rules_preset(GUILD, "toy") == {}
    await tables.set_preset_rule(GUILD, "toy", "showdown", True, is_manager=True)
    assert await tables.reset_preset(GUILD, "toy", is_manager=True) is True
    assert await tables.house_rules_preset(GUILD, "toy") == {}
    assert await tables.reset_preset(GUILD, "toy", is_manager=True) is False


async def test_only_managers_change_a_servers_usual_house_rules(tables: TableService) -> None:
    record = await lobby(tables)
    for attempt in (
        tables.set_preset_rule(GUILD, "toy", "rounds", 1, is_manager=False),
        tables.save_lobby_as_preset(record.id, guild_id=GUILD, is_manager=False),
        tables.reset_preset(GUILD, "toy", is_manager=False),
    ):
        with pytest.raises(RefusedError) as refused:
            await attempt
        assert refused_with(refused) == Message("refused.house-rules-managers-only")
    assert await tables.house_rules_preset(GUILD, "toy") == {}


async def test_a_manager_keeps_a_lobbys_house_rules_as_the_servers_usual(tables: TableService) -> None:
    record = await lobby(tables)
    await tables.set_house_rule(record.id, HOST, "rounds", 2)
    await tables.set_house_rule(record.id, HOST, "aces_low", True)
    assert await tables.save_lobby_as_preset(record.id, guild_id=GUILD, is_manager=True) == {
        "rounds": 2,
        "aces_low": True,
    }
    assert (await lobby(tables)).settings == {"rounds": 2, "aces_low": True}
    with pytest.raises(RefusedError):  # a lobby of another server is not this server's to copy
        await tables.save_lobby_as_preset(record.id, guild_id=GUILD + 1, is_manager=True)


async def test_a_stored_preset_value_the_kind_no_longer_allows_is_left_out(tables: TableService) -> None:
    await tables.store.save_house_rules_preset(GUILD, "toy", {"rounds": 9, "gone": True, "aces_low": True}, NOW)
    assert await tables.house_rules_preset(GUILD, "toy") == {"aces_low": True}
    assert (await lobby(tables)).settings == {"aces_low": True}


async def test_a_rematch_keeps_the_games_own_rules_not_the_servers_usual(tables: TableService) -> None:
    record = await lobby(tables, seats=2)
    await tables.set_house_rule(record.id, HOST, "rounds", 1)
    await tables.join(record.id, GUEST, "guest")
    started = await tables.start(record.id, HOST)
    await tables.set_preset_rule(GUILD, "toy", "aces_low", True, is_manager=True)
    game = started.game
    while game.to_move is not None:
        mover = started.record.seats[game.to_move].user_id
        assert mover is not None
        game = (await tables.play(record.id, mover, str(game.legal_moves(game.to_move)[0]))).game
    rematch = await tables.rematch(record.id, GUEST, "guest")
    assert rematch.settings == {"rounds": 1}  # aces high, as in the game played, not the server's usual aces low

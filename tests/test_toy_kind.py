"""Issue 23: a kind the registry lists only while a test runs (the toy High Card of `tests/toy_game.py`) is stored,
offered in a lobby, played, timed out and replayed by the generic parts of the bot, with no edit elsewhere: no
computer players offered (it has none), and an absent player's turn made by the kind's own simple move."""

import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import discord
import pytest

from ai.base import Strength
from ai.players import player_for, strengths_for
from cogs.lobby import lobby_view
from db.records import NewLobby
from db.store import Store
from engine import registry
from engine.kinds import GameKind
from service.tables import LobbyOptions, TableService
from tests import toy_game

NOW = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def toy() -> Iterator[GameKind]:
    with registry.registered(toy_game.KIND) as kind:
        yield kind


async def test_a_registered_toy_kind_is_stored_started_played_timed_out_and_checked(
    toy: GameKind, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = await Store.open(tmp_path / "toy.db")
    try:
        service = TableService(store, clock=lambda: NOW, new_seed=lambda: 7)
        lobby = await service.open_lobby(
            "toy", LobbyOptions(seats=2, turn_seconds=60), guild_id=1, channel_id=2, host_id=10, host_name="Kari"
        )
        await service.join(lobby.id, 11, "Ola")
        started = await service.start(lobby.id, 10)
        game = started.game
        assert game.to_move is not None
        mover = started.record.seats[game.to_move].user_id
        assert mover is not None
        played = await service.play(lobby.id, mover, str(game.legal_moves(game.to_move)[0]))
        assert played.record.move_count == 1 and played.narration
        with caplog.at_level(logging.WARNING):
            timed_out = await service.expire(lobby.id, version=played.record.version)
        assert timed_out and timed_out[0].auto  # the kind's own simple move, with no computer player to ask
        assert not [entry for entry in caplog.records if entry.levelno >= logging.ERROR]
        record = await store.get_game(lobby.id)
        moves = await store.game_moves(lobby.id)
        assert record is not None
        replayed = registry.game_class("toy").replay(2, record.seed, record.settings, [(m.seat, m.move) for m in moves])
        assert replayed.to_dict() == record.state
    finally:
        await store.close()


def test_a_kind_without_computer_players_offers_none(toy: GameKind) -> None:
    assert strengths_for("toy") == ()
    with pytest.raises(ValueError, match="no medium computer player"):
        player_for("toy", Strength.MEDIUM)
    assert strengths_for("kasino")  # the real kinds keep theirs


async def test_the_lobby_of_a_kind_without_computers_has_no_computer_menu(toy: GameKind, tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "toy.db")
    try:
        record = await store.create_lobby(NewLobby("toy", 1, 2, 10, "Kari", {}, 7, 2), NOW)
        items = lobby_view(record).children
        assert all(isinstance(item, discord.ui.DynamicItem) for item in items)
        ids = [item.custom_id for item in items if isinstance(item, discord.ui.DynamicItem)]
        assert ids and not any("cpuadd" in custom_id for custom_id in ids)
    finally:
        await store.close()

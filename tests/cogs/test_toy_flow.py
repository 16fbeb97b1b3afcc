"""Issue 23: a kind added as `docs/adding-a-game.md` says, with no edit outside its own files, is played through the
real bot in SimCord: the test suite's toy High Card (`tests/toy_game.py`, its Discord module `tests/toy_cog.py`),
registered for this module's bots only. Its lobby, table, DM panels, `/toy hand` and `/rules` come from the parts
every kind shares, and nothing is logged at ERROR."""

import logging
from collections.abc import Callable, Iterator

import pytest
import simcord

from bot import CardBot
from engine import registry
from tests import toy_game
from tests.cogs.helpers import bot_of, game_thread, member_for, open_and_start, private_text, state_of, table_message


@pytest.fixture
def simcord_bot(make_bot: Callable[[], CardBot]) -> Iterator[CardBot]:
    with registry.registered(toy_game.KIND):
        yield make_bot()


async def test_a_toy_kind_is_played_to_the_end_through_the_bot_with_no_error_logged(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    caplog: pytest.LogCaptureFixture,
) -> None:
    alice, bob = members[:2]
    with caplog.at_level(logging.INFO):
        _, game_id = await open_and_start(channel, alice, [bob], "toy new", seats=2)
        thread = game_thread(channel, game_id)
        for _ in range(2 * toy_game.ROUNDS):
            record = await bot_of(simcord_env).store.get_game(game_id)
            assert record is not None
            game = toy_game.HighCard.from_dict(state_of(record))
            assert game.to_move is not None
            player = member_for(members, record, game.to_move)
            hand = await player.slash(thread, "toy hand")
            cards = [str(card) for card in game.view(game.to_move).hand]
            assert private_text(hand) == f"Your hand: {' '.join(cards)}"
            assert any(message.content.startswith("Your hand:") for message in player.user.dm_channel.history())
            played = await player.slash(thread, "toy play", move=f"show {cards[0]}")
            assert "Played: show" in private_text(played), private_text(played)
        record = await bot_of(simcord_env).store.get_game(game_id)
        assert record is not None
        assert record.status == "finished"
        assert "nobody to play" in table_message(thread, game_id).content
        rules = await alice.slash(channel, "rules", game="kasino")  # the real kinds keep theirs beside the toy
        assert rules.response is not None
        assert rules.ephemeral and rules.response.embeds[0].fields[0].name == "Typing a move"
    errors = [entry.getMessage() for entry in caplog.records if entry.levelno >= logging.ERROR]
    assert errors == []

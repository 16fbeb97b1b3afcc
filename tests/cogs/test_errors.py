"""Issue 5: a failure on our side is logged and answered with an apology, never "This interaction failed"."""

import logging

import discord
import simcord

from cogs._errors import APOLOGY
from engine.garbage import GarbageGame
from tests.cogs.helpers import game_thread, member_for, open_and_start, table_message


async def test_a_failing_table_edit_gets_an_apology_and_keeps_the_saved_move(simcord_env, channel, members, caplog):
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    record = await simcord_env.bot.store.get_game(game_id)
    player = member_for(members, record, GarbageGame.from_dict(record.state).to_move)
    table = table_message(game_thread(channel, game_id), game_id)
    simcord_env.inject_error("PATCH", f"/channels/*/messages/{table.id}", status=500, message="Discord is down")
    with caplog.at_level(logging.ERROR):
        clicked = await player.click(table, label="Draw from stock")
    assert clicked.acknowledged
    assert [followup.content for followup in clicked.followups] == [APOLOGY]
    assert all(followup.ephemeral for followup in clicked.followups)
    # Logged with the game's context, and with the traceback (by discord.py, which the wrapper re-raises to).
    assert any(f"component g:{game_id}:" in entry.getMessage() for entry in caplog.records)
    assert any(entry.exc_info and "Discord is down" in str(entry.exc_info[1]) for entry in caplog.records)
    # The move was saved before the table was touched: nothing is lost, and the next edit shows it.
    assert len(await simcord_env.bot.store.game_moves(game_id)) == 1


async def test_a_failing_slash_command_is_logged_and_apologised_for(simcord_env, channel, members, caplog):
    alice = members[0]
    simcord_env.inject_error("POST", "/webhooks/*", status=500, message="Discord hiccup", times=1)
    with caplog.at_level(logging.ERROR, logger="cogs._errors"):
        shown = await alice.slash(channel, "leaderboard", game="kasino")
    assert shown.acknowledged
    # The command had deferred publicly, so the apology takes the place of "thinking…".
    assert APOLOGY in [shown.response.content, *(followup.content for followup in shown.followups)]
    simcord.assert_error(simcord_env, discord.HTTPException, contains="Discord hiccup")
    assert any("/leaderboard failed" in record.getMessage() for record in caplog.records)
    assert any(record.exc_info for record in caplog.records)

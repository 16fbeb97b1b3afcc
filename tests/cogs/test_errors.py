"""Issue 5: a failure on our side is logged and answered with an apology, never "This interaction failed".

A failure after a move was saved is not "our side failing to change the game": see test_projection.py.
"""

import logging

import discord
import pytest
import simcord

from cogs.runtime.errors import APOLOGY


async def test_a_failing_slash_command_is_logged_and_apologised_for(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    caplog: pytest.LogCaptureFixture,
) -> None:
    alice = members[0]
    simcord_env.inject_error("POST", "/webhooks/*", status=500, message="Discord hiccup", times=1)
    with caplog.at_level(logging.ERROR, logger="cogs.runtime.errors"):
        shown = await alice.slash(channel, "leaderboard", game="kasino")
    assert shown.acknowledged
    # The command had deferred publicly, so the apology takes the place of "thinking…".
    assert shown.response is not None
    assert APOLOGY in [shown.response.content, *(followup.content for followup in shown.followups)]
    simcord.assert_error(simcord_env, discord.HTTPException, contains="Discord hiccup")
    assert any("/leaderboard failed" in record.getMessage() for record in caplog.records)
    assert any(record.exc_info for record in caplog.records)

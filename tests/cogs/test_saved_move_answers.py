"""Issue 44, item 6: a saved move is never answered as unsaved, and a failed token edit does not drop a panel.

Bob's DMs are closed, so his hand is an ephemeral panel (Show my hand) that the bot keeps current through the token
of his latest click on it; its footnote (an embed of its own) says whose turn it is.
"""

import logging
import random
from collections.abc import Callable

import discord
import pytest
import simcord

from cogs.runtime.delivery import CATCH_UP
from cogs.runtime.errors import APOLOGY
from i18n import say
from tests.cogs.helpers import InjectedError, components, member_for, open_and_start, state_of
from tests.cogs.test_panels import CLOSED, Table, play
from tests.cogs.test_projection import moves_logged

UNAVAILABLE: InjectedError = {"status": 503, "message": "Service Unavailable"}
COUNTED = say("en", CATCH_UP)
TOKEN_EDITS = "/webhooks/*/messages/@original"  # an edit of an interaction's message through its token


async def bobs_turn_on_an_ephemeral_panel(
    env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> tuple[Table, simcord.MemberActor, simcord.MemberActor]:
    """Alice and bob play Kasino; it is bob's turn, and he has his hand as an ephemeral panel."""
    alice, bob = members[:2]
    env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", **CLOSED, times=None)
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    table = Table(env, channel, [alice, bob], {bob.id}, game_id)
    record = await table.record()
    if member_for([alice, bob], record, state_of(record)["to_move"]) is alice:
        await play(table, alice, random.Random(1))
    await table.show_hand(bob)
    return table, alice, bob


async def pick_a_move(
    table: Table, member: simcord.MemberActor, fault: Callable[[], None]
) -> simcord.InteractionResult:
    """`member` plays a move on their ephemeral panel; `fault()` is called just before the tap that plays it."""
    panel = table.ephemeral_panel(member)
    for _ in range(3):
        assert panel is not None, "no panel to play from"
        parts = [c for c in components(panel) if c.get("label") != "Refresh"]
        select = next((c for c in parts if c["type"] == 3), None)
        moves = [c for c in parts if ":pick:" in c.get("custom_id", "")]
        if select is not None:
            values = [o["value"] for o in select["options"] if not o["value"].startswith("more:")]
            fault()
            return await member.select(panel, [values[0]], custom_id=select["custom_id"])
        if moves:
            fault()
            return await member.click(panel, custom_id=moves[0]["custom_id"])
        await member.click(panel, custom_id=parts[0]["custom_id"])  # a card with several moves: show them
        panel = table.ephemeral_panel(member)
    raise AssertionError("no move offered")


def private_answers(table: Table, member: simcord.MemberActor) -> list[str]:
    """What the bot answered `member` privately in the game's thread (ephemeral messages other than panels)."""
    return [m.content or "" for m in table.thread.history(viewer=member) if m.flags.ephemeral and not components(m)]


def footnote(panel: discord.Message | None) -> str:
    """An ephemeral panel's footnote: whose turn it is, and when it was drawn."""
    assert panel is not None
    return panel.embeds[-1].description or ""


async def test_a_saved_move_whose_panel_redraw_fails_five_times_with_503_is_answered_as_saved(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    caplog: pytest.LogCaptureFixture,
) -> None:
    table, alice, bob = await bobs_turn_on_an_ephemeral_panel(simcord_env, channel, members)
    before = await table.record()
    with caplog.at_level(logging.INFO):
        played = await pick_a_move(
            table, bob, lambda: simcord_env.inject_error("PATCH", TOKEN_EDITS, **UNAVAILABLE, times=5)
        )
    assert played.acknowledged
    answers = private_answers(table, bob)
    assert any(COUNTED in text for text in answers), answers
    assert not any(APOLOGY in text for text in answers), answers
    assert not [entry for entry in caplog.records if entry.levelno >= logging.ERROR]
    # The game moved on: the move is saved once, and it is alice's turn.
    after = await table.record()
    assert after.version > before.version and await moves_logged(simcord_env, table.game_id) == 1
    assert member_for([alice, bob], after, state_of(after)["to_move"]) is alice
    # The token edits are tried again, with the delivery's backoff, until Discord takes one: bob's panel follows.
    for _ in range(8):
        await simcord_env.advance_time(30)
    assert "**alice** to play." in footnote(table.ephemeral_panel(bob))


async def test_a_failed_token_edit_is_retried_and_the_panel_stays_current(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    table, alice, bob = await bobs_turn_on_an_ephemeral_panel(simcord_env, channel, members)
    await pick_a_move(table, bob, lambda: simcord_env.inject_error("PATCH", TOKEN_EDITS, **UNAVAILABLE, times=1))
    await simcord_env.advance_time(7)  # the retry
    assert "**alice** to play." in footnote(table.ephemeral_panel(bob))
    # The panel is still kept: after alice's move it says it is bob's turn, with the menu of the current version.
    await play(table, alice, random.Random(2))
    record = await table.record()
    panel = table.ephemeral_panel(bob)
    assert "**Your turn.**" in footnote(panel)
    assert panel is not None
    assert any(f":{record.version}:" in c.get("custom_id", "") for c in components(panel))

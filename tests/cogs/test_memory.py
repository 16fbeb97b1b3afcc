"""What the bot keeps in memory per message it shows stays flat however many tables and panels it posts (issue 22)."""

import asyncio
import random
from pathlib import Path

import simcord

from tests.cogs.helpers import bot_of, open_and_start
from tests.cogs.test_kasino_flow import play_turn


async def test_tables_and_panels_leave_no_views_stored(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    # Every button and menu is a DynamicItem, dispatched by its custom id: discord.py need not keep the views of
    # the messages it sent (it would, one per table and panel, for as long as the bot runs).
    host, *others = members[:4]
    games = [(await open_and_start(channel, host, others[:seats - 1], f"{kind} new", seats=seats))[1]
             for kind in ("kasino", "garbage") for seats in (2, 3, 4)]  # fmt: skip
    rng = random.Random(22)
    for how in ("panel", "dm", "panel", "slash"):  # clicks on panels still reach the game
        await play_turn(simcord_env, channel, members, games[0], rng, how)
    store = bot_of(simcord_env)._connection._view_store
    assert store._views == {} and store._synced_message_views == {}
    assert store._modals == {}
    # Nor a task per ephemeral panel: discord.py gives a kept ephemeral view a 15-minute timeout, each its own task.
    waiting = [task for task in asyncio.all_tasks() if "timeout_task" in getattr(task.get_coro(), "__qualname__", "")]
    assert waiting == []


def test_every_view_the_bot_sends_comes_from_unkept_view() -> None:
    # A view made anywhere else would be kept by discord.py (and, on an ephemeral message, get a task of its own).
    root = Path(__file__).resolve().parents[2]
    made_elsewhere = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted((root / "cogs").rglob("*.py"))
        if path.name != "controls.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "ui.View(" in line or "ui.LayoutView(" in line
    ]
    assert made_elsewhere == []

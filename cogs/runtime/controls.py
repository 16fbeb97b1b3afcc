"""The view a message's controls are sent in."""

from __future__ import annotations

import discord


def unkept_view() -> discord.ui.View:
    """An empty view for the bot's controls, which discord.py will not keep once the message is sent.

    Every control of the bot is a DynamicItem registered at start-up: discord.py routes a click on one by its custom
    id alone, whether or not it kept the view it came in. A kept view costs memory for as long as the bot runs, and a
    kept view on an ephemeral message also gets a task of its own that sleeps for 15 minutes (discord.py gives such a
    view a timeout): one per panel shown. A stopped view is sent as it is and never kept.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view

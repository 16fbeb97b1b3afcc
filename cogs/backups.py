"""The bot's own backups (`BACKUP_DIR`, `BACKUP_EVERY`, `BACKUP_KEEP`): a loop that takes one when it is due.

The work (SQLite's online backup, the check that replays every running game, deleting the oldest) is blocking, so
it runs in a worker thread: play goes on meanwhile. Whether one is due is read from the names of the backups in the
folder, so a bot restarted every few hours still takes one every `BACKUP_EVERY` hours. `bot.py` builds what takes
them (`db.backup.ScheduledBackups`); this cog only knows when to ask.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Final, Protocol

from discord.ext import commands, tasks

log = logging.getLogger(__name__)

CHECK_MINUTES: Final = 10  # how often the loop asks whether a backup is due


class Backups(Protocol):
    """What takes the backups: blocking, so called in a worker thread."""

    def run_if_due(self, now: datetime) -> bool:
        """Take one if it is due (logging one line either way); whether one was taken."""
        ...

    def describe(self) -> str:
        """One line for the log at start-up."""
        ...


class BackupCog(commands.Cog):
    """Asks every few minutes whether a backup is due, and has it taken off the event loop."""

    def __init__(
        self, backups: Backups, clock: Callable[[], datetime], until_ready: Callable[[], Awaitable[None]]
    ) -> None:
        self.backups = backups
        self.clock = clock
        self._until_ready = until_ready
        self.taken = 0  # backups taken by this run

    async def cog_load(self) -> None:
        """Start the loop."""
        log.info("%s", self.backups.describe())
        self.tick.start()

    async def cog_unload(self) -> None:
        """Stop the loop (a backup under way in its thread finishes on its own)."""
        self.tick.cancel()

    @tasks.loop(minutes=CHECK_MINUTES)
    async def tick(self) -> None:
        """Take a backup if one is due; nothing it meets ends the loop (the next tick tries again)."""
        try:
            if await asyncio.to_thread(self.backups.run_if_due, self.clock()):
                self.taken += 1
        except Exception:
            log.exception("The scheduled backup stopped; trying again at the next check.")

    @tick.before_loop
    async def _wait_until_ready(self) -> None:
        await self._until_ready()  # start-up's own work (the check of every game) comes first

"""Start the Kasino & Garbage bot: `python bot.py` (settings from `.env`; see `.env.example`)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import discord
from discord.ext import commands
from dotenv import find_dotenv, load_dotenv

from cogs._errors import GameTree
from cogs._presenter import Presenter
from db.errors import StoreError
from db.records import GameRecord
from db.store import Store
from service.tables import TableService

log = logging.getLogger("bot")

EXTENSIONS = ("cogs.lobby", "cogs.kasino", "cogs.garbage", "cogs.games", "cogs.leaderboard", "cogs.timers")
DEFAULT_DATABASE_PATH = "data/bot.db"


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one line for the person starting the bot."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment (`.env.example` documents each one)."""

    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        """Read and check the settings.

        Raises:
            ConfigError: DISCORD_TOKEN is missing, or a value is malformed.
        """
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError("DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token there.")
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {guild!r}.")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
            raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        path = Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH)
        return cls(token=token, database_path=path, dev_guild_id=int(guild) if guild else None, log_level=level)


class CardBot(commands.Bot):
    """The bot: owns the store, the table service and the clock; the cogs reach them through it."""

    store: Store
    service: TableService
    presenter: Presenter

    def __init__(
        self,
        *,
        database_path: str | Path,
        dev_guild_id: int | None = None,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        new_seed: Callable[[], int] | None = None,
    ) -> None:
        # Slash commands and components only: no privileged intents.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.database_path = Path(database_path)
        self.dev_guild_id = dev_guild_id
        self.clock = clock
        self.new_seed = new_seed
        self._unfinished: list[GameRecord] = []

    async def setup_hook(self) -> None:
        """Open and migrate the database, load the cogs, re-attach game buttons, sync commands."""
        self.store = await Store.open(self.database_path)
        seeds = {"new_seed": self.new_seed} if self.new_seed else {}
        self.service = TableService(self.store, clock=self.clock, **seeds)
        self.presenter = Presenter(self)
        # Replays every running game's move log; where the snapshot disagrees the replay wins (and is logged).
        self._unfinished = await self.store.load_unfinished()
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        """Once per start: redraw every running game's table, so it shows the state the database holds."""
        unfinished, self._unfinished = self._unfinished, []
        running = [record for record in unfinished if record.status == "running" and record.state is not None]
        if running:
            log.info("resuming %d running games", len(running))
        for record in running:
            try:
                await self.presenter.refresh_table(record, self.service.game_of(record))
            except discord.HTTPException:
                log.warning("could not redraw the table of game %s", record.id, exc_info=True)

    async def close(self) -> None:
        """Disconnect, then close the database."""
        await super().close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()


def create_bot(database_path: str | Path, dev_guild_id: int | None = None, **kwargs: object) -> CardBot:
    """The bot, unstarted; tests drive it through SimCord."""
    return CardBot(database_path=database_path, dev_guild_id=dev_guild_id, **kwargs)


def _setup_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])


async def _run(settings: Settings) -> int:
    try:  # open (and migrate) the database before connecting, so a bad file is reported without a Discord round trip
        await (await Store.open(settings.database_path)).close()
    except StoreError as error:  # e.g. a database written by a newer version of the bot
        log.error("Cannot open the database: %s", error)
        return 1
    bot = create_bot(settings.database_path, settings.dev_guild_id)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, lambda: asyncio.create_task(bot.close()))
    try:
        async with bot:
            await bot.start(settings.token)
    except discord.LoginFailure:
        log.error("Discord rejected DISCORD_TOKEN: check the token in .env (Developer Portal, Bot tab, Reset Token).")
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused the connection's intents; the bot needs no privileged intents.")
        return 1
    log.info("Shut down cleanly.")
    return 0


def main() -> int:
    """Entry point: read settings, run until Ctrl-C or SIGTERM; the exit code says how it ended."""
    load_dotenv(find_dotenv(usecwd=True))  # the .env of the folder the bot is started from
    try:
        settings = Settings.from_env(os.environ)
    except ConfigError as error:
        print(f"Cannot start: {error}", file=sys.stderr)  # noqa: T201 - logging is not set up yet
        return 2
    _setup_logging(settings.log_level)
    return asyncio.run(_run(settings))


if __name__ == "__main__":
    sys.exit(main())

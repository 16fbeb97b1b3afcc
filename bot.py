"""Start the Kasino & Garbage bot: `python bot.py` (settings from `.env`; see `.env.example`).

Exit statuses (also in the README): 0 stopped cleanly (Ctrl-C or SIGTERM); 1 Discord rejected the token or the
intents; 2 a setting is missing or malformed; 3 the database was written by a newer version of the bot; 4 the
database is in use by another bot process; 5 the database file is damaged or is not a database; 6 the database
cannot be written (read-only file or file system, full disk, no permission).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import aiohttp
import discord
from discord.ext import commands
from dotenv import find_dotenv, load_dotenv

from cogs.backups import BackupCog
from cogs.runtime.backoff import retry_delay
from cogs.runtime.buckets import forget_idle_buckets
from cogs.runtime.budget import GLOBAL_LIMIT, RequestBudget
from cogs.runtime.catch_up import CatchUp, catch_up_on_start
from cogs.runtime.delivery import Delivery
from cogs.runtime.errors import GameTree
from cogs.runtime.health import DEFAULT_HOST as DEFAULT_METRICS_HOST
from cogs.runtime.health import HealthServer, MetricsPortError
from cogs.runtime.host import GameBot
from cogs.runtime.invalid import InvalidRequests, budget_for
from cogs.runtime.language import Languages
from cogs.runtime.metrics import Metrics
from cogs.runtime.presenter import Presenter
from cogs.runtime.translator import CommandTranslator
from db.backends import Storage, open_storage
from db.backup import ScheduledBackups
from db.errors import (
    DatabaseCorruptError,
    DatabaseLockedError,
    DatabaseUnusableError,
    DatabaseUnwritableError,
    SchemaTooNewError,
    StoreError,
)
from db.records import StartUpCheck
from engine import registry
from process import event_loop, heap
from service.ports import Coordinator, OpenStore
from service.privacy import PrivacyService
from service.tables import TableService

log = logging.getLogger("bot")


def extensions() -> tuple[str, ...]:
    """The lobby first (the kinds' cogs use it), then each listed kind's own module, then what lists them all.

    Read when the bot starts, not at import, so that a kind registered by a test is loaded like the others.
    """
    kinds = tuple(kind.cog_module for kind in registry.GAME_KINDS)
    return (
        "cogs.lobby",
        *kinds,
        "cogs.house_rules",
        "cogs.games",
        "cogs.leaderboard",
        "cogs.timers",
        "cogs.computers",
        "cogs.seats",
        "cogs.privacy",
    )


DEFAULT_DATABASE_PATH = "data/bot.db"
DEFAULT_BACKUP_EVERY: Final = 24  # hours
DEFAULT_BACKUP_KEEP: Final = 7
MAX_BACKUP_EVERY: Final = 8760  # a year
MAX_BACKUP_KEEP: Final = 10_000
# A server's data is deleted this many days after the bot is removed from it, unless it is added back (issue 45).
DEFAULT_RETENTION_DAYS: Final = 30
MAX_RETENTION_DAYS: Final = 3650
DATABASE_URL_SCHEMES: Final = ("postgresql://", "postgres://")
API_PATH: Final = "/api/v10"  # discord.py's REST version; a proxy's address gets it appended (see `use_api_base`)

EXIT_STOPPED: Final = 0
EXIT_LOGIN_REFUSED: Final = 1
EXIT_BAD_SETTING: Final = 2
EXIT_DATABASE_TOO_NEW: Final = 3
EXIT_DATABASE_IN_USE: Final = 4
EXIT_DATABASE_DAMAGED: Final = 5
EXIT_DATABASE_UNWRITABLE: Final = 6

# Most specific first: the first class an error is an instance of decides the exit status.
DATABASE_EXIT_STATUSES: Final[tuple[tuple[type[StoreError], int], ...]] = (
    (SchemaTooNewError, EXIT_DATABASE_TOO_NEW),
    (DatabaseLockedError, EXIT_DATABASE_IN_USE),
    (DatabaseUnwritableError, EXIT_DATABASE_UNWRITABLE),
    (DatabaseCorruptError, EXIT_DATABASE_DAMAGED),
    (DatabaseUnusableError, EXIT_DATABASE_DAMAGED),
    (StoreError, EXIT_DATABASE_DAMAGED),
)

# What "Discord cannot be reached" looks like at login: no DNS, refused or timed-out connections, Discord's 5xx.
UNREACHABLE: Final = (aiohttp.ClientError, OSError, TimeoutError, discord.DiscordServerError)


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one line for the person starting the bot."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment (`.env.example` documents each one)."""

    token: str = field(repr=False)
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None  # this process's shards; None: all of them
    database_url: str | None = field(default=None, repr=False)  # may hold a password: never logged
    requests_per_second: int = GLOBAL_LIMIT  # this process's share of the token's 50
    discord_api_base: str | None = None  # a rate-limiting proxy's address, without /api/v10
    metrics_port: int | None = None  # where /healthz and /metrics are served; None: not served
    metrics_host: str = DEFAULT_METRICS_HOST
    backup_dir: Path | None = None  # None: the bot takes no backups itself
    backup_every: int = DEFAULT_BACKUP_EVERY  # hours
    backup_keep: int = DEFAULT_BACKUP_KEEP
    retention_days: int = DEFAULT_RETENTION_DAYS  # how long a server's data outlives the bot's removal from it

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
        shards = env.get("SHARD_COUNT", "").strip()
        if shards and (not shards.isdigit() or not 1 <= int(shards) <= 10_000):
            raise ConfigError(f"SHARD_COUNT must be a whole number from 1 (or empty: Discord decides), not {shards!r}.")
        shard_count = int(shards) if shards else None
        path = Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH)
        metrics_port = _metrics_port(env.get("METRICS_PORT", "").strip())
        metrics_host = env.get("METRICS_HOST", "").strip()
        if metrics_host and metrics_port is None:
            raise ConfigError("METRICS_HOST needs METRICS_PORT, the port /healthz and /metrics are served on.")
        if any(character.isspace() or character == "/" for character in metrics_host):
            raise ConfigError(f"METRICS_HOST must be an address to listen on, such as 0.0.0.0, not {metrics_host!r}.")
        database_url = _database_url(env.get("DATABASE_URL", "").strip())
        backup_dir, backup_every, backup_keep = _backups(env, database_url is not None)
        return cls(
            token=token,
            database_path=path,
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            shard_count=shard_count,
            shard_ids=_shard_ids(env.get("SHARD_IDS", "").strip(), shard_count),
            database_url=database_url,
            requests_per_second=_requests_per_second(env.get("REQUESTS_PER_SECOND", "").strip()),
            discord_api_base=_api_base(env.get("DISCORD_API_BASE", "").strip()),
            metrics_port=metrics_port,
            metrics_host=metrics_host or DEFAULT_METRICS_HOST,
            backup_dir=backup_dir,
            backup_every=backup_every,
            backup_keep=backup_keep,
            retention_days=_retention_days(env.get("RETENTION_DAYS", "").strip()),
        )

    def scheduled_backups(self) -> ScheduledBackups | None:
        """What takes the bot's own backups, when BACKUP_DIR is set."""
        if self.backup_dir is None:
            return None
        return ScheduledBackups(self.database_path, self.backup_dir, self.backup_every, self.backup_keep)


def _retention_days(text: str) -> int:
    """RETENTION_DAYS: whole days from 1 to 3650; empty means the default."""
    if not text:
        return DEFAULT_RETENTION_DAYS
    if not text.isdigit() or not 1 <= int(text) <= MAX_RETENTION_DAYS:
        raise ConfigError(
            f"RETENTION_DAYS must be a whole number of days from 1 to {MAX_RETENTION_DAYS} "
            f"(empty: {DEFAULT_RETENTION_DAYS}), not {text!r}."
        )
    return int(text)


def _whole(text: str) -> bool:
    """Digits 0-9 only ("²".isdigit() is true, yet int() refuses it)."""
    return text.isascii() and text.isdigit()


def _shard_ids(text: str, shard_count: int | None) -> tuple[int, ...] | None:
    """SHARD_IDS: ids and ranges separated by commas ("0,1", "0-3", "4-7,9"), each below SHARD_COUNT."""
    if not text:
        return None
    if shard_count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT, the number of shards of all the bot's processes together.")
    ids: set[int] = set()
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        first, last = first.strip(), (last.strip() if dash else first.strip())
        if not (_whole(first) and _whole(last) and int(first) <= int(last)):
            raise ConfigError(f"SHARD_IDS must be shard ids or ranges separated by commas (0,1 or 0-3), not {text!r}.")
        ids.update(range(int(first), int(last) + 1))
    if max(ids) >= shard_count:
        raise ConfigError(
            f"SHARD_IDS must be below SHARD_COUNT ({shard_count}): shards are numbered 0 to {shard_count - 1}."
        )
    return tuple(sorted(ids))


def _database_url(text: str) -> str | None:
    """DATABASE_URL: a PostgreSQL address, or empty (SQLite). Never echoed: it may hold a password."""
    if not text:
        return None
    if not text.startswith(DATABASE_URL_SCHEMES):
        raise ConfigError(
            "DATABASE_URL must start with postgresql:// or postgres:// (or be empty: SQLite at DATABASE_PATH)."
        )
    return text


def _backups(env: Mapping[str, str], on_postgres: bool) -> tuple[Path | None, int, int]:
    """BACKUP_DIR, BACKUP_EVERY (hours) and BACKUP_KEEP: the folder (None: no backups), the hours, how many to keep."""
    folder = env.get("BACKUP_DIR", "").strip()
    every = env.get("BACKUP_EVERY", "").strip()
    keep = env.get("BACKUP_KEEP", "").strip()
    if not folder:
        for name, value in (("BACKUP_EVERY", every), ("BACKUP_KEEP", keep)):
            if value:
                raise ConfigError(f"{name} needs BACKUP_DIR, the folder the bot keeps its backups in.")
        return None, DEFAULT_BACKUP_EVERY, DEFAULT_BACKUP_KEEP
    if on_postgres:
        # Refused rather than ignored: an operator who set BACKUP_DIR believes backups are being taken.
        raise ConfigError(
            "BACKUP_DIR backs up the SQLite file; with DATABASE_URL, back PostgreSQL up with its own tools (pg_dump, "
            "or WAL archiving for point-in-time recovery; see the README's Backups section) and leave BACKUP_DIR empty."
        )
    if Path(folder).exists() and not Path(folder).is_dir():
        raise ConfigError(f"BACKUP_DIR must be a folder, not the file {folder!r}.")
    if every and (not _whole(every) or not 1 <= int(every) <= MAX_BACKUP_EVERY):
        raise ConfigError(
            f"BACKUP_EVERY must be the hours between backups, a whole number from 1 to {MAX_BACKUP_EVERY}, "
            f"not {every!r}."
        )
    if keep and (not _whole(keep) or not 1 <= int(keep) <= MAX_BACKUP_KEEP):
        raise ConfigError(
            f"BACKUP_KEEP must be how many backups to keep, a whole number from 1 to {MAX_BACKUP_KEEP}, not {keep!r}."
        )
    return Path(folder), int(every or DEFAULT_BACKUP_EVERY), int(keep or DEFAULT_BACKUP_KEEP)


def _requests_per_second(text: str) -> int:
    """REQUESTS_PER_SECOND: this process's cap, 1 to Discord's 50 (the default)."""
    if not text:
        return GLOBAL_LIMIT
    if not _whole(text) or not 1 <= int(text) <= GLOBAL_LIMIT:
        raise ConfigError(
            f"REQUESTS_PER_SECOND must be a whole number from 1 to {GLOBAL_LIMIT} "
            f"(Discord allows {GLOBAL_LIMIT} a second per token), not {text!r}."
        )
    return int(text)


def _metrics_port(text: str) -> int | None:
    """METRICS_PORT: a TCP port, 1 to 65535, or empty (no /healthz and /metrics)."""
    if not text:
        return None
    if not _whole(text) or not 1 <= int(text) <= 65_535:
        raise ConfigError(f"METRICS_PORT must be a port number from 1 to 65535 (or empty: not served), not {text!r}.")
    return int(text)


def _api_base(text: str) -> str | None:
    """DISCORD_API_BASE: a proxy's http(s) address (with or without /api/v10); kept without it, no trailing slash."""
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme not in {"http", "https"} or not parts.hostname or parts.query or parts.fragment:
        # Not echoed: a proxy's address may carry credentials.
        raise ConfigError("DISCORD_API_BASE must be an http:// or https:// address, such as http://nirn-proxy:8080.")
    base = text.rstrip("/")
    return base.removesuffix(API_PATH)


def use_api_base(base: str | None) -> None:
    """Send every REST request through `base` (a proxy such as nirn-proxy) instead of discord.com; None: direct.

    discord.py builds each request's URL from `Route.BASE` when the route is made, so this is set before login.
    """
    if base is not None:
        discord.http.Route.BASE = base + API_PATH
        log.info("Discord requests go through %s.", urlsplit(base).hostname)


class CardBot(GameBot):
    """The bot: owns the store, the table service and the clock; the cogs reach them through it.

    Sharded from the start (Discord requires shards past 2,500 servers); with one shard it behaves as a plain bot.
    """

    store: OpenStore  # the ports, whichever backend `open_storage` opened
    service: TableService
    presenter: Presenter
    delivery: Delivery

    def __init__(
        self,
        database_path: str | Path,
        dev_guild_id: int | None = None,
        *,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        new_seed: Callable[[], int] | None = None,
        store: OpenStore | None = None,
        coordinator: Coordinator | None = None,
        database_url: str | None = None,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
        requests_per_second: int = GLOBAL_LIMIT,
        invalid_requests: InvalidRequests | None = None,
        metrics_port: int | None = None,
        metrics_host: str = DEFAULT_METRICS_HOST,
        backups: ScheduledBackups | None = None,
        retention_days: int = DEFAULT_RETENTION_DAYS,
    ) -> None:
        # A card bot never joins voice: skip discord.py's warnings about missing voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        # None (or left out): every shard of shard_count runs here; discord.py's options take no None.
        shards: dict[str, Any] = {} if shard_ids is None else {"shard_ids": list(shard_ids)}
        # Discord's refusals of this process (401, 403, 429), seen on every response of its HTTP session, against its
        # share of the invalid-request budget (cogs/runtime/invalid.py).
        invalid = invalid_requests or InvalidRequests(budget_for(requests_per_second, shard_count, shard_ids))
        trace = invalid.trace_config()
        # The operator's figures; the same trace counts the requests through interaction tokens
        # (cogs/runtime/metrics.py).
        self.metrics = Metrics()
        self.metrics.watch_trace(trace)
        # Slash commands and components only: no privileged intents.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=shard_count,
            http_trace=trace,
            **shards,
        )
        # discord.py creates this queue in connect(), yet close() writes to it: without it, closing a bot that never
        # connected (a failed login, a SimCord test) raises AttributeError. connect() replaces it with its own.
        self._AutoShardedClient__queue: asyncio.PriorityQueue[Any] = asyncio.PriorityQueue()
        self.database_path = Path(database_path)
        self.dev_guild_id = dev_guild_id
        self.clock = clock
        self.new_seed = new_seed
        self._given_store = store
        self._coordinator = coordinator  # None: one process on the database, its own locks suffice
        self.database_url = database_url  # PostgreSQL's, when not handed a store; never logged
        self._storage: Storage | None = None  # what this bot opened itself, and closes
        self._recovered = StartUpCheck((), (), ())
        self._was_ready = False
        self._disconnected: set[int] = set()
        self._checking: asyncio.Task[None] | None = None
        self._catching_up: asyncio.Task[None] | None = None
        self.caught_up: CatchUp | None = None  # what the start-up catch-up did, once it is done
        # The requests counted against Discord's global limit (its clock is replaceable before start-up), held to this
        # process's share of it.
        self.budget = RequestBudget(limit=requests_per_second)
        self.invalid_requests = invalid
        self._invalid_trace = trace
        self._metrics_address = None if metrics_port is None else (metrics_host, metrics_port)
        self.health: HealthServer | None = None  # /healthz and /metrics, once started (with METRICS_PORT)
        self.backups = backups  # None: no backups of its own (BACKUP_DIR unset)
        self.retention = timedelta(days=retention_days)

    async def setup_hook(self) -> None:
        """Open and migrate the database, load the cogs, re-attach game buttons, sync commands (translated)."""
        self.metrics.install(self.http, self._invalid_trace)  # first: it sees a request when it goes out
        self.budget.install(self.http)  # the client is in place now (a test's SimCord installs its own first)
        self.invalid_requests.install(self.http, self._invalid_trace)  # SimCord's client has no session to trace
        forget_idle_buckets(self.http)  # one rate-limit bucket per channel, kept only while it knows something
        if self._given_store is None:
            shard_ids = self.shard_ids if self.shard_count is not None else None  # all of them: every game is ours
            self._storage = await open_storage(
                self.database_path, self.database_url, shard_ids=shard_ids, shard_count=self.shard_count
            )
            self.store, self._coordinator = self._storage.store, self._storage.locks
        else:
            self.store = self._given_store
        self.service = TableService(
            self.store, clock=self.clock, new_seed=self.new_seed, coordinator=self._coordinator, watch=self.metrics
        )
        self.privacy = PrivacyService(self.service, self.store, self.clock, self.retention)
        self.presenter = Presenter(self)
        self.delivery = Delivery(self)
        self.add_listener(self.delivery.note_interaction, "on_interaction")
        self.add_listener(self.metrics.note_interaction, "on_interaction")
        self.metrics.read_from(self.invalid_requests.count, self.delivery.pending_retries)
        if self._metrics_address is not None:
            self.health = HealthServer(self, self.metrics, *self._metrics_address)
            await self.health.start()
        self.languages = Languages(self.get_guild, self.service.server_settings)
        self.add_listener(self.languages.note_interaction, "on_interaction")
        # Cheap whatever the number of games: the full check of each game's move log waits until on_ready.
        self._recovered = await self.service.recover()
        for extension in extensions():
            await self.load_extension(extension)
        if self.backups is not None:
            await self.add_cog(BackupCog(self.backups, self.clock, self.wait_until_ready))
        await self.tree.set_translator(CommandTranslator(self.tree))  # the commands in each player's language
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_ready(self) -> None:
        """Once per start: show what Discord missed, stop the frozen games, check every log; later: say we are back.

        Games Discord already shows are not redrawn: a restart spends requests only where something is owed.
        """
        if self._was_ready:
            log.info("Connected to Discord again.")
            return
        self._was_ready = True
        recovered, self._recovered = self._recovered, StartUpCheck((), (), ())
        running = recovered.running
        log.info(
            "Ready as %s: %d servers, %d running games, database %s.",
            self.user,
            len(self.guilds),
            len(running),
            self.store.describe(),
        )
        for record in recovered.frozen:
            await self.presenter.show_frozen(record)
        # In the background while play goes on: what Discord missed (paged, within what play leaves of the request
        # budget), and every running game's whole move log.
        self._catching_up = asyncio.create_task(self._catch_up())
        self._checking = asyncio.create_task(self._check_games())

    async def start_up_done(self) -> None:
        """Wait until the background work of start-up (the catch-up and the check of every log) has finished."""
        await asyncio.gather(*(task for task in (self._catching_up, self._checking) if task is not None))

    async def _catch_up(self) -> None:
        try:
            self.caught_up = await catch_up_on_start(self)
        except Exception:  # the games not settled yet are settled when next played
            log.exception("Bringing Discord up to date after start-up stopped.")

    async def _check_games(self) -> None:
        try:
            frozen = await self.service.check_games()
        except Exception:  # the games not checked yet are checked when next played
            log.exception("The check of the games' move logs stopped.")
            return
        for record in frozen:  # the games the full check had to stop: say so
            await self.presenter.show_frozen(record)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        """One line when the connection drops (discord.py reconnects by itself)."""
        if shard_id not in self._disconnected:
            self._disconnected.add(shard_id)
            log.warning("Lost the connection to Discord (shard %d); reconnecting.", shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        """One line when a dropped connection is back."""
        self._back(shard_id)

    async def on_shard_ready(self, shard_id: int) -> None:
        """A shard that had to identify again is back too."""
        self._back(shard_id)

    def _back(self, shard_id: int) -> None:
        if shard_id in self._disconnected:
            self._disconnected.discard(shard_id)
            log.info("Connection to Discord is back (shard %d).", shard_id)

    async def close(self) -> None:
        """Disconnect, then close the database unless it was handed in (its owner closes it)."""
        delivery = getattr(self, "delivery", None)
        if delivery is not None:
            delivery.close()
        for task in (self._catching_up, self._checking):
            if task is not None:
                task.cancel()
        await super().close()
        if self.health is not None:
            await self.health.close()
        if self._storage is not None:
            await self._storage.close()


# The bot, unstarted: `main` starts it; tests and benches drive it through SimCord.
create_bot = CardBot


class _QuietReconnects(logging.Filter):
    """discord.py logs each reconnect attempt with a traceback; our own one-line messages replace them."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Drop the reconnect records; keep everything else."""
        return not record.getMessage().startswith("Attempting a reconnect")


def _setup_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
    if level != "DEBUG":
        # discord.py's INFO lines (gateway sessions, shard ids) are for debugging; its warnings still show.
        logging.getLogger("discord").setLevel(logging.WARNING)
        for name in ("discord.client", "discord.shard"):
            logging.getLogger(name).addFilter(_QuietReconnects())


def database_exit_status(error: StoreError) -> int:
    """The exit status for a database that cannot be used."""
    return next(status for kind, status in DATABASE_EXIT_STATUSES if isinstance(error, kind))


def retry_delays(rng: random.Random | None = None) -> Callable[[], float]:
    """Seconds to wait before each next try: 5 s doubling up to 5 minutes, each with up to 20% jitter.

    Jitter spreads the reconnects of many bots that lost the network at the same moment.
    """
    rng = rng or random.Random()
    attempt = 0

    def next_delay() -> float:
        nonlocal attempt
        attempt += 1
        return retry_delay(attempt, jitter=1 + rng.uniform(0, 0.2))

    return next_delay


def _unreachable_reason(error: BaseException) -> str:
    if isinstance(error, discord.DiscordServerError):
        return f"Discord answered {error.status}"
    if isinstance(error, TimeoutError):
        return "the connection timed out"
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:200]


async def _run(settings: Settings) -> int:
    try:  # open the database before connecting, so a bad database is reported without a Discord round trip
        storage = await open_storage(
            settings.database_path,
            settings.database_url,
            shard_ids=settings.shard_ids,
            shard_count=settings.shard_count,
        )
    except StoreError as error:
        log.error("Cannot use the database: %s", error)
        return database_exit_status(error)
    heap.settle()  # the modules and the store live as long as the bot: the garbage collector need not walk them
    try:
        return await _connect(settings, storage)
    finally:
        await storage.close()


async def _connect(settings: Settings, storage: Storage) -> int:
    """Log in and run; while Discord cannot be reached, try again with growing waits until stopped."""
    stopping = asyncio.Event()
    bot: CardBot | None = None

    def stop() -> None:
        stopping.set()
        if bot is not None:
            asyncio.create_task(bot.close())  # noqa: RUF006 - the loop keeps it; close() is awaited by `async with`

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop)
    next_delay = retry_delays()
    while not stopping.is_set():
        bot = create_bot(
            settings.database_path,
            settings.dev_guild_id,
            store=storage.store,
            coordinator=storage.locks,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
            requests_per_second=settings.requests_per_second,
            metrics_port=settings.metrics_port,
            metrics_host=settings.metrics_host,
            backups=settings.scheduled_backups(),
            retention_days=settings.retention_days,
        )
        try:
            async with bot:
                await bot.start(settings.token)
            break
        except discord.LoginFailure:
            log.error(
                "Discord rejected DISCORD_TOKEN: check the token in .env (Developer Portal, Bot tab, Reset Token)."
            )
            return EXIT_LOGIN_REFUSED
        except MetricsPortError as error:
            log.error("Cannot start: %s", error)
            return EXIT_BAD_SETTING
        except discord.PrivilegedIntentsRequired:
            log.error("Discord refused the connection's intents; the bot needs no privileged intents.")
            return EXIT_LOGIN_REFUSED
        except UNREACHABLE as error:
            if stopping.is_set():
                break
            delay = next_delay()
            log.warning("Cannot reach Discord (%s); trying again in %.0f s.", _unreachable_reason(error), delay)
            with contextlib.suppress(TimeoutError):  # the wait ends early when the bot is told to stop
                await asyncio.wait_for(stopping.wait(), timeout=delay)
    log.info("Shut down cleanly.")
    return EXIT_STOPPED


def main() -> int:
    """Entry point: read settings, run until Ctrl-C or SIGTERM; the exit status says how it ended.

    `python bot.py --playground` runs the bot in a simulated Discord instead, with no token (see playground.py).
    """
    if sys.argv[1:2] == ["--playground"]:
        import playground  # only here: it needs SimCord, which a production bot does not

        return playground.main(sys.argv[2:], create_bot)
    load_dotenv(find_dotenv(usecwd=True))  # the .env of the folder the bot is started from
    try:
        settings = Settings.from_env(os.environ)
    except ConfigError as error:
        print(f"Cannot start: {error}", file=sys.stderr)  # noqa: T201 - logging is not set up yet
        return EXIT_BAD_SETTING
    _setup_logging(settings.log_level)
    use_api_base(settings.discord_api_base)
    return event_loop.run(_run(settings))


if __name__ == "__main__":
    sys.exit(main())

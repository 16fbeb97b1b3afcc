"""/healthz and /metrics over HTTP, for a container's orchestrator and for Prometheus (METRICS_PORT).

Served with discord.py's own aiohttp (`aiohttp.web`), on 127.0.0.1 unless METRICS_HOST says otherwise: the figures
are the operator's, not the internet's. /healthz answers 200 "ok" while every shard of this process is connected to
the gateway and the database answers a cheap query (two counts on partial indexes) within `DATABASE_TIMEOUT`; else
503 with one line per reason ("gateway: disconnected", "database: cannot be reached"). /metrics asks the same
query for the games running and the delivery backlog, then answers with every figure of `cogs.runtime.metrics`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Final

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from cogs.runtime.metrics import Metrics
from db.records import GameCounts

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

DATABASE_TIMEOUT: Final = 2.0  # seconds the database may take to answer a health check or a scrape
DEFAULT_HOST: Final = "127.0.0.1"
GATEWAY_DOWN: Final = "gateway: disconnected"
DATABASE_DOWN: Final = "database: cannot be reached"


class MetricsPortError(Exception):
    """The metrics port cannot be listened on (in use, or not allowed); the message is one line for the operator."""


def gateway_connected(bot: GameBot) -> bool:
    """Whether the bot is ready and every shard of this process has its gateway connection open."""
    if bot.is_closed() or not bot.is_ready():
        return False
    return all(not shard.is_closed() for shard in bot.shards.values())


async def game_counts(bot: GameBot) -> GameCounts | None:
    """The database's counts of running and unshown games, or None when it cannot answer within the timeout."""
    service = getattr(bot, "service", None)  # None before start-up opened the database
    if service is None:
        return None
    try:
        return await asyncio.wait_for(service.projection.game_counts(), DATABASE_TIMEOUT)
    except Exception as error:  # closed, unreachable, stalled, refused: whatever it is, it does not answer
        log.debug("health check: the database did not answer: %r", error)
        return None


class HealthServer:
    """The HTTP server of /healthz and /metrics for one bot; `start` it once, `close` it with the bot."""

    def __init__(self, bot: GameBot, metrics: Metrics, host: str = DEFAULT_HOST, port: int = 0) -> None:
        self.bot = bot
        self.metrics = metrics
        self.host = host
        self.port = port  # the port listened on once started (a test asks for 0: any free one)
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen on `host`:`port`.

        Raises:
            MetricsPortError: the port is taken, or the address cannot be listened on.
        """
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.scrape)
        runner = web.AppRunner(app, access_log=None)  # an orchestrator asks every few seconds: no line each time
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as error:
            await runner.cleanup()
            raise MetricsPortError(
                f"cannot serve /healthz and /metrics on {self.host}:{self.port} ({error.strerror or error}): "
                "choose another METRICS_PORT (or METRICS_HOST)."
            ) from None
        self._runner = runner
        for address in runner.addresses:
            if isinstance(address, tuple):
                self.port = int(address[1])
                break
        log.info("Serving /healthz and /metrics on %s:%d.", self.host, self.port)

    async def close(self) -> None:
        """Stop listening."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def problems(self) -> list[str]:
        """Why the bot is not healthy, one reason a line; empty while it is (the database's counts are kept)."""
        found = []
        gateway = gateway_connected(self.bot)
        if not gateway:
            found.append(GATEWAY_DOWN)
        counts = await game_counts(self.bot)
        if counts is None:
            found.append(DATABASE_DOWN)
        else:
            self.metrics.set_game_counts(counts.running, counts.unshown)
        self.metrics.up.labels("gateway").set(int(gateway))
        self.metrics.up.labels("database").set(int(counts is not None))
        return found

    async def healthz(self, _request: web.Request) -> web.Response:
        """200 "ok" while connected and the database answers; else 503 with the reasons."""
        found = await self.problems()
        if found:
            return web.Response(status=503, text="\n".join(found) + "\n")
        return web.Response(text="ok\n")

    async def scrape(self, _request: web.Request) -> web.Response:
        """Every figure, the database's counts read now (the last ones kept when it does not answer)."""
        await self.problems()
        return web.Response(body=self.metrics.text(), headers={"Content-Type": CONTENT_TYPE_LATEST})

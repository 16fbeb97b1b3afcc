"""The operator's figures, in Prometheus' text format (prometheus-client), served by `cogs.runtime.health` at /metrics.

Each bot keeps its instruments in a registry of its own (never the library's global one), so that several bots in
one process (tests, benchmarks) do not clash. They are fed at a few central places only:

- the table service tells every saved move and every computer decision (`service.ports.PlayWatch`: `move_saved`,
  `decided`), so the engine and the store know nothing of this module;
- the delivery observes a move's latency once Discord shows it: from the interaction's arrival (`note_interaction`,
  an `on_interaction` listener) to the end of the settle that showed the table (`move_shown`);
- every request of the bot's HTTP client is counted by its route template (`Route.path`, such as
  `/channels/{channel_id}/messages`: never an id, so the labels stay few), counted or free against the global limit as
  `cogs.runtime.budget.counts` says, and each error Discord answered by its JSON code (`install`); the interaction
  webhooks, which discord.py sends past that client, are seen by the session's trace (`watch_trace`) and named by the
  same templates discord.py uses for them;
- what is a state rather than an event (invalid requests in the window, pending retries) is read when scraped,
  and the counts that need the database (games running, delivery backlog) are set by `cogs.runtime.health` before it
  answers a scrape (`set_game_counts`).

Counting a request is a dict lookup and an increment: it runs on every request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, Final

import aiohttp
import discord
from discord.http import HTTPClient, Route
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from cogs.runtime.budget import counts

LATENCY_BUCKETS: Final = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)  # seconds, a move's click to its table
DECISION_BUCKETS: Final = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)  # a searching player: up to 0.5 s
ARRIVALS_KEPT: Final = 4096  # interactions whose arrival is remembered until their move is shown
TOKEN_PLACES: Final = frozenset({"interactions", "webhooks"})  # followed by an id and a token: free requests
NO_CODE: Final = "0"  # an error whose JSON code was not read (discord.py's HTTPException.code is 0 then too)


def free_template(method: str, path: str) -> str | None:
    """The route of a URL path through an interaction's or webhook's token, as discord.py's template; else None.

    `/api/v10/interactions/123/abc/callback` → `POST /interactions/{webhook_id}/{webhook_token}/callback`. A path
    with no token is not free and not this one's (the client's `request` counts it); a proxy's prefix is skipped.
    """
    parts = path.split("/")
    for index, part in enumerate(parts):
        if part in TOKEN_PLACES:
            if len(parts) - index < 3:
                return None
            tail = ["{message_id}" if segment.isdigit() else segment for segment in parts[index + 3 :]]
            return f"{method} /" + "/".join([part, "{webhook_id}", "{webhook_token}", *tail])
    return None


def carries_token(route: Route) -> bool:
    """Whether a request goes through an interaction's or webhook's token (its path template names one)."""
    return "_token}" in route.path


class Metrics:
    """One bot's instruments, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.moves = Counter("cardbot_moves", "Moves saved, by game kind.", ["kind"], registry=registry)
        self.move_latency = Histogram(
            "cardbot_move_latency_seconds",
            "From a member's interaction arriving to Discord showing the table after their move.",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.requests = Counter(
            "cardbot_discord_requests",
            "Requests to Discord's API by route template; counted: against the 50 a second, or free (interactions).",
            ["route", "counted"],
            registry=registry,
        )
        self.errors = Counter(
            "cardbot_discord_errors",
            "Discord's error answers by JSON error code (0: none read) and HTTP status.",
            ["code", "status"],
            registry=registry,
        )
        self.invalid = Gauge(
            "cardbot_discord_invalid_requests",
            "401, 403 and 429 answers in the last 10 minutes (Discord blocks the address at 10,000).",
            registry=registry,
        )
        self.running = Gauge("cardbot_games_running", "This process's running games.", registry=registry)
        self.backlog = Gauge(
            "cardbot_delivery_backlog_games",
            "Games Discord is behind on (a saved change not shown yet: shown_version < version).",
            registry=registry,
        )
        self.retries = Gauge(
            "cardbot_delivery_retries_pending", "Games waiting to retry showing them on Discord.", registry=registry
        )
        self.decisions = Histogram(
            "cardbot_computer_decision_seconds",
            "How long a computer player took to decide, in its worker thread, by game kind.",
            ["kind"],
            buckets=DECISION_BUCKETS,
            registry=registry,
        )
        self.up = Gauge(
            "cardbot_up",
            "1 while the part answers (gateway: connected; database: answered), at the last scrape or health check.",
            ["part"],
            registry=registry,
        )
        self._routes: dict[tuple[str, bool], Any] = {}  # (route, counted) → its counter: no label checks per request
        self._arrived: dict[int, float] = {}  # interaction id → when it arrived (the event loop's clock)

    # -- read when scraped ------------------------------------------------------------------------------------------

    def read_from(self, invalid_count: Callable[[], int], pending_retries: Callable[[], int]) -> None:
        """Read the invalid requests in the window (`cogs.runtime.invalid`) and the pending retries when scraped."""
        self.invalid.set_function(invalid_count)
        self.retries.set_function(pending_retries)

    def set_game_counts(self, running: int, unshown: int) -> None:
        """The counts the database gave for this scrape."""
        self.running.set(running)
        self.backlog.set(unshown)

    def text(self) -> bytes:
        """Every figure in Prometheus' text format."""
        return generate_latest(self.registry)

    # -- told by the service (`service.ports.PlayWatch`) ------------------------------------------------------------

    def move_saved(self, kind: str) -> None:
        """A move of a game of `kind` was saved."""
        self.moves.labels(kind).inc()

    def decided(self, kind: str, seconds: float) -> None:
        """A computer player took `seconds` to decide (called from its worker thread: the library locks)."""
        self.decisions.labels(kind).observe(seconds)

    # -- a move's latency -------------------------------------------------------------------------------------------

    async def note_interaction(self, interaction: discord.Interaction) -> None:
        """Remember when an interaction arrived (`on_interaction`), until its move is shown (or it gets old)."""
        self._arrived[interaction.id] = asyncio.get_running_loop().time()
        if len(self._arrived) > ARRIVALS_KEPT:  # most interactions are no move: forget the oldest
            del self._arrived[next(iter(self._arrived))]

    def move_shown(self, interaction: discord.Interaction) -> None:
        """Discord shows the move this interaction made: observe the time since it arrived (once)."""
        arrived = self._arrived.pop(interaction.id, None)
        if arrived is not None:
            self.move_latency.observe(asyncio.get_running_loop().time() - arrived)

    # -- Discord's requests and errors ------------------------------------------------------------------------------

    def count_request(self, route: str, counted: bool) -> None:
        """One request on `route` (a template), counted against the global limit or free."""
        child = self._routes.get((route, counted))
        if child is None:
            child = self._routes[(route, counted)] = self.requests.labels(route, "true" if counted else "false")
        child.inc()

    def count_error(self, code: int, status: int) -> None:
        """Discord answered with an error."""
        self.errors.labels(str(code), str(status)).inc()

    def install(self, http: HTTPClient, trace: aiohttp.TraceConfig | None = None) -> None:
        """Count each request of this client by its route, and each error it raises by code (wraps `http.request`).

        Install it before the budgets, so that it sees a request when it goes out rather than while it waits. Where
        the client's session carries `trace` (see `watch_trace`), the requests through a token are left to it.
        """
        traced = trace is not None and http.http_trace is trace
        send = http.request

        async def request(route: Route, **kwargs: Any) -> Any:
            if not (traced and carries_token(route)):
                self.count_request(f"{route.method} {route.path}", counts(route))
            try:
                return await send(route, **kwargs)
            except discord.HTTPException as error:
                self.count_error(error.code, error.status)
                raise

        http.request = request  # type: ignore[method-assign]

    def watch_trace(self, trace: aiohttp.TraceConfig) -> None:
        """Count the interaction webhooks' requests on the bot's session (they bypass its HTTP client's `request`)."""

        async def on_request_end(
            _session: aiohttp.ClientSession, _context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
        ) -> None:
            route = free_template(params.method, params.url.path)
            if route is None:
                return
            self.count_request(route, False)
            if params.response.status >= 400:
                self.count_error(0, params.response.status)

        trace.on_request_end.append(on_request_end)

"""A minimal Discord REST API on 127.0.0.1, for benchmarks that run the real bot in another process.

It answers what login and the delivery ask for (the bot user, the application, DM channels, message posts, edits
and deletions) with well-formed payloads, reads every body (attachments included) and counts the requests. The
bot process points discord.py at it with `discord.http.Route.BASE = FakeDiscord.base`. Only the loopback address.

`refuse` makes it answer matching requests as Discord refuses them (a 403 Missing Access, a 429 with its scope),
and `refused` counts those answers by status, so that a test of what the bot counts has its own count to compare.
"""

from __future__ import annotations

import asyncio
import fnmatch
import itertools
import json
import threading
from collections import Counter
from dataclasses import dataclass
from typing import Any

from aiohttp import web

BOT_USER: dict[str, Any] = {"id": "100", "username": "bench", "discriminator": "0", "avatar": None, "bot": True}
APPLICATION: dict[str, Any] = {
    "id": "100",
    "name": "bench",
    "icon": None,
    "description": "",
    "rpc_origins": [],
    "bot_public": True,
    "bot_require_code_grant": False,
    "owner": BOT_USER,
    "summary": "",
    "verify_key": "0" * 64,
    "flags": 0,
}


def _json(value: dict[str, Any], status: int = 200) -> web.Response:
    # discord.py decodes a body only when its content type is exactly "application/json" (no charset).
    return web.Response(body=json.dumps(value).encode(), status=status, headers={"Content-Type": "application/json"})


def _message(message_id: str, channel_id: str) -> dict[str, Any]:
    return {
        "id": message_id,
        "channel_id": channel_id,
        "author": BOT_USER,
        "content": "",
        "timestamp": "2025-01-31T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "components": [],
        "pinned": False,
        "type": 0,
        "flags": 0,
    }


@dataclass
class Refusal:
    """Answer requests whose path (below /api/v10) matches `pattern` with `status`, `times` times (None: always)."""

    pattern: str
    status: int
    code: int = 0
    scope: str | None = None  # a 429's X-RateLimit-Scope: "user", "global" or "shared"
    times: int | None = None

    def answer(self) -> web.Response:
        """Discord's refusal: a 429 carries what discord.py needs to wait and retry (retry_after, a Via header)."""
        if self.status != 429:
            return _json({"message": "Missing Access", "code": self.code}, status=self.status)
        headers = {"Content-Type": "application/json", "Via": "1.1 google", "Retry-After": "0"}
        if self.scope is not None:
            headers["X-RateLimit-Scope"] = self.scope
        body = {"message": "You are being rate limited.", "retry_after": 0.01, "global": self.scope == "global"}
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)


class FakeDiscord:
    """The server, run on its own thread and event loop: `with FakeDiscord() as discord: ... discord.base`."""

    def __init__(self) -> None:
        self.requests: Counter[str] = Counter()
        self.refused: Counter[int] = Counter()  # refusals answered, by status
        self._refusals: list[Refusal] = []
        self._ids = itertools.count(9_000_000_000)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None
        self.base = ""

    def __enter__(self) -> FakeDiscord:
        self._thread.start()
        port = asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=30)
        self.base = f"http://127.0.0.1:{port}/api/v10"
        return self

    def __exit__(self, *_: object) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)
        self._loop.close()

    async def _start(self) -> int:
        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_route("*", "/api/v10/{path:.*}", self._answer)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        return int(self._runner.addresses[0][1])  # (host, port) of the socket bound

    def refuse(self, refusal: Refusal) -> None:
        """Refuse the requests it matches from now on (from any thread: the list is only appended to)."""
        self._refusals.append(refusal)

    def _refusal(self, path: str) -> Refusal | None:
        for refusal in self._refusals:
            if refusal.times != 0 and fnmatch.fnmatch(path, refusal.pattern):
                if refusal.times is not None:
                    refusal.times -= 1
                return refusal
        return None

    async def _answer(self, request: web.Request) -> web.Response:
        await request.read()
        parts = request.match_info["path"].strip("/").split("/")
        method = request.method
        self.requests[f"{method} /{'/'.join(part if not part.isdigit() else '{id}' for part in parts)}"] += 1
        refusal = self._refusal("/" + "/".join(parts))
        if refusal is not None:
            self.refused[refusal.status] += 1
            return refusal.answer()
        if method == "GET" and parts == ["users", "@me"]:
            return _json(BOT_USER)
        if method == "GET" and parts == ["oauth2", "applications", "@me"]:
            return _json(APPLICATION)
        if method == "POST" and parts == ["users", "@me", "channels"]:
            channel = {"id": str(next(self._ids)), "type": 1, "recipients": [BOT_USER], "last_message_id": None}
            return _json(channel)
        if parts[:1] == ["channels"] and len(parts) >= 3 and parts[2] == "messages":
            if method == "POST" and len(parts) == 3:
                return _json(_message(str(next(self._ids)), parts[1]))
            if method == "PATCH" and len(parts) == 4:
                return _json(_message(parts[3], parts[1]))
            if method == "DELETE" and len(parts) == 4:
                return web.Response(status=204)
        return _json({"message": "Unknown route", "code": 0}, status=404)

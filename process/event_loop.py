"""The event loop the bot runs on: uvloop where it is installed, else asyncio's own.

uvloop (libuv under asyncio's interface) spends less time per socket read and write and per scheduled callback;
a move makes several round trips to the database, so it costs a busy bot noticeably less CPU. Everything the bot
uses (discord.py, aiosqlite, asyncpg) runs on either loop; the benchmarks run on the bot's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

try:
    import uvloop
except ImportError:  # Windows has no uvloop
    uvloop = None  # type: ignore[assignment]

T = TypeVar("T")


def new_event_loop() -> asyncio.AbstractEventLoop:
    """A new loop of the kind the bot runs on."""
    return uvloop.new_event_loop() if uvloop is not None else asyncio.new_event_loop()


def loop_name() -> str:
    """Which loop `run` uses, for the start-up line and the benchmarks' headers."""
    return "uvloop" if uvloop is not None else "asyncio"


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on the bot's loop."""
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(main)

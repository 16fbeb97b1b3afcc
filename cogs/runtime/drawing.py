"""Where pictures are drawn: one worker thread, off the event loop.

Drawing is CPU work that holds the GIL most of the time, so more threads would not draw faster; one thread keeps the
memory of drawing in one place (each thread that draws gets its own allocator arena, and a catch-up settling
several games at once would otherwise hold a canvas in each).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_PAINTER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")


async def drawn(draw: Callable[..., T], *args: Any) -> T:
    """`draw(*args)`, run on the picture thread."""
    return await asyncio.get_running_loop().run_in_executor(_PAINTER, functools.partial(draw, *args))

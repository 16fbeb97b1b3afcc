"""The bot's event loop: uvloop where it is installed (it is, on the machines CI runs on)."""

import asyncio

import uvloop

from process import event_loop


def test_the_bot_runs_on_uvloop_and_returns_what_its_main_returns() -> None:
    async def main() -> type[asyncio.AbstractEventLoop]:
        return type(asyncio.get_running_loop())

    assert event_loop.run(main()) is uvloop.Loop
    assert event_loop.loop_name() == "uvloop"

"""Run the real `python bot.py` as a subprocess, with Discord's address pointed somewhere we control.

discord.py builds every REST URL from `discord.http.Route.BASE`; the launcher sets it before running bot.py, so the
bot under test is the real one and nothing leaves this machine.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot.py"
FAKE_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GfakeX.not-a-real-token-but-well-formed-xxxxxxxx"

_LAUNCHER = """
import os, runpy, sys
import discord.http
discord.http.Route.BASE = sys.argv[1]
sys.argv = [sys.argv[2]]
sys.path.insert(0, os.path.dirname(sys.argv[0]))
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@dataclass
class RunningBot:
    """A bot process whose output lines are collected with the time they arrived."""

    process: subprocess.Popen[str]
    started: float
    lines: list[tuple[float, str]] = field(default_factory=list)
    reader: threading.Thread = field(init=False)

    def lines_within(self, seconds: float) -> list[str]:
        """Output lines printed in the first `seconds` after start."""
        return [line for at, line in self.lines if at - self.started <= seconds]

    def wait_for_lines(self, text: str, count: int, timeout: float) -> list[tuple[float, str]]:
        """The first `count` output lines holding `text`, with their times, once printed (fewer after `timeout`)."""
        ends = time.monotonic() + timeout
        while True:
            found = [(at, line) for at, line in list(self.lines) if text in line]
            if len(found) >= count or time.monotonic() >= ends or self.process.poll() is not None:
                return found[:count]
            time.sleep(0.05)

    def stop(self, timeout: float) -> tuple[int | None, float]:
        """SIGTERM, then wait; returns the exit status (None if it did not exit in time) and the seconds taken."""
        sent = time.monotonic()
        self.process.terminate()
        try:
            status: int | None = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            status = None
        took = time.monotonic() - sent
        self.finish()
        return status, took

    def wait(self, timeout: float) -> int:
        """Wait for the process to end by itself; returns its exit status."""
        status = self.process.wait(timeout=timeout)
        self.finish()
        return status

    def finish(self) -> None:
        """Let the reader take the last lines, then close the pipe."""
        self.reader.join(timeout=5)
        assert self.process.stdout is not None
        self.process.stdout.close()


def unused_port() -> int:
    """A loopback port nobody listens on now: connecting is refused at once, and a server may bind it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_bot(tmp_path: Path, api_base: str, **env: str) -> RunningBot:
    """Start bot.py with a well-formed fake token, a fresh database in `tmp_path`, and Discord at `api_base`."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("DISCORD")}
    environment |= {"DISCORD_TOKEN": FAKE_TOKEN, "DATABASE_PATH": str(tmp_path / "bot.db"), **env}
    process = subprocess.Popen(
        [sys.executable, "-c", _LAUNCHER, api_base, str(BOT)],
        cwd=tmp_path,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    running = RunningBot(process, time.monotonic())

    def collect() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            running.lines.append((time.monotonic(), line.rstrip("\n")))

    running.reader = threading.Thread(target=collect, daemon=True)
    running.reader.start()
    return running

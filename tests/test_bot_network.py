"""`python bot.py` when Discord cannot be reached, or rejects the token: one clear line each, no traceback."""

import http.server
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import retry_delays
from cogs.runtime.backoff import FIRST_RETRY_SECONDS, LONGEST_RETRY_SECONDS
from tests.startup_helpers import FAKE_TOKEN, start_bot, unused_port


def test_unreachable_discord_gives_one_line_per_try_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    bot = start_bot(tmp_path, f"http://127.0.0.1:{unused_port()}/api/v10")
    # The first try and the second, which comes after the first wait (5 s, give or take a fifth).
    tries = bot.wait_for_lines("Cannot reach Discord", count=2, timeout=FIRST_RETRY_SECONDS * 1.2 + 20)
    status, took = bot.stop(timeout=10)
    output = "\n".join(line for _, line in bot.lines)
    assert len(tries) == 2, output
    (first_at, first), (second_at, _) = tries
    assert "trying again in" in first, first
    said_wait = float(first.rsplit("trying again in ", 1)[1].split()[0])
    assert FIRST_RETRY_SECONDS * 0.8 - 0.5 <= said_wait <= FIRST_RETRY_SECONDS * 1.2 + 0.5, first
    # One line per try: nothing else about reaching Discord between the two, and the wait is the one announced.
    assert second_at - first_at >= said_wait - 1, (first, second_at - first_at)
    assert sum("Discord" in line for at, line in bot.lines if at <= second_at) == 2, output
    assert "Traceback" not in output and "voice" not in output.lower()
    assert FAKE_TOKEN not in output
    assert status == 0, output
    assert took < 5
    assert output.splitlines()[-1].endswith("Shut down cleanly.")


class _RejectsEveryToken(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b'{"message": "401: Unauthorized", "code": 0}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def rejecting_discord() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _RejectsEveryToken)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/api/v10"
    server.shutdown()
    server.server_close()


def test_rejected_token_exits_1_at_once_with_one_line(tmp_path: Path, rejecting_discord: str) -> None:
    bot = start_bot(tmp_path, rejecting_discord)
    status = bot.wait(timeout=30)
    lines = [line for _, line in bot.lines]
    assert status == 1
    # A first start creates the database (one line), then the refusal is the one line that matters.
    assert len(lines) == 2 and "created the database schema" in lines[0], lines
    assert "Discord rejected DISCORD_TOKEN" in lines[1], lines
    assert FAKE_TOKEN not in "\n".join(lines)


def test_retry_waits_double_from_5_seconds_up_to_5_minutes_with_jitter() -> None:
    class NoJitter(random.Random):
        def uniform(self, low: float, high: float) -> float:
            return 0.0

    class MostJitter(random.Random):
        def uniform(self, low: float, high: float) -> float:
            return high

    plain = retry_delays(NoJitter())
    assert [plain() for _ in range(9)] == [5, 10, 20, 40, 80, 160, 300, 300, 300]
    jittered = retry_delays(MostJitter())
    assert jittered() == pytest.approx(FIRST_RETRY_SECONDS * 1.2)
    assert max(jittered() for _ in range(20)) == pytest.approx(LONGEST_RETRY_SECONDS * 1.2)

"""`python bot.py` when Discord cannot be reached, or rejects the token: one clear line each, no traceback."""

import http.server
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import retry_delays
from cogs.runtime.backoff import FIRST_RETRY_SECONDS, LONGEST_RETRY_SECONDS
from tests.startup_helpers import FAKE_TOKEN, start_bot, unused_port


def test_unreachable_discord_gives_one_line_per_try_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    bot = start_bot(tmp_path, f"http://127.0.0.1:{unused_port()}/api/v10")
    time.sleep(15)
    early = bot.lines_within(15)
    status, took = bot.stop(timeout=10)
    output = "\n".join(line for _, line in bot.lines)
    assert 1 <= len(early) <= 3, early
    assert any("Cannot reach Discord" in line and "trying again in" in line for line in early), early
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

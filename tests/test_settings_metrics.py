"""Issue 45, item 3: METRICS_PORT and METRICS_HOST, off by default, checked before anything starts."""

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from bot import ConfigError, Settings
from cogs.runtime.health import HealthServer, MetricsPortError
from cogs.runtime.metrics import Metrics

BOT = Path(__file__).resolve().parent.parent / "bot.py"


def test_metrics_are_not_served_unless_metrics_port_is_set() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "abc"})
    assert (settings.metrics_port, settings.metrics_host) == (None, "127.0.0.1")


def test_metrics_port_and_host_are_read() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "abc", "METRICS_PORT": " 9108 ", "METRICS_HOST": "0.0.0.0"})
    assert (settings.metrics_port, settings.metrics_host) == (9108, "0.0.0.0")


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"METRICS_PORT": "0"}, "METRICS_PORT must be a port number from 1 to 65535"),
        ({"METRICS_PORT": "65536"}, "METRICS_PORT must be a port number from 1 to 65535"),
        ({"METRICS_PORT": "nine"}, "METRICS_PORT must be a port number from 1 to 65535"),
        ({"METRICS_PORT": "-1"}, "METRICS_PORT must be a port number from 1 to 65535"),
        ({"METRICS_HOST": "0.0.0.0"}, "METRICS_HOST needs METRICS_PORT"),
        ({"METRICS_PORT": "9108", "METRICS_HOST": "http://x/"}, "METRICS_HOST must be an address"),
    ],
)
def test_malformed_metrics_settings_are_refused_with_a_reason(env: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Settings.from_env({"DISCORD_TOKEN": "abc", **env})


def test_a_malformed_metrics_port_exits_with_status_2_and_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "DISCORD_TOKEN": "not-a-real-token", "METRICS_PORT": "80a"}
    done = subprocess.run(
        [sys.executable, str(BOT)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "Cannot start: METRICS_PORT must be a port number from 1 to 65535 (or empty: not served), not '80a'."
    ]
    assert "Traceback" not in done.stdout + done.stderr


async def test_a_metrics_port_already_taken_is_refused_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = HealthServer(bot=cast(Any, None), metrics=Metrics(), port=port)  # never asked: it cannot listen
        with pytest.raises(MetricsPortError, match=f"cannot serve /healthz and /metrics on 127.0.0.1:{port}"):
            await server.start()

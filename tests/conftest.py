"""Suite-wide checks."""

import pytest

from tests.discord_limits import violations


@pytest.fixture(autouse=True)
def every_payload_within_discord_limits(request):
    """In every SimCord test, each request the bot sent respects Discord's limits on messages and components."""
    if "simcord_env" not in request.fixturenames:
        yield
        return
    env = request.getfixturevalue("simcord_env")
    yield
    broken = [
        f"{entry.method} {entry.path}: {problem}"
        for entry in env.http_requests
        for problem in violations(entry.json)
    ]
    assert not broken, "payloads past Discord's limits:\n" + "\n".join(broken)

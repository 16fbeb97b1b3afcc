"""Fixtures for the storage tests: a real SQLite file per test, always closed afterwards."""

import pytest

from db.store import Store


@pytest.fixture
async def store(tmp_path):
    opened = await Store.open(tmp_path / "data" / "bot.db")
    try:
        yield opened
    finally:
        await opened.close()

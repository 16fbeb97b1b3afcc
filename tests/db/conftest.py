"""Fixtures for the storage tests: a store per backend (`any_store`), always closed afterwards.

Tests that open an SQLite file themselves, or look inside it, are marked `sqlite_only`.
"""

import pytest

from db.sql_store import SqlStore


@pytest.fixture
async def store(any_store: SqlStore) -> SqlStore:
    return any_store

"""Fixtures for the storage tests: a store per backend (`any_store`), always closed afterwards.

Tests that open an SQLite file themselves, or look inside it, are marked `sqlite_only`.
"""

import pytest


@pytest.fixture
async def store(any_store):
    return any_store

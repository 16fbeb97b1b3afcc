"""The cluster benchmark in small: two bot processes on one PostgreSQL, each killed, and nothing lost or doubled."""

import asyncio

from bench.bench_cluster import bench
from tests.postgres import fresh_database


def test_two_processes_killed_lose_nothing_and_apply_nothing_twice(postgres_server: str) -> None:
    with fresh_database(postgres_server) as dsn:
        outcome = asyncio.run(bench(dsn, processes=2, games=10, kills=2, between=1.0, seed=3, seconds=0))
    assert outcome.acknowledged > 0
    assert outcome.kills == 2
    assert (outcome.lost, outcome.double_applied, outcome.snapshot_mismatch, outcome.frozen) == (0, 0, 0, 0)
    assert outcome.games_checked >= 10
    assert outcome.problems == []

"""`bench.bench_timers` at a tiny size: it runs against today's service and prints both of its figures."""

import re

import pytest

from bench import bench_timers


async def test_bench_timers_runs_and_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    await bench_timers.main(games=12, due=3, runs=3)
    printed = capsys.readouterr().out
    assert re.search(r"^timer tick with 12 timed games, 3 due: [0-9.]+ ms \(median of 3\)$", printed, re.M), printed
    acted = re.search(
        r"^acting on the 3 due games, each under its own lock: [0-9]+ ms in all \((?P<moves>[0-9]+) "
        r"automatic moves saved; (?P<left>[0-9]+) still due after\)$",
        printed,
        re.M,
    )
    assert acted is not None, printed
    assert int(acted["left"]) == 0

"""Every bench at a tiny size, through its own entry point, so that none rots as the code it measures changes.

Each test runs one `bench/bench_*.py` as `python -m bench.X` would (its `main(argv)`, `bench_timers.cli(argv)`, in
this process; the two that fork worker pools run as a subprocess), with options that make it quick, and checks that
each figure line its docstring promises was printed, in the documented shape. The figures themselves are not
judged: at these sizes they mean nothing. Benches that may use PostgreSQL (DATABASE_URL) run on SQLite here;
`bench_cluster`, PostgreSQL-only, runs on the test server (skipped without one).
"""

from __future__ import annotations

import asyncio
import gc
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench import (
    bench_budget,
    bench_cluster,
    bench_crash_soak,
    bench_db,
    bench_edit_cap,
    bench_garbage,
    bench_kasino,
    bench_play,
    bench_render,
    bench_requests,
    bench_service,
    bench_startup,
    bench_timers,
)

ROOT = Path(__file__).resolve().parents[1]
NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"  # a figure as the benches print it: 12, 0.47, -1.5
SIGNED = r"[+-][0-9]+(?:\.[0-9]+)?"  # one printed with its sign: +0.53, -1.20


def shape(line: str) -> str:
    """A line pattern written with `{n}` for any figure and `{s}` for a signed one, every other character literal."""
    return "^" + re.escape(line).replace(r"\{n\}", NUMBER).replace(r"\{s\}", SIGNED) + "$"


def assert_lines(printed: str, *lines: str) -> None:
    """Each of `lines` (see `shape`) matches a whole line of `printed`."""
    for line in lines:
        assert re.search(shape(line), printed, re.MULTILINE), f"no line like {line!r} in:\n{printed}"


@pytest.fixture(autouse=True)
def heap_as_it_was() -> Iterator[None]:
    """Undo what a bench run in this process did to the collector (`process.heap.settle` freezes and raises it)."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def run_module(module: str, *arguments: str) -> str:
    """`python -m module arguments…` from the repository root; its standard output (it must exit 0)."""
    done = subprocess.run(
        [sys.executable, "-m", module, *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bench_ai_prints_a_win_rate_line_per_match_and_the_move_times() -> None:
    printed = run_module(
        "bench.bench_ai",
        *("--games", "1", "--hard-games", "1", "--four-games", "0", "--expert-games", "0"),
        *("--expert-four-games", "0", "--house-games", "0", "--team-games", "0", "--processes", "1"),
    )
    for match in ("kasino 2p hard vs medium", "kasino 2p medium vs easy", "garbage 2p hard vs medium"):
        assert_lines(printed, f"{match}: win rate {{n}} over 1 games (95% CI {{n}}-{{n}})")
    assert_lines(printed, "kasino hard: {n} s per move (p95 {n} s)", "garbage hard: {n} s per move (p95 {n} s)")


def test_bench_budget_prints_the_peak_and_mean_rate_of_each_case(capsys: pytest.CaptureFixture[str]) -> None:
    bench_budget.main()
    printed = capsys.readouterr().out
    for processes in (1, 2, 3):
        assert_lines(
            printed,
            f"processes: {processes}, cap {{n}}/s each: peak {{n}} requests in any 1 s window, mean {{n}}/s"
            " (Discord's limit: 50)",
        )
    assert_lines(
        printed,
        "processes: 3 uncapped: peak {n} requests in any 1 s window, mean {n}/s (Discord's limit: 50; each process"
        " at the default 50)",
    )


def test_bench_cluster_kills_a_child_loses_nothing_and_prints_its_summary(
    postgres_server: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", postgres_server)  # a fresh database on the test server
    arguments = ["--processes", "2", "--games", "4", "--kills", "1", "--seconds-between-kills", "0.3", "--seconds", "0"]
    assert bench_cluster.main(arguments) == 0
    printed = capsys.readouterr().out
    assert_lines(
        printed,
        "processes: 2, kills: 1, acknowledged moves: {n}, lost: 0, double-applied: 0, snapshot≠replay: 0, moves/s: -",
        "kill run: {n} moves/s over {n} s with 1 kills ({n} moves in flight in each process); {n} games checked,"
        " frozen: 0",
    )


def test_bench_crash_soak_loses_no_acknowledged_move_over_two_kills(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_crash_soak.main(["--kills", "2", "--writers", "2"]) == 0
    assert_lines(capsys.readouterr().out, "kills: 2, writers: 2, acknowledged moves: {n}, lost: 0")


def test_bench_db_prints_moves_per_second_commits_per_move_and_the_backup_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench_db.main(
        ["1", "20", "--kasino-target", "1", "--garbage-size", "1", "--backup-games", "5", "--baseline-seconds", "0.2"]
    )
    printed = capsys.readouterr().out
    assert re.search(rf"^Store\.save_move +{NUMBER} moves/s", printed, re.MULTILINE), printed
    assert re.search(rf"^bare insert \+ commit +{NUMBER} moves/s", printed, re.MULTILINE), printed
    assert re.search(rf"^ratio store/bare +{NUMBER} ", printed, re.MULTILINE), printed
    assert_lines(printed, "commits per move: kasino {n}, garbage {n} (synchronous)")
    assert re.search(
        rf"^backup of 5 games while playing: {NUMBER} s, moves delayed p99 {NUMBER} ms ", printed, re.MULTILINE
    ), printed


def test_bench_edit_cap_prints_the_cost_of_refused_edits_per_game_hour(capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(bench_edit_cap.main(["--hours", "0.05", "--gap", "1"]))
    assert_lines(
        capsys.readouterr().out,
        "table edits refused after an hour: +{n} counted requests per game-hour ({n} reposts; {n} without the cap,"
        " {n} with, over 0.05 game-hours)",
    )


def test_bench_garbage_prints_a_row_per_player_count_and_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    bench_garbage.main(["--seconds", "0.05"])
    printed = capsys.readouterr().out
    for players in (2, 6):
        assert re.search(rf"^ +{players}( +{NUMBER}){{5}}$", printed, re.MULTILINE), printed
    assert re.search(rf"^2-player hands/s {NUMBER} .* the target of 1,000$", printed, re.MULTILINE), printed


def test_bench_kasino_prints_games_per_second_and_the_enumeration_times(capsys: pytest.CaptureFixture[str]) -> None:
    bench_kasino.main(["--games", "2", "--repeats", "1"])
    printed = capsys.readouterr().out
    for players in (2, 4):
        assert re.search(
            rf"^  {players} players: best +{NUMBER} games/s, median +{NUMBER} games/s, {NUMBER} moves/game$",
            printed,
            re.MULTILINE,
        ), printed
    for table in ("mixed values", r"small values \(worst case\)"):
        assert re.search(
            rf"^  {table} *: best {NUMBER} ms, median {NUMBER} ms, {NUMBER} moves$", printed, re.MULTILINE
        ), printed


def test_bench_kasino_duplicate_prints_how_often_and_by_how_much_two_players_differ() -> None:
    printed = run_module(
        "bench.bench_kasino_duplicate",
        *("--variant", "medium", "--baseline", "easy", "--opponents", "easy", "--players", "2", "--seeds", "1:2"),
        *("--processes", "1"),
    )
    assert_lines(
        printed,
        "kasino 2p medium vs easy (against easy): {n} of {n} decisions differ ({n}%); {s} round points per differing"
        " decision (95% CI {s} to {s}); variant CPU {n}x",
    )


def test_bench_play_prints_taps_refreshes_and_messages_for_each_case(capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(bench_play.main(["--kasino-target", "1", "--garbage-size", "1"]))
    printed = capsys.readouterr().out
    for players in (2, 4):
        assert_lines(
            printed,
            f"kasino {players}p, half DMs closed: {{n}} taps per move, {{n}}% of turns needed a refresh,"
            " {n} channel messages per round",
        )
    assert_lines(printed, "garbage 4p: {n} taps per decision, {n} channel messages per hand")


def test_bench_render_prints_time_and_size_of_each_picture(capsys: pytest.CaptureFixture[str]) -> None:
    bench_render.main(["--renders", "3"])
    printed = capsys.readouterr().out
    for picture in ("kasino table", "kasino hand", "garbage 2-player table", "garbage 6-player table"):
        assert_lines(printed, f"{picture}: {{n}} ms per render (p95 {{n}} ms), {{n}} KB")


def test_bench_requests_prints_requests_per_move_per_page_and_in_a_storm(capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(bench_requests.main(["--only", "garbage 2p", "--garbage-size", "1"]))
    asyncio.run(bench_requests.main(["--only", "history", "--kasino-target", "1"]))
    storm = ["--only", "storm", "--storm-games", "1", "--storm-minutes", "1", "--storm-timer", "2m"]
    asyncio.run(bench_requests.main(storm))
    printed = capsys.readouterr().out
    assert_lines(
        printed,
        "garbage 2p: {n} counted requests per move ({n} in all)",
        "history and replay pages: {n} counted requests per page ({n} in all)",
    )
    for label in ("", ", a process keeping a tenth of the budget"):
        assert re.search(
            rf"^invalid requests during a 50001 storm over 1 games{label}: peak {NUMBER} per 10 min \(budget {NUMBER};"
            rf" {NUMBER} refused in all; every game caught up {NUMBER} min after access returned\)$",
            printed,
            re.MULTILINE,
        ), printed


def test_bench_service_prints_its_latency_and_saturation_lines_at_a_tiny_size(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)  # SQLite only
    bench_service.main(["--sizes", "50", "--seconds", "0.4", "--saturated-games", "10", "--saturated-seconds", "0.05"])
    printed = capsys.readouterr().out
    assert re.search(rf"^N=50: {NUMBER} moves/s offered, p50 {NUMBER} ms, p99 {NUMBER} ms ", printed, re.MULTILINE)
    assert re.search(
        rf"^saturated \(64 in flight, 10 games\): service {NUMBER} moves/s, bare INSERT\+COMMIT {NUMBER} /s,"
        rf" ratio {NUMBER} ",
        printed,
        re.MULTILINE,
    ), printed


def test_bench_startup_prints_start_up_time_catch_up_and_event_loop_lag(capsys: pytest.CaptureFixture[str]) -> None:
    bench_startup.main(["--runs", "1", "--sizes", "1", "--owed", "2"])
    assert_lines(
        capsys.readouterr().out,
        "start-up with 1 running game: {n} s (1 game: {n} s), peak {n} MB",
        "after READY with 2 owed games: peak {n} MB, settled in {n} s",
        "event-loop lag during the full check of 2 games: p99 {n} ms, max {n} ms",
    )


def test_bench_timers_parses_its_options_prints_the_tick_and_leaves_no_game_due(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench_timers.cli(["--games", "12", "--due", "3"])
    printed = capsys.readouterr().out
    assert_lines(printed, "timer tick with 12 timed games, 3 due: {n} ms (median of 200)")
    assert_lines(
        printed,
        "acting on the 3 due games, each under its own lock: {n} ms in all ({n} automatic moves saved; 0 still due"
        " after)",
    )

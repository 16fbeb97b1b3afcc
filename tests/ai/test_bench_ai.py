"""The benchmark's arithmetic: the Wilson interval and one seeded game in alternating seats."""

import pytest

from bench.bench_ai import Match, play_one, wilson


def test_wilson_interval_known_values():
    low, high = wilson(64, 100)
    assert low == pytest.approx(0.542, abs=0.001)
    assert high == pytest.approx(0.727, abs=0.001)
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)


def test_play_one_is_seeded_and_alternates_seats():
    match = Match("garbage", 2, "medium", "easy", 2)
    first, second = play_one((match, 3)), play_one((match, 3))
    assert first[0] == second[0]
    assert len(first[1]) == len(second[1]) > 0  # the same decisions, timed


def test_expert_matches_play_each_seed_in_every_seat():
    match = Match("kasino", 4, "expert", "hard", 8, rotate=True)
    assert [match.seed_and_seat(index) for index in range(8)] == [
        (0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)
    ]  # fmt: skip
    assert Match("kasino", 2, "hard", "medium", 4).seed_and_seat(3) == (3, 1)

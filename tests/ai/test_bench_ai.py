"""The benchmark's arithmetic: the Wilson interval and one seeded game in alternating seats."""

import pytest

from bench.bench_ai import Match, house_rule_matches, play_one, wilson


def test_wilson_interval_known_values() -> None:
    low, high = wilson(64, 100)
    assert low == pytest.approx(0.542, abs=0.001)
    assert high == pytest.approx(0.727, abs=0.001)
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)


def test_play_one_is_seeded_and_alternates_seats() -> None:
    match = Match("garbage", 2, "medium", "easy", 2)
    first, second = play_one((match, 3)), play_one((match, 3))
    assert first[0] == second[0]
    assert len(first[1]) == len(second[1]) > 0  # the same decisions, timed


def test_expert_matches_play_each_seed_in_every_seat() -> None:
    match = Match("kasino", 4, "expert", "hard", 8, rotate=True)
    assert [match.seed_and_seat(index) for index in range(8)] == [
        (0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)
    ]  # fmt: skip
    assert Match("kasino", 2, "hard", "medium", 4).seed_and_seat(3) == (3, 1)


def test_house_rule_matches_play_each_deal_both_ways_round() -> None:
    building, teams = house_rule_matches(3, 3)
    assert (building.games, teams.games) == (4, 4)  # rounded up to whole deals
    assert building.name == "kasino 2p hard vs medium, building off"
    assert teams.name == "kasino 4p partnerships, hard team vs medium team"
    assert [building.seed_and_seat(index) for index in range(4)] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert [teams.seed_and_seat(index) for index in range(4)] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert teams.hero_seats(1) == (1, 3) and building.hero_seats(1) == (1,)


def test_a_partnership_game_counts_a_win_for_the_whole_team() -> None:
    teams = Match("kasino", 4, "medium", "easy", 2, settings=(("partnerships", True), ("target", 4)),
                  variant="partnerships", teams=True)  # fmt: skip
    won, seconds = play_one((teams, 1))
    assert isinstance(won, bool) and len(seconds) > 0
    assert play_one((teams, 1))[0] == won

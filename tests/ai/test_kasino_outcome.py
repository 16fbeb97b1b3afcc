"""What a round's points are worth to the expert (K15): the chance of winning with two sides, points with more."""

import pytest

from ai.kasino_outcome import WIN_WEIGHT, GameContext


def test_k15_with_two_players_a_point_that_wins_the_game_is_worth_far_more_than_a_point() -> None:
    context = GameContext((15, 15), 16)
    winning = context.utility([1, 0], 0, True) - context.utility([0, 0], 0, True)
    assert winning == pytest.approx(1 + WIN_WEIGHT / 2)  # from a shared top (another round) to a won game
    far = GameContext((0, 0), 16)
    assert far.utility([1, 0], 0, True) - far.utility([0, 0], 0, True) < winning / 2


@pytest.mark.parametrize("totals", [(0, 0, 0, 0), (15, 14, 3, 0), (2, 12, 15)])
def test_k15_with_three_or_four_players_utility_is_the_lead_over_the_others_mean(totals: tuple[int, ...]) -> None:
    context = GameContext(totals, 16)
    players = len(totals)
    for seat in range(players):
        for over in (False, True):
            points = [1.5 * other for other in range(players)]
            finals = [total + value for total, value in zip(totals, points, strict=True)]
            others = [value for other, value in enumerate(finals) if other != seat]
            assert context.utility(points, seat, over) == pytest.approx(finals[seat] - sum(others) / len(others))


def test_with_four_players_a_point_taken_from_any_rival_counts_the_same_near_the_target() -> None:
    context = GameContext((15, 14, 3, 0), 16)
    from_the_leader = context.utility([0, -1, 0, 0], 0, True)
    from_the_last = context.utility([0, 0, 0, -1], 0, True)
    assert from_the_leader == pytest.approx(from_the_last)
    assert context.utility([1, 0, 0, 0], 0, True) - context.utility([0, 0, 0, 0], 0, True) == pytest.approx(1.0)

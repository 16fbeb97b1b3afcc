"""Shared helpers for the computer-player tests: cheap budgets so hard players stay fast here."""

import pytest

from ai.players import player_for

# Hard players search with a tiny iteration budget in tests; the budget changes strength, never legality.
TEST_BUDGET = {"samples": 3, "time_limit": 5.0}


def make_player(kind, strength, seed=0):
    budget = TEST_BUDGET if strength == "hard" else {}
    return player_for(kind, strength, seed, **budget)


@pytest.fixture
def player():
    return make_player

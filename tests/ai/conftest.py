"""Shared helpers for the computer-player tests: cheap budgets so hard players stay fast here."""

import pytest

from ai.players import player_for, strengths_for

# Searching players use a tiny sample budget in tests; the budget changes strength, never legality. (Expert's exact
# endgames and its enumeration of the last hidden hands take no budget: they are part of what is tested.)
TEST_BUDGETS = {"hard": {"samples": 3}, "expert": {"samples": 3, "max_samples": 6}}


def make_player(kind, strength, seed=0):
    return player_for(kind, strength, seed, **TEST_BUDGETS.get(strength, {}))


def kind_strengths(kind):
    """Every strength `kind` has a computer player of (expert: Kasino only)."""
    return [strength.value for strength in strengths_for(kind)]


@pytest.fixture
def player():
    return make_player

"""Shared helpers for the computer-player tests: cheap budgets so hard players stay fast here."""

from collections.abc import Callable
from typing import Any

import pytest

from ai.base import Player, Strength
from ai.players import player_for, strengths_for

# Searching players use a tiny sample budget in tests; the budget changes strength, never legality. (Expert's exact
# endgames and its enumeration of the last hidden hands take no budget: they are part of what is tested.)
TEST_BUDGETS = {"hard": {"samples": 3}, "expert": {"samples": 3, "max_samples": 6}}


def make_player(kind: str, strength: Strength | str, seed: int = 0) -> Player[Any, Any]:
    return player_for(kind, strength, seed, **TEST_BUDGETS.get(strength, {}))


def kind_strengths(kind: str) -> list[str]:
    """Every strength `kind` has a computer player of (expert: Kasino only)."""
    return [strength.value for strength in strengths_for(kind)]


@pytest.fixture
def player() -> Callable[..., Player[Any, Any]]:
    return make_player

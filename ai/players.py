"""The computer players by game kind and strength: `player_for("kasino", "hard", seed=7)`."""

from __future__ import annotations

import importlib
from typing import Any, Final

from ai.base import Player, Strength

_CLASSES: Final = {
    ("kasino", Strength.EASY): ("ai.kasino_easy", "EasyKasino"),
    ("kasino", Strength.MEDIUM): ("ai.kasino_medium", "MediumKasino"),
    ("kasino", Strength.HARD): ("ai.kasino_hard", "HardKasino"),
    ("garbage", Strength.EASY): ("ai.garbage_players", "EasyGarbage"),
    ("garbage", Strength.MEDIUM): ("ai.garbage_players", "MediumGarbage"),
    ("garbage", Strength.HARD): ("ai.garbage_hard", "HardGarbage"),
}
KINDS: Final = ("kasino", "garbage")


def player_for(kind: str, strength: Strength | str, seed: int = 0, **budget: Any) -> Player:
    """A computer player for `kind` ("kasino" or "garbage") at `strength` ("easy", "medium", "hard").

    `budget` goes to the hard players only (`samples=`, `time_limit=`); the others take none.

    Raises:
        ValueError: an unknown kind or strength, or a budget for a player that takes none.
    """
    strength = Strength(strength)
    if (kind, strength) not in _CLASSES:
        raise ValueError(f"no computer player for {kind!r}; kinds are {', '.join(KINDS)}")
    if budget and strength is not Strength.HARD:
        raise ValueError(f"only hard players take a budget, not {strength} ones")
    module_name, class_name = _CLASSES[kind, strength]
    player: Player = getattr(importlib.import_module(module_name), class_name)(seed, **budget)
    return player

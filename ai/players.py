"""The computer players by game kind and strength: `player_for("kasino", "hard", seed=7)`."""

from __future__ import annotations

import importlib
from typing import Any, Final

from ai.base import Player, Strength

_CLASSES: Final = {
    ("kasino", Strength.EASY): ("ai.kasino_easy", "EasyKasino"),
    ("kasino", Strength.MEDIUM): ("ai.kasino_medium", "MediumKasino"),
    ("kasino", Strength.HARD): ("ai.kasino_hard", "HardKasino"),
    ("kasino", Strength.EXPERT): ("ai.kasino_expert", "ExpertKasino"),
    ("garbage", Strength.EASY): ("ai.garbage_players", "EasyGarbage"),
    ("garbage", Strength.MEDIUM): ("ai.garbage_players", "MediumGarbage"),
    ("garbage", Strength.HARD): ("ai.garbage_hard", "HardGarbage"),
}
KINDS: Final = ("kasino", "garbage")
_BUDGETED: Final = (Strength.HARD, Strength.EXPERT)  # the searching players, which take a budget


def strengths_for(kind: str) -> tuple[Strength, ...]:
    """The strengths there is a computer player of for `kind`, weakest first (none for an unknown kind)."""
    return tuple(strength for strength in Strength if (kind, strength) in _CLASSES)


def player_for(kind: str, strength: Strength | str, seed: int = 0, **budget: Any) -> Player:
    """A computer player for `kind` ("kasino" or "garbage") at `strength` ("easy", "medium", "hard", "expert").

    `budget` goes to the searching players only (hard and expert: `samples=`, `time_limit=`); the others take none.
    Expert plays Kasino only (`strengths_for`).

    Raises:
        ValueError: an unknown kind or strength, or a budget for a player that takes none.
    """
    strength = Strength(strength)
    if (kind, strength) not in _CLASSES:
        if kind in KINDS:
            raise ValueError(f"no {strength} computer player for {kind!r}")
        raise ValueError(f"no computer player for {kind!r}; kinds are {', '.join(KINDS)}")
    if budget and strength not in _BUDGETED:
        raise ValueError(f"only hard and expert players take a budget, not {strength} ones")
    module_name, class_name = _CLASSES[kind, strength]
    player: Player = getattr(importlib.import_module(module_name), class_name)(seed, **budget)
    return player

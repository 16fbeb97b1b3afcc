"""The computer players of each kind, by strength: `player_for("kasino", "hard", seed=7)`.

Each kind lists its own players (`engine.kinds.GameKind.players`); this module only finds and makes them.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from ai.base import Player, Strength
from engine import registry

_BUDGETED: Final = (Strength.HARD, Strength.EXPERT)  # the searching players, which take a budget


def strengths_for(kind: str) -> tuple[Strength, ...]:
    """The strengths there is a computer player of for `kind`, weakest first (none for an unknown kind)."""
    listed = _players(kind)
    return tuple(strength for strength in Strength if strength.value in listed)


def player_for(kind: str, strength: Strength | str, seed: int = 0, **budget: Any) -> Player[Any, Any]:
    """A computer player for `kind` at `strength` ("easy", "medium", "hard", "expert"), if the kind has one.

    `budget` goes to the searching players only (hard and expert: `samples=`); the others take none.

    Raises:
        ValueError: an unknown kind or strength, a strength the kind has no player of, or a budget for a player
            that takes none.
    """
    strength = Strength(strength)
    listed = _players(kind)
    if strength.value not in listed:
        if kind in registry.KINDS:
            raise ValueError(f"no {strength} computer player for {kind!r}")
        raise ValueError(f"no computer player for {kind!r}; kinds are {', '.join(registry.KINDS)}")
    if budget and strength not in _BUDGETED:
        raise ValueError(f"only hard and expert players take a budget, not {strength} ones")
    module_name, _, class_name = listed[strength.value].partition(":")
    player: Player[Any, Any] = getattr(importlib.import_module(module_name), class_name)(seed, **budget)
    return player


def _players(kind: str) -> dict[str, str]:
    try:
        return dict(registry.game_kind(kind).players)
    except KeyError:
        return {}

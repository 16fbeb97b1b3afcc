"""The engines by kind, for code that stores or restores games of either kind."""

from __future__ import annotations

import importlib

from engine.base import AnyGame

_MODULES = {"kasino": ("engine.kasino", "KasinoGame"), "garbage": ("engine.garbage", "GarbageGame")}
KINDS = tuple(_MODULES)


def game_class(kind: str) -> type[AnyGame]:
    """The engine class for `kind` ("kasino" or "garbage").

    Raises:
        KeyError: no such kind.
    """
    module_name, class_name = _MODULES[kind]
    cls: type[AnyGame] = getattr(importlib.import_module(module_name), class_name)
    return cls

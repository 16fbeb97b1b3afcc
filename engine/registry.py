"""Every kind of game the bot hosts: the one list a new game adds itself to."""

from __future__ import annotations

import importlib

from engine.base import AnyGame
from engine.kinds import GameKind

# Each name is a package `engine.<name>` whose `kind` module defines `KIND`; a new game adds its name here.
KIND_PACKAGES = ("kasino", "garbage")

GAME_KINDS: tuple[GameKind, ...] = tuple(
    importlib.import_module(f"engine.{package}.kind").KIND for package in KIND_PACKAGES
)

_BY_NAME = {kind.name: kind for kind in GAME_KINDS}
_BY_CODE = {kind.code: kind for kind in GAME_KINDS}
KINDS = tuple(_BY_NAME)


def game_kind(name: str) -> GameKind:
    """The kind called `name`.

    Raises:
        KeyError: no such kind.
    """
    return _BY_NAME[name]


def kind_by_code(code: str) -> GameKind:
    """The kind whose custom-id code is `code`.

    Raises:
        KeyError: no such code.
    """
    return _BY_CODE[code]


def game_class(kind: str) -> type[AnyGame]:
    """The engine class for the kind called `kind`.

    Raises:
        KeyError: no such kind.
    """
    return _BY_NAME[kind].engine

"""Every kind of game the bot hosts: the one list a new game adds itself to."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Iterator

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


def _clash(kind: GameKind, listed: tuple[GameKind, ...]) -> str | None:
    """What `kind` shares with a listed kind that must be its own (players tell games apart by title), if anything."""
    for other in listed:
        for what, mine, theirs in (("name", kind.name, other.name), ("code", kind.code, other.code)):
            if mine == theirs:
                return f"a kind {what}d {mine!r} is listed already"
        if kind.title.casefold() == other.title.casefold():
            return f"a kind titled {other.title!r} is listed already"
    return None


for _index, _kind in enumerate(GAME_KINDS):
    if (_said := _clash(_kind, GAME_KINDS[:_index])) is not None:
        raise ValueError(f"engine.{KIND_PACKAGES[_index]}: {_said}")


@contextlib.contextmanager
def registered(kind: GameKind) -> Iterator[GameKind]:
    """List `kind` among the registry's kinds while the block runs (a kind defined by a test, say).

    Code that reads `registry.GAME_KINDS` or looks a kind up by name or code while the block runs finds it.

    Raises:
        ValueError: a kind of that name, code or title is listed already.
    """
    global GAME_KINDS, KINDS
    if (said := _clash(kind, GAME_KINDS)) is not None:
        raise ValueError(said)
    before = GAME_KINDS
    GAME_KINDS, KINDS = (*before, kind), (*KINDS, kind.name)
    _BY_NAME[kind.name], _BY_CODE[kind.code] = kind, kind
    try:
        yield kind
    finally:
        GAME_KINDS, KINDS = before, tuple(k.name for k in before)
        del _BY_NAME[kind.name], _BY_CODE[kind.code]


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

"""Issue 23: each kind brings its notation help (shown by `/rules`), and the help is true: every example it gives is
read as a move by the kind's own parser. Refused for the position (not in your hand) is fine; not a move is not.

Issue 25: the help is a message, told in the reader's language; its examples are what the parser reads, so they are
the same typed words in every language."""

from __future__ import annotations

import re

import pytest

from engine import registry
from engine.errors import IllegalMoveError, InvalidMoveError
from engine.kinds import GameKind
from i18n import LOCALES, SOURCE_LOCALE, render_message
from tests import toy_game

EXAMPLE = re.compile(r"^`([^`]+)`", re.MULTILINE)  # each help line opens with an example in backticks


def examples(kind: GameKind, locale: str = SOURCE_LOCALE) -> list[str]:
    assert kind.notation is not None, f"{kind.name} gives no notation help"
    return EXAMPLE.findall(render_message(kind.notation, locale))


@pytest.mark.parametrize("kind", [*registry.GAME_KINDS, toy_game.KIND], ids=lambda kind: kind.name)
def test_every_example_of_a_kinds_notation_help_is_a_move(kind: GameKind) -> None:
    assert len(examples(kind)) >= 2, f"{kind.name} gives no notation help"
    game = kind.engine.new(kind.min_seats, seed=1)
    for example in examples(kind):
        try:
            assert game.to_move is not None
            game.parse_move(game.to_move, example)
        except IllegalMoveError:
            pass  # a move, only not one this position allows
        except InvalidMoveError as error:
            pytest.fail(f"{kind.name}: the help's example {example!r} is not read as a move: {error}")


def test_an_example_that_is_not_a_move_would_be_caught() -> None:
    kind = registry.GAME_KINDS[0]
    game = kind.engine.new(kind.min_seats, seed=1)
    with pytest.raises(InvalidMoveError):
        assert game.to_move is not None
        game.parse_move(game.to_move, "flip the table")


@pytest.mark.parametrize("kind", registry.GAME_KINDS, ids=lambda kind: kind.name)
@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != SOURCE_LOCALE])
def test_the_help_gives_the_same_typed_examples_in_every_language(kind: GameKind, locale: str) -> None:
    assert examples(kind, locale) == examples(kind)
    assert kind.notation is not None
    assert render_message(kind.notation, locale) != render_message(kind.notation, SOURCE_LOCALE)

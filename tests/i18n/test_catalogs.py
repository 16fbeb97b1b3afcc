"""Issue 25: messages are data, and the catalogs cannot drift from what the engine says."""

import ast
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.core import BaseGame
from engine.kinds import GameKind
from engine.message import Count, Joined, Message
from engine.registry import GAME_KINDS
from i18n import counted, render_message
from i18n.catalog import SOURCE_LOCALE, Entry, load
from i18n.report import report

ROOT = Path(__file__).resolve().parent.parent.parent


def said_messages(seed: int, kind: GameKind) -> list[Message]:
    """Every message one random game of `kind` makes: events, move phrases, settings line; a seat resigns midway."""
    rng = random.Random(seed)
    players = rng.randint(kind.min_seats, kind.max_seats)
    game = kind.engine.new(players, seed)
    assert isinstance(game, BaseGame)  # every kind's engine, which names its scores
    messages = [kind.describe_settings({}), game.SCORES_LABEL]
    resign_at = rng.randint(0, 60)
    for turn in range(2000):
        if game.to_move is None:
            break
        seat = game.to_move
        moves = game.legal_moves(seat)
        messages += [game.describe_move(move) for move in moves]
        move = game.resign_move() if turn == resign_at and players > 2 else rng.choice(moves)
        messages += [event.message() for event in game.apply(seat, move)]
    return messages


def nested(message: Message) -> Iterator[Message]:
    """`message` and every message inside it, with the counted nouns and separators it uses as messages."""
    yield message
    for value in message.params.values():
        yield from _inside(value)


def _inside(value: object) -> Iterator[Message]:
    if isinstance(value, Message):
        yield from nested(value)
    elif isinstance(value, Count):
        yield Message(f"count.{value.noun}", {"n": value.n})
    elif isinstance(value, Joined):
        yield Message(value.sep)
        if value.last is not None:
            yield Message(value.last)
        for item in value.items:
            yield from _inside(item)


@pytest.mark.parametrize("kind", GAME_KINDS, ids=lambda kind: kind.name)
def test_every_message_the_engine_says_is_in_the_english_catalog_with_its_parameters(kind: GameKind) -> None:
    english = load(SOURCE_LOCALE).entries
    seen: dict[str, set[frozenset[str]]] = {}
    for seed in range(12):
        for said in said_messages(seed, kind):
            for message in nested(said):
                seen.setdefault(message.id, set()).add(frozenset(message.params))
    missing = sorted(key for key in seen if key not in english)
    assert missing == []
    differ = {
        key: sorted(sorted(params) for params in found)
        for key, found in seen.items()
        if any(params != english[key].placeholders() for params in found)
    }
    assert differ == {}
    # Each kind says its own messages, named by the kind (the catalogs are found by the kind's name).
    assert any(key.startswith(f"{kind.name}.") for key in seen)


def test_every_rendered_event_is_english_words_without_a_placeholder_left() -> None:
    names = ["Kari", "Ola", "Nora", "Per", "Ali", "Eva"]
    for kind in GAME_KINDS:
        for said in said_messages(3, kind):
            text = render_message(said, "en", names)
            assert text and "{" not in text and "}" not in text, (said, text)


def test_the_catalogs_agree_on_placeholders_and_the_check_can_fail() -> None:
    assert report().mismatches == ()
    assert Entry(("{player} places {card}.",)).placeholders() == {"player", "card"}
    assert Entry(("{n} card", "{n} cards"), "n").placeholders() != Entry(("{count} lap",), "count").placeholders()


def test_python_m_i18n_prints_the_issues_line() -> None:
    done = subprocess.run([sys.executable, "-m", "i18n"], capture_output=True, text=True, cwd=ROOT, check=True)
    english = len(load(SOURCE_LOCALE).entries)
    line = done.stdout.strip()
    assert line.startswith(f"catalogs: en {english} messages; no ") and line.endswith("; placeholder mismatches 0")
    assert line == report().line()


@pytest.mark.parametrize(
    ("count", "noun", "expected"),
    [
        (1, "card", "1 card"),
        (0, "card", "0 cards"),
        (2, "card", "2 cards"),
        (1, "hand won", "1 hand won"),
        (3, "hand won", "3 hands won"),
        (1, "point", "1 point"),
        (16, "point", "16 points"),
        (-1, "game", "-1 games"),
    ],
)
def test_a_count_takes_the_plural_form_the_catalog_gives_it(count: int, noun: str, expected: str) -> None:
    assert counted(count, noun) == expected


def _functions_returning_text(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.FunctionDef) and node.name.startswith("describe")) or (
            isinstance(node, ast.FunctionDef) and node.name in {"phrase", "message"}
        ):
            returns = ast.unparse(node.returns) if node.returns else ""
            if returns == "str":
                found.append(f"{node.name} (line {node.lineno})")
    return found


def test_the_engine_holds_no_sentences_for_events_or_moves() -> None:
    # Events and move phrases are message ids and parameters; a `describe` returning text would be English again.
    offenders = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "engine").rglob("*.py"))
        if (found := _functions_returning_text(path))
    }
    assert offenders == {}
    for path in sorted((ROOT / "engine").rglob("events.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        fstrings = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)]
        names = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id == "names"]
        assert fstrings == [] and names == [], path


def test_the_text_check_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "events.py"
    module.write_text("class A:\n    def describe(self, names) -> str:\n        return 'x'\n", encoding="utf-8")
    assert _functions_returning_text(module) == ["describe (line 2)"]


@pytest.mark.parametrize("kind", GAME_KINDS, ids=lambda kind: kind.name)
def test_each_kind_keeps_its_messages_in_its_own_domain_in_every_locale(kind: GameKind) -> None:
    from i18n.catalog import LOCALES, LOCALES_DIR, read_catalog

    for locale in LOCALES:
        domain = LOCALES_DIR / locale / f"{kind.name}.po"
        assert domain.exists(), domain
        ids = [message.id for message in read_catalog(domain) if message.id]
        assert all((key if isinstance(key, str) else key[0]).startswith(f"{kind.name}.") for key in ids)

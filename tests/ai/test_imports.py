"""`ai/` has the same import rules as `engine/`: the standard library and `engine` only.

And the players never touch a game object: only the referee (`ai/arena.py`) may name the game classes.
"""

import ast
import sys
from pathlib import Path

from tests.test_layering import imported_roots

ROOT = Path(__file__).resolve().parents[2]
AI_FILES = sorted((ROOT / "ai").rglob("*.py"))
GAME_CLASSES = {"KasinoGame", "GarbageGame", "game_class"}


def test_ai_imports_only_stdlib_and_engine() -> None:
    assert AI_FILES
    allowed = set(sys.stdlib_module_names) | {"engine", "ai", "__future__"}
    offenders = {str(path.relative_to(ROOT)): sorted(imported_roots(path) - allowed) for path in AI_FILES}
    assert {path: bad for path, bad in offenders.items() if bad} == {}


def test_players_never_name_a_game_class() -> None:
    offenders = {}
    for path in AI_FILES:
        if path.name == "arena.py":
            continue
        nodes = list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
        names = {node.id for node in nodes if isinstance(node, ast.Name)}
        names |= {alias.name for node in nodes if isinstance(node, ast.ImportFrom) for alias in node.names}
        if names & GAME_CLASSES:
            offenders[path.name] = sorted(names & GAME_CLASSES)
    assert offenders == {}


def test_the_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import discord\nimport aiosqlite\nfrom engine.kasino import KasinoGame\n", encoding="utf-8")
    allowed = set(sys.stdlib_module_names) | {"engine"}
    assert imported_roots(bad) - allowed == {"discord", "aiosqlite"}

"""docs/adding-a-game.md stays true: the files it names exist for each kind; the line it shows is the registry's.

Nothing here names the kinds listed today, so a new kind passes without editing this file or the page.
"""

import ast
import re
from pathlib import Path

import pytest

from bot import extensions
from engine import registry
from tests import toy_game

ROOT = Path(__file__).resolve().parent.parent
KIND_NAMES = registry.KINDS
DOC = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")


def test_every_kind_has_the_files_the_page_names() -> None:
    named = set(re.findall(r"`((?:engine|cogs)/[\w/]*gnav[\w/]*\.py)`", DOC))
    assert {"engine/gnav/kind.py", "engine/gnav/game.py", "cogs/gnav/cog.py", "cogs/gnav/rules.py"} <= named
    for kind in registry.GAME_KINDS:
        missing = [path for path in named if not (ROOT / path.replace("gnav", kind.name)).exists()]
        assert missing == [], kind.name


def registry_line(source: str) -> tuple[str, tuple[str, ...]]:
    """The registry's `KIND_PACKAGES = (...)` line as written, and the names it lists."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and [ast.unparse(target) for target in node.targets] == ["KIND_PACKAGES"]:
            line = source.splitlines()[node.lineno - 1]
            assert node.end_lineno == node.lineno, "KIND_PACKAGES spans lines: a new kind would edit more than one"
            return line, tuple(ast.literal_eval(node.value))
    raise AssertionError("engine/registry.py has no KIND_PACKAGES")


def test_the_line_the_page_shows_is_the_registrys_with_the_new_name_at_the_end() -> None:
    shown = re.search(r"```python\n(KIND_PACKAGES = \(\.\.\., \"gnav\"\))\n```", DOC)
    assert shown is not None
    line, names = registry_line((ROOT / "engine" / "registry.py").read_text(encoding="utf-8"))
    assert names == registry.KIND_PACKAGES
    assert line == f"KIND_PACKAGES = {names!r}".replace("'", '"')  # one tuple, one line: the new name joins it


def test_a_registry_line_over_several_lines_would_be_caught() -> None:
    with pytest.raises(AssertionError, match="spans lines"):
        registry_line('KIND_PACKAGES = (\n    "kasino",\n)\n')


def test_each_kind_is_named_after_its_package_with_a_code_of_its_own() -> None:
    assert [kind.name for kind in registry.GAME_KINDS] == list(registry.KIND_PACKAGES)
    codes = [kind.code for kind in registry.GAME_KINDS]
    assert len(set(codes)) == len(codes) and all(len(code) == 1 and code.islower() for code in codes)


def test_a_kind_listed_while_the_bot_starts_is_loaded_by_it_with_no_other_edit() -> None:
    # The guide's promise, with a kind the suite registers (`tests/cogs/test_toy_flow.py` plays it through SimCord).
    with registry.registered(toy_game.KIND):
        assert toy_game.KIND.cog_module in extensions()
        assert [kind.cog_module for kind in registry.GAME_KINDS[:-1]] == [f"cogs.{name}.cog" for name in KIND_NAMES]
    assert toy_game.KIND.cog_module not in extensions()

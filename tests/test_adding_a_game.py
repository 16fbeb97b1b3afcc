"""docs/adding-a-game.md stays true: the files it names exist for each kind; the line it quotes is the registry's."""

import re
from pathlib import Path

from bot import extensions
from engine import registry
from tests import toy_game

ROOT = Path(__file__).resolve().parent.parent
KIND_NAMES = registry.KINDS
DOC = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")


def test_every_kind_has_the_files_the_page_names() -> None:
    named = set(re.findall(r"`((?:engine|cogs)/[\w/]*gnav[\w/]*\.py)`", DOC))
    assert {"engine/gnav/kind.py", "engine/gnav/game.py", "cogs/gnav.py", "cogs/_gnav_rules.py"} <= named
    for kind in registry.GAME_KINDS:
        missing = [path for path in named if not (ROOT / path.replace("gnav", kind.name)).exists()]
        assert missing == [], kind.name


def test_the_quoted_line_is_the_registrys() -> None:
    quoted = re.search(r"```python\n(KIND_PACKAGES = .*)\n```", DOC)
    assert quoted is not None
    assert quoted.group(1) in (ROOT / "engine" / "registry.py").read_text(encoding="utf-8")
    assert quoted.group(1) == f"KIND_PACKAGES = {registry.KIND_PACKAGES!r}".replace("'", '"')


def test_each_kind_is_named_after_its_package_with_a_code_of_its_own() -> None:
    assert [kind.name for kind in registry.GAME_KINDS] == list(registry.KIND_PACKAGES)
    codes = [kind.code for kind in registry.GAME_KINDS]
    assert len(set(codes)) == len(codes) and all(len(code) == 1 and code.islower() for code in codes)


def test_a_kind_listed_while_the_bot_starts_is_loaded_by_it_with_no_other_edit() -> None:
    # The guide's promise, with a kind the suite registers (`tests/cogs/test_toy_flow.py` plays it through SimCord).
    with registry.registered(toy_game.KIND):
        assert toy_game.KIND.cog_module in extensions()
        assert [kind.cog_module for kind in registry.GAME_KINDS[:-1]] == [f"cogs.{name}" for name in KIND_NAMES]
    assert toy_game.KIND.cog_module not in extensions()

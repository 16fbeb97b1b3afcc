"""Issue 25: every message id the code names is in the English catalog, and in every translation.

A static scan of the source (no code runs), so a message only a rare path says (a refusal, a timer's warning) is
checked too. It finds ids written out as literals:
- the first argument (or `id=`) of `Message(...)`;
- the text arguments after the locale of `say(...)` and of any function named like it (`_say`, `self.say`);
- the separators of `Joined(...)`, the nouns of `Count(...)`, `counted(...)` and `noun(...)` (`count.<noun>`,
  `noun.<noun>`);
- any other string that has the shape of an id with a prefix the catalogs use (`kasino.refused.not-in-hand` kept in
  a table or a constant).
Ids built at run time (`f"kasino.item-{kind}"`) are left to the tests that play games and raise refusals.
"""

import ast
import re
from pathlib import Path

import pytest

from i18n.catalog import LOCALES, SOURCE_LOCALE, load

ROOT = Path(__file__).resolve().parent.parent.parent
SCANNED = ("engine", "service", "cogs", "render", "db", "playground.py")
ID_SHAPE = re.compile(r"^[a-z][a-z0-9_]*(?:\.[\w -]+)+$")  # `count.hand won` has a space; a sentence has many
NOT_IDS = re.compile(r"\.(?:py|png|po|json|db|txt|md)$")  # file names share the shape


def sources() -> list[Path]:
    found = []
    for name in SCANNED:
        path = ROOT / name
        found += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return found


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called_ids(call: ast.Call) -> list[str]:
    """The ids a call names by literal text: its message id, its separators, its counted noun."""
    name, args = _name(call.func), call.args
    keywords = {keyword.arg: keyword.value for keyword in call.keywords}
    texts: list[str | None] = []
    if name == "Message":
        texts = [_text(args[0]) if args else _text(keywords.get("id"))]
    elif name == "say" or name.endswith("_say"):
        texts = [text for text in map(_text, args[1:]) if text is not None and ID_SHAPE.match(text)]
    elif name == "Joined":
        texts = [_text(node) for node in [*args[1:3], keywords.get("sep"), keywords.get("last")] if node is not None]
    elif name in ("Count", "counted", "noun") and len(args) >= 2 and _text(args[1]) is not None:
        texts = [f"{'noun' if name == 'noun' else 'count'}.{_text(args[1])}"]
    return [text for text in texts if text is not None]


def ids_in(path: Path, prefixes: frozenset[str]) -> list[tuple[str, int]]:
    """(id, line) for every message id `path` names by literal text."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    in_fstrings = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found += [(text, node.lineno) for text in _called_ids(node)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in in_fstrings:
            text = node.value
            shaped = " " not in text and ID_SHAPE.match(text) and not NOT_IDS.search(text)
            if shaped and text.split(".")[0] in prefixes:
                found.append((text, node.lineno))
    return found


def catalog_prefixes() -> frozenset[str]:
    return frozenset(key.split(".")[0] for key in load(SOURCE_LOCALE).entries)


def test_every_message_id_in_the_source_is_in_the_english_catalog() -> None:
    english = load(SOURCE_LOCALE).entries
    prefixes = catalog_prefixes()
    missing = sorted(
        f"{path.relative_to(ROOT)}:{line}: {key}"
        for path in sources()
        for key, line in ids_in(path, prefixes)
        if key not in english
    )
    assert missing == []


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != SOURCE_LOCALE])
def test_every_message_id_in_the_source_is_translated(locale: str) -> None:
    english, translated = load(SOURCE_LOCALE).entries, load(locale).entries
    prefixes = catalog_prefixes()
    named = {key for path in sources() for key, _ in ids_in(path, prefixes)}
    assert sorted(key for key in named if key in english and key not in translated) == []


def test_the_scan_finds_the_ids_the_refusals_use() -> None:
    named = {key for path in sources() for key, _ in ids_in(path, catalog_prefixes())}
    assert {"refused.not-your-turn", "kasino.refused.build-uncapturable", "garbage.refused.no-jack"} <= named
    assert {"refused.lobby-full", "refused.apology", "join.or", "count.spot"} <= named


def test_the_scan_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "cog.py"
    module.write_text(
        "from i18n import say\n"
        "REASONS = {'a': 'refused.no-such-reason', 'b': 'picture.png', 'c': 'cogs.lobby'}\n"
        "def reply(locale, n):\n"
        "    words = say(locale, 'bot.lobby.heading', count=counted(n, 'bananas'))\n"
        "    return Message(id='kasino.refused.made-up'), Joined((), 'join.semicolon'), f'kasino.item-{n}'\n",
        encoding="utf-8",
    )
    found = sorted({key for key, _ in ids_in(module, frozenset({"refused", "kasino", "join", "picture"}))})
    assert found == [
        "bot.lobby.heading",
        "count.bananas",
        "join.semicolon",
        "kasino.refused.made-up",
        "refused.no-such-reason",
    ]

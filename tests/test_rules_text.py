"""The rules are the repository's own (`docs/RULES.md`): each rule id cited is defined there, and each rule has a test.

A rule id is a game's letter and a number (K7, G6c, B1) or a house rule's (KV2, GV4). The test that proves a rule
carries its id in its name (`test_k7_...`, `test_..._gv4_...`), so a reader can go from a rule to its proof and back.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"
RULE_ID = r"(?:KV|GV|K|G|B)[0-9]+[a-z]?"
DEFINED = re.compile(rf"\*\*(?P<id>{RULE_ID})\b")  # a rule's own paragraph or item starts with its id in bold
CITED = re.compile(rf"(?<![A-Za-z0-9_])(?P<id>{RULE_ID})(?![A-Za-z0-9])")
NOQA = re.compile(r"#\s*noqa:[A-Z0-9, ]*")  # a linter's codes are not rule ids
SEARCHED = ("engine", "ai", "service", "cogs", "db", "render", "i18n", "bench", "tests", "docs")
TOP_LEVEL = ("README.md", "bot.py", "playground.py")


def defined_ids() -> set[str]:
    return {match["id"] for match in DEFINED.finditer(RULES.read_text(encoding="utf-8"))}


def searched_files() -> list[Path]:
    files = [ROOT / name for name in TOP_LEVEL]
    for folder in SEARCHED:
        files += [path for path in (ROOT / folder).rglob("*") if path.suffix in (".py", ".md", ".po")]
    return [path for path in files if path != RULES]


def cited_ids() -> dict[str, set[str]]:
    """Every rule id the code, tests, catalogs and documents cite, with the files that cite it."""
    cited: dict[str, set[str]] = {}
    for path in searched_files():
        text = NOQA.sub("", path.read_text(encoding="utf-8"))
        for match in CITED.finditer(text):
            cited.setdefault(match["id"], set()).add(str(path.relative_to(ROOT)))
    return cited


def named_tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names |= set(re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8")))
    return names


def test_the_rules_text_defines_every_game_and_house_rule() -> None:
    ids = defined_ids()
    assert {"K1", "K16", "G1", "G6c", "G11", "B1", "B3", "KV1", "KV5", "GV1", "GV5"} <= ids
    assert len(ids) >= 40


def test_every_rule_id_cited_is_defined_in_the_rules_text() -> None:
    defined = defined_ids()
    unknown = {rule: sorted(files) for rule, files in cited_ids().items() if rule not in defined}
    assert unknown == {}, f"rule ids cited but not defined in docs/RULES.md: {unknown}"


def test_every_rule_has_a_test_named_after_it() -> None:
    names = named_tests()
    untested = [
        rule for rule in sorted(defined_ids()) if not any(re.search(rf"(^|_){rule.lower()}(_|$)", n) for n in names)
    ]
    assert untested == [], f"rules of docs/RULES.md with no test named after them: {untested}"

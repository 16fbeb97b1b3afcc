"""The rule that matters most: dependencies point inward (engine <- db <- service <- cogs; runtime <- games)."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "engine": {"discord", "aiosqlite", "sqlite3", "db", "cogs", "service", "bot", "i18n"},
    "db": {"discord", "cogs", "service", "bot", "i18n"},
    "service": {"discord", "cogs", "bot", "render"},
    "ai": {"discord", "aiosqlite", "sqlite3", "db", "cogs", "service", "bot", "render"},
    "render": {"discord", "aiosqlite", "sqlite3", "db", "cogs", "service", "bot", "ai"},
    # The catalogs and the renderer: words for what the engine says, used by cogs, render and service.
    "i18n": {"discord", "aiosqlite", "sqlite3", "db", "cogs", "service", "bot", "render", "ai"},
    # The process's event loop and heap: below everything, knowing nothing of games, storage or Discord.
    "process": {"discord", "aiosqlite", "asyncpg", "sqlite3", "db", "cogs", "service", "bot", "render", "ai", "engine"},
}


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_only_inward(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"{package}/ has no modules"
    offenders = {str(path.relative_to(ROOT)): sorted(imported_roots(path) & FORBIDDEN[package]) for path in files}
    assert {path: bad for path, bad in offenders.items() if bad} == {}


def test_layering_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import discord\nfrom db.store import Store\n", encoding="utf-8")
    assert imported_roots(bad) == {"discord", "db"}


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"engine"}
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_roots(path) - allowed)
        for path in sorted((ROOT / "engine").rglob("*.py"))
    }
    assert {path: bad for path, bad in offenders.items() if bad} == {}


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
    return modules


def test_cogs_reach_storage_only_through_the_service() -> None:
    # Plain records are the read-only interface; everything that reads or writes the database is the service's.
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            module for module in imported_modules(path) if module.split(".")[0] == "db" and module != "db.records"
        )
        for path in sorted((ROOT / "cogs").rglob("*.py"))
    }
    assert {path: bad for path, bad in offenders.items() if bad} == {}


def _cogs_imports(folder: Path) -> dict[str, list[str]]:
    """Each module under `folder` with the `cogs.*` modules it imports (`TYPE_CHECKING` ones included)."""
    return {
        str(path.relative_to(ROOT)): sorted(module for module in imported_modules(path) if module.startswith("cogs."))
        for path in sorted(folder.rglob("*.py"))
    }


def test_the_discord_runtime_imports_no_game_and_no_command_cog() -> None:
    # What every game gets (delivery, presenter, catch-up, ...) is shared: a game registers its `GameUI` with it.
    offenders = {
        path: [module for module in modules if not module.startswith("cogs.runtime")]
        for path, modules in _cogs_imports(ROOT / "cogs" / "runtime").items()
    }
    assert {path: bad for path, bad in offenders.items() if bad} == {}


def test_no_discord_module_outside_a_game_package_imports_one() -> None:
    from engine.registry import GAME_KINDS

    games = {f"cogs.{kind.name}" for kind in GAME_KINDS}
    assert all((ROOT / "cogs" / kind.name / "__init__.py").exists() for kind in GAME_KINDS)
    for game in games:
        outside = [
            path
            for path in sorted((ROOT / "cogs").rglob("*.py"))
            if not str(path.relative_to(ROOT)).startswith(game.replace(".", "/") + "/")
        ]
        offenders = {
            str(path.relative_to(ROOT)): sorted(
                module for module in imported_modules(path) if module == game or module.startswith(f"{game}.")
            )
            for path in outside
        }
        assert {path: bad for path, bad in offenders.items() if bad} == {}, game


def test_discord_modules_have_public_names() -> None:
    # `bot.py` and the games import them: none is private to its package.
    private = [
        str(path.relative_to(ROOT)) for path in (ROOT / "cogs").rglob("_*.py") if path.name != "__init__.py"
    ]
    assert private == []


# The SQL backends and the modules of their roles: only the composition root (`db.backends.open_storage`, which
# `bot.py` calls at start-up) names them; the bot, the cogs and the service hold the ports of `service.ports`.
CONCRETE_STORES = ("db.store", "db.sql_store", "db.sql_", "db.postgres", "db.backends")
CONCRETE_STORE_CLASSES = {"SqlStore", "Store", "PostgresStore"}
# Who may import `db.backends`, the composition root: the bot's start-up, nothing it loads.
COMPOSITION_ROOT = {"bot.py"}


def _is_concrete_store(module: str) -> bool:
    return any(
        module == name or module.startswith(f"{name}.") or (name.endswith("_") and module.startswith(name))
        for name in CONCRETE_STORES
    )


def concrete_store_uses(path: Path) -> list[str]:
    """Where `path` imports a backend's module or names a backend's class (beyond the composition root's door)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {alias.name}" for alias in node.names if _is_concrete_store(alias.name)
            ]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            allowed = node.module == "db.backends" and path.name in COMPOSITION_ROOT
            if _is_concrete_store(node.module) and not allowed:
                found.append(f"line {node.lineno}: from {node.module}")
        elif isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            if name in CONCRETE_STORE_CLASSES:
                found.append(f"line {node.lineno}: {name}")
    return found


def test_only_the_composition_root_names_a_concrete_store() -> None:
    # The bot and everything it loads see the ports (`service.ports.OpenStore` and its roles), so a store that is
    # not SQL could be plugged in; `bot.py` reaches a backend only through `db.backends.open_storage`.
    files = [ROOT / "bot.py", ROOT / "playground.py"]
    files += [path for folder in ("cogs", "service", "ai", "render", "i18n") for path in (ROOT / folder).rglob("*.py")]
    offenders = {str(path.relative_to(ROOT)): concrete_store_uses(path) for path in sorted(files)}
    assert {path: where for path, where in offenders.items() if where} == {}


def test_the_concrete_store_check_can_fail(tmp_path: Path) -> None:
    cog = tmp_path / "cog.py"
    cog.write_text(
        "from db.sql_store import SqlStore\nimport db.postgres.store\nfrom db.sql_games import SqlGames\n"
        "from db.backends import open_storage\nfrom db.records import GameRecord\n"
        "def f(bot) -> None:\n    bot.store: Store\n",
        encoding="utf-8",
    )
    assert concrete_store_uses(cog) == [
        "line 1: from db.sql_store",
        "line 2: import db.postgres.store",
        "line 3: from db.sql_games",
        "line 4: from db.backends",
        "line 7: Store",
    ]
    root = tmp_path / "bot.py"
    root.write_text("from db.backends import open_storage\n", encoding="utf-8")
    assert concrete_store_uses(root) == []


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def kind_mentions(path: Path, name: str) -> list[str]:
    """Where code (not documentation) in `path` names the kind: string constants, imports, identifiers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    word = name.lower()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
        elif isinstance(node, ast.ImportFrom):
            text = " ".join([node.module or "", *(alias.name for alias in node.names)])
        elif isinstance(node, ast.Import):
            text = " ".join(alias.name for alias in node.names)
        elif isinstance(node, ast.Name | ast.Attribute):
            text = node.id if isinstance(node, ast.Name) else node.attr
        else:
            continue
        if word in text.lower():
            found.append(f"line {node.lineno}: {text[:60]!r}")
    return found


def test_kind_names_appear_only_in_their_own_modules_and_the_registry() -> None:
    from engine.registry import GAME_KINDS

    shared = [
        ROOT / "bot.py",
        ROOT / "playground.py",
        *(
            path
            for folder in ("engine", "db", "service", "cogs", "render", "ai", "i18n")
            for path in (ROOT / folder).rglob("*.py")
        ),
    ]
    for kind in GAME_KINDS:
        others = [
            path
            for path in shared
            if kind.name not in str(path.relative_to(ROOT)) and path != ROOT / "engine" / "registry.py"
        ]
        offenders = {str(path.relative_to(ROOT)): kind_mentions(path, kind.name) for path in others}
        assert {path: where for path, where in offenders.items() if where} == {}, kind.name


def test_kind_name_check_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "shared.py"
    module.write_text('"""Kasino is fine in documentation."""\nTITLES = {"kasino": "Kasino"}\n', encoding="utf-8")
    assert kind_mentions(module, "kasino") == ["line 2: 'kasino'", "line 2: 'Kasino'"]


def test_the_service_depends_on_the_store_protocol_not_the_sqlite_store() -> None:
    # Records and errors are plain values; `db.store` is one backend behind `service.ports.GameStore`.
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            module
            for module in imported_modules(path)
            if module.split(".")[0] == "db" and module not in {"db.records", "db.errors"}
        )
        for path in sorted((ROOT / "service").rglob("*.py"))
    }
    assert {path: bad for path, bad in offenders.items() if bad} == {}


def module_graph() -> dict[str, set[str]]:
    """Each first-party module's imports of other first-party modules, `TYPE_CHECKING` ones included."""
    files = [ROOT / "bot.py", ROOT / "playground.py"]
    files += [
        path
        for folder in ("engine", "db", "service", "cogs", "ai", "render", "i18n", "process")
        for path in (ROOT / folder).rglob("*.py")
    ]
    names = {".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path for path in files}
    graph = {}
    for name, path in names.items():
        graph[name] = {
            target
            for module in imported_modules(path)
            for target in (module, module.rpartition(".")[0])
            if target in names and target != name and not name.startswith(f"{target}.")
        }
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle, as the modules along it; empty when there is none."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_no_import_cycle_between_modules_not_even_for_type_checking() -> None:
    assert find_cycle(module_graph()) == []


def test_the_cycle_check_can_fail() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]

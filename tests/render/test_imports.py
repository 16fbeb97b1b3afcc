"""render/ is pure drawing: the standard library, Pillow, the engine and i18n; never Discord, the database or cogs."""

import sys
from pathlib import Path

from tests.test_layering import ROOT, imported_roots

ALLOWED = (set(sys.stdlib_module_names) | {"PIL", "engine", "i18n", "render", "__future__"}) - {
    # Nothing is fetched at run time: fonts ship in render/fonts/.
    "urllib", "http", "socket", "ssl", "ftplib", "asyncio", "sqlite3",
}  # fmt: skip


def test_render_imports_only_stdlib_pil_and_engine() -> None:
    files = sorted((ROOT / "render").rglob("*.py"))
    assert files
    offenders = {str(path.relative_to(ROOT)): sorted(imported_roots(path) - ALLOWED) for path in files}
    assert {path: bad for path, bad in offenders.items() if bad} == {}


def test_engine_and_db_never_import_render() -> None:
    # Pictures are drawn from views, at the edge (cogs, later); the core never depends on them.
    for package in ("engine", "db"):
        for path in (ROOT / package).rglob("*.py"):
            assert "render" not in imported_roots(path), path


def test_import_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import discord\nfrom urllib.request import urlopen\nfrom PIL import Image\n", encoding="utf-8")
    assert imported_roots(bad) - ALLOWED == {"discord", "urllib"}


def test_every_shipped_font_has_its_licence_beside_it() -> None:
    fonts = ROOT / "render" / "fonts"
    assert sorted(path.name for path in fonts.glob("*.ttf")) == ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf"]
    licence = (fonts / "LICENSE").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "public domain" in licence


def test_fonts_are_loaded_from_the_package_folder() -> None:
    from render import style

    path = style.font(12).path
    assert isinstance(path, str), path
    assert Path(path).parent == ROOT / "render" / "fonts"

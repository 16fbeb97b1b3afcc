"""A missing translation is said in English, the source, never as its message id (issue 25).

The `no`, `id` and `hu` catalogs are being filled; until an entry has words in a locale, the renderer says it in
English. These tests hold whatever the catalogs hold: a made-up locale with one translated entry, and every real
locale against English.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

import i18n.catalog
from engine.message import Message
from i18n import LOCALES, SOURCE_LOCALE, render_message
from i18n.catalog import load

XX_PO = r"""msgid ""
msgstr ""
"Language: xx\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"Content-Type: text/plain; charset=utf-8\n"

msgid "shared.game-on"
msgstr "Xx game on"

msgid "count.card"
msgid_plural "{n}"
msgstr[0] "{n} xx-card"
msgstr[1] "{n} xx-cards"

msgid "shared.bot-played-short"
msgstr ""
"""


@pytest.fixture
def xx_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A locale `xx` with two entries translated and one left empty, beside the real English catalog."""
    (tmp_path / SOURCE_LOCALE).symlink_to(i18n.catalog.LOCALES_DIR / SOURCE_LOCALE)
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / "shared.po").write_text(XX_PO, encoding="utf-8")
    monkeypatch.setattr(i18n.catalog, "LOCALES_DIR", tmp_path)
    load.cache_clear()
    yield "xx"
    load.cache_clear()


def params_for(message_id: str) -> dict[str, int | str]:
    """Parameters for each placeholder of an English entry (the number that picks a plural form: 2)."""
    entry = load(SOURCE_LOCALE).entries[message_id]
    return {name: 2 if name == entry.selector else f"<{name}>" for name in entry.placeholders()}


def test_a_translated_entry_is_said_in_its_locale(xx_locale: str) -> None:
    assert render_message(Message("shared.game-on"), xx_locale) == "Xx game on"
    assert render_message(Message("count.card", {"n": 1}), xx_locale) == "1 xx-card"
    assert render_message(Message("count.card", {"n": 3}), xx_locale) == "3 xx-cards"


def test_an_entry_without_words_falls_back_to_english_not_to_its_id(xx_locale: str) -> None:
    message = Message("shared.bot-played-short", params_for("shared.bot-played-short"))
    said = render_message(message, xx_locale)
    assert said == render_message(message, SOURCE_LOCALE)
    assert message.id not in said


def test_an_entry_missing_from_the_locale_falls_back_to_english(xx_locale: str) -> None:
    missing = next(key for key in load(SOURCE_LOCALE).entries if key.startswith("kasino."))
    message = Message(missing, params_for(missing))
    assert render_message(message, xx_locale) == render_message(message, SOURCE_LOCALE)


@pytest.mark.parametrize("locale", [code for code in LOCALES if code != SOURCE_LOCALE])
def test_every_message_is_said_in_every_locale_and_untranslated_ones_in_english(locale: str) -> None:
    english, local = load(SOURCE_LOCALE), load(locale)
    for message_id in english.entries:
        message = Message(message_id, params_for(message_id))
        said = render_message(message, locale)
        assert said and said != message_id
        if message_id not in local.entries:
            assert said == render_message(message, SOURCE_LOCALE), message_id

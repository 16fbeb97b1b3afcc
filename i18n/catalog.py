"""The message catalogs: gettext `.po` files read with Babel, one folder per locale, one domain per file.

Each game kind keeps its messages in its own domain (`locales/<locale>/<kind>.po`, ids prefixed by the kind), the
messages both games and the bot share in `shared.po`. Message ids are unique across a locale's domains, so a
locale's catalogs merge into one lookup.

An entry's `msgid` is the message id and its `msgstr` the words, with `{name}` placeholders for the parameters.
A message whose words depend on a number has plural forms: its `msgid_plural` names that parameter in braces
(`msgid_plural "{stock}"`), and the locale's plural rule (Babel's, from CLDR, in the catalog's `Plural-Forms`)
picks the form. Counted nouns are such entries: `count.card` says "{n} card" / "{n} cards".
"""

from __future__ import annotations

import gettext
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
SOURCE_LOCALE = "en"
LOCALES = ("en", "no", "id", "hu")
"""English, the source, and the languages Discord offers that the players speak (Discord's `no` is Bokmål)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One message: its forms (one, or one per plural form) and the parameter choosing the form, if any."""

    forms: tuple[str, ...]
    selector: str | None = None

    def placeholders(self) -> frozenset[str]:
        """The parameter names the words use, the selector included."""
        names = {field_name.split(".")[0].split("[")[0] for form in self.forms for field_name in _fields(form)}
        if self.selector is not None:
            names.add(self.selector)
        return frozenset(names)


@dataclass(frozen=True)
class LocaleCatalog:
    """Every message of one locale, and its plural rule."""

    locale: str
    entries: dict[str, Entry] = field(default_factory=dict)
    plural: Callable[[int], int] = field(default=lambda n: int(n != 1))

    def form(self, entry: Entry, n: int) -> str:
        """The form of `entry` for the number `n` (the only one when it has no plural forms)."""
        if len(entry.forms) == 1:
            return entry.forms[0]
        return entry.forms[min(self.plural(n), len(entry.forms) - 1)]


def _fields(text: str) -> Iterator[str]:
    for _, field_name, _, _ in string.Formatter().parse(text):
        if field_name:
            yield field_name


def _selector(msgid_plural: str) -> str:
    name = msgid_plural.strip()
    if not (name.startswith("{") and name.endswith("}")):
        raise ValueError(f"a plural entry's msgid_plural names its number in braces, not {msgid_plural!r}")
    return name[1:-1]


def read_catalog(path: Path) -> Catalog:
    """One `.po` file as Babel reads it."""
    with path.open("rb") as file:
        return read_po(file, locale=path.parent.name)


def domains(locale: str) -> list[Path]:
    """The `.po` files of `locale`, by domain name."""
    return sorted((LOCALES_DIR / locale).glob("*.po"))


@cache
def load(locale: str) -> LocaleCatalog:
    """All of `locale`'s domains as one catalog (entries without words are missing, not empty).

    Raises:
        ValueError: two domains share an id, or a plural entry does not name its number.
    """
    catalog = LocaleCatalog(locale)
    plural_expr = "(n != 1)"
    for path in domains(locale):
        po = read_catalog(path)
        plural_expr = po.plural_expr
        for message in po:
            if not message.id:
                continue  # the header
            if isinstance(message.id, tuple):
                key, selector = str(message.id[0]), _selector(str(message.id[1]))
                forms = tuple(str(text) for text in message.string or ())
            else:
                key, selector, forms = str(message.id), None, (str(message.string),)
            if not any(forms):
                continue
            if key in catalog.entries:
                raise ValueError(f"message {key!r} is in two domains of {locale!r}")
            catalog.entries[key] = Entry(forms, selector)
    return LocaleCatalog(locale, catalog.entries, gettext.c2py(plural_expr))

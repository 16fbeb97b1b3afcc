"""How complete the catalogs are: messages per locale, ids missing against English, placeholders that differ."""

from __future__ import annotations

from dataclasses import dataclass

from i18n.catalog import LOCALES, SOURCE_LOCALE, load


@dataclass(frozen=True, slots=True)
class Report:
    """Each locale's message count, the (locale, id) pairs missing against English, and those that differ."""

    counts: dict[str, int]
    missing: tuple[tuple[str, str], ...]
    mismatches: tuple[tuple[str, str], ...]

    def line(self) -> str:
        """`catalogs: en N messages; no N, id N, hu N; missing M; placeholder mismatches K`."""
        others = ", ".join(f"{locale} {self.counts[locale]}" for locale in LOCALES if locale != SOURCE_LOCALE)
        return (
            f"catalogs: {SOURCE_LOCALE} {self.counts[SOURCE_LOCALE]} messages; {others}; missing {len(self.missing)};"
            f" placeholder mismatches {len(self.mismatches)}"
        )


def report() -> Report:
    """Compare every locale's catalogs with English's, id for id."""
    source = load(SOURCE_LOCALE).entries
    counts, missing, mismatches = {}, [], []
    for locale in LOCALES:
        entries = load(locale).entries
        counts[locale] = len(entries)
        for key, entry in source.items():
            other = entries.get(key)
            if other is None:
                missing.append((locale, key))
            elif other.placeholders() != entry.placeholders() or (other.selector is None) != (entry.selector is None):
                mismatches.append((locale, key))
        mismatches.extend((locale, key) for key in entries if key not in source)
    return Report(counts, tuple(missing), tuple(mismatches))

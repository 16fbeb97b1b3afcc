"""`python -m i18n`: one line on the catalogs, as issue 25 asks for; `-v` lists what is missing or differs."""

from __future__ import annotations

import sys

from i18n.report import report


def main(argv: list[str]) -> int:
    """Print the catalogs' line (and with `-v` each missing id and mismatch); exit 1 when a placeholder differs."""
    found = report()
    out = sys.stdout
    out.write(found.line() + "\n")
    if "-v" in argv:
        for locale, key in found.missing:
            out.write(f"missing {locale} {key}\n")
        for locale, key in found.mismatches:
            out.write(f"placeholders differ {locale} {key}\n")
    return 1 if found.mismatches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

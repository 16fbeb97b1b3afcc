"""Garbage's rules as players read them in `/rules`; they say what the engine does (see RULES.md and its Decisions).

The words are the catalog's (`i18n/locales/<locale>/garbage_rules.po`), one paragraph per message.
"""

from cogs.runtime.rules import RulesText

GARBAGE_RULES = RulesText(
    paragraphs=tuple(
        f"garbage.rules.{name}"
        for name in ("intro", "layout", "turn", "winning-hand", "winning-game", "leaving", "commands")
    ),
    commands={"resign": ("game resign", None), "draw": ("garbage draw", "source"), "jack": ("garbage jack", "spot")},
)

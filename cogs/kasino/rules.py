"""Kasino's rules as players read them in `/rules`; they say what the engine does (see RULES.md and its Decisions).

The words are the catalog's (`i18n/locales/<locale>/kasino_rules.po`), one paragraph per message.
"""

from cogs.runtime.rules import RulesText

KASINO_RULES = RulesText(
    paragraphs=tuple(
        f"kasino.rules.{name}" for name in ("intro", "deal", "values", "turn", "sweep", "points", "leaving", "commands")
    ),
    commands={"resign": ("game resign", None), "hand": ("kasino hand", None), "play": ("kasino play", "move")},
)

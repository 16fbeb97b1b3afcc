"""A kind's rules as players read them in `/rules`: its catalog paragraphs, in the reader's language.

The paragraphs name the slash commands as the reader types them (`/kasino hand` in English, `/kasino hånd` in
Norwegian), from the same catalog entries Discord shows the commands with (`cogs.runtime.translator`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from cogs.runtime.translator import slash
from i18n import say


@dataclass(frozen=True, slots=True)
class RulesText:
    """The rules of one kind: paragraphs (message ids) joined by blank lines; call it with a locale for the words."""

    paragraphs: tuple[str, ...]
    # Each placeholder the paragraphs use for a command: its path and the option it names ("kasino play", "move").
    commands: Mapping[str, tuple[str, str | None]] = field(default_factory=dict)

    def __call__(self, locale: str) -> str:
        """The rules in `locale`'s words."""
        params = {name: slash(path, locale, option) for name, (path, option) in self.commands.items()}
        return "\n\n".join(say(locale, paragraph, **params) for paragraph in self.paragraphs)

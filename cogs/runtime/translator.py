"""Slash commands in the players' languages: discord.py's `app_commands.Translator`, reading the catalogs.

Discord shows each user a command's name, its description, its options and their choices in the user's own
language when the synced command carries them (`name_localizations`, `description_localizations`); discord.py asks
the tree's translator for each of them while it syncs. Every such text is a catalog entry, keyed by where it is in
the command tree (the English words are the code's own, repeated in the English catalog so it stays complete):

- `command.<path>.name`, `command.<path>.description`: a command or a group (`command.game.cancel.description`);
- `command.<path>.option.<option>.name`, `.description`: an option (`command.rules.option.game.description`);
- `command.<path>.option.<option>.choice.<value>`: a choice's name (`command.pictures.option.show.choice.off`).

A game kind's own commands are keyed by the kind's name, in the kind's own domain, so nothing outside the kind's
files names it: `<kind>.command.<rest>` (`kasino.command.description` is its group's, `kasino.command.play.name`).
The commands every kind gets from the lobby (`/<kind> new`, `/<kind> hand`, their options) are keyed once for all
kinds, `command.any-game.<rest>`, with the kind's facts as parameters: `{game}` its title, `{low}` and `{high}`
its seat range, `{afk}` the default limit of automatic turns. A kind's own entry wins over the shared one.

Nothing is given for English (discord.py sends the code's words) nor for a locale whose catalog lacks the entry
(Discord then shows the English). A game's title and a language's own name are proper names: their choices are
the same in every language and need no entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from cogs.runtime.language import LANGUAGE_NAMES, catalog_locale
from engine import registry
from engine.message import Message
from i18n import SOURCE_LOCALE, render_message
from i18n.catalog import load
from service.tables import DEFAULT_AFK_LIMIT

ANY_GAME = "any-game"  # the key's segment standing for every kind, in the entries of the commands kinds share

AnyCommand = app_commands.Command[Any, ..., Any] | app_commands.Group


@dataclass(frozen=True, slots=True)
class Entry:
    """Where a text of the command tree is in the catalogs: its keys, most specific first, and their parameters."""

    keys: tuple[str, ...]
    params: dict[str, int | str] = field(default_factory=dict)


def entry_for(path: str, tail: str) -> Entry:
    """The catalog keys of `tail` ("name", "option.move.description", ...) of the command at `path` ("kasino play")."""
    words = path.split()
    kind = words[0] if words and words[0] in registry.KINDS else None
    if kind is None:
        return Entry((".".join(["command", *words, tail]),))
    game = registry.game_kind(kind)
    params: dict[str, int | str] = {
        "game": game.title,
        "low": game.min_seats,
        "high": game.max_seats,
        "afk": DEFAULT_AFK_LIMIT,
    }
    own = ".".join([kind, "command", *words[1:], tail])
    shared = ".".join(["command", ANY_GAME, *words[1:], tail])
    return Entry((own, shared), params)


def is_proper_name(choice: app_commands.Choice[Any]) -> bool:
    """Whether a choice is a game's title or a language's own name: the same words in every language."""
    kind = str(choice.value)
    if kind in registry.KINDS and choice.name == registry.game_kind(kind).title:
        return True
    return choice.name in LANGUAGE_NAMES.values()


def words(entry: Entry, locale: str) -> str | None:
    """The entry's words in `locale`'s own catalog; None when that catalog lacks all its keys."""
    entries = load(locale).entries
    key = next((key for key in entry.keys if key in entries), None)
    if key is None:
        return None
    return render_message(Message(key, entry.params), locale)


def slash(path: str, locale: str, option: str | None = None) -> str:
    """A command as a user of `locale` types it: "/kasino play move:" in English, "/kasino spill trekk:" in Norwegian.

    Each word is the command's (or group's) name in that locale, else its English name.
    """
    names = path.split()
    said = [words(entry_for(" ".join(names[: i + 1]), "name"), locale) or name for i, name in enumerate(names)]
    if option is not None:
        said.append((words(entry_for(path, f"option.{option}.name"), locale) or option) + ":")
    return "/" + " ".join(said)


class CommandTranslator(app_commands.Translator):
    """The tree's translator: each command text in `no`, `id` and `hu` from the catalogs (see the module)."""

    def __init__(self, tree: app_commands.CommandTree[Any]) -> None:
        self._tree = tree  # a choice knows neither its option nor its command: found in the tree

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        """The text in the locale, or None for English or an entry that locale's catalog lacks."""
        code = catalog_locale(locale)
        if code == SOURCE_LOCALE:
            return None
        entry = self.entry(context)
        return None if entry is None else words(entry, code)

    def entry(self, context: app_commands.TranslationContextTypes) -> Entry | None:
        """Where the context's text is in the catalogs; None for a proper name and what is not a command's text."""
        location, data = context.location, context.data
        if isinstance(data, app_commands.Command | app_commands.Group):
            named = location in (Where.command_name, Where.group_name)
            return entry_for(data.qualified_name, "name" if named else "description")
        if isinstance(data, app_commands.Parameter):
            what = "name" if location is Where.parameter_name else "description"
            return entry_for(data.command.qualified_name, f"option.{data.display_name}.{what}")
        if isinstance(data, app_commands.Choice) and not is_proper_name(data):
            owners = [entry_for(path, f"option.{option}.choice.{data.value}") for path, option in self._owners(data)]
            if owners:
                return Entry(tuple(key for owner in owners for key in owner.keys), owners[0].params)
        return None

    def _owners(self, choice: app_commands.Choice[Any]) -> Iterator[tuple[str, str]]:
        """(command path, option name) of each option offering `choice` (one list of choices may serve several)."""
        for command in self._tree.walk_commands():
            if isinstance(command, app_commands.Command):
                for parameter in command.parameters:
                    if any(offered is choice for offered in parameter.choices):
                        yield command.qualified_name, parameter.display_name

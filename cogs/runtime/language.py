"""Which language a text is told in: the server's for public text, the reader's for private text.

Public text (the table and its narration, the one-off posts) has many readers, so it follows the server: the
language a manager chose with `/language` (stored with the server's settings), else the server's preferred locale
on Discord when the catalogs have it, else English. Private text (ephemeral panels, autocomplete, a move's menu)
follows the reader's Discord language, which every interaction carries (`interaction.locale`). A DM has no
interaction of its own: it follows the player's language as their latest interaction said it, remembered here in
memory, else the server's.

Nothing here asks Discord anything: the preferred locale comes with the guild (gateway), or else with the latest
interaction from that server (`interaction.guild_locale`); the choice is one read of the server's settings.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from cogs.runtime.recent import Recent
from i18n import LOCALES, SOURCE_LOCALE
from service.ports import ServerSettings

USERS_KEPT = 4096  # members' latest interaction locales, for their DMs; the newest players' (others: the server's)
GUILDS_KEPT = 4096  # servers' locales as their latest interaction said them, for a guild not in the cache

LANGUAGE_NAMES = {"en": "English", "no": "Norsk", "id": "Bahasa Indonesia", "hu": "Magyar"}
"""Each catalog's language as its speakers name it (how `/language` offers it)."""


def catalog_locale(locale: discord.Locale | str | None) -> str:
    """The catalog for a Discord locale: `no`, `id` and `hu` as they are; any other (`en-US`, `de`, none): English."""
    code = locale.value if isinstance(locale, discord.Locale) else locale
    return code if code in LOCALES else SOURCE_LOCALE


def private_locale(interaction: discord.Interaction) -> str:
    """The catalog for text only the interacting user reads: their Discord language."""
    return catalog_locale(interaction.locale)


class Languages:
    """The locales the bot tells its text in, and the in-memory notes they are found from (no Discord requests)."""

    def __init__(self, guild: Callable[[int], discord.Guild | None], settings: ServerSettings) -> None:
        self._guild = guild  # the cached guild (`bot.get_guild`), which knows its preferred locale
        self._settings = settings
        self._users: Recent[int, str] = Recent(USERS_KEPT)
        self._guilds: Recent[int, str] = Recent(GUILDS_KEPT)

    async def note_interaction(self, interaction: discord.Interaction) -> None:
        """Remember the user's language (for their DMs) and the server's (`on_interaction`)."""
        self._users.put(interaction.user.id, catalog_locale(interaction.locale))
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self._guilds.put(interaction.guild_id, catalog_locale(interaction.guild_locale))

    def server_default(self, guild_id: int) -> str:
        """The server's preferred locale on Discord when the catalogs have it, else English."""
        guild = self._guild(guild_id)
        if guild is not None:
            return catalog_locale(guild.preferred_locale)
        return self._guilds.get(guild_id) or SOURCE_LOCALE

    async def public(self, guild_id: int) -> str:
        """The catalog for the server's public text: its managers' choice, else the server's default."""
        chosen = await self._settings.language(guild_id)
        return chosen if chosen in LOCALES else self.server_default(guild_id)

    async def of_user(self, user_id: int, guild_id: int) -> str:
        """The catalog for a DM: the user's language as their latest interaction said it, else the server's."""
        return self._users.get(user_id) or await self.public(guild_id)

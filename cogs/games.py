"""Commands for any game: `/game cancel`, `/game resign`, `/games` and `/rules`."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from cogs.history import HISTORY_COMMANDS, HISTORY_ITEMS
from cogs.lobby import show_lobby
from cogs.runtime.controls import unkept_view
from cogs.runtime.delivery import settle_and_tell
from cogs.runtime.errors import acknowledge, guarded, is_manager, refusals_answered
from cogs.runtime.hands import HAND_ITEMS
from cogs.runtime.house_rules import house_rules_sentences
from cogs.runtime.ids import number
from cogs.runtime.language import LANGUAGE_NAMES, private_locale
from cogs.runtime.lookup import GAME_CHOICES, bot_of, find_game, game_title, guild_id_of
from cogs.runtime.names import seat_name
from cogs.runtime.text import clip
from cogs.runtime.words import name_of
from db.records import GameRecord, GameStatus
from engine.message import Joined, Message
from engine.registry import GAME_KINDS, game_kind
from i18n import SOURCE_LOCALE, join_names, render_message, say
from service.errors import RefusedError

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

# `/game cancel`'s menu where several games are (the chosen game's id is its value); kinds' codes have one letter.
CANCEL_PICK_ID = "game:cancel"
PICTURE_CHOICES = [app_commands.Choice(name="pictures", value="on"), app_commands.Choice(name="text only", value="off")]
SERVER_DEFAULT = "default"  # `/language`'s choice that follows the server's own language on Discord
LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()),
    app_commands.Choice(name="server default", value=SERVER_DEFAULT),
]


class GamesCog(commands.Cog):
    """Managing games of either kind."""

    game = app_commands.Group(
        name="game", description="Manage a game: cancel, resign, skip a turn, remove a player.", guild_only=True
    )

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        for command in HISTORY_COMMANDS:  # `/game history` and `/game export` (cogs.history, issue 28)
            self.game.add_command(command)

    @game.command(name="cancel")
    @app_commands.describe(game="Which game (pick from the list; only needed where there are several)")
    async def game_cancel(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Cancel a lobby or a running game (host or Manage Server); no results are recorded."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            if game is None:
                here = await games_here(self.bot, interaction)
                if len(here) > 1:  # several: offer them as a menu rather than ask for a number
                    locale = private_locale(interaction)
                    await interaction.followup.send(
                        say(locale, "manage.cancel-which"), view=cancel_menu(here, locale), ephemeral=True
                    )
                    return
            record = await find_game(self.bot, interaction, game)
            await cancel_game(self.bot, interaction, record.id)

    @game.command(name="resign")
    @app_commands.describe(game="The game's number (only needed outside its thread)")
    async def game_resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Give up your seat: you place last; with one opponent left the game ends."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await find_game(self.bot, interaction, game)
            result = await self.bot.service.resign(record.id, interaction.user.id)
            done = say(private_locale(interaction), "manage.resigned")
            await settle_and_tell(self.bot, interaction, [result], done=done)

    @game.command(name="skip")
    @app_commands.describe(game="The game's number (only needed outside its thread)")
    async def game_skip(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """Play the current player's turn for them (host only); it counts as an automatic turn."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await find_game(self.bot, interaction, game)
            by = interaction.user.display_name
            results = await self.bot.service.skip(
                record.id, interaction.user.id, is_manager=is_manager(interaction), by_name=by
            )
            await settle_and_tell(
                self.bot, interaction, results, done=say(private_locale(interaction), "manage.skipped")
            )

    @game.command(name="remove")
    @app_commands.describe(player="The player to remove", game="The game's number (only needed outside its thread)")
    async def game_remove(
        self, interaction: discord.Interaction, player: discord.User, game: int | None = None
    ) -> None:
        """Resign a player from the game (host only); they place last."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await find_game(self.bot, interaction, game)
            result = await self.bot.service.remove(
                record.id, interaction.user.id, player.id, is_manager=is_manager(interaction)
            )
            done = say(private_locale(interaction), "manage.removed", player=player.display_name)
            await settle_and_tell(self.bot, interaction, [result], done=done)

    @app_commands.command(name="games")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction) -> None:
        """List the lobbies and running games in this server."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            records = await self.bot.service.games_in_guild(guild_id_of(interaction))
            locale = private_locale(interaction)
            if not records:
                commands = Joined(tuple(f"/{kind.name} new" for kind in GAME_KINDS), "games.or")
                await interaction.followup.send(say(locale, "games.none", commands=commands), ephemeral=True)
                return
            lines = [self._game_line(record, locale) for record in records[:20]]
            if len(records) > 20:
                lines.append(say(locale, "games.more", more=len(records) - 20))
            await interaction.followup.send("\n".join(lines), ephemeral=True)

    @app_commands.command(name="pictures")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(show="Pictures of the tables (with their text), or text only")
    @app_commands.choices(show=PICTURE_CHOICES)
    async def pictures(self, interaction: discord.Interaction, show: app_commands.Choice[str]) -> None:
        """Show this server's game tables as pictures, or as text only (Manage Server)."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            on = show.value == "on"
            await self.bot.service.set_pictures(guild_id_of(interaction), on, is_manager=is_manager(interaction))
            shown = "manage.pictures-on" if on else "manage.pictures-off"
            await interaction.followup.send(say(private_locale(interaction), shown), ephemeral=True)

    @app_commands.command(name="language")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(language="The language of the tables and their narration here, or the server's own")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        """Choose the language of this server's game tables (Manage Server)."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            guild_id = guild_id_of(interaction)
            chosen = None if language.value == SERVER_DEFAULT else language.value
            await self.bot.service.set_language(guild_id, chosen, is_manager=is_manager(interaction))
            told_in = chosen or self.bot.languages.server_default(guild_id)
            answer = "language.chosen" if chosen else "language.server-default"
            await interaction.followup.send(
                say(private_locale(interaction), answer, language=LANGUAGE_NAMES[told_in]), ephemeral=True
            )

    @app_commands.command(name="rules")
    @app_commands.describe(
        game="Which game's rules (in a game's thread: that game's)",
        number="A game's number, to add the house rules it is played with",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str] | None = None,
        number: int | None = None,
    ) -> None:
        """How to play one of the games, with its card values and scoring."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            locale = private_locale(interaction)  # the answer is the reader's alone
            record = await self._rules_game(interaction, None if game is None else game.value, number)
            kind = game_kind(record.kind if record is not None else game.value if game is not None else "")
            rules = self.bot.presenter.uis[kind.name].rules(locale)
            embed = discord.Embed(title=say(locale, "rules.title", game=kind.title), description=rules)
            if kind.notation is not None:
                typing = say(locale, "rules.typing-a-move")
                embed.add_field(name=typing, value=render_message(kind.notation, locale), inline=False)
            embed.add_field(name=say(locale, "rules.seat-changes-title"), value=say(locale, "rules.seat-changes"))
            if record is not None and kind.house_rules:
                sentences = house_rules_sentences(kind.name, record.settings, locale)
                told = "\n".join(f"• {sentence}" for sentence in sentences) or say(locale, "rules.no-house-rules")
                embed.add_field(
                    name=say(locale, "rules.house-rules", title=game_title(record)),
                    value=clip(told, FIELD_LIMIT),
                    inline=False,
                )
            await interaction.followup.send(embed=embed, ephemeral=True)

    async def _rules_game(
        self, interaction: discord.Interaction, kind: str | None, number: int | None
    ) -> GameRecord | None:
        """The game whose house rules `/rules` adds: the one numbered, else the one played here; None for none.

        Here is the game's own thread (whatever its state), or a channel it is waiting or played in itself. With no
        game named nor any here, the command cannot tell which rules are wanted.

        Raises:
            RefusedError: no such game, or neither a game nor a kind given and none here.
        """
        if number is not None:
            return await find_game(self.bot, interaction, number)
        here: list[GameRecord] = []
        if interaction.channel_id is not None:
            statuses: tuple[GameStatus, ...] = ("lobby", "running", "finished")
            found = await self.bot.service.games_in_channel(interaction.channel_id, statuses=statuses)
            here = [
                record
                for record in found
                if (kind is None or record.kind == kind)
                and (
                    record.thread_id == interaction.channel_id
                    or (record.thread_id is None and record.status in ("lobby", "running"))
                )
            ]
        if here:
            return max(here, key=lambda record: (record.status != "finished", record.id))
        if kind is None:
            raise RefusedError(Message("refused.rules-which-game"))
        return None

    @staticmethod
    def _game_line(record: GameRecord, locale: str) -> str:
        players = Joined(tuple(seat_name(seat, locale) for seat in record.seats), "join.comma")
        where = f"<#{record.thread_id or record.channel_id}>"
        line = "games.line-lobby" if record.status == "lobby" else "games.line-playing"
        return say(locale, line, title=game_title(record), where=where, players=players)

    @game_cancel.autocomplete("game")
    @rules.autocomplete("number")
    @game_resign.autocomplete("game")
    @game_skip.autocomplete("game")
    @game_remove.autocomplete("game")
    async def game_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """The server's lobbies and running games as choices, by name: this channel's and the user's own first."""
        if interaction.guild_id is None:
            return []
        records = await self.bot.service.games_in_guild(interaction.guild_id)
        user_id = interaction.user.id

        def order(record: GameRecord) -> tuple[bool, bool, int]:
            here = interaction.channel_id in (record.channel_id, record.thread_id)
            theirs = record.host_id == user_id or record.seat_of(user_id) is not None
            return (not here, not theirs, record.id)

        typed = current.strip().lower().lstrip("#")
        locale = private_locale(interaction)
        labelled = ((record, game_label(record, locale)) for record in sorted(records, key=order))
        choices = [
            app_commands.Choice(name=clip(label, CHOICE_NAME_LIMIT), value=record.id)
            for record, label in labelled
            if typed in label.lower()
        ]
        return choices[:CHOICES_LIMIT]


CHOICES_LIMIT = 25  # Discord's most choices (autocomplete) and options (select menu)
FIELD_LIMIT = 1024  # characters in an embed field's value
CHOICE_NAME_LIMIT = 100  # characters in a choice's name and a select option's label


def game_label(record: GameRecord, locale: str = SOURCE_LOCALE) -> str:
    """A game as a menu names it: "Kasino #3 — lobby of alice (2/4)" or "Garbage #4 — alice and bob playing"."""
    title = game_title(record)
    if record.status == "lobby":
        host = _host_name(record, locale)
        return say(
            locale, "manage.label-lobby", title=title, host=host, seated=len(record.seats), seats=record.max_seats
        )
    return say(locale, "manage.label-playing", title=title, players=_players(record, locale))


def cancelled_words(record: GameRecord, locale: str = SOURCE_LOCALE) -> str:
    """What the one who cancelled is told: "You cancelled Kasino #3, the lobby of alice; no results are recorded"."""
    title = game_title(record)
    if record.state is None:  # never dealt: it was still a lobby
        return say(locale, "manage.cancelled-lobby", title=title, host=_host_name(record, locale))
    return say(locale, "manage.cancelled-game", title=title, players=_players(record, locale))


def _players(record: GameRecord, locale: str) -> str:
    return join_names([seat_name(seat, locale) for seat in record.seats], locale) or say(locale, "manage.nobody")


def _host_name(record: GameRecord, locale: str) -> str:
    seat = record.seat_of(record.host_id)
    return name_of(record, seat, locale) if seat is not None else say(locale, "manage.the-host")


async def games_here(bot: GameBot, interaction: discord.Interaction) -> list[GameRecord]:
    """The lobbies and running games in this channel or thread: the user's own if they play in any, else all."""
    if interaction.channel_id is None:
        return []
    here = await bot.service.games_in_channel(interaction.channel_id, statuses=("lobby", "running"))
    return [record for record in here if record.seat_of(interaction.user.id) is not None] or here


def cancel_menu(records: list[GameRecord], locale: str = SOURCE_LOCALE) -> discord.ui.View:
    """A menu of the games to cancel (an ephemeral answer: only the one who asked sees it, in their `locale`)."""
    view = unkept_view()
    view.add_item(CancelPick.offering(records, locale))
    return view


async def cancel_game(bot: GameBot, interaction: discord.Interaction, game_id: int) -> None:
    """Cancel the game, tell the one who did what they cancelled, announce it, and close its lobby and table."""
    record = await bot.service.cancel(game_id, interaction.user.id, is_manager=is_manager(interaction))
    # The first followup fills the private "thinking…" answer (or the menu's); the second is the public announcement.
    await interaction.followup.send(cancelled_words(record, private_locale(interaction)), ephemeral=True)
    public = await bot.languages.public(record.guild_id)
    announced = say(public, "manage.cancelled-by", title=game_title(record), user=interaction.user.mention)
    await interaction.followup.send(announced)
    await bot.delivery.settle(record.id)
    await _edit_lobby(bot, record)


async def _edit_lobby(bot: GameBot, record: GameRecord) -> None:
    try:
        await show_lobby(bot, None, record)
    except discord.HTTPException:
        log.info("lobby message of game %s could not be edited", record.id)


class CancelPick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=CANCEL_PICK_ID):
    """The menu `/game cancel` answers with where several games are: the chosen one is cancelled (persistent)."""

    def __init__(self, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=CANCEL_PICK_ID))

    @classmethod
    def offering(cls, records: list[GameRecord], locale: str = SOURCE_LOCALE) -> CancelPick:
        """The menu of these games, each by name, in `locale`."""
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=CANCEL_PICK_ID,
            placeholder=say(locale, "manage.choose-cancel"),
            options=[
                discord.SelectOption(label=clip(game_label(record, locale), CHOICE_NAME_LIMIT), value=str(record.id))
                for record in records[:CHOICES_LIMIT]
            ],
        )
        return cls(select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the menu from its custom id, keeping the chosen value."""
        return cls(item if isinstance(item, discord.ui.Select) else None)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Cancel the chosen game (the service refuses anyone but its host or a manager) and close the menu."""
        bot = bot_of(interaction)
        await acknowledge(interaction)
        game_id = number(self.item.values[0]) if self.item.values else 0
        record = await bot.service.get(game_id)
        locale = private_locale(interaction)
        if record.guild_id != interaction.guild_id:
            raise RefusedError(say(locale, "manage.other-server"))
        cancelling = say(locale, "manage.cancelling", game=game_label(record, locale))
        await interaction.edit_original_response(content=cancelling, view=None)
        await cancel_game(bot, interaction, game_id)


async def setup(bot: GameBot) -> None:
    """Add the cog, and the private-hand buttons every kind with private hands shares."""
    bot.add_dynamic_items(*HAND_ITEMS, CancelPick, *HISTORY_ITEMS)
    await bot.add_cog(GamesCog(bot))

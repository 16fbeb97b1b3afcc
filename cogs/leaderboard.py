"""`/leaderboard` (paginated with buttons) and `/stats`, per server, from the results the store keeps.

The leaderboard is posted in the channel, so it is told in the server's language (its page buttons too); `/stats`
answers only the one who asked, in theirs.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from cogs.runtime.controls import unkept_view
from cogs.runtime.errors import acknowledge, guarded
from cogs.runtime.ids import LEADERBOARD_TEMPLATE, kind_named_by, leaderboard_id, number
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import GAME_CHOICES, bot_of, guild_id_of, not_in_a_server
from cogs.runtime.names import player_name
from db.records import KindStats, LeaderboardPage, LeaderboardSort, Tally
from engine.registry import game_kind
from i18n import SOURCE_LOCALE, counted, say

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

PER_PAGE = 10
LAST_PAGE = 10_000  # a page number from a custom id is never taken past this
MIN_GAMES_FOR_WIN_RATE = 3
SORTS: dict[str, LeaderboardSort] = {"rating": "rating", "wins": "wins", "winrate": "win_rate"}
SORT_TITLES = {"rating": "board.sort.rating", "wins": "board.sort.wins", "win_rate": "board.sort.win-rate"}
SORT_CHOICES = [
    app_commands.Choice(name="rating", value="rating"),
    app_commands.Choice(name="wins", value="wins"),
    app_commands.Choice(name="win rate", value="winrate"),
]
COMPUTER_CHOICES = [app_commands.Choice(name="show", value="show"), app_commands.Choice(name="hide", value="hide")]
COMPUTER_MARK = "🤖"
# The rating players see: openskill's conservative estimate (the stored ordinal, mu - 3 sigma) shifted and scaled, so a
# new player shows 1000 rather than 0, a first loss shows about 900 rather than -1.8, and no one is shown a negative
# number. Display only: the stored ordinal and the order of the board are unchanged.
RATING_START = 1000
RATING_PER_POINT = 50


def shown_rating(ordinal: float) -> int:
    """The rating as shown: 1000 + 50 × openskill's ordinal, rounded, never below 0 (1000 for a new player)."""
    return max(0, round(RATING_START + RATING_PER_POINT * ordinal))


def percent(rate: float, locale: str) -> str:
    """A share as a whole percentage the way `locale` writes it: "67%", "67 %"."""
    return say(locale, "board.percent", percent=f"{rate * 100:.0f}")


def leaderboard_embed(guild_name: str, kind: str, board: LeaderboardPage, locale: str = SOURCE_LOCALE) -> discord.Embed:
    """One page of the board as text: rank, name, then the figures (in `locale`)."""
    embed = discord.Embed(title=say(locale, "board.title", game=game_kind(kind).title, server=guild_name))
    at_least = counted(board.min_games, "game", locale)
    if not board.rows:
        empty = "board.empty-min-games" if board.sort == "win_rate" else "board.empty"
        embed.description = say(locale, empty, games=at_least)
        return embed
    lines = []
    for row in board.rows:
        rating = str(shown_rating(row.rating)) if row.rating is not None else "—"
        # Computer players are there to measure against: marked, and without a rank (ranks count members only).
        place = COMPUTER_MARK if row.is_computer else say(locale, "board.rank", rank=row.rank)
        lines.append(
            say(
                locale,
                "board.row",
                place=place,
                name=player_name(row.user_id, row.name, locale),
                rating=rating,
                wins=counted(row.wins, "win", locale),
                games=counted(row.games, "game", locale),
                percent=percent(row.win_rate, locale),
                points=counted(row.points, "point", locale),
            )
        )
    embed.description = "\n".join(lines)
    sort = say(locale, SORT_TITLES[board.sort])
    footer = [say(locale, "board.page", sort=sort, page=board.page + 1, pages=max(board.pages, 1))]
    if board.sort == "win_rate":
        footer.append(say(locale, "board.at-least", games=at_least))
    if not board.computers:
        footer.append(say(locale, "board.computers-hidden"))
    elif any(row.is_computer for row in board.rows):
        footer.append(say(locale, "board.computer-unranked", mark=COMPUTER_MARK))
    embed.set_footer(text=" · ".join(footer))
    return embed


def leaderboard_view(
    kind: str, sort_code: str, board: LeaderboardPage, locale: str = SOURCE_LOCALE
) -> discord.ui.View | None:
    """Previous / next buttons (labelled in `locale`), or none when everything fits on one page."""
    if board.pages <= 1:
        return None
    view = unkept_view()
    shown = board.computers
    previous, following = say(locale, "board.previous"), say(locale, "board.next")
    view.add_item(
        PageButton(kind, sort_code, board.page - 1, label=previous, disabled=board.page <= 0, computers=shown)
    )
    view.add_item(
        PageButton(
            kind, sort_code, board.page + 1, label=following, disabled=board.page >= board.pages - 1, computers=shown
        )
    )
    return view


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LEADERBOARD_TEMPLATE):
    """Turns a leaderboard page; the custom id holds game, sort, page and whether computers show (restart-proof)."""

    def __init__(
        self,
        kind: str,
        sort_code: str,
        page: int,
        *,
        label: str = "Page",
        disabled: bool = False,
        computers: bool = True,
    ) -> None:
        page = max(page, 0)
        custom_id = leaderboard_id(kind, sort_code, page, computers=computers)
        super().__init__(discord.ui.Button(label=label, disabled=disabled, custom_id=custom_id))
        self.kind, self.sort_code, self.page, self.computers = kind, sort_code, page, computers

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        page = min(number(match["page"]), LAST_PAGE)
        return cls(kind_named_by(match["kind"]), match["sort"], page, computers=not match["hide"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button points at."""
        bot = bot_of(interaction)
        if interaction.guild is None:
            raise not_in_a_server(interaction)
        await acknowledge(interaction)
        board = await fetch_board(bot, interaction.guild.id, self.kind, self.sort_code, self.page, self.computers)
        locale = await board_locale(bot, interaction)
        await interaction.edit_original_response(
            embed=leaderboard_embed(interaction.guild.name, self.kind, board, locale),
            view=leaderboard_view(self.kind, self.sort_code, board, locale),
        )


async def board_locale(bot: GameBot, interaction: discord.Interaction) -> str:
    """The leaderboard's language: the server's where it is posted for all to see, else its one reader's."""
    message = interaction.message
    private = message is not None and message.flags.ephemeral
    if interaction.guild_id is None or private:
        return private_locale(interaction)
    return await bot.languages.public(interaction.guild_id)


async def fetch_board(
    bot: GameBot, guild_id: int, kind: str, sort_code: str, page: int, computers: bool = True
) -> LeaderboardPage:
    """One page, clamped to the pages that exist (the board may have shrunk since the button was sent)."""
    board = await bot.service.boards.leaderboard(
        guild_id,
        kind,
        SORTS[sort_code],
        page=page,
        per_page=PER_PAGE,
        min_games=MIN_GAMES_FOR_WIN_RATE,
        computers=computers,
    )
    if board.pages and page >= board.pages:
        return await fetch_board(bot, guild_id, kind, sort_code, board.pages - 1, computers)
    return board


def _tally_line(tally: Tally, locale: str) -> str:
    if not tally.games:
        return say(locale, "stats.no-games")
    line = say(
        locale,
        "stats.tally",
        games=counted(tally.games, "game", locale),
        wins=counted(tally.wins, "win", locale),
        percent=percent(tally.win_rate, locale),
        points=counted(tally.points, "point", locale),
    )
    if tally.house_rules:  # games played with any house rule off its default (issue 26)
        line += " · " + say(locale, "stats.house-rules", games=counted(tally.house_rules, "game", locale))
    return line


def _kind_field(stats: KindStats, locale: str = SOURCE_LOCALE) -> str:
    if stats.rating is None:
        rating = say(locale, "stats.unrated")
    elif stats.rank is None:
        rating = say(locale, "stats.rating", rating=shown_rating(stats.rating))
    else:
        rating = say(
            locale, "stats.rating-rank", rating=shown_rating(stats.rating), rank=stats.rank, of=stats.rated_players
        )
    here = say(locale, "stats.this-server", tally=_tally_line(stats.server, locale), rating=rating)
    return f"{here}\n{say(locale, 'stats.all-servers', tally=_tally_line(stats.overall, locale))}"


class LeaderboardCog(commands.Cog):
    """Leaderboards and player stats."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.guild_only()
    @app_commands.describe(
        game="Which game",
        sort="Order by rating (default), wins, or win rate",
        computers="List the computer players (unranked) to measure yourself against: show (default) or hide",
    )
    @app_commands.choices(game=GAME_CHOICES, sort=SORT_CHOICES, computers=COMPUTER_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        sort: app_commands.Choice[str] | None = None,
        computers: app_commands.Choice[str] | None = None,
    ) -> None:
        """Show this server's best players of one of the games."""
        if interaction.guild is None:
            raise not_in_a_server(interaction)
        sort_code = sort.value if sort else "rating"
        shown = computers is None or computers.value == "show"
        await interaction.response.defer(thinking=True)
        board = await fetch_board(self.bot, interaction.guild.id, game.value, sort_code, 0, shown)
        locale = await self.bot.languages.public(interaction.guild.id)  # posted in the channel, for everyone
        await interaction.followup.send(
            embed=leaderboard_embed(interaction.guild.name, game.value, board, locale),
            view=leaderboard_view(game.value, sort_code, board, locale) or discord.utils.MISSING,
        )

    @app_commands.command(name="stats")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Games, wins, points and rating for one player, in this server and overall."""
        guild_id = guild_id_of(interaction)
        target = user or interaction.user
        await interaction.response.defer(thinking=True, ephemeral=True)
        stats = await self.bot.service.boards.player_stats(target.id, guild_id)
        locale = private_locale(interaction)  # an answer only the one who asked sees
        embed = discord.Embed(title=say(locale, "stats.title", name=target.display_name))
        for kind_stats in stats.kinds:
            embed.add_field(name=game_kind(kind_stats.kind).title, value=_kind_field(kind_stats, locale), inline=False)
        await interaction.followup.send(embed=embed, ephemeral=True)


async def setup(bot: GameBot) -> None:
    """Add the cog and its persistent page buttons."""
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(LeaderboardCog(bot))

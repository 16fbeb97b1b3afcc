"""Seats that change hands during a game (issue 28): `/seat take`, `/seat give`, **Take a seat** and the host's answer.

- **Take a seat** on a running table (shown while a computer's or a vacated seat is there), or `/seat take`: a member
  asks for a seat. The request is posted where the game is played, naming the host, with **Approve** and **Decline**
  that only the host (or a server manager) may press; the member is told privately that it went out. A member has at
  most one request of a game waiting (the host is pinged once), and one who left the server by the time the host
  approves gets no seat (the host is told so).
- `/seat give`: the host gives a vacated seat (its player resigned or was removed) to a computer of a chosen strength.

Each change is the service's (`service.seats`): stored, narrated on the table, and settled on Discord like a move, so
the seat's private panel goes to its new player (a DM, or **Show my hand**) and never to the one before.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from cogs.runtime.controls import unkept_view
from cogs.runtime.delivery import settle_and_tell
from cogs.runtime.errors import acknowledge, guarded, is_manager, refusals_answered
from cogs.runtime.ids import index_number, number
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import bot_of, find_game, game_title
from cogs.runtime.names import computer_words, seat_name
from cogs.runtime.text import clip
from db.records import GameRecord
from engine.base import AnyGame
from engine.registry import GAME_KINDS
from i18n import SOURCE_LOCALE, say
from service.computers import offered_strengths
from service.errors import RefusedError
from service.seats import OpenRequests, SeatChanges, takeable_seats

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

TAKE_TEMPLATE = r"seat:take:(?P<game_id>[0-9]+)"
PICK_TEMPLATE = r"seat:pick:(?P<game_id>[0-9]+)"
ANSWER_TEMPLATE = r"seat:(?P<answer>yes|no):(?P<game_id>[0-9]+):(?P<seat>[0-9]+):(?P<user_id>[0-9]+)"
TABLE_ROW = 4  # the last row of a table's controls: the kinds' own controls use the rows above
CHOICE_LABEL_LIMIT = 100


def take_seat_button(record: GameRecord, game: AnyGame, locale: str = SOURCE_LOCALE) -> discord.ui.Item[Any] | None:
    """**Take a seat** for a running table with a computer's or a vacated seat, labelled in the server's `locale`."""
    if not takeable_seats(record, game):
        return None
    return TakeSeatButton(record.id, locale)


async def ask_for_seat(bot: GameBot, interaction: discord.Interaction, record: GameRecord, seat: int) -> None:
    """Check the caller's request for `seat` (0-based), post it to the host where the game is played, tell the caller.

    Raises:
        RefusedError: the service's reasons (`SeatChanges.ask`).
    """
    request = await SeatChanges(bot.service).ask(record.id, interaction.user.id, seat)
    record = request.record
    waiting = open_requests(bot)
    waiting.open(record.id, interaction.user.id)  # one request a member and game: the host is pinged once
    posted = False
    try:
        await _post_request(bot, interaction, record, seat)
        posted = True
    finally:
        if not posted:  # the member may ask again
            waiting.close(record.id, interaction.user.id)
    locale = private_locale(interaction)
    told = say(locale, "seats.asked", player=seat_name(record.seats[seat], locale), title=game_title(record))
    await interaction.followup.send(told, ephemeral=True)


def open_requests(bot: GameBot) -> OpenRequests:
    """The seat requests waiting for their host's answer in this process (the seats cog keeps them)."""
    cog = bot.get_cog(SeatsCog.__cog_name__)
    assert isinstance(cog, SeatsCog), "the seats cog is loaded with its buttons"
    return cog.requests


async def _post_request(bot: GameBot, interaction: discord.Interaction, record: GameRecord, seat: int) -> None:
    """Post the request where the game is played, naming the host, with Approve and Decline."""
    public = await bot.languages.public(record.guild_id)
    view = unkept_view()
    view.add_item(AnswerButton(record.id, seat, interaction.user.id, "yes", public))
    view.add_item(AnswerButton(record.id, seat, interaction.user.id, "no", public))
    asked = say(
        public,
        "seats.request",
        user=interaction.user.mention,
        player=seat_name(record.seats[seat], public),
        number=seat + 1,
        title=game_title(record),
        host=f"<@{record.host_id}>",
    )
    await bot.presenter.game_channel(record).send(
        asked,
        view=view,
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(record.host_id)], roles=False, everyone=False),
    )


class SeatsCog(commands.Cog):
    """Seat changes of running games, for any kind."""

    seat = app_commands.Group(
        name="seat",
        description="Seats during a game: take a computer's or a left seat, or give one away.",
        guild_only=True,
    )

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.requests = OpenRequests()

    @seat.command(name="take")
    @app_commands.describe(
        seat="The seat's number, as the table shows it", game="The game's number (only needed outside its thread)"
    )
    async def seat_take(self, interaction: discord.Interaction, seat: int, game: int | None = None) -> None:
        """Ask the host for a computer's seat, or one a player left; you play it from then on."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await find_game(self.bot, interaction, game)
            await ask_for_seat(self.bot, interaction, record, seat - 1)

    @seat.command(name="give")
    @app_commands.describe(
        seat="The seat's number, as the table shows it",
        strength="How strong the computer player is",
        game="The game's number (only needed outside its thread)",
    )
    async def seat_give(
        self, interaction: discord.Interaction, seat: int, strength: str, game: int | None = None
    ) -> None:
        """Give a seat a player left to a computer player (host only); it plays the seat from then on."""
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await find_game(self.bot, interaction, game)
            result = await SeatChanges(self.bot.service).give_to_computer(
                record.id, interaction.user.id, seat - 1, strength, is_manager=is_manager(interaction)
            )
            locale = private_locale(interaction)
            done = say(locale, "seats.given", number=seat, computer=computer_words(strength, locale))
            await settle_and_tell(self.bot, interaction, [result], done=done)

    @seat_give.autocomplete("strength")
    async def strength_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The strengths the game's kind offers, named in the caller's language."""
        locale = private_locale(interaction)
        kinds = {record.kind for record in await self._games_here(interaction)} or {k.name for k in GAME_KINDS}
        strengths = dict.fromkeys(strength for kind in sorted(kinds) for strength in offered_strengths(kind))
        named = ((strength, say(locale, f"computers.strength.{strength}")) for strength in strengths)
        typed = current.strip().lower()
        return [app_commands.Choice(name=name, value=value) for value, name in named if typed in name.lower()]

    async def _games_here(self, interaction: discord.Interaction) -> list[GameRecord]:
        if interaction.channel_id is None:
            return []
        return await self.bot.service.games_in_channel(interaction.channel_id)


class TakeSeatButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TAKE_TEMPLATE):
    """**Take a seat** on a running table: the clicker asks the host for a seat (a menu first if there are several)."""

    def __init__(self, game_id: int, locale: str = SOURCE_LOCALE) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=say(locale, "seats.take-button"),
            style=discord.ButtonStyle.secondary,
            custom_id=f"seat:take:{game_id}",
            row=TABLE_ROW,
        )
        super().__init__(button)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from the custom id (a forged id past SQLite's integers names no game: refused in words)."""
        return cls(number(match["game_id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Ask for the one seat there is, or offer the seats there are as a private menu."""
        await acknowledge(interaction, ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        record, game = await bot.service.load(self.game_id)
        if record.guild_id != interaction.guild_id:
            raise RefusedError(say(private_locale(interaction), "lookup.other-server"))
        # The button is on the public table, so the seated see it too: told at once, before any menu of seats.
        if record.seat_of(interaction.user.id) is not None:
            raise RefusedError(say(private_locale(interaction), "refused.already-seated-here"))
        seats = takeable_seats(record, game)
        if len(seats) == 1:
            await ask_for_seat(bot, interaction, record, seats[0])
            return
        if not seats:
            raise RefusedError(say(private_locale(interaction), "seats.none-to-take"))
        locale = private_locale(interaction)
        view = unkept_view()
        view.add_item(SeatPick.offering(record, seats, locale))
        await interaction.followup.send(say(locale, "seats.which"), view=view, ephemeral=True)


class SeatPick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=PICK_TEMPLATE):
    """The private menu of the seats a member may ask for; the chosen one is asked for."""

    def __init__(self, game_id: int, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"seat:pick:{game_id}"))
        self.game_id = game_id

    @classmethod
    def offering(cls, record: GameRecord, seats: tuple[int, ...], locale: str) -> SeatPick:
        """The menu of these seats, each by number and player, in the reader's `locale`."""
        options = [
            discord.SelectOption(
                label=clip(
                    say(locale, "seats.option", number=seat + 1, player=seat_name(record.seats[seat], locale)),
                    CHOICE_LABEL_LIMIT,
                ),
                value=str(seat),
            )
            for seat in seats[:25]
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"seat:pick:{record.id}", placeholder=say(locale, "seats.which"), options=options
        )
        return cls(record.id, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the menu from its custom id, keeping the chosen value."""
        return cls(number(match["game_id"]), item if isinstance(item, discord.ui.Select) else None)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Ask for the chosen seat."""
        await acknowledge(interaction, ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        record = await bot.service.get(self.game_id)
        if record.guild_id != interaction.guild_id:
            raise RefusedError(say(private_locale(interaction), "lookup.other-server"))
        seat = index_number(self.item.values[0]) if self.item.values else -1
        if seat < 0:  # not a value the bot offered
            locale = private_locale(interaction)
            raise RefusedError(say(locale, "seats.unknown-choice", button=say(locale, "seats.take-button")))
        await ask_for_seat(bot, interaction, record, seat)


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ANSWER_TEMPLATE):
    """**Approve** or **Decline** on a member's request for a seat: the host's (or a manager's) alone to press."""

    def __init__(
        self,
        game_id: int,
        seat: int,
        user_id: int,
        answer: str,
        locale: str = SOURCE_LOCALE,
        *,
        clicked: discord.ui.Button[Any] | None = None,
    ) -> None:
        approve = answer == "yes"
        button: discord.ui.Button[Any] = clicked or discord.ui.Button(
            label=say(locale, "seats.approve" if approve else "seats.decline"),
            style=discord.ButtonStyle.success if approve else discord.ButtonStyle.secondary,
            custom_id=f"seat:{answer}:{game_id}:{seat}:{user_id}",
        )
        super().__init__(button)
        self.game_id, self.seat, self.user_id, self.answer = game_id, seat, user_id, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from the custom id: the clicked button as it is, its numbers checked (a forged seat is no seat)."""
        clicked = item if isinstance(item, discord.ui.Button) else discord.ui.Button(custom_id=match.string)
        game_id, seat, user_id = number(match["game_id"]), index_number(match["seat"]), number(match["user_id"])
        return cls(game_id, seat, user_id, match["answer"], clicked=clicked)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Approve: the member takes the seat, and the table and their panel show it. Decline: the request closes."""
        await acknowledge(interaction)
        bot = bot_of(interaction)
        seats = SeatChanges(bot.service)
        record = await bot.service.get(self.game_id)
        if record.guild_id != interaction.guild_id:
            raise RefusedError(say(private_locale(interaction), "lookup.other-server"))
        public = await bot.languages.public(record.guild_id)
        if self.answer == "no":
            await seats.decline(self.game_id, interaction.user.id, is_manager=is_manager(interaction))
            open_requests(bot).close(self.game_id, self.user_id)
            declined = say(public, "seats.declined", host=interaction.user.mention, user=f"<@{self.user_id}>")
            await interaction.edit_original_response(content=declined, view=None)
            return
        await seats.check_answerer(self.game_id, interaction.user.id, is_manager=is_manager(interaction))
        name = await _member_name(interaction, self.user_id)
        if name is None:  # gone from the server: no seat for them (the table would name them by a raw id)
            open_requests(bot).close(self.game_id, self.user_id)
            await interaction.edit_original_response(
                content=say(public, "seats.member-left", user=f"<@{self.user_id}>"), view=None
            )
            raise RefusedError(say(private_locale(interaction), "seats.member-left", user=f"<@{self.user_id}>"))
        result = await seats.approve(
            self.game_id, interaction.user.id, self.seat, self.user_id, name, is_manager=is_manager(interaction)
        )
        open_requests(bot).close(self.game_id, self.user_id)
        approved = say(
            public,
            "seats.approved",
            host=interaction.user.mention,
            user=f"<@{self.user_id}>",
            number=self.seat + 1,
            title=game_title(result.record),
        )
        await interaction.edit_original_response(content=approved, view=None)
        await bot.delivery.settle(self.game_id, fresh=[result])


async def _member_name(interaction: discord.Interaction, user_id: int) -> str | None:
    """The member's name in this server; None when they are no longer in it (or never were).

    Always one lookup, never the cache: the bot has no members intent, so its cache does not see members leave, and
    Discord's Unknown Member (a 404) is what says they are gone. An approval is rare, so the request costs little.

    Raises:
        RefusedError: Discord could not be asked (the host may try again).
    """
    guild = interaction.guild
    if guild is None:
        return None
    try:
        member = await guild.fetch_member(user_id)
    except discord.NotFound:
        return None
    except discord.HTTPException as error:
        log.info("could not look up member %s of guild %s: %s", user_id, guild.id, error)
        raise RefusedError(say(private_locale(interaction), "seats.member-unknown", user=f"<@{user_id}>")) from None
    return member.display_name


async def setup(bot: GameBot) -> None:
    """Add the cog, its persistent buttons and menu, and **Take a seat** to every running table."""
    bot.add_dynamic_items(TakeSeatButton, SeatPick, AnswerButton)
    bot.presenter.table_items.append(take_seat_button)
    await bot.add_cog(SeatsCog(bot))

"""Lobbies for both games: the lobby message with Join / Leave / Start / Cancel, and starting a game in its thread."""

from __future__ import annotations

import inspect
import logging
import re
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Final, Optional, Self

import discord
from discord import app_commands
from discord.app_commands import Choice

from cogs.runtime.controls import unkept_view
from cogs.runtime.delivery import EDIT_CAP, REPOSTED, edit_refused, retire
from cogs.runtime.errors import guarded, is_manager, refusals_answered
from cogs.runtime.house_rules import house_rules_line
from cogs.runtime.ids import (
    LOBBY_COMPUTER_TEMPLATE,
    LOBBY_TEMPLATE,
    REMATCH_TEMPLATE,
    checked_number,
    component_id,
    kind_named_by,
    number,
)
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import bot_of, channel_id_of, clicked_game, game_title, not_in_a_server
from cogs.runtime.names import seat_name
from cogs.runtime.text import AUTOCOMPLETE_LIMIT, jump_link
from cogs.runtime.timing import DEFAULT_TIMER, TIMER_CHOICES, TIMER_PRESETS, timer_summary
from db.records import GameRecord
from engine.errors import SettingError
from engine.kinds import GameKind, LobbyOption, OneOf, WholeNumber, YesNo
from engine.message import Joined
from engine.registry import game_kind
from i18n import SOURCE_LOCALE, render_message, render_param, say
from service.computers import ComputerPlayers, offered_strengths
from service.errors import RefusedError
from service.house_rules import misfit
from service.tables import DEFAULT_AFK_LIMIT, LobbyOptions

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final = 1440
AFK_LIMIT_MAX = 10
# Each button's label is the catalog's `lobby.button.<action>`, in the server's language (the lobby is public).
_BUTTONS = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
    "cancel": discord.ButtonStyle.danger,
}
# The strengths the host can seat, as the menu shows them: the catalog's words for each (the README says the same in
# more words). A lobby offers those its kind has a computer player of (`service.computers.offered_strengths`), in
# this order.
STRENGTH_WORDS = {
    "easy": "computers.menu.easy",
    "medium": "computers.menu.medium",
    "hard": "computers.menu.hard",
    "expert": "computers.menu.expert",
}


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LOBBY_TEMPLATE):
    """One of the four lobby buttons; the custom id carries the game, so it works after a restart."""

    def __init__(
        self, kind: str, game_id: int, action: str, *, disabled: bool = False, locale: str = SOURCE_LOCALE
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=say(locale, f"lobby.button.{action}"),
                style=_BUTTONS[action],
                disabled=disabled,
                custom_id=component_id(kind, game_id, 0, action),
            )
        )
        self.kind, self.game_id, self.action = kind, game_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(kind=kind_named_by(match["kind"]), game_id=number(match["game_id"]), action=match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Join, leave, start or cancel the lobby."""
        bot, _ = await clicked_game(interaction, self.game_id, self.kind)
        user = interaction.user
        if self.action == "join":
            record = await bot.service.join(self.game_id, user.id, user.display_name)
        elif self.action == "leave":
            record = await bot.service.leave(self.game_id, user.id)
        elif self.action == "cancel":
            record = await bot.service.cancel(self.game_id, user.id, is_manager=is_manager(interaction))
        else:
            await start_game(bot, interaction, self.game_id)
            return
        await show_lobby(bot, interaction, record)


class ComputerSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=LOBBY_COMPUTER_TEMPLATE):
    """The host's menus in the lobby: seat a computer player of a strength (`cpuadd`), or take one out (`cpudrop`)."""

    def __init__(self, kind: str, game_id: int, action: str, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=component_id(kind, game_id, 0, action)))
        self.kind, self.game_id, self.action = kind, game_id, action

    @classmethod
    def adding(cls, record: GameRecord, locale: str = SOURCE_LOCALE) -> ComputerSelect:
        """The menu of the strengths the lobby's kind has; off once every seat is taken."""
        offered = offered_strengths(record.kind)
        own_words = dict(game_kind(record.kind).player_words)
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=component_id(record.kind, record.id, 0, "cpuadd"),
            placeholder=say(locale, "lobby.add-computer"),
            options=[
                discord.SelectOption(label=say(locale, own_words.get(strength, words)), value=strength)
                for strength, words in STRENGTH_WORDS.items()
                if strength in offered
            ],
            disabled=record.is_full,
            row=1,
        )
        return cls(record.kind, record.id, "cpuadd", select)

    @classmethod
    def removing(cls, record: GameRecord, locale: str = SOURCE_LOCALE) -> ComputerSelect:
        """The menu of the lobby's computer players (a lobby has at most 6 seats: well within Discord's 25 options).

        Each is named in `locale`; its value is the stored name, which the store removes it by.
        """
        computers = [seat for seat in record.seats if seat.is_computer]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=component_id(record.kind, record.id, 0, "cpudrop"),
            placeholder=say(locale, "lobby.remove-computer"),
            options=[discord.SelectOption(label=seat_name(seat, locale), value=seat.name) for seat in computers[:25]],
            row=2,
        )
        return cls(record.kind, record.id, "cpudrop", select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the menu from its custom id, keeping the chosen value."""
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(kind_named_by(match["kind"]), number(match["game_id"]), match["action"], select)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Seat or remove the chosen computer player (the service refuses anyone but the host)."""
        bot, _ = await clicked_game(interaction, self.game_id, self.kind)
        computers = ComputerPlayers(bot.service)
        choice = self.item.values[0] if self.item.values else ""
        if self.action == "cpuadd":
            record = await computers.add(self.game_id, interaction.user.id, choice)
        else:
            record = await computers.remove(self.game_id, interaction.user.id, choice)
        await show_lobby(bot, interaction, record)


def lobby_view(
    record: GameRecord, locale: str = SOURCE_LOCALE, extras: Sequence[discord.ui.Item[Any]] = ()
) -> discord.ui.View:
    """The lobby's buttons; Join is off when every seat is taken. Below them the host's computer menus.

    `extras` are what other cogs add beside the buttons (`Presenter.lobby_items`: "House rules…" of a kind that has
    house rules, from `cogs.house_rules`).
    """
    view = unkept_view()
    full = len(record.seats) >= record.max_seats
    for action in _BUTTONS:
        view.add_item(LobbyButton(record.kind, record.id, action, disabled=action == "join" and full, locale=locale))
    for extra in extras:
        view.add_item(extra)
    if offered_strengths(record.kind):  # a kind without computer players offers none
        view.add_item(ComputerSelect.adding(record, locale))
    if any(seat.is_computer for seat in record.seats):
        view.add_item(ComputerSelect.removing(record, locale))
    return view


def lobby_message(bot: GameBot, record: GameRecord, locale: str = SOURCE_LOCALE) -> dict[str, Any]:
    """The lobby message's content and buttons for the record's status, in `locale` (the server's: it is public)."""
    title = game_title(record)
    names = tuple(seat_name(seat, locale) for seat in record.seats)
    players = render_param(Joined(names, "join.comma"), locale) or say(locale, "lobby.nobody-yet")
    if record.status == "cancelled":
        return {"content": say(locale, "lobby.cancelled", title=title), "view": None}
    if record.status != "lobby":
        if record.thread_id:
            started = say(locale, "lobby.started-in", title=title, players=players, thread=f"<#{record.thread_id}>")
        else:
            started = say(locale, "lobby.started", title=title, players=players)
        return {"content": started, "view": None}
    kind = game_kind(record.kind)
    options = render_message(kind.describe_settings(record.settings), locale)
    # The house rules off their defaults (those the settings sentence says aside), and whether they suit the players
    # seated (issue 26).
    said = frozenset(option.setting for option in kind.options)
    house_rules = house_rules_line(record.kind, record.settings, locale, besides=said)
    rules = f"\n{house_rules}" if house_rules else ""
    if kind.rules_in_force(record.settings):
        reason = misfit(kind, record.settings, len(record.seats))
        if reason is not None:  # told again on each join and leave; Start refuses until it fits
            rules += "\n" + say(locale, "lobby.house-rules-misfit", reason=render_message(reason, locale))
    # "2 players at least" only where two would do: house rules that need more (partnerships: four) are said once,
    # by the line that says why they do not fit yet.
    two_will_do = not kind.rules_in_force(record.settings) or misfit(kind, record.settings, 2) is None
    suffix = "" if two_will_do else "-as-house-rules-ask"
    if record.is_full:
        join = say(locale, "lobby.full")
    elif offered_strengths(record.kind):
        join = say(locale, "lobby.join-or-add-computers" + suffix)
    else:
        join = say(locale, "lobby.join" + suffix)
    heading = say(locale, "lobby.heading", title=title, host=f"<@{record.host_id}>")
    seated = say(
        locale,
        "lobby.players",
        seated=len(record.seats),
        seats=record.max_seats,
        players=players,
    )
    content = f"{heading} {options} {timer_summary(record, locale)}{rules}\n{seated}\n{join}"
    extras = [item for add in bot.presenter.lobby_items if (item := add(record, locale)) is not None]
    return {"content": content, "view": lobby_view(record, locale, extras)}


async def public_lobby_message(bot: GameBot, record: GameRecord) -> dict[str, Any]:
    """The lobby message in its server's language."""
    return lobby_message(bot, record, await bot.languages.public(record.guild_id))


async def show_lobby(bot: GameBot, interaction: discord.Interaction | None, record: GameRecord) -> None:
    """Show the lobby as it now is on its message: edited through the click on it (free), or in its channel.

    Where Discord refuses that edit for good (`must_repost`: the message was deleted, or a lobby open for hours used
    up the edits an old message may have, 30046), the lobby is posted anew in its channel, its id stored, and the
    old message retired: once per refusal, the new message not edited in the same step, so it never loops.

    Raises:
        discord.HTTPException: any other refusal (the caller says what it costs).
    """
    fields = await public_lobby_message(bot, record)
    place = bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
    if interaction is not None:
        refused = await edit_refused(interaction.edit_original_response(**fields))
        old = interaction.message.id if interaction.message is not None else record.lobby_message_id
    elif record.lobby_message_id is not None:
        refused = await edit_refused(place.get_partial_message(record.lobby_message_id).edit(**fields))
        old = record.lobby_message_id
    else:
        return  # never posted: nothing to show it on
    if refused is None:
        return
    log.info("game #%d: Discord refuses to edit its lobby message (%d); posting it anew", record.id, refused)
    message = await place.send(**fields)
    await bot.service.projection.set_messages(record.id, lobby_message_id=message.id)
    if refused == EDIT_CAP and old is not None:
        locale = await bot.languages.public(record.guild_id)
        link = jump_link(game_title(record), record.guild_id, record.channel_id, message.id)
        await retire(place, old, say(locale, REPOSTED, link=link))


def new_lobby_command(kind: GameKind) -> app_commands.Command[Any, ..., None]:
    """`/<kind> new` for any kind: every game opens its lobby through this one function.

    Its options (seats, the kind's own settings, timer, AFK limit) come from the kind's description.
    """

    async def new(interaction: discord.Interaction, **chosen: Any) -> None:
        async with refusals_answered(interaction):
            timer = chosen["timer"].value if chosen["timer"] is not None else DEFAULT_TIMER
            try:
                settings = {
                    o.setting: o.check(_picked(o, chosen[o.name]))
                    for o in kind.options
                    if chosen[o.name] is not None or not _is_house_rule(kind, o)
                }
            except SettingError as error:
                raise RefusedError(error.message) from error
            options = LobbyOptions(
                seats=chosen["seats"],
                settings=settings,
                turn_seconds=TIMER_PRESETS[timer],
                afk_limit=chosen["afk"],
            )
            await open_lobby(interaction, kind.name, options)

    # discord.py reads a command's options from its callback's signature; this one is built from the kind.
    def option(name: str, annotation: object, default: object) -> inspect.Parameter:
        return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)

    new.__signature__ = inspect.Signature(  # type: ignore[attr-defined]  # read by inspect.signature
        [
            inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction),
            option("seats", app_commands.Range[int, kind.min_seats, kind.max_seats], kind.max_seats),
            *(option(o.name, _annotation(kind, o), _default(kind, o)) for o in kind.options),
            option("timer", Optional[app_commands.Choice[str]], None),  # noqa: UP045 - resolved at run time
            option("afk", app_commands.Range[int, 1, AFK_LIMIT_MAX], DEFAULT_AFK_LIMIT),
        ]
    )
    described = app_commands.describe(
        seats=f"How many players may join ({kind.min_seats}–{kind.max_seats})",
        timer="Time for each turn",
        afk=f"Automatic turns in a row before a player is resigned (default {DEFAULT_AFK_LIMIT})",
        **{o.name: o.description for o in kind.options},
    )(app_commands.choices(timer=TIMER_CHOICES, **_choices(kind))(new))
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="new",
        description=f"Open a {kind.title} lobby in this channel; friends join with a button.",
        callback=described,
    )
    for offered in kind.options:
        if isinstance(offered, WholeNumber) and offered.usual:
            command.autocomplete(offered.name)(_usual_first(offered))
    return command


def _usual_first(option: WholeNumber) -> Callable[[discord.Interaction, str], Coroutine[Any, Any, list[Choice[Any]]]]:
    """Suggestions for a whole-number option: what the host typed, if allowed, then the usual values that fit it."""

    async def suggest(interaction: discord.Interaction, typed: str) -> list[Choice[Any]]:  # whole numbers
        typed = typed.strip()
        value = checked_number(typed)  # "²" is a digit to `str.isdigit`, not to `int`
        values = [value] if value is not None and option.low <= value <= option.high else []
        values += [value for value in option.usual if str(value).startswith(typed) and value not in values]
        return [Choice(name=str(value), value=value) for value in values[:AUTOCOMPLETE_LIMIT]]

    return suggest


def _is_house_rule(kind: GameKind, option: LobbyOption) -> bool:
    """Whether the option's setting is also one of the kind's house rules (the server may have its usual value)."""
    return any(rule.setting == option.setting for rule in kind.house_rules)


def _annotation(kind: GameKind, option: LobbyOption) -> object:
    """How discord.py should offer a kind's option: a range of whole numbers, yes/no, or a few choices.

    An option that is also a house rule may be left out (None), so that the server's usual value stands.
    """
    if isinstance(option, WholeNumber):
        ranged = app_commands.Range[int, option.low, option.high]
        return Optional[ranged] if _is_house_rule(kind, option) else ranged  # noqa: UP045 - resolved at run time
    if isinstance(option, YesNo):
        return Optional[bool] if _is_house_rule(kind, option) else bool  # noqa: UP045 - resolved at run time
    return Optional[app_commands.Choice[str]]  # noqa: UP045 - resolved at run time


def _default(kind: GameKind, option: LobbyOption) -> object:
    if isinstance(option, OneOf) or _is_house_rule(kind, option):
        return None  # not picked: its default (below), or the server's usual house rule (`service.house_rules`)
    return option.default


def _choices(kind: GameKind) -> dict[str, list[app_commands.Choice[str]]]:
    return {
        option.name: [app_commands.Choice(name=words, value=value) for value, words in option.choices]
        for option in kind.options
        if isinstance(option, OneOf)
    }


def _picked(option: LobbyOption, value: object) -> object:
    """What the host picked, as the option stores it: a choice's value, or the option's default when none was."""
    if value is None:
        return option.default
    return value.value if isinstance(value, app_commands.Choice) else value


async def open_lobby(interaction: discord.Interaction, kind: str, options: LobbyOptions) -> GameRecord:
    """Post a new lobby in the channel the command was used in."""
    bot = bot_of(interaction)
    if interaction.guild_id is None or interaction.channel_id is None:
        raise not_in_a_server(interaction)
    if not _can_open_thread(interaction) and not isinstance(interaction.channel, discord.Thread):
        holder = await bot.service.game_holding_channel(interaction.channel_id)
        if holder is not None:
            raise RefusedError(one_game_here(holder, private_locale(interaction)))
    record = await bot.service.open_lobby(
        kind,
        options,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        host_id=interaction.user.id,
        host_name=interaction.user.display_name,
    )
    await interaction.response.send_message(**await public_lobby_message(bot, record))
    message = await interaction.original_response()
    await bot.service.projection.set_messages(record.id, lobby_message_id=message.id)
    return record


async def start_game(bot: GameBot, interaction: discord.Interaction, game_id: int) -> None:
    """Start: find the game a home (its own thread if allowed), post the table, ping the first player."""
    thread_possible = _can_open_thread(interaction)
    if not thread_possible and not isinstance(interaction.channel, discord.Thread):
        await _refuse_second_game_in_channel(bot, interaction, game_id)
    started = await bot.service.start(game_id, interaction.user.id)
    record = started.record
    note = None  # why the game is played in the channel, told to the one who started it
    if isinstance(interaction.channel, discord.Thread):
        thread_id: int | None = interaction.channel.id
    elif thread_possible and interaction.message is not None:
        thread_id = await _open_thread(interaction.message, record)
        if thread_id is None:
            note = "lobby.thread-failed"
    else:
        thread_id = None
        note = "lobby.threads-not-allowed"
    if thread_id is not None:
        await bot.service.projection.set_messages(game_id, thread_id=thread_id)
    record = await bot.service.get(game_id)
    await show_lobby(bot, interaction, record)
    if note:
        await interaction.followup.send(say(private_locale(interaction), note), ephemeral=True)
    if not await bot.delivery.settle(game_id):
        await interaction.followup.send(say(private_locale(interaction), "lobby.table-late"), ephemeral=True)


def _can_open_thread(interaction: discord.Interaction) -> bool:
    permissions = interaction.app_permissions
    return (
        isinstance(interaction.channel, discord.TextChannel)
        and permissions.create_public_threads
        and permissions.send_messages_in_threads
    )


async def _open_thread(message: discord.Message, record: GameRecord) -> int | None:
    try:
        thread = await message.create_thread(name=game_title(record), auto_archive_duration=THREAD_ARCHIVE_MINUTES)
    except discord.HTTPException:
        log.warning("could not open a thread for game %s", record.id, exc_info=True)
        return None
    return thread.id


async def _refuse_second_game_in_channel(bot: GameBot, interaction: discord.Interaction, game_id: int) -> None:
    holder = await bot.service.game_holding_channel(channel_id_of(interaction), besides=game_id)
    if holder is not None and holder.status == "running":
        raise RefusedError(one_game_here(holder, private_locale(interaction)))


def game_link(record: GameRecord) -> str:
    """The game's name as a link to where it shows: its table, else its lobby message, else its channel or thread."""
    title = game_title(record)
    message_id = record.table_message_id or record.lobby_message_id
    if record.thread_id is not None:
        return f"{title} (<#{record.thread_id}>)"
    if message_id is None:
        return f"{title} (<#{record.channel_id}>)"
    return jump_link(title, record.guild_id, record.channel_id, message_id)


def one_game_here(holder: GameRecord, locale: str = SOURCE_LOCALE) -> str:
    """Why a channel without threads takes no second game, with a link to the one it holds and what to do.

    Said in `locale`, the reader's: only the one refused reads it.
    """
    waiting = "lobby.one-game-waiting" if holder.status == "lobby" else "lobby.one-game-playing"
    return say(locale, waiting, game=game_link(holder))


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMATCH_TEMPLATE):
    """On a finished game's table: a new lobby with the same options; the old players are invited to join."""

    def __init__(self, kind: str, game_id: int, locale: str = SOURCE_LOCALE) -> None:
        super().__init__(
            discord.ui.Button(
                label=say(locale, "lobby.button.rematch"),
                style=discord.ButtonStyle.success,
                custom_id=component_id(kind, game_id, 0, "rematch"),
            )
        )
        self.kind, self.game_id = kind, game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(kind=kind_named_by(match["kind"]), game_id=number(match["game_id"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the rematch lobby in the game's channel and take the button away."""
        bot, old = await clicked_game(interaction, self.game_id, self.kind)
        record = await bot.service.rematch(self.game_id, interaction.user.id, interaction.user.display_name)
        await interaction.edit_original_response(view=None)
        for seat in old.seats:  # the same computer opponents again (the one asking hosts the rematch)
            if seat.is_computer and seat.strength is not None:
                record = await ComputerPlayers(bot.service).add(record.id, interaction.user.id, seat.strength)
        invited = [seat.user_id for seat in old.seats if seat.user_id not in (None, interaction.user.id)]
        mentions = " ".join(f"<@{user_id}>" for user_id in invited)
        public = await bot.languages.public(record.guild_id)
        message = lobby_message(bot, record, public)
        # The players asked to join are named; the one asking is seated already, so nobody is asked when only
        # computers sat with them.
        if invited:
            invitation = say(public, "lobby.rematch", title=game_title(old), mentions=mentions)
        else:
            invitation = say(public, "lobby.rematch-alone", title=game_title(old))
        message["content"] = f"{invitation}\n\n" + message["content"]
        lobby = await bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id).send(
            **message, allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in invited])
        )
        await bot.service.projection.set_messages(record.id, lobby_message_id=lobby.id)
        await interaction.followup.send(
            say(private_locale(interaction), "lobby.rematch-open", title=game_title(record), link=lobby.jump_url),
            ephemeral=True,
        )


async def setup(bot: GameBot) -> None:
    """Register the lobby buttons and menus and the rematch button (persistent: no cog state needed)."""
    bot.add_dynamic_items(LobbyButton, ComputerSelect, RematchButton)
    bot.presenter.finished_items.append(
        lambda record, locale=SOURCE_LOCALE: RematchButton(record.kind, record.id, locale)
    )

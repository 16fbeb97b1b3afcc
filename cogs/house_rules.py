"""House rules (issue 26): the host's panel in the lobby, and `/houserules` for a server's usual ones.

The lobby of a kind with house rules has a "House rules…" button (`cogs.lobby`). Its host gets an ephemeral panel in
their own language with one control per rule: a menu for a choice, a button for an on/off rule, each showing the value
the lobby has now. Each change goes through the table service, which checks the value and whether the rules still
suit the lobby's seats; the panel is redrawn through its own interaction (free), the public lobby message once.

Members with Manage Server keep the server's usual house rules per game, which its new lobbies start from: they
change them with the same panel (`/houserules edit`, or "Save for this server" on a lobby's panel), `/houserules show`
tells anyone what they are, and `/houserules reset` goes back to the main rules. The panel's custom ids name the
server's usual rules with game id 0, which no game has.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Self

import discord
from discord import app_commands
from discord.ext import commands

from cogs.lobby import show_lobby
from cogs.runtime.controls import unkept_view
from cogs.runtime.errors import acknowledge, guarded, is_manager, refusals_answered
from cogs.runtime.house_rules import house_rules_line, house_rules_sentences, rule_and_value, rule_name, value_sentence
from cogs.runtime.ids import (
    HOUSE_RULE_TEMPLATE,
    HOUSE_RULES_ACTION,
    HOUSE_RULES_PAGE_TEMPLATE,
    HOUSE_RULES_TEMPLATE,
    component_id,
    kind_named_by,
    number,
)
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import bot_of, clicked_game, component_game, game_title, guild_id_of
from cogs.runtime.text import clip
from cogs.runtime.translator import slash
from db.records import GameRecord
from engine import registry
from engine.kinds import GameKind, HouseRule, HouseRuleValue, value_key
from engine.message import Message
from engine.registry import game_kind
from i18n import SOURCE_LOCALE, render_message, say
from service.errors import RefusedError
from service.house_rules import misfit
from service.tables import USER_ERRORS

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

PRESET: Final = 0  # the game id that names the server's usual house rules in the panel's custom ids
MAX_ROWS: Final = 5  # Discord's action rows in a message
PER_ROW: Final = 5  # buttons in a row
MAX_OPTIONS: Final = 25  # options in a select menu
TEXT_LIMIT: Final = 100  # characters in a select option's label and description, and a menu's placeholder (150)
LABEL_LIMIT: Final = 80  # characters in a button's label
SAVE: Final = -1  # the "Save for this server" button's place among the rules' controls


# -- the panel ------------------------------------------------------------------------------------------------------


def panel_rows(kind: GameKind, *, saving: bool) -> list[list[int]]:
    """The panel's rows of controls, by rule index.

    Each choice is a menu in a row of its own, the on/off rules buttons five to a row, then (for a manager on a
    lobby's panel) `SAVE`.
    """
    rows = [[index] for index, rule in enumerate(kind.house_rules) if not rule.is_on_off]
    buttons = [index for index, rule in enumerate(kind.house_rules) if rule.is_on_off] + ([SAVE] if saving else [])
    rows += [buttons[start : start + PER_ROW] for start in range(0, len(buttons), PER_ROW)]
    return rows


def panel_pages(kind: GameKind, *, saving: bool) -> list[list[list[int]]]:
    """The rows on each page: one page when they fit a message, else pages of four rows and a row to turn pages."""
    rows = panel_rows(kind, saving=saving)
    if len(rows) <= MAX_ROWS:
        return [rows]
    return [rows[start : start + MAX_ROWS - 1] for start in range(0, len(rows), MAX_ROWS - 1)]


def page_of(kind: GameKind, index: int, *, saving: bool) -> int:
    """The page the control of rule `index` is on."""
    for page, rows in enumerate(panel_pages(kind, saving=saving)):
        if any(index in row for row in rows):
            return page
    return 0


def offered(rule: HouseRule, current: HouseRuleValue) -> list[HouseRuleValue]:
    """The values a rule's menu offers: all of them, or the first ones a menu holds with the current one among them."""
    values = list(rule.values)
    if len(values) <= MAX_OPTIONS or current in values[:MAX_OPTIONS]:
        return values[:MAX_OPTIONS]
    return [*values[: MAX_OPTIONS - 1], current]


class HouseRuleControl(discord.ui.DynamicItem[discord.ui.Item[Any]], template=HOUSE_RULE_TEMPLATE):
    """One rule's control on the panel: a menu of its values, or an on/off button carrying the value it sets."""

    def __init__(
        self, kind: str, game_id: int, index: int, value: str | None = None, item: discord.ui.Item[Any] | None = None
    ) -> None:
        arg = f"{index}" if value is None else f"{index}:{value}"
        super().__init__(item or discord.ui.Button(custom_id=component_id(kind, game_id, 0, "hr", arg)))
        self.kind, self.game_id, self.index, self.value = kind, game_id, index, value

    @classmethod
    def choice(
        cls, kind: GameKind, game_id: int, index: int, current: HouseRuleValue, locale: str, row: int
    ) -> HouseRuleControl:
        """A menu of the rule's values, the current one chosen; each with its `/rules` sentence below it."""
        rule = kind.house_rules[index]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=component_id(kind.name, game_id, 0, "hr", str(index)),
            placeholder=clip(rule_name(kind, rule, locale), TEXT_LIMIT),
            options=[
                discord.SelectOption(
                    label=clip(rule_and_value(kind, rule, value, locale), TEXT_LIMIT),
                    value=value_key(value),
                    description=clip(value_sentence(kind, rule, value, locale), TEXT_LIMIT),
                    default=value == current,
                )
                for value in offered(rule, current)
            ],
            row=row,
        )
        return cls(kind.name, game_id, index, None, select)

    @classmethod
    def toggle(
        cls, kind: GameKind, game_id: int, index: int, current: HouseRuleValue, locale: str, row: int
    ) -> HouseRuleControl:
        """An on/off rule as a button showing its value (green when on); a press turns it the other way."""
        rule = kind.house_rules[index]
        turned = value_key(not current)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(rule_and_value(kind, rule, current, locale), LABEL_LIMIT),
            style=discord.ButtonStyle.success if current else discord.ButtonStyle.secondary,
            custom_id=component_id(kind.name, game_id, 0, "hr", f"{index}:{turned}"),
            row=row,
        )
        return cls(kind.name, game_id, index, turned, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the control from its custom id, keeping the chosen value of a menu."""
        index = number(match["index"])
        return cls(kind_named_by(match["kind"]), number(match["game_id"]), index, match["value"], item)

    def chosen(self, kind: GameKind, locale: str) -> tuple[HouseRule, HouseRuleValue]:
        """The rule and the value this control sets.

        Raises:
            RefusedError: no such rule or value (a control of an older version of the kind).
        """
        if self.index >= len(kind.house_rules):
            raise RefusedError(Message("refused.no-such-house-rule", {"game": kind.title}))
        rule = kind.house_rules[self.index]
        if self.value is not None:
            key = self.value
        else:
            values = self.item.values if isinstance(self.item, discord.ui.Select) else []
            key = values[0] if values else ""
        for value in rule.values:
            if value_key(value) == key:
                return rule, value
        raise RefusedError(Message("refused.house-rule-value", {"rule": rule.rule_id}))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Set the rule (the service checks who may, and whether it fits), then show the panel and the lobby anew."""
        bot = bot_of(interaction)
        require_panel(interaction)
        await acknowledge(interaction)
        kind = known_kind(self.kind, interaction)
        locale = private_locale(interaction)
        rule, value = self.chosen(kind, locale)
        saving = is_manager(interaction) and self.game_id != PRESET  # "Save for this server" is on lobbies' panels
        page = page_of(kind, self.index, saving=saving)
        if self.game_id == PRESET:
            guild_id = guild_id_of(interaction)
            try:
                preset = await bot.service.set_preset_rule(
                    guild_id, kind.name, rule.setting, value, is_manager=is_manager(interaction)
                )
            except USER_ERRORS:  # the menu shows what was picked: back to the rules as they are, then the reason
                await show_preset_panel(bot, interaction, kind, page)
                raise
            await interaction.edit_original_response(**preset_panel(kind, preset, locale, page))
            return
        record = await component_game(bot, interaction, self.game_id, kind.name)
        try:
            record = await bot.service.set_house_rule(record.id, interaction.user.id, rule.setting, value)
        except USER_ERRORS:
            record = await bot.service.get(record.id)
            if record.status == "lobby":
                await interaction.edit_original_response(**lobby_panel(record, locale, page, saving=saving))
            raise
        await interaction.edit_original_response(**lobby_panel(record, locale, page, saving=saving))
        await redraw_lobby(bot, record)


class HouseRulesPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HOUSE_RULES_PAGE_TEMPLATE):
    """Turns the panel's page, where a kind has more rules than one message holds."""

    def __init__(self, kind: str, game_id: int, page: int, *, label: str = "…", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=component_id(kind, game_id, 0, "hrpage", str(page)),
                disabled=disabled,
                row=MAX_ROWS - 1,
            )
        )
        self.kind, self.game_id, self.page = kind, game_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(kind_named_by(match["kind"]), number(match["game_id"]), number(match["page"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page asked for, with the rules as they are now."""
        bot = bot_of(interaction)
        require_panel(interaction)
        await acknowledge(interaction)
        kind = known_kind(self.kind, interaction)
        locale = private_locale(interaction)
        if self.game_id == PRESET:
            await show_preset_panel(bot, interaction, kind, self.page)
            return
        record = await component_game(bot, interaction, self.game_id, kind.name)
        await interaction.edit_original_response(
            **lobby_panel(record, locale, self.page, saving=is_manager(interaction))
        )


class HouseRulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HOUSE_RULES_TEMPLATE):
    """The lobby's "House rules…" (opens the host's panel), and the panel's "Save for this server" (managers)."""

    def __init__(self, kind: str, game_id: int, action: str, *, locale: str = SOURCE_LOCALE, row: int = 0) -> None:
        words = "lobby.button.house-rules" if action == HOUSE_RULES_ACTION else "house-rules.button.save"
        super().__init__(
            discord.ui.Button(
                label=say(locale, words),
                style=discord.ButtonStyle.secondary if action == HOUSE_RULES_ACTION else discord.ButtonStyle.primary,
                custom_id=component_id(kind, game_id, 0, action),
                row=row,
            )
        )
        self.kind, self.game_id, self.action = kind, game_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(kind_named_by(match["kind"]), number(match["game_id"]), match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the host's panel (anyone else is told why not), or keep the lobby's rules as the server's usual."""
        locale = private_locale(interaction)
        if self.action == HOUSE_RULES_ACTION:
            _, record = await clicked_game(interaction, self.game_id, self.kind, ephemeral=True)
            if record.status != "lobby":
                raise RefusedError(Message("refused.house-rules-started"))
            if interaction.user.id != record.host_id:
                raise RefusedError(Message("refused.host-only-house-rules"))
            panel = lobby_panel(record, locale, 0, saving=is_manager(interaction))
            await interaction.followup.send(**panel, ephemeral=True)
            return
        require_panel(interaction)
        bot, record = await clicked_game(interaction, self.game_id, self.kind)
        preset = await bot.service.save_lobby_as_preset(
            record.id, guild_id=guild_id_of(interaction), is_manager=is_manager(interaction)
        )
        await interaction.followup.send(saved_words(game_kind(record.kind), preset, locale), ephemeral=True)


def house_rules_button(record: GameRecord, locale: str) -> HouseRulesButton | None:
    """The lobby's "House rules…", where its kind has house rules (`Presenter.lobby_items`)."""
    if not game_kind(record.kind).house_rules:
        return None
    return HouseRulesButton(record.kind, record.id, HOUSE_RULES_ACTION, locale=locale)


def require_panel(interaction: discord.Interaction) -> None:
    """Check that a panel control was clicked on a house rules panel, which is always a private (ephemeral) message.

    Its controls edit the message they are on, so the same custom id planted on a public message (a table, a lobby)
    would turn that message into the panel for everyone.

    Raises:
        RefusedError: the control is on a public message.
    """
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        raise RefusedError(say(private_locale(interaction), "house-rules.not-this-panel"))


def known_kind(name: str, interaction: discord.Interaction) -> GameKind:
    """The kind a control names.

    Raises:
        RefusedError: no kind has its code (a control of a kind the bot no longer hosts).
    """
    try:
        return game_kind(name)
    except KeyError:
        raise RefusedError(say(private_locale(interaction), "lookup.wrong-game")) from None


def panel(
    kind: GameKind, game_id: int, settings: Mapping[str, Any], head: str, locale: str, page: int, *, saving: bool
) -> dict[str, Any]:
    """The panel's text (`head`, then the rules in force) and its page `page` of controls, in `locale`."""
    pages = panel_pages(kind, saving=saving)
    page = min(max(page, 0), len(pages) - 1)
    values = {rule.setting: value for rule, value in kind.rules_in_force(settings)}
    view = unkept_view()
    for row, indexes in enumerate(pages[page]):
        for index in indexes:
            if index == SAVE:
                view.add_item(HouseRulesButton(kind.name, game_id, "hrsave", locale=locale, row=row))
                continue
            rule = kind.house_rules[index]
            current = values.get(rule.setting, rule.default)
            make = HouseRuleControl.toggle if rule.is_on_off else HouseRuleControl.choice
            view.add_item(make(kind, game_id, index, current, locale, row))
    if len(pages) > 1:
        for target, words in ((page - 1, "board.previous"), (page + 1, "board.next")):
            shown = say(locale, words)
            off = not 0 <= target < len(pages)
            view.add_item(HouseRulesPage(kind.name, game_id, target if not off else page, label=shown, disabled=off))
    in_force = house_rules_line(kind.name, settings, locale) or say(locale, "house-rules.main-rules")
    return {"content": f"{head}\n{in_force}", "view": view}


def lobby_panel(record: GameRecord, locale: str, page: int = 0, *, saving: bool = False) -> dict[str, Any]:
    """The host's panel of a lobby, in the host's `locale`; with "Save for this server" for a manager (`saving`)."""
    kind = game_kind(record.kind)
    head = say(locale, "house-rules.panel-lobby", title=game_title(record))
    shown = panel(kind, record.id, record.settings, head, locale, page, saving=saving)
    reason = misfit(kind, record.settings, len(record.seats)) if kind.rules_in_force(record.settings) else None
    if reason is not None:
        shown["content"] += "\n" + say(locale, "lobby.house-rules-misfit", reason=render_message(reason, locale))
    return shown


def preset_panel(kind: GameKind, preset: Mapping[str, Any], locale: str, page: int = 0) -> dict[str, Any]:
    """The managers' panel of the server's usual house rules for `kind`, in the reader's `locale`."""
    head = say(locale, "house-rules.panel-preset", game=kind.title, reset=slash("houserules reset", locale))
    return panel(kind, PRESET, preset, head, locale, page, saving=False)


async def show_preset_panel(bot: GameBot, interaction: discord.Interaction, kind: GameKind, page: int) -> None:
    """Redraw the managers' panel with the server's usual house rules as stored."""
    preset = await bot.service.house_rules_preset(guild_id_of(interaction), kind.name)
    await interaction.edit_original_response(**preset_panel(kind, preset, private_locale(interaction), page))


def saved_words(kind: GameKind, preset: Mapping[str, Any], locale: str) -> str:
    """What a manager is told once the server's usual house rules for `kind` are saved."""
    line = house_rules_line(kind.name, preset, locale)
    if line is None:
        return say(locale, "house-rules.saved-none", game=kind.title)
    return say(locale, "house-rules.saved", game=kind.title, rules=line)


async def redraw_lobby(bot: GameBot, record: GameRecord) -> None:
    """Show the lobby's new rules on its public message (in the server's language); a failure only costs the redraw."""
    try:
        await show_lobby(bot, None, record)
    except discord.HTTPException:
        log.info("the lobby message of game %s could not be redrawn with its house rules", record.id, exc_info=True)


# -- /houserules ----------------------------------------------------------------------------------------------------


def _kind_with_rules(name: str) -> GameKind:
    kind = game_kind(name)
    if not kind.house_rules:
        raise RefusedError(Message("refused.no-house-rules", {"game": kind.title}))
    return kind


def houserules_commands(bot: GameBot) -> list[app_commands.Command[Any, ..., None]]:
    """`/houserules show`, `edit` and `reset`, offering the kinds listed when the bot starts."""
    choices = [app_commands.Choice(name=kind.title, value=kind.name) for kind in registry.GAME_KINDS]

    async def show(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            kind = _kind_with_rules(game.value)
            locale = private_locale(interaction)
            preset = await bot.service.house_rules_preset(guild_id_of(interaction), kind.name)
            sentences = house_rules_sentences(kind.name, preset, locale)
            edit = slash("houserules edit", locale)
            if not sentences:
                text = say(locale, "house-rules.show-none", game=kind.title, edit=edit)
            else:
                listed = "\n".join(f"• {sentence}" for sentence in sentences)
                heading = say(locale, "house-rules.show", game=kind.title)
                hint = say(locale, "house-rules.show-hint", edit=edit, reset=slash("houserules reset", locale))
                text = f"{heading}\n{listed}\n{hint}"
            await interaction.followup.send(clip(text, 2000), ephemeral=True)

    async def edit(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            if not is_manager(interaction):
                raise RefusedError(Message("refused.house-rules-managers-only"))
            kind = _kind_with_rules(game.value)
            preset = await bot.service.house_rules_preset(guild_id_of(interaction), kind.name)
            await interaction.followup.send(**preset_panel(kind, preset, private_locale(interaction)), ephemeral=True)

    async def reset(interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            kind = _kind_with_rules(game.value)
            forgot = await bot.service.reset_preset(
                guild_id_of(interaction), kind.name, is_manager=is_manager(interaction)
            )
            answer = "house-rules.reset" if forgot else "house-rules.reset-none"
            await interaction.followup.send(say(private_locale(interaction), answer, game=kind.title), ephemeral=True)

    described = {
        "show": "See this server's usual house rules for a game, which its new lobbies start from.",
        "edit": "Change this server's usual house rules for a game (Manage Server).",
        "reset": "Go back to the main rules for a game's new lobbies in this server (Manage Server).",
    }
    commands_: list[app_commands.Command[Any, ..., None]] = []
    for name, callback in (("show", show), ("edit", edit), ("reset", reset)):
        chosen = app_commands.choices(game=choices)(app_commands.describe(game="Which game")(callback))
        commands_.append(app_commands.Command(name=name, description=described[name], callback=chosen))
    return commands_


@app_commands.guild_only()
class HouseRulesCog(
    commands.GroupCog,
    group_name="houserules",
    group_description="This server's usual house rules for each game: show, edit or reset them.",
):
    """`/houserules`: the server's usual house rules per game."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        for command in houserules_commands(bot):
            self.app_command.add_command(command)  # type: ignore[union-attr]  # a GroupCog always has its group


async def setup(bot: GameBot) -> None:
    """Register the panel's controls (persistent: a click after a restart still works) and `/houserules`."""
    bot.add_dynamic_items(HouseRuleControl, HouseRulesPage, HouseRulesButton)
    bot.presenter.lobby_items.append(house_rules_button)
    await bot.add_cog(HouseRulesCog(bot))

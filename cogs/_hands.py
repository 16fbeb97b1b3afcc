"""Private hands, for any kind whose players hold cards only they may see (`GameKind.private_hands`).

The kind supplies one function, a seat's panel (content and components drawn from that seat's view only). The
delivery (`cogs._delivery`) keeps each seat's DM panel in line with the game; this module shows the panel on request
as an ephemeral reply (**Show my hand** on the table, `/<kind> hand`, **Refresh**), which works with DMs closed.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord import app_commands

from cogs._errors import acknowledge, guarded, refusals_answered
from cogs._ids import any_kind_template, component_id, kind_named_by, number
from cogs._lookup import bot_of, component_game, my_running_game
from db.records import GameRecord
from engine.kinds import GameKind
from service.errors import RefusedError

if TYPE_CHECKING:
    from cogs._host import GameBot

log = logging.getLogger(__name__)

NOT_A_PLAYER = "You are not playing in this game; everything public is on the table message."
DMS_CLOSED = (
    "<@{user_id}>, I can't send you direct messages, so your cards stay private here: press **Show my hand** on "
    "the table, or use `/{kind} hand`."
)


def as_new_message(panel: dict[str, Any]) -> dict[str, Any]:
    """A panel for a new message: new messages take `files`, edits take `attachments` (which replace the old)."""
    fresh = dict(panel)
    fresh["files"] = fresh.pop("attachments", [])
    return fresh


async def seat_panel(bot: GameBot, record: GameRecord, user_id: int) -> dict[str, Any]:
    """The caller's own panel in this game (its picture drawn off the event loop).

    Raises:
        RefusedError: the caller has no seat in it.
    """
    seat = record.seat_of(user_id)
    if seat is None:
        raise RefusedError(NOT_A_PLAYER)
    return await bot.presenter.hand_panel(record, bot.service.game_of(record), seat)


HAND_TEMPLATE = any_kind_template("(?P<action>hand|refresh)")


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HAND_TEMPLATE):
    """The clicking player's own panel, visible to them only; works with DMs closed.

    **Show my hand** on the table answers with it; **Refresh** on a panel redraws it in place (an ephemeral panel
    cannot be pushed to, so it is redrawn on request).
    """

    LABELS: ClassVar[dict[str, str]] = {"hand": "Show my hand", "refresh": "Refresh"}

    def __init__(self, kind: str, game_id: int, action: str) -> None:
        style = discord.ButtonStyle.primary if action == "hand" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(label=self.LABELS[action], style=style, custom_id=component_id(kind, game_id, 0, action))
        )
        self.kind, self.game_id, self.action = kind, game_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from the custom id."""
        return cls(kind_named_by(match["kind"]), number(match["game_id"]), match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the panel (Show my hand), or redraw the panel in place (Refresh)."""
        bot = bot_of(interaction)
        if self.action == "hand":
            await acknowledge(interaction, ephemeral=True, thinking=True)
        else:
            await acknowledge(interaction)
        record = await component_game(bot, interaction, self.game_id, self.kind)
        panel = await seat_panel(bot, record, interaction.user.id)
        if self.action == "hand":
            await interaction.followup.send(**as_new_message(panel), ephemeral=True)
        else:
            await interaction.edit_original_response(**panel)


def show_hand_button(kind: str, game_id: int) -> HandButton:
    """The table's **Show my hand**."""
    return HandButton(kind, game_id, "hand")


def refresh_button(kind: str, game_id: int) -> HandButton:
    """A panel's **Refresh**."""
    return HandButton(kind, game_id, "refresh")


def hand_command(kind: GameKind) -> app_commands.Command[Any, ..., None]:
    """`/<kind> hand` for any kind with private hands: the caller's own panel, as an ephemeral reply."""

    async def hand(interaction: discord.Interaction) -> None:
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            bot = bot_of(interaction)
            record = await my_running_game(bot, interaction, kind.name)
            panel = as_new_message(await seat_panel(bot, record, interaction.user.id))
            await interaction.followup.send(**panel, ephemeral=True)

    return app_commands.Command(
        name="hand", description="See your hand and your moves (only you see the answer).", callback=hand
    )


HAND_ITEMS = (HandButton,)

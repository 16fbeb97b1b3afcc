"""Private hands, for any kind whose players hold cards only they may see (`GameKind.private_hands`).

The kind supplies one function, a seat's panel (content and components drawn from that seat's view only). The delivery
(`cogs.runtime.delivery`) keeps each seat's DM panel in line with the game; this module shows the panel on request as an
ephemeral reply (**Show my hand** on the table or on a turn ping, `/<kind> hand`, **Refresh**), which works with DMs
closed. A member has one ephemeral panel per game: a new one replaces the one before, and the delivery keeps it current
through the token of the latest interaction on it while that lives (15 minutes). Since an ephemeral message can no
longer be changed once its token lapsed, every ephemeral panel says whose turn it is and when it was
drawn (a Discord relative timestamp, "drawn 3 minutes ago"), so an old one is plainly old.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord import app_commands

from cogs.runtime.errors import acknowledge, guarded, refusals_answered
from cogs.runtime.ids import any_kind_template, component_id, kind_named_by, number
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import bot_of, clicked_game_now, my_running_game
from cogs.runtime.words import name_of
from db.records import GameRecord
from engine.base import AnyGame
from engine.kinds import GameKind
from i18n import SOURCE_LOCALE, say
from service.errors import RefusedError
from service.seats import held_seat

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

AGE_COLOUR = 0x4F545C  # Discord's grey: the stamp is a footnote, not news


def whose_turn(record: GameRecord, game: AnyGame, seat: int, locale: str = SOURCE_LOCALE) -> str:
    """Whose turn it is, as a panel's footnote says it in its reader's `locale`."""
    if record.status == "cancelled":
        return say(locale, "panel.cancelled")
    if record.status != "running" or game.to_move is None:
        return say(locale, "panel.over")
    if game.to_move == seat:
        return say(locale, "panel.your-turn")
    return say(locale, "panel.to-play", player=name_of(record, game.to_move, locale))


def dms_closed(record: GameRecord, user_ids: Sequence[int], locale: str) -> str:
    """The public notice to players whose DMs are closed: where their cards are instead, in the server's `locale`."""
    mentions = say(locale, "join.comma").join(f"<@{user_id}>" for user_id in user_ids)
    return say(
        locale,
        "panel.dms-closed",
        mentions=mentions,
        button=say(locale, "panel.show-hand"),
        command=f"/{record.kind} hand",
    )


def panel_state(panel: dict[str, Any], record: GameRecord, game: AnyGame, seat: int) -> str:
    """What an ephemeral panel shows, in short (its text, its controls and whose turn it is; not its age)."""
    text = str(panel.get("content", ""))
    view = panel.get("view")
    ids = [str(item.to_component_dict()) for item in view.children] if view is not None else []
    parts = [text, whose_turn(record, game, seat), *ids]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def stamped(
    panel: dict[str, Any],
    record: GameRecord,
    game: AnyGame,
    seat: int,
    drawn_at: datetime,
    locale: str = SOURCE_LOCALE,
) -> dict[str, Any]:
    """An ephemeral panel with a footnote: whose turn it is, and when it was drawn ("drawn 3 minutes ago").

    The footnote is in the panel's reader's `locale`.
    The footnote is an embed of its own, so a kind that redraws the panel's text and controls in place keeps it.
    """
    turn = whose_turn(record, game, seat, locale)
    note = discord.Embed(
        description=say(locale, "panel.stamp", turn=turn, when=f"<t:{int(drawn_at.timestamp())}:R>"), colour=AGE_COLOUR
    )
    fresh = dict(panel)
    fresh["embeds"] = [*panel.get("embeds", ()), note]
    return fresh


def left_seat_panel(locale: str) -> dict[str, Any]:
    """The DM panel of a seat its player left, in their `locale`: no cards and no controls, only why.

    A member who left a seat (resigned, removed) sees nothing of it afterwards; their live menu is retired with this.
    """
    return {"content": say(locale, "panel.left-seat"), "view": None, "embeds": [], "attachments": []}


def as_new_message(panel: dict[str, Any]) -> dict[str, Any]:
    """A panel for a new message: new messages take `files`, edits take `attachments` (which replace the old)."""
    fresh = dict(panel)
    fresh["files"] = fresh.pop("attachments", [])
    return fresh


async def seat_panel(
    bot: GameBot, record: GameRecord, user_id: int, locale: str, game: AnyGame | None = None
) -> tuple[dict[str, Any], str]:
    """The caller's own panel in this game as an ephemeral message (stamped), and what it shows in short.

    It is drawn in the caller's `locale`, from `game` (the record's engine, the caller's own) or the record's snapshot.

    Raises:
        RefusedError: the caller has no seat in it.
    """
    game = game if game is not None else bot.service.game_of(record)
    seat = seat_of(record, game, user_id, locale)
    panel = await bot.presenter.hand_panel(record, game, seat, locale)
    return stamped(panel, record, game, seat, bot.clock(), locale), panel_state(panel, record, game, seat)


async def answer_with_panel(
    bot: GameBot, interaction: discord.Interaction, record: GameRecord, game: AnyGame | None = None
) -> None:
    """Answer a (thinking, ephemeral) interaction with the caller's panel, replacing their panel before it."""
    panel, state = await seat_panel(bot, record, interaction.user.id, private_locale(interaction), game)
    sent = await interaction.followup.send(**as_new_message(panel), ephemeral=True, wait=True)
    await bot.delivery.show_panel(record.id, interaction, sent.id, state)


HAND_TEMPLATE = any_kind_template("(?P<action>hand|refresh)")


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HAND_TEMPLATE):
    """The clicking player's own panel, visible to them only; works with DMs closed.

    **Show my hand** (on the table, a turn ping or the closed-DM notice) answers with it and removes the panel before
    it; **Refresh** on a panel redraws it in place, which is also how an old ephemeral panel is brought back to life.
    """

    LABELS: ClassVar[dict[str, str]] = {"hand": "panel.show-hand", "refresh": "panel.refresh"}

    def __init__(self, kind: str, game_id: int, action: str, locale: str = SOURCE_LOCALE) -> None:
        style = discord.ButtonStyle.primary if action == "hand" else discord.ButtonStyle.secondary
        label = say(locale, self.LABELS[action])
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=component_id(kind, game_id, 0, action)))
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
        bot, record, current = await clicked_game_now(
            interaction, self.game_id, self.kind, ephemeral=self.action == "hand"
        )
        if self.action == "hand":
            await answer_with_panel(bot, interaction, record, current)
            return
        if interaction.message is not None and not interaction.message.flags.ephemeral:
            game = current if current is not None else bot.service.game_of(record)
            seat = seat_of(record, game, interaction.user.id, private_locale(interaction))
            panel = await bot.presenter.hand_panel(record, game, seat, private_locale(interaction))
            await interaction.edit_original_response(**panel)  # a DM panel: the delivery keeps it current
            return
        panel, state = await seat_panel(bot, record, interaction.user.id, private_locale(interaction), current)
        await interaction.edit_original_response(**panel)
        if interaction.message is not None:
            await bot.delivery.show_panel(record.id, interaction, interaction.message.id, state)


def seat_of(record: GameRecord, game: AnyGame, user_id: int, locale: str) -> int:
    """The seat the member holds and plays; RefusedError (in the member's `locale`) when they have none.

    A member who left their seat (resigned, removed) is refused too: the record names them until someone takes the
    seat over, but the cards dealt to it afterwards are not theirs to see (`service.seats.held_seat`).
    """
    seat = held_seat(record, game, user_id)
    if seat is not None:
        return seat
    left = record.seat_of(user_id) is not None
    raise RefusedError(say(locale, "panel.left-seat" if left else "panel.not-a-player"))


def show_hand_button(kind: str, game_id: int, locale: str = SOURCE_LOCALE) -> HandButton:
    """The table's **Show my hand**, labelled in `locale` (public: the server's)."""
    return HandButton(kind, game_id, "hand", locale)


def refresh_button(kind: str, game_id: int, locale: str = SOURCE_LOCALE) -> HandButton:
    """A panel's **Refresh**, labelled in the panel's `locale`."""
    return HandButton(kind, game_id, "refresh", locale)


def hand_command(kind: GameKind) -> app_commands.Command[Any, ..., None]:
    """`/<kind> hand` for any kind with private hands: the caller's own panel, as an ephemeral reply."""

    async def hand(interaction: discord.Interaction) -> None:
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            bot = bot_of(interaction)
            record = await my_running_game(bot, interaction, kind.name)
            await answer_with_panel(bot, interaction, record)

    return app_commands.Command(
        name="hand", description="See your hand and your moves (only you see the answer).", callback=hand
    )


HAND_ITEMS = (HandButton,)

"""`/garbage new|draw|jack` and the Garbage table: two buttons a turn, every automatic step narrated.

Garbage has no private cards (G3, G11: face-down spots are hidden from everyone, the owner too), so its
controls sit on the public table message and every click checks that the clicker is the player to move.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from cogs.garbage.rules import GARBAGE_RULES
from cogs.lobby import new_lobby_command
from cogs.runtime.controls import unkept_view
from cogs.runtime.delivery import settle_and_tell
from cogs.runtime.errors import acknowledge, guarded, refusals_answered
from cogs.runtime.ids import component_id, game_template, number
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import clicked_game, engine_as, my_running_game
from cogs.runtime.table import GameUI, TableMessage, seat_heading, turn_headline
from cogs.runtime.text import clip, legible
from cogs.runtime.words import game_title, said
from db.records import GameRecord
from engine.base import AnyGame, Event
from engine.cards import JOKER, KING, Card
from engine.garbage import GarbageGame, GarbageSettings
from engine.garbage.events import AlsoWon, HandWon, LastTurns, LastTurnsOver
from engine.garbage.kind import KIND
from engine.garbage.views import GarbagePublicView, SeatView
from engine.message import Message, Param, seats
from i18n import SOURCE_LOCALE, card_words, counted, say
from service.tables import USER_ERRORS

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

FIELD_LIMIT = 1024
DEFAULT_RULES = GarbageSettings()  # the main rules, without house rules
SOURCE_CHOICES = [
    app_commands.Choice(name="stock", value="draw stock"),
    app_commands.Choice(name="discard pile", value="draw discard"),
]


def spots_text(seat: SeatView, locale: str = SOURCE_LOCALE) -> str:
    """A layout as compact text: `1 A♠ · 2 ? · 3 3♥ …` (screen readers read this better than card art)."""
    return " · ".join(
        f"{spot} {card_words(card, locale) if card is not None else '?'}" for spot, card in enumerate(seat.spots, 1)
    )


def public_table(
    record: GameRecord, view: GarbagePublicView, narration: Sequence[str], locale: str = SOURCE_LOCALE
) -> tuple[str, discord.Embed]:
    """The living table: every layout, the discard top, the stock, whose turn, and the last turn step by step.

    Told in the server's `locale`.
    """
    to_move = None if view.is_over else view.to_move
    headline = turn_headline(record, say(locale, "garbage.table.stage", hand=view.hand_number), to_move, locale)
    top = view.discard_top
    embed = discord.Embed(
        title=say(locale, "garbage.table.title", title=game_title(record), hand=view.hand_number),
        description=(
            say(
                locale,
                "garbage.table.piles",
                top=card_words(top, locale),
                discard=counted(view.discard_size, "card", locale),
                stock=counted(view.stock_size, "card", locale),
            )
            if top
            else say(locale, "garbage.table.piles-empty", stock=counted(view.stock_size, "card", locale))
        ),
    )
    for seat in view.seats:
        heading = seat_heading(record, seat.seat, to_move, resigned=seat.resigned, locale=locale)
        holding = ""
        if seat.pending:
            holding = "\n" + say(locale, "garbage.table.holding", card=card_words(seat.pending, locale))
        spots, won = counted(seat.layout_size, "spot", locale), counted(seat.hands_won, "hand won", locale)
        embed.add_field(name=f"{heading} · {spots} · {won}", value=spots_text(seat, locale) + holding, inline=False)
    if view.finished and view.last_turns:
        # GV4: who filled every spot, and who still plays a last turn before the hand ends.
        who: dict[str, Param] = {"finished": seats(view.finished), "players": seats(view.last_turns)}
        (line,) = said(record, [Message("garbage.table.last-turns", who)], locale)
        embed.description = f"{embed.description}\n{line}"
    if narration:
        last = clip("\n".join(narration), FIELD_LIMIT)
        embed.add_field(name=say(locale, "garbage.table.last-turn"), value=last, inline=False)
    return headline, embed


def no_use(card: Card, seat: SeatView, view: GarbagePublicView | None = None) -> bool:
    """Whether `card` taken by this seat can only go to the discard pile and end the turn (G6d).

    No spot takes it: a court card that is not wild, a rank above the layout's size (G2), a spot that already shows
    its own rank, or a wild card with no face-down spot. A rank whose spot is face down (G6a) or holds a wild card
    (G6b) is of use. Which cards are wild is the house rules' (GV1, GV2), told by the view (Jacks without one).
    """
    wild = view.is_wild if view is not None else DEFAULT_RULES.is_wild
    if wild(card):
        return not seat.face_down_spots
    if card.rank > seat.layout_size:
        return True
    on_spot = seat.spots[card.rank - 1]
    return on_spot is not None and not wild(on_spot)


def table_view(record: GameRecord, game: GarbageGame, locale: str = SOURCE_LOCALE) -> discord.ui.View | None:
    """The turn's buttons: stock and discard, or one button per face-down spot while a Jack waits.

    Labelled in the server's `locale`.
    """
    public = game.public_view()
    if public.is_over or public.to_move is None or record.seats[public.to_move].is_computer:
        return None  # a computer seat plays by itself in a moment: no buttons to press meanwhile
    view = unkept_view()
    seat = public.seats[public.to_move]
    if seat.pending is not None:
        for spot in seat.face_down_spots:
            view.add_item(TurnButton(record.id, record.version, "jack", spot=spot, top=seat.pending, locale=locale))
        return view
    view.add_item(TurnButton(record.id, record.version, "stock", locale=locale))
    top = public.discard_top
    useless = top is not None and no_use(top, seat, public)
    discard = TurnButton(record.id, record.version, "discard", top=top, no_use=useless, locale=locale)
    discard.item.disabled = public.discard_top is None
    view.add_item(discard)
    return view


_WILD_SPOT = {KING: "garbage.table.king-spot", JOKER: "garbage.table.joker-spot"}  # else a Jack's words


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # Any number of digits for the spot: a forged spot (0, 99, past 64 bits) must reach the callback, which refuses it
    # in words, rather than match nothing and leave the click unanswered ("This interaction failed").
    template=game_template("garbage", r"(?P<action>stock|discard|jack)", r"[0-9]+", optional=True),
):
    """Draw from stock, take the discard, or put a wild card on a spot; the version refuses clicks on an old table.

    `top` is the card the button is about: the discard's top, or the wild card being placed (its label says "King"
    or "Joker" where the house rules make it wild, GV1 and GV2).
    """

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        *,
        spot: int | None = None,
        top: Card | None = None,
        no_use: bool = False,
        locale: str = SOURCE_LOCALE,
    ) -> None:
        button: discord.ui.Button[Any]
        if action == "stock":
            label = say(locale, "garbage.table.draw-stock")
            button = discord.ui.Button(label=label, style=discord.ButtonStyle.primary, row=0)
        elif action == "discard":
            if top is None:
                label = say(locale, "garbage.table.take-discard")
            else:
                # Still allowed (G5) when the card has no spot for this player, but then it only ends the turn: say so.
                take = "garbage.table.take-discard-useless" if no_use else "garbage.table.take-discard-card"
                label = legible(say(locale, take, card=card_words(top, locale)))
            # Off on an empty pile; a button rebuilt from a click has no `top` and needs no label or state.
            button = discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=0)
        else:
            label = say(locale, _WILD_SPOT.get(top.rank if top else 0, "garbage.table.jack-spot"), spot=spot)
            button = discord.ui.Button(label=label, style=discord.ButtonStyle.success, row=1 if (spot or 0) <= 5 else 2)
        button.custom_id = component_id("garbage", game_id, version, action, None if spot is None else str(spot))
        super().__init__(button)
        self.game_id, self.version, self.action, self.spot = game_id, version, action, spot

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from the custom id."""
        # Spots start at 1, so a forged spot past 64 bits becomes 0, which names none: the engine refuses it in words.
        spot = number(match["arg"]) if match["arg"] else None
        return cls(number(match["game_id"]), number(match["version"]), match["action"], spot=spot)

    @property
    def move(self) -> str:
        """The engine notation of this button's decision."""
        return {"stock": "draw stock", "discard": "draw discard"}.get(self.action) or f"jack {self.spot}"

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the decision for the clicking player, if it is theirs to make; the table updates through the click."""
        bot, _ = await clicked_game(interaction, self.game_id, "garbage")
        try:
            result = await bot.service.play(self.game_id, interaction.user.id, self.move, version=self.version)
        except USER_ERRORS:
            # A click on a table Discord had not caught up with: bring it up to date through this click.
            await bot.delivery.settle(self.game_id, interaction=interaction)
            raise
        await settle_and_tell(bot, interaction, [result])


class GarbageUI(GameUI):
    """Garbage's Discord side: the public table (every card is face up or face down for all) and a won hand's post."""

    rules = GARBAGE_RULES

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    def render_table(self, record: GameRecord, game: AnyGame, narration: Sequence[str], locale: str) -> TableMessage:
        """The living table with the turn's buttons, in the server's `locale`."""
        garbage = engine_as(game, GarbageGame)
        content, embed = public_table(record, garbage.public_view(), narration, locale)
        return TableMessage(content, embed, table_view(record, garbage, locale))

    def notices(self, record: GameRecord, events: Sequence[Event], locale: str) -> list[str]:
        """A won hand on its own line, so it stands out from the turn-by-turn table.

        With the last turn (GV4): each finisher's line, and the hand's end when the game goes on.
        """
        won = [
            event.message()
            for event in events
            if (isinstance(event, HandWon) and not event.game_won)
            or isinstance(event, LastTurns | AlsoWon)
            or (isinstance(event, LastTurnsOver) and not event.game_winners)
        ]
        return [f"🏆 {line}" for line in said(record, won, locale)]


@app_commands.guild_only()
class GarbageCog(commands.GroupCog, group_name=KIND.name, group_description=KIND.tagline):
    """Garbage's slash commands (the same decisions as the table's buttons, for keyboard users)."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.app_command.add_command(new_lobby_command(KIND))  # type: ignore[union-attr]  # a GroupCog has one

    @app_commands.command(name="draw")
    @app_commands.describe(source="Draw from the stock, or take the top of the discard pile")
    @app_commands.choices(source=SOURCE_CHOICES)
    async def garbage_draw(self, interaction: discord.Interaction, source: app_commands.Choice[str]) -> None:
        """Start your turn: draw from the stock or take the discard."""
        await self._play(interaction, source.value)

    @app_commands.command(name="jack")
    @app_commands.describe(spot="The face-down spot for your Jack (1 = the Ace spot)")
    async def garbage_jack(self, interaction: discord.Interaction, spot: app_commands.Range[int, 1, 10]) -> None:
        """Put the Jack you are holding on one of your face-down spots."""
        await self._play(interaction, f"jack {spot}")

    async def _play(self, interaction: discord.Interaction, move: str) -> None:
        async with refusals_answered(interaction):
            await acknowledge(interaction, ephemeral=True, thinking=True)
            record = await my_running_game(self.bot, interaction, "garbage")
            result = await self.bot.service.play(record.id, interaction.user.id, move)
            locale = private_locale(interaction)
            told = " ".join(said(result.record, result.narration, locale))
            await settle_and_tell(self.bot, interaction, [result], done=say(locale, "panel.done-told", told=told))


async def setup(bot: GameBot) -> None:
    """Add the cog, the Garbage table UI and the table's persistent buttons."""
    bot.presenter.register(KIND.name, GarbageUI(bot))
    bot.add_dynamic_items(TurnButton)
    await bot.add_cog(GarbageCog(bot))

"""`/kasino new|play|hand`, the Kasino table, and private hands by DM with an ephemeral fallback."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs._delivery import settle_and_tell
from cogs._errors import acknowledge, refusals_answered, sentence
from cogs._hands import hand_command, show_hand_button
from cogs._kasino_panel import DYNAMIC_ITEMS, best_first, draw_hand_pictures, kasino_hand_panel
from cogs._kasino_render import public_table, score_table
from cogs._kasino_rules import KASINO_RULES
from cogs._language import private_locale
from cogs._lookup import engine_as, my_running_game
from cogs._table import TableMessage
from cogs._text import QUOTE_LIMIT, clip, legible
from cogs._words import move_words, phrase_words
from cogs.lobby import new_lobby_command
from db.records import GameRecord
from engine.base import AnyGame, Event
from engine.kasino import KasinoGame
from engine.kasino.events import RoundEnded
from engine.kasino.kind import KIND
from engine.message import Message
from i18n import SOURCE_LOCALE
from service.errors import RefusedError
from service.tables import FROZEN

if TYPE_CHECKING:
    from cogs._host import GameBot

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25
CHOICE_LIMIT = 100  # characters of an autocomplete choice's name, and of its value
WHY = "why: "  # starts the value of a suggestion that only explains why there are none
YOUR_TURN_NOW = "It is your turn now: pick a move from the suggestions, or type one."
LONGEST_MOVE_TEXT = 300  # far above any real move (a take of every card on a crowded table is about 150)


class KasinoUI:
    """How the presenter shows Kasino: the public table, and each player's private hand by DM."""

    rules = KASINO_RULES

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    def render_table(self, record: GameRecord, game: AnyGame, narration: Sequence[str]) -> TableMessage:
        """The living table, from the public view only."""
        game = engine_as(game, KasinoGame)
        content, embed = public_table(record, game.public_view(), narration)
        view = discord.ui.View(timeout=None)
        if not game.is_over():
            view.add_item(show_hand_button("kasino", record.id))
        return TableMessage(content, embed, view)

    def notices(self, record: GameRecord, events: Sequence[Event], locale: str) -> list[str]:
        """A scored round's breakdown (K14), posted once (not told from messages yet: English)."""
        names = [seat.name for seat in record.seats]
        return [score_table(names, event.scores, event.round) for event in events if isinstance(event, RoundEnded)]


@app_commands.guild_only()
class KasinoCog(commands.GroupCog, group_name=KIND.name, group_description=KIND.tagline):
    """Kasino's slash commands."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        for command in (new_lobby_command(KIND), hand_command(KIND)):
            self.app_command.add_command(command)  # type: ignore[union-attr]  # a GroupCog has one

    @app_commands.command(name="play")
    @app_commands.describe(move="Your move, e.g. “5♥ take 3♦+A♥” — pick from the suggestions or type it")
    async def kasino_play(self, interaction: discord.Interaction, move: str) -> None:
        """Make your move in your Kasino game."""
        async with refusals_answered(interaction):
            if len(move) > LONGEST_MOVE_TEXT:
                raise RefusedError(
                    f"“{clip(move, QUOTE_LIMIT)}” is not a move: moves are short, like `5♥ take 3♦+A♥` or `Q♠ place`. "
                    "Pick one from the suggestions."
                )
            await acknowledge(interaction, ephemeral=True, thinking=True)
            if move.startswith(WHY):  # a suggestion that only said why there were none: say it again, do nothing
                found = await self._my_turn(interaction)
                raise RefusedError(found if isinstance(found, str) else YOUR_TURN_NOW)
            record = await my_running_game(self.bot, interaction, "kasino")
            result = await self.bot.service.play(record.id, interaction.user.id, move)
            # The table shows the move; "thinking…" still needs an answer, so it is the move's menu words, no more.
            done = done_line(result.events, private_locale(interaction))
            await settle_and_tell(self.bot, interaction, [result], done=done)

    @kasino_play.autocomplete("move")
    async def kasino_play_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The caller's own legal moves in words, best first, filtered by what they typed; else one entry saying why.

        Discord lets any suggestion be picked, so an explanation's value starts with `WHY`, which `/kasino play`
        answers with the same sentence, changing nothing.
        """
        found = await self._my_turn(interaction)
        if isinstance(found, str):
            return [app_commands.Choice(name=clip(found, CHOICE_LIMIT), value=clip(WHY + found, CHOICE_LIMIT))]
        game, seat = found
        typed = typed_cards(current.strip().lower())
        choices = []
        locale = private_locale(interaction)  # suggestions are the caller's alone: their language
        for legal in best_first(game, game.legal_moves(seat)):
            words = move_words(game, legal, locale)
            if typed in str(legal).lower() or typed in words.lower():
                choices.append(app_commands.Choice(name=clip(legible(words), CHOICE_LIMIT), value=str(legal)))
            if len(choices) == AUTOCOMPLETE_LIMIT:
                break
        if not choices:  # they may still send what they typed (a build named by its value, say): the engine decides
            nothing = f"None of your moves matches “{clip(current.strip(), QUOTE_LIMIT)}”; send it to try it as typed"
            return [app_commands.Choice(name=clip(nothing, CHOICE_LIMIT), value=clip(current, CHOICE_LIMIT))]
        return choices

    async def _my_turn(self, interaction: discord.Interaction) -> tuple[KasinoGame, int] | str:
        """The caller's game and seat when it is their turn; else why not, in the words a refusal would use."""
        try:
            record = await my_running_game(self.bot, interaction, "kasino")
        except RefusedError as error:
            return sentence(error, private_locale(interaction))
        if record.status == "frozen":
            return sentence(FROZEN, private_locale(interaction))
        seat = record.seat_of(interaction.user.id)
        game = engine_as(self.bot.service.game_of(record), KasinoGame)
        if seat is None or game.to_move is None:
            return "This game is over."
        if game.to_move != seat:
            return f"It is {record.seats[game.to_move].name}'s turn, not yours."
        return game, seat


def done_line(events: Sequence[Event], locale: str = SOURCE_LOCALE) -> str:
    """What `/kasino play` answers once the move is made: the move's menu words in `locale` ("Done: Place 4♠.")."""
    for event in events:
        phrase = getattr(event, "phrase", None)
        if isinstance(phrase, Message):
            return f"Done: {phrase_words(phrase, locale)}."
    return "Done."


_ASCII_CARD = re.compile(r"\b(10|[2-9akqjt])([shdc])\b")
_SUIT_OF = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def typed_cards(text: str) -> str:
    """Lowercase typed text with ASCII cards as the suggestions write them (`5h` → `5♥`, `td` → `10♦`)."""
    return _ASCII_CARD.sub(lambda match: ("10" if match[1] == "t" else match[1]) + _SUIT_OF[match[2]], text)


async def setup(bot: GameBot) -> None:
    """Add the cog, the Kasino table UI and the panel's persistent components."""
    bot.presenter.uis["kasino"] = KasinoUI(bot)
    bot.presenter.hand_panels["kasino"] = kasino_hand_panel
    bot.presenter.hand_pictures["kasino"] = draw_hand_pictures
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(KasinoCog(bot))

"""`/kasino new|play|hand`, the Kasino table, and private hands by DM with an ephemeral fallback."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kasino.panel import DYNAMIC_ITEMS, best_first, draw_hand_pictures, kasino_hand_panel
from cogs.kasino.render import public_table, score_table
from cogs.kasino.rules import KASINO_RULES
from cogs.lobby import new_lobby_command
from cogs.runtime.controls import unkept_view
from cogs.runtime.delivery import settle_and_tell
from cogs.runtime.errors import acknowledge, refusals_answered, sentence
from cogs.runtime.hands import hand_command, seat_of, show_hand_button
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import engine_as, my_running_game
from cogs.runtime.table import GameUI, TableMessage
from cogs.runtime.text import AUTOCOMPLETE_LIMIT, QUOTE_LIMIT, clip, legible
from cogs.runtime.words import move_words, name_of, phrase_words, said, seat_names
from db.records import GameRecord
from engine.base import AnyGame, Event
from engine.cards import Card
from engine.kasino import KasinoGame
from engine.kasino.events import RoundEnded
from engine.kasino.kind import KIND
from engine.message import Message, Seat, cards
from i18n import SOURCE_LOCALE, card_words, english_ranks, local_ranks, rank_words, say
from i18n.cards import RANK_IDS
from service.errors import RefusedError
from service.tables import FROZEN

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

CHOICE_LIMIT = 100  # characters of an autocomplete choice's name, and of its value
WHY = "why: "  # starts the value of a suggestion that only explains why there are none
LONGEST_MOVE_TEXT = 300  # far above any real move (a take of every card on a crowded table is about 150)


class KasinoUI(GameUI):
    """Kasino's Discord side: the public table, each player's private hand (by DM or ephemeral), the round's scores."""

    rules = KASINO_RULES
    hand_panel = staticmethod(kasino_hand_panel)
    draw_hand_pictures = staticmethod(draw_hand_pictures)

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    def render_table(self, record: GameRecord, game: AnyGame, narration: Sequence[str], locale: str) -> TableMessage:
        """The living table in the server's `locale`, from the public view only."""
        game = engine_as(game, KasinoGame)
        content, embed = public_table(record, game.public_view(), narration, locale)
        view = unkept_view()
        if not game.is_over():
            view.add_item(show_hand_button("kasino", record.id, locale))
        return TableMessage(content, embed, view)

    def notices(self, record: GameRecord, events: Sequence[Event], locale: str) -> list[str]:
        """A scored round's breakdown (K14, as the house rules add it up) in the server's `locale`, posted once."""
        names = seat_names(record, locale)
        settings = KasinoGame.settings_from_dict(record.settings)
        return [
            score_table(names, event.scores, event.round, locale, teams=event.teams, settings=settings)
            for event in events
            if isinstance(event, RoundEnded)
        ]

    def reveals(self, record: GameRecord, events: Sequence[Event], locale: str) -> list[str]:
        """A scored round's capture piles, card by card (K16 reveals them then), for a finished game's history."""
        told = [
            Message("kasino.history.captured", {"player": Seat(seat), "cards": cards(pile)})
            if pile
            else Message("kasino.history.captured-nothing", {"player": Seat(seat)})
            for event in events
            if isinstance(event, RoundEnded)
            for seat, pile in enumerate(event.captured)
        ]
        return list(said(record, told, locale))


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
            locale = private_locale(interaction)
            if len(move) > LONGEST_MOVE_TEXT:
                raise RefusedError(not_a_move(move, locale))
            await acknowledge(interaction, ephemeral=True, thinking=True)
            if move.startswith(WHY):  # a suggestion that only said why there were none: say it again, do nothing
                found = await self._my_turn(interaction)
                raise RefusedError(found if isinstance(found, str) else say(locale, "kasino.table.your-turn-now"))
            record = await my_running_game(self.bot, interaction, "kasino")
            typed = english_ranks(move, private_locale(interaction))  # their letters ("D♠") read as the engine's
            result = await self.bot.service.play(record.id, interaction.user.id, typed)
            # The table shows the move; "thinking…" still needs an answer, so it is the move's menu words, no more.
            done = done_line(result.events, locale)
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
        locale = private_locale(interaction)  # suggestions are the caller's alone: their language
        typed = typed_cards(current.strip().lower(), locale)
        choices = []
        for legal in best_first(game, game.legal_moves(seat)):
            words = move_words(game, legal, locale)
            if typed in typed_cards(str(legal).lower(), locale) or typed in words.lower():
                choices.append(app_commands.Choice(name=clip(legible(words), CHOICE_LIMIT), value=str(legal)))
            if len(choices) == AUTOCOMPLETE_LIMIT:
                break
        if not choices:  # they may still send what they typed (a build named by its value, say): the engine decides
            nothing = say(locale, "kasino.table.no-match", typed=clip(current.strip(), QUOTE_LIMIT))
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
        game = engine_as(self.bot.service.game_of(record), KasinoGame)
        locale = private_locale(interaction)
        try:
            seat = seat_of(record, game, interaction.user.id, locale)  # a member who left the seat has none
        except RefusedError as error:
            return sentence(error, locale)
        if game.to_move is None:
            return say(locale, "table.game-is-over")
        if game.to_move != seat:
            return say(locale, "kasino.table.not-your-turn", player=name_of(record, game.to_move, locale))
        return game, seat


def done_line(events: Sequence[Event], locale: str = SOURCE_LOCALE) -> str:
    """What `/kasino play` answers once the move is made: the move's menu words in `locale` ("Done: Place 4♠.")."""
    for event in events:
        phrase = getattr(event, "phrase", None)
        if isinstance(phrase, Message):
            return say(locale, "panel.done-move", move=phrase_words(phrase, locale))
    return say(locale, "panel.done")


def not_a_move(typed: str, locale: str) -> str:
    """Why text far longer than any move is refused, with two moves as they are typed, in the reader's `locale`."""
    take = f"{card_words(Card.parse('5♥'), locale)} take {card_words(Card.parse('3♦'), locale)}"
    take += f"+{card_words(Card.parse('A♥'), locale)}"
    place = f"{card_words(Card.parse('Q♠'), locale)} place"
    return say(locale, "kasino.table.not-a-move", typed=clip(typed, QUOTE_LIMIT), take=take, place=place)


_SUIT_OF = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


@functools.cache
def _ascii_card(letters: tuple[str, ...]) -> re.Pattern[str]:
    """A lowercase card with an ASCII suit, its rank a number or one of `letters` (the longest first)."""
    ranks = "|".join(["10", "[2-9]", *(re.escape(letter) for letter in sorted(letters, key=len, reverse=True))])
    return re.compile(rf"\b({ranks})([shdc])\b")


def typed_cards(text: str, locale: str = SOURCE_LOCALE) -> str:
    """Lowercase typed text with its cards as the suggestions write them in `locale`: its rank letters, suit symbols.

    A rank typed in English or in the locale's letters reads alike (`qs`, `ds` → `d♠` in Norwegian; `5h` → `5♥`,
    `td` → `10♦` everywhere), so what a player typed compares with a move's words and with its notation written the
    same way. Only cards change: words such as "build" or "take" stay as typed.
    """
    letters = tuple(rank_words(rank, locale).lower() for rank in RANK_IDS)
    return _ascii_card(letters).sub(lambda match: match[1] + _SUIT_OF[match[2]], local_ranks(text, locale).lower())


async def setup(bot: GameBot) -> None:
    """Add the cog, the Kasino table UI and the panel's persistent components."""
    bot.presenter.register(KIND.name, KasinoUI(bot))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(KasinoCog(bot))

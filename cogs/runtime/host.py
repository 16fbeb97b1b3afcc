"""What the cogs need of the bot, as types: discord.py's bot with the game's parts; `bot.py` builds the real one.

Cogs name `GameBot` and never `bot.GameBot`, so no cog imports the module that loads the cogs, and they reach the
presenter and the delivery through the small protocols below rather than through each other's classes. A cog
that adds something to what every table shows (the Rematch button of `cogs.lobby`) registers it with the presenter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

import discord
from discord.ext import commands

from cogs.runtime.budget import RequestBudget
from cogs.runtime.invalid import InvalidRequests
from cogs.runtime.language import Languages
from cogs.runtime.metrics import Metrics
from cogs.runtime.table import GameUI, TableMessage
from db.records import GameRecord
from engine.base import AnyGame
from service.privacy import PrivacyService
from service.tables import MoveResult, TableService


class FinishedItem(Protocol):
    """What a finished game offers beside its result (the lobby's Rematch button), labelled in `locale`."""

    def __call__(self, record: GameRecord, locale: str = ..., /) -> discord.ui.Item[Any]:
        """The item for this finished game, in the server's language (the result line is public)."""
        ...


class LobbyItem(Protocol):
    """What another cog adds to every lobby's controls (the house rules' button), or None where it adds nothing."""

    def __call__(self, record: GameRecord, locale: str, /) -> discord.ui.Item[Any] | None:
        """The item for this lobby, labelled in `locale` (the server's: the lobby message is public)."""
        ...


class TableItem(Protocol):
    """What another cog adds to every running table's controls (Take a seat), or None where it adds nothing."""

    def __call__(self, record: GameRecord, game: AnyGame, locale: str, /) -> discord.ui.Item[Any] | None:
        """The item for this running table, labelled in `locale` (the server's: the table is public)."""
        ...


class Presents(Protocol):
    """The presenter (`cogs.runtime.presenter.Presenter`): draws what Discord shows of a game from the stored game."""

    uis: dict[str, GameUI]
    finished_items: list[FinishedItem]
    lobby_items: list[LobbyItem]
    table_items: list[TableItem]

    def register(self, kind: str, ui: GameUI) -> None:
        """Show games of `kind` through `ui` (its package's `setup` calls this)."""
        ...

    def game_channel(self, record: GameRecord) -> discord.PartialMessageable:
        """Where the game is played: its thread, or the channel when it has none."""
        ...

    def render(
        self, record: GameRecord, game: AnyGame, narration: Sequence[str] | None = None, locale: str = "en"
    ) -> TableMessage:
        """The table message for this version of the game (text only), its narration told in `locale`."""
        ...

    async def render_pictured(self, record: GameRecord, game: AnyGame) -> TableMessage:
        """The table message with its picture, where the server shows pictures."""
        ...

    def finished_view(self, record: GameRecord, locale: str) -> discord.ui.View | None:
        """What a finished game offers beside its result (Rematch) in the server's `locale`, or None."""
        ...

    def remember(self, results: Sequence[MoveResult]) -> None:
        """Keep the narration of moves just saved (the table tells the moves since the player to move last moved)."""
        ...

    async def hand_panel(self, record: GameRecord, game: AnyGame, seat: int, locale: str) -> dict[str, Any]:
        """A seat's private panel in its reader's locale, its picture drawn off the event loop."""
        ...

    def result_line(self, record: GameRecord, game: AnyGame, locale: str = "en") -> str | None:
        """The standings of a finished game in one line, in the server's `locale`."""
        ...

    async def show_frozen(self, record: GameRecord) -> None:
        """Say that a game could not be restored and was stopped."""
        ...


class Delivers(Protocol):
    """The delivery (`cogs.runtime.delivery.Delivery`): brings Discord in line with the stored game."""

    async def settle(
        self, game_id: int, *, interaction: discord.Interaction | None = None, fresh: Sequence[MoveResult] = ()
    ) -> bool:
        """Show the stored game on Discord; True when Discord shows the current version entirely."""
        ...

    async def show_panel(self, game_id: int, interaction: discord.Interaction, message_id: int, state: str) -> None:
        """Note a member's new ephemeral panel of a game (`state`: what it shows); the one before it goes."""
        ...

    async def redraw_table(self, game_id: int) -> None:
        """Draw a game that is over again on its table message, from the stored record."""
        ...


class GameBot(commands.AutoShardedBot):
    """The bot as the cogs see it: the service, presenter, delivery, languages, request budgets and clock.

    Two budgets: requests a second (`budget`) and Discord's refusals in 10 minutes (`invalid_requests`).
    """

    service: TableService
    privacy: PrivacyService
    retention: timedelta
    presenter: Presents
    delivery: Delivers
    languages: Languages
    budget: RequestBudget
    invalid_requests: InvalidRequests
    metrics: Metrics  # the operator's figures (cogs/runtime/metrics.py)
    clock: Callable[[], datetime]

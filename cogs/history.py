"""`/game history` and `/game export`, and the replay: any game of the server, told again from its move log (issue 28).

Every page is private (ephemeral) and in its reader's language, and every turn of a page is an answer to the click
that asked for it (an interaction response or an edit through its token), so paging costs no counted request.

- The history tells the game move by move as its table told it (`service.history`), with the one-off posts of each
  round (the kinds' `GameUI.notices`: a round's scores, a won hand). For a running game that is all: what every
  spectator saw. A finished game adds what the rules reveal once a round is scored, where its kind says so
  (`GameUI.reveals`: Kasino's capture piles, K16).
- The replay draws the table at move N from the public view of the game replayed to N (text, and its picture where
  the server shows pictures), with ◀ ▶ and a menu to jump to a round.
- The export is a text file (`service.export`, `docs/export-format.md`).

Telling a long game is work for the processor (the longest legal games have some 2,000 moves): the replay, the round
posts and the pages' words are made in a worker thread, so other games' interactions do not wait on the event loop.

The pages' custom ids carry the game, the number of moves the history was opened at (so the pages of a running game
stay put while it goes on), and the page or step shown; they are rebuilt after a restart like any other.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Self

import discord
from discord import app_commands

from cogs.runtime.controls import unkept_view
from cogs.runtime.drawing import drawn
from cogs.runtime.errors import acknowledge, guarded, refusals_answered
from cogs.runtime.ids import number
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import bot_of, channel_id_of, game_title, guild_id_of
from cogs.runtime.names import seat_name
from cogs.runtime.recent import Recent
from cogs.runtime.table import PICTURE_NAME
from cogs.runtime.text import CONTENT_LIMIT, clip, legible, legible_embed
from cogs.runtime.words import said, seat_names
from db.records import NO_TIMER, GameRecord, GameStatus
from engine.message import Param
from engine.registry import game_kind
from i18n import SOURCE_LOCALE, counted, join_names, say
from i18n.catalog import load
from render import has_table_picture, render_table
from service.errors import RefusedError
from service.export import export_text
from service.history import GameHistory, Step, load_history

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

HISTORY_PAGE_TEMPLATE = r"hist:(?P<game_id>[0-9]+):(?P<moves>[0-9]+):(?P<page>[0-9]+):(?P<way>prev|next|back)"
REPLAY_STEP_TEMPLATE = (
    r"replay:(?P<game_id>[0-9]+):(?P<moves>[0-9]+):(?P<step>[0-9]+)"
    r":(?P<way>prev|next|open|first|last|roundprev|roundnext)"
)
REPLAY_ARROWS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}
REPLAY_ROUND_TEMPLATE = r"replay:(?P<game_id>[0-9]+):(?P<moves>[0-9]+):round"
SHOWN: tuple[GameStatus, ...] = ("running", "finished", "frozen", "cancelled")  # games that were dealt
DESCRIPTION_BUDGET = 3500  # characters of an embed's description a history page fills (Discord allows 4096)
CHOICES_LIMIT = 25  # choices of an autocomplete, options of a select
CHOICE_NAME_LIMIT = 100
HISTORIES_KEPT = 16  # replayed histories in memory, by (game, moves): a reader pages through one at a time
# What a history page says of its game, by status (a lobby has no history).
NOTES: dict[GameStatus, str] = {
    "running": "history.running-note",
    "finished": "history.finished-note",
    "cancelled": "history.stopped-note",
    "frozen": "history.frozen-note",
    "lobby": "history.stopped-note",
}
# What an export says of its game, by status: its answer, and the closing comment of a file that cannot be replayed.
EXPORT_DONE: dict[GameStatus, str] = {
    "running": "export.done-running",
    "finished": "export.done-finished",
    "cancelled": "export.done-stopped",
    "frozen": "export.done-frozen",
    "lobby": "export.done-stopped",
}
NOT_REPLAYABLE: dict[GameStatus, str] = {
    "running": "export.not-replayable-yet",
    "cancelled": "export.not-replayable-cancelled",
    "frozen": "export.not-replayable-frozen",
    "lobby": "export.not-replayable-cancelled",
}


@dataclass(frozen=True, slots=True)
class Told:
    """A history as pages read it: the replay, and where each round starts (steps after one with one-off posts)."""

    history: GameHistory
    round_starts: tuple[int, ...]  # step numbers, the first 0

    def round_of(self, step: int) -> int:
        """The round (1, 2, …) step `step` belongs to: a round's scoring move is its last."""
        return sum(1 for start in self.round_starts if start <= step)


_histories: Recent[tuple[int, int], Told] = Recent(HISTORIES_KEPT)


async def told_history(bot: GameBot, game_id: int, guild_id: int | None, moves: int | None = None) -> Told:
    """The game's history through `moves` moves (None: all so far), checked to be of this server.

    Raises:
        RefusedError: no such game here, or one that never started.
    """
    kept = None if moves is None else _histories.get((game_id, moves))
    if kept is not None and kept.history.record.guild_id == guild_id:
        return kept
    history = await load_history(bot.service.games, game_id, guild_id=guild_id, moves=moves)
    starts = await asyncio.to_thread(_round_starts, bot, history)
    return _histories.put((game_id, history.moves), Told(history, starts))


def _round_starts(bot: GameBot, history: GameHistory) -> tuple[int, ...]:
    """The steps each round starts at: after each step with one-off posts (a round's scores, a won hand)."""
    record = history.record
    notices = bot.presenter.uis[record.kind].notices
    ends = [step.number for step in history.steps[1:] if notices(record, step.events, SOURCE_LOCALE)]
    return (0, *(end + 1 for end in ends if end < history.moves))


# -- the history's pages ---------------------------------------------------------------------------------------------


def _entries(bot: GameBot, told: Told, locale: str) -> list[tuple[int, str]]:
    """Each step in words, by step number: its narration, then its round's posts (and reveals, once finished)."""
    history = told.history
    record = history.record
    ui = bot.presenter.uis[record.kind]
    entries = []
    for step in history.steps:
        lines = [f"`{step.number}` " + " ".join(said(_as_then(record, step), step.narration, locale))]
        if step.number:
            lines += ui.notices(record, step.events, locale)
            if history.finished:
                lines += ui.reveals(record, step.events, locale)
        entries.append((step.number, clip(legible("\n".join(lines)), DESCRIPTION_BUDGET)))
    return entries


def _pages(entries: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    pages: list[list[tuple[int, str]]] = [[]]
    size = 0
    for entry in entries:
        if pages[-1] and size + len(entry[1]) + 1 > DESCRIPTION_BUDGET:
            pages.append([])
            size = 0
        pages[-1].append(entry)
        size += len(entry[1]) + 1
    return pages


async def history_page(
    bot: GameBot, told: Told, page: int | None, locale: str, *, at_step: int | None = None
) -> dict[str, Any]:
    """One page of the history, as keyword arguments for a message: content, embed, view, no attachment.

    `page` counts from 0; None is the last page for a running game (its latest moves), the first for a finished one,
    or, with `at_step`, the page holding that step.
    """
    history = told.history
    record = history.record
    pages = _pages(await asyncio.to_thread(_entries, bot, told, locale))
    if at_step is not None:
        page = next((index for index, shown in enumerate(pages) if shown[-1][0] >= at_step), len(pages) - 1)
    elif page is None:
        page = 0 if history.finished else len(pages) - 1
    page = max(0, min(page, len(pages) - 1))
    shown = pages[page]
    embed = discord.Embed(title=say(locale, "history.title", title=game_title(record)))
    embed.description = "\n".join(text for _, text in shown)
    embed.set_footer(
        text=say(
            locale,
            "history.footer",
            page=page + 1,
            pages=len(pages),
            first=shown[0][0],
            last=shown[-1][0],
            moves=history.moves,
        )
    )
    note = NOTES[record.status]
    view = unkept_view()
    moves = history.moves
    view.add_item(HistoryPageButton(record.id, moves, page - 1, "prev", disabled=page <= 0))
    view.add_item(HistoryPageButton(record.id, moves, page + 1, "next", disabled=page >= len(pages) - 1))
    view.add_item(ReplayButton(record.id, moves, shown[0][0], "open", label=say(locale, "history.replay")))
    content = say(locale, note, title=game_title(record), moves=counted(history.moves, "move", locale))
    return {"content": content, "embed": embed, "view": view, "attachments": []}


# -- the replay ------------------------------------------------------------------------------------------------------


def kind_says(locale: str, kind: str, message_id: str, /, **params: Param) -> str:
    """`message_id` in the kind's own words where its catalog has them (`<kind>.<id>`), else the shared words.

    Garbage plays hands, not rounds, so its history says so.
    """
    own = f"{kind}.{message_id}"
    return say(locale, own if own in load(SOURCE_LOCALE).entries else message_id, **params)


def _as_then(record: GameRecord, step: Step) -> GameRecord:
    """The record with its seats as they were held at `step` (a seat may have changed hands since)."""
    return replace(record, seats=step.seats) if step.seats else record


async def replay_page(bot: GameBot, told: Told, step_number: int, locale: str) -> dict[str, Any]:
    """The table after step `step_number` (0: the deal), as keyword arguments for a message.

    Drawn from the public view alone, with ◀ ▶, the round menu and the way back to the history.
    """
    history = told.history
    record = history.record
    step = history.step(step_number)
    game = step.game
    over = game.is_over()
    status: GameStatus = "finished" if over else "running"
    as_then = replace(_as_then(record, step), status=status, timer=NO_TIMER, narration=step.narration)
    table = bot.presenter.render(as_then, game, said(as_then, step.narration, locale), locale)
    embed = legible_embed(table.embed)
    files: list[discord.File] = []
    if has_table_picture(game_kind(record.kind)) and await bot.service.server_settings.pictures_on(record.guild_id):
        rendered = await drawn(render_table, game.public_view(), seat_names(as_then, locale), locale)
        alt = say(locale, "history.picture-alt", title=game_title(record), step=step.number)
        files.append(discord.File(io.BytesIO(rendered.png), filename=PICTURE_NAME, description=alt))
        embed.set_image(url=f"attachment://{PICTURE_NAME}")
    headline = kind_says(
        locale,
        record.kind,
        "history.replay-headline",
        title=game_title(record),
        step=step.number,
        moves=history.moves,
        round=told.round_of(step.number),
    )
    content = clip(f"{headline}\n{table.content}", CONTENT_LIMIT)
    moves, at = history.moves, step.number
    view = unkept_view()
    # The start, a step back, a step on, the end (the last move); then a whole round either way: a game is dozens
    # of moves, too many to step through one tap at a time.
    view.add_item(ReplayButton(record.id, moves, 0, "first", disabled=at <= 0))
    view.add_item(ReplayButton(record.id, moves, at - 1, "prev", disabled=at <= 0))
    view.add_item(ReplayButton(record.id, moves, at + 1, "next", disabled=at >= moves))
    view.add_item(ReplayButton(record.id, moves, moves, "last", disabled=at >= moves))
    back = say(locale, "history.back")
    view.add_item(HistoryPageButton(record.id, moves, at, "back", label=back))
    if len(told.round_starts) > 1:
        earlier = [start for start in told.round_starts if start < at]
        later = [start for start in told.round_starts if start > at]
        round_back, round_on = say(locale, "history.round-back"), say(locale, "history.round-on")
        view.add_item(
            ReplayButton(record.id, moves, earlier[-1] if earlier else 0, "roundprev", label=round_back,
                         disabled=not earlier)
        )  # fmt: skip
        view.add_item(
            ReplayButton(record.id, moves, later[0] if later else moves, "roundnext", label=round_on,
                         disabled=not later)
        )  # fmt: skip
        view.add_item(RoundPick.offering(told, at, locale))
    return {"content": content, "embed": embed, "view": view, "attachments": files}


# -- the components --------------------------------------------------------------------------------------------------


async def _show(interaction: discord.Interaction, game_id: int, moves: int) -> Told:
    """Acknowledge the click (its message is edited in place), and the history it pages through."""
    bot = bot_of(interaction)
    await acknowledge(interaction)
    return await told_history(bot, game_id, interaction.guild_id, moves)


class HistoryPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HISTORY_PAGE_TEMPLATE):
    """◀ ▶ on a history page, or "History" on a replay (`back`: the page holding the step `page`)."""

    def __init__(
        self, game_id: int, moves: int, page: int, way: str, *, label: str | None = None, disabled: bool = False
    ) -> None:
        page = max(page, 0)
        shown = label or ("◀" if way == "prev" else "▶")
        custom_id = f"hist:{game_id}:{moves}:{page}:{way}"
        super().__init__(discord.ui.Button(label=shown, disabled=disabled, custom_id=custom_id))
        self.game_id, self.moves, self.page, self.way = game_id, moves, page, way

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(number(match["game_id"]), number(match["moves"]), number(match["page"]), match["way"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page (or, from a replay, the page holding its step), editing the message in place."""
        told = await _show(interaction, self.game_id, self.moves)
        locale = private_locale(interaction)
        bot = bot_of(interaction)
        if self.way == "back":
            page = await history_page(bot, told, None, locale, at_step=self.page)
        else:
            page = await history_page(bot, told, self.page, locale)
        await interaction.edit_original_response(**page)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REPLAY_STEP_TEMPLATE):
    """◀ ▶ on a replay, or "Replay" on a history page (`open`): shows the table after step `step`."""

    def __init__(
        self, game_id: int, moves: int, step: int, way: str, *, label: str | None = None, disabled: bool = False
    ) -> None:
        step = max(step, 0)
        shown = label or REPLAY_ARROWS.get(way, "▶")
        custom_id = f"replay:{game_id}:{moves}:{step}:{way}"
        super().__init__(discord.ui.Button(label=shown, disabled=disabled, custom_id=custom_id))
        self.game_id, self.moves, self.step, self.way = game_id, moves, step, way

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(number(match["game_id"]), number(match["moves"]), number(match["step"]), match["way"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the table after the step, editing the message in place."""
        told = await _show(interaction, self.game_id, self.moves)
        page = await replay_page(bot_of(interaction), told, self.step, private_locale(interaction))
        await interaction.edit_original_response(**page)


class RoundPick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=REPLAY_ROUND_TEMPLATE):
    """The replay's "Jump to round" menu: each option is the step a round starts at."""

    def __init__(self, game_id: int, moves: int, select: discord.ui.Select[Any] | None = None) -> None:
        custom_id = f"replay:{game_id}:{moves}:round"
        super().__init__(select or discord.ui.Select(custom_id=custom_id))
        self.game_id, self.moves = game_id, moves

    @classmethod
    def offering(cls, told: Told, step: int, locale: str) -> RoundPick:
        """The menu of the history's rounds (at most 25, around the round of `step`), in `locale`."""
        record = told.history.record
        starts = told.round_starts
        current = told.round_of(step)
        first = max(0, min(current - 1 - CHOICES_LIMIT // 2, len(starts) - CHOICES_LIMIT))
        options = [
            discord.SelectOption(
                label=clip(
                    kind_says(locale, record.kind, "history.round-option", round=index + 1, step=start),
                    CHOICE_NAME_LIMIT,
                ),
                value=str(start),
                default=index + 1 == current,
            )
            for index, start in list(enumerate(starts))[first : first + CHOICES_LIMIT]
        ]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"replay:{record.id}:{told.history.moves}:round",
            placeholder=kind_says(locale, record.kind, "history.jump-to-round"),
            options=options,
        )
        return cls(record.id, told.history.moves, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the menu from its custom id, keeping the chosen value."""
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(number(match["game_id"]), number(match["moves"]), select)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the table at the chosen round's start, editing the message in place."""
        told = await _show(interaction, self.game_id, self.moves)
        step = number(self.item.values[0]) if self.item.values else 0
        page = await replay_page(bot_of(interaction), told, step, private_locale(interaction))
        await interaction.edit_original_response(**page)


HISTORY_ITEMS = (HistoryPageButton, ReplayButton, RoundPick)


# -- the commands ----------------------------------------------------------------------------------------------------


async def game_to_tell(bot: GameBot, interaction: discord.Interaction, game_id: int | None) -> int:
    """The game a history or an export is about: the one numbered, else the one played here (its thread first).

    Raises:
        RefusedError: none here, or a lobby.
    """
    locale = private_locale(interaction)
    guild_id_of(interaction)
    if game_id is not None:
        return game_id
    channel_id = channel_id_of(interaction)
    here = await bot.service.games_in_channel(channel_id, statuses=SHOWN)
    ours = [record for record in here if record.thread_id == channel_id] or [
        record for record in here if record.thread_id is None or record.status == "running"
    ]
    if not ours:
        raise RefusedError(say(locale, "lookup.no-game-here"))
    return max(ours, key=lambda record: (record.status == "running", record.id)).id


@app_commands.command(name="history")
@app_commands.describe(game="Which game (pick from the list; in a game's thread: that game)")
async def history_command(interaction: discord.Interaction, game: int | None = None) -> None:
    """A game of this server move by move, with a replay of its table (only you see it)."""
    async with refusals_answered(interaction):
        await acknowledge(interaction, ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        told = await told_history(bot, await game_to_tell(bot, interaction, game), interaction.guild_id)
        page = await history_page(bot, told, None, private_locale(interaction))
        del page["attachments"]
        await interaction.followup.send(**page, ephemeral=True)


@app_commands.command(name="export")
@app_commands.describe(game="Which game (pick from the list; in a game's thread: that game)")
async def export_command(interaction: discord.Interaction, game: int | None = None) -> None:
    """A game of this server as a text file (tags and moves, like PGN)."""
    async with refusals_answered(interaction):
        await acknowledge(interaction, ephemeral=True, thinking=True)
        bot = bot_of(interaction)
        locale = private_locale(interaction)
        told = await told_history(bot, await game_to_tell(bot, interaction, game), interaction.guild_id)
        history = told.history
        record = history.record
        unreplayable = NOT_REPLAYABLE.get(record.status)
        closing = [say(locale, unreplayable, moves=history.moves)] if unreplayable else []
        text = await asyncio.to_thread(_export, bot, history, closing, locale)
        name = f"{record.kind}-{record.id}.txt"
        described = say(locale, "export.file-description", title=game_title(record))
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=name, description=described)
        moves = counted(history.moves, "move", locale)
        done = say(locale, EXPORT_DONE[record.status], title=game_title(record), moves=moves)
        await interaction.followup.send(done, file=file, ephemeral=True)


def _export(bot: GameBot, history: GameHistory, closing: Sequence[str], locale: str) -> str:
    """The export's text, with each round's posts as comments in `locale`."""
    record = history.record
    notices = bot.presenter.uis[record.kind].notices
    comments = {
        step.number: [text.replace("**", "") for text in notices(record, step.events, locale)]
        for step in history.steps[1:]
    }
    return export_text(history, comments, closing)


@history_command.autocomplete("game")
@export_command.autocomplete("game")
async def dealt_game_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The server's running and finished games by name: this channel's first, then the newest."""
    if interaction.guild_id is None:
        return []
    bot = bot_of(interaction)
    records = await bot.service.games_in_guild(interaction.guild_id, statuses=("running", "finished"))
    locale = private_locale(interaction)
    typed = current.strip().lower().lstrip("#")

    def order(record: GameRecord) -> tuple[bool, int]:
        return (interaction.channel_id not in (record.channel_id, record.thread_id), -record.id)

    choices = []
    for record in sorted(records, key=order):
        label = game_label(record, locale)
        if typed in label.lower():
            choices.append(app_commands.Choice(name=clip(label, CHOICE_NAME_LIMIT), value=record.id))
        if len(choices) >= CHOICES_LIMIT:
            break
    return choices


def game_label(record: GameRecord, locale: str = SOURCE_LOCALE) -> str:
    """A dealt game as the menu names it: "Kasino #3 — alice and bob (finished)"."""
    players = join_names([seat_name(seat, locale) for seat in record.seats], locale)
    told = "history.label-finished" if record.status == "finished" else "history.label-running"
    return say(locale, told, title=game_title(record), players=players)


HISTORY_COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (history_command, export_command)

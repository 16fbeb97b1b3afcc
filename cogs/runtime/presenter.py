"""The public face of a game, drawn from the stored game: the living table message and the result line.

Everything drawn here comes from the engine's public view (through the kind's `GameUI`) and the stored record;
a player's private view never passes through this module. `cogs.runtime.delivery` puts it on Discord.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from cogs.runtime.controls import unkept_view
from cogs.runtime.drawing import drawn
from cogs.runtime.house_rules import house_rules_line
from cogs.runtime.recent import Recent
from cogs.runtime.table import PICTURE_NAME, GameUI, TableMessage
from cogs.runtime.text import legible, legible_embed
from cogs.runtime.timing import deadline_line
from cogs.runtime.words import game_title, said, seat_names
from db.records import GameRecord
from engine.base import AnyGame
from engine.message import Joined, Message, Seat
from engine.registry import game_kind
from i18n import SOURCE_LOCALE, render_param, say
from render import has_table_picture, render_table
from service.tables import MoveResult, narrate

if TYPE_CHECKING:
    from cogs.runtime.host import FinishedItem, GameBot, LobbyItem, TableItem

log = logging.getLogger(__name__)

# Rendered tables kept in memory, newest first. A version is drawn again only when its showing is retried (a
# failed call, after 5 s or more) or repeated; at most a few are, so a few dozen suffice, and 256 (20-30 KB each)
# filled 5-8 MB with the pictures of games the start-up catch-up had shown and would not show again.
PICTURES_KEPT = 32
# Moves' narrations, by game and move number: a few dozen a game in play (about 1 KB each). A miss costs one replay
# of the game's log; 4096 held 4 MB, filled within seconds by the start-up catch-up's replays of games it would not
# show again.
NARRATIONS_KEPT = 2048
RECENT_MOVES = 24  # at most this many moves are told on the table (one full turn of the largest tables, and more)
FIELD_LIMIT = 1024  # characters in an embed field's value


Told = tuple[int, tuple[Message, ...], bool]  # a move's seat, its narration, and whether it ended a round


def fitted(lines: Sequence[str], limit: int = FIELD_LIMIT) -> tuple[str, ...]:
    """`lines` that fit an embed field (joined by newlines, suits made legible), the oldest dropped first for "…"."""
    kept, cut = list(lines), False
    while len(kept) > 1 and len(legible("\n".join((["…"] if cut else []) + kept))) > limit:
        kept.pop(0)
        cut = True
    return tuple((["…"] if cut else []) + kept)  # a single line longer than a field: the kind's table clips it


class Presenter:
    """Draws what Discord shows of a game, from the stored game alone (`cogs.runtime.delivery` puts it on Discord)."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.uis: dict[str, GameUI] = {}  # each kind's Discord side, by kind name (`register`)
        # What a finished game's table offers (the lobby's Rematch button), registered by the cog that handles it.
        self.finished_items: list[FinishedItem] = []
        self.lobby_items: list[LobbyItem] = []  # what other cogs add to each lobby's controls (house rules)
        self.table_items: list[TableItem] = []  # what other cogs add to each running table's controls (Take a seat)
        self._pictures: Recent[tuple[int, int, str], bytes] = Recent(PICTURES_KEPT)
        # (game id, move number) → the seat that moved, the move in words, and whether it ended a round (it had
        # one-off posts); what is missing is told again by a replay.
        self._narrations: Recent[tuple[int, int], Told] = Recent(NARRATIONS_KEPT)

    def register(self, kind: str, ui: GameUI) -> None:
        """Show games of `kind` through `ui` (its package's `setup` calls this)."""
        self.uis[kind] = ui

    def game_channel(self, record: GameRecord) -> discord.PartialMessageable:
        """Where the game is played: its thread, or the channel when it has none."""
        return self.bot.get_partial_messageable(record.thread_id or record.channel_id, guild_id=record.guild_id)

    def render(
        self, record: GameRecord, game: AnyGame, narration: Sequence[str] | None = None, locale: str = SOURCE_LOCALE
    ) -> TableMessage:
        """The table message for this version of the game (`narration`: the moves to tell, else the last one).

        `locale` is the server's (`GameBot.languages.public`): the narration is told in it.

        A finished table offers nothing: what comes next (Rematch) is offered beside the result (`finished_view`).
        """
        if record.status == "cancelled":
            cancelled = say(locale, "table.cancelled", title=game_title(record))
            return TableMessage(cancelled, self._last_table(record, game, locale))
        told = tuple(narration or ()) or said(record, record.narration or (Message("shared.game-on"),), locale)
        table = self.uis[record.kind].render_table(record, game, told, locale)
        view = None if record.status == "finished" else table.view
        if record.status == "running":
            for add in self.table_items:
                item = add(record, game, locale)
                if item is not None:
                    view = view or unkept_view()
                    view.add_item(item)
        house_rules = house_rules_line(record.kind, record.settings, locale)
        rules = f"\n{house_rules}" if house_rules else ""  # the house rules in force, every kind alike (issue 26)
        content = legible(table.content + rules + deadline_line(record, locale))
        return TableMessage(content, legible_embed(table.embed), view)

    def finished_view(self, record: GameRecord, locale: str) -> discord.ui.View | None:
        """What a finished game offers beside its result line (Rematch) in the server's `locale`, or None."""
        if not self.finished_items:
            return None
        view = unkept_view()
        for item in self.finished_items:
            view.add_item(item(record, locale))
        return view

    def remember(self, results: Sequence[MoveResult]) -> None:
        """Keep the narration of moves just saved, as stored, for the table's account of the recent moves."""
        for result in results:
            ended = bool(self.uis[result.record.kind].notices(result.record, result.events, SOURCE_LOCALE))
            self._narrations.put((result.record.id, result.record.move_count), (result.seat, result.narration, ended))

    async def recent_narration(self, record: GameRecord, game: AnyGame, locale: str = SOURCE_LOCALE) -> tuple[str, ...]:
        """Every move since the player to move's turn before this one, in this round, oldest first, within a field.

        A move that ended a round (one with one-off posts, such as the round's scores) closes the account: the cards
        it names may be in new hands now. The oldest moves are cut first when they do not fit.

        The latest move is told as stored; earlier ones as they were told when made, or, after a restart, as a replay
        of the move log tells them (the same events; a move the bot made for someone says so). A player's several
        decisions in a row whose stored narrations repeat the ones before (an automatic turn) are told once.
        """
        if record.move_count == 0 or record.status != "running" or game.to_move is None:
            return said(record, record.narration, locale)
        moves: list[tuple[int, tuple[Message, ...]]] = []
        replayed: dict[int, Told] | None = None
        # The latest moves may be the player to move's own: their turn so far (a Garbage Jack waiting for its spot),
        # which is told too. Their turn before that ends the account.
        their_turn_so_far = True
        for seq in range(record.move_count, max(0, record.move_count - RECENT_MOVES), -1):
            told = self._narrations.get((record.id, seq))
            if told is None:
                if replayed is None:
                    replayed = await self._replay(record, record.move_count - RECENT_MOVES)
                told = replayed.get(seq)
                if told is None:
                    break
            seat, lines, ended = told
            if seq == record.move_count:
                lines = record.narration or lines
            elif ended or (seat == game.to_move and not their_turn_so_far):
                break
            their_turn_so_far = their_turn_so_far and seat == game.to_move
            moves.append((seat, lines))
        moves.reverse()
        kept: list[tuple[int, tuple[Message, ...]]] = []
        for seat, lines in moves:
            if kept and kept[-1][0] == seat and lines[: len(kept[-1][1])] == kept[-1][1]:
                kept.pop()  # this narration repeats the one before: keep the longer
            kept.append((seat, lines))
        return fitted(list(said(record, [line for _, lines in kept for line in lines], locale)))

    async def _replay(self, record: GameRecord, after: int) -> dict[int, Told]:
        try:
            logged = await self.bot.service.store.game_moves(record.id)
            events = dict(await self.bot.service.events_after(record, max(0, after)))
        except Exception:  # the table then tells the last move alone
            log.exception("game #%d: its recent moves could not be told again", record.id)
            return {}
        told: dict[int, Told] = {}
        notices = self.uis[record.kind].notices
        for move in logged:
            if move.seq not in events:
                continue
            lead = (Message("shared.bot-played-short", {"player": Seat(move.seat)}),) if move.auto else ()
            told[move.seq] = (
                move.seat,
                narrate(events[move.seq], lead),
                bool(notices(record, events[move.seq], SOURCE_LOCALE)),
            )
            self._narrations.put((record.id, move.seq), told[move.seq])
        return told

    def _last_table(self, record: GameRecord, game: AnyGame, locale: str) -> discord.Embed:
        # The game as it stood (the kinds mark no turn once it is over).
        told = said(record, record.narration, locale)
        return legible_embed(self.uis[record.kind].render_table(record, game, told, locale).embed)

    async def hand_panel(self, record: GameRecord, game: AnyGame, seat: int, locale: str) -> dict[str, Any]:
        """A seat's private panel in its reader's locale, its picture drawn off the event loop."""
        await self.draw_hands(record, game, ((seat, locale),))
        return self.uis[record.kind].hand_panel(record, game, seat, locale)

    async def draw_hands(self, record: GameRecord, game: AnyGame, readers: Iterable[tuple[int, str]]) -> None:
        """Draw off the event loop the hand pictures of these (seat, locale) panels (kept for the panels to use)."""
        await self.uis[record.kind].draw_hand_pictures(record, game, readers)

    async def render_pictured(self, record: GameRecord, game: AnyGame) -> TableMessage:
        """The table message, with its picture unless the server turned pictures off (or the game was cancelled).

        The hand pictures of the panels the delivery shows next (seated players with open DMs) are drawn here too,
        off the event loop like the table's.
        """
        dm_readers = [
            (seat.seat, await self.bot.languages.of_user(seat.user_id, record.guild_id))
            for seat in record.seats
            if seat.user_id is not None and seat.dm_ok
        ]
        await self.draw_hands(record, game, dm_readers)
        locale = await self.bot.languages.public(record.guild_id)
        table = self.render(record, game, await self.recent_narration(record, game, locale), locale)
        if record.status == "cancelled" or not await self.bot.service.server_settings.pictures_on(record.guild_id):
            return table
        picture = await self._picture(record, game, locale)
        if picture is None:
            return table
        embed = table.embed.copy()
        embed.set_image(url=f"attachment://{PICTURE_NAME}")
        return replace(table, embed=embed, picture=picture, locale=locale)

    async def _picture(self, record: GameRecord, game: AnyGame, locale: str) -> bytes | None:
        # Drawn once per game version (a version never changes), off the event loop: a render takes 10-30 ms.
        key = (record.id, record.version, locale)  # a server may change its language between two versions
        if (kept := self._pictures.get(key)) is not None:
            return kept
        if not has_table_picture(game_kind(record.kind)):
            return None  # a kind may show its table as text only
        try:
            rendered = await drawn(render_table, game.public_view(), seat_names(record, locale), locale)
        except Exception:
            log.exception("could not draw the table of game %s; showing it as text", record.id)
            return None
        return self._pictures.put(key, rendered.png)

    def result_line(self, record: GameRecord, game: AnyGame, locale: str = SOURCE_LOCALE) -> str | None:
        """The standings of a finished game in one line, in the server's `locale`."""
        outcome = game.outcome()
        if outcome is None:
            return None
        unit = game_kind(record.kind).score_unit
        # Partners (`Outcome.teams`, read leniently: kinds without teams have none) are one entry: their names and the
        # team's place and score ("1. Kari & Nora: 16 points"); anyone else is an entry of their own.
        teams: tuple[tuple[int, ...], ...] = getattr(outcome, "teams", None) or ()
        entries = [tuple(team) for team in teams if team]
        entries += [(seat,) for seat in range(len(record.seats)) if not any(seat in team for team in entries)]
        entries.sort(key=lambda entry: (min(outcome.places[seat] for seat in entry), entry))
        names = seat_names(record, locale)
        standings = [
            say(
                locale,
                "result.place",
                place=min(outcome.places[seat] for seat in entry),
                player=render_param(Joined(tuple(names[seat] for seat in entry), "join.ampersand"), locale),
                score=say(locale, unit, n=outcome.scores[entry[0]]),
            )
            for entry in entries
        ]
        return say(locale, "result.over", title=game_title(record), standings=Joined(tuple(standings), "join.comma"))

    async def show_frozen(self, record: GameRecord) -> None:
        """Say where the game is played that it could not be restored and was stopped; take its buttons away."""
        locale = await self.bot.languages.public(record.guild_id)
        text = say(locale, "table.frozen", title=game_title(record))
        place = self.game_channel(record)
        try:
            if record.table_message_id is not None:
                await place.get_partial_message(record.table_message_id).edit(view=None)
            await place.send(text)
        except discord.HTTPException:
            log.warning("could not tell the players that game %s was stopped", record.id, exc_info=True)

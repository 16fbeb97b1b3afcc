"""Discord as a projection of the stored game: bring what the bot shows in line with what SQLite holds.

For a game at a given version, what Discord should show follows from the stored record alone: the one-off posts of
each move (a round's scores, a won hand, the result), the living table, the turn ping, every seated player's
private panel, and no stale turn warning. `Delivery.settle` compares that with what the record says is on Discord
(message ids, whom the ping notifies, a digest per panel) and makes only the calls that differ; running it twice
changes nothing. A move raises the game's version in the statement that saves it, so "shown_version < version" is
the work still owed to Discord, and it survives a crash: start-up settles every such game (`cogs.runtime.catch_up`).

Requests are spent where they are free: an edit of the message that was clicked goes through the interaction, and
so does a ping posted in the channel of a click (the mover's, or the pinged player's own latest one), and so does
every edit of a member's ephemeral panel (through the token of the latest interaction on it, while it lives). A failed
Discord call never changes the game and is retried with backoff; the player is told their move counted and that
the table will catch up. Only a deleted channel (Unknown Channel) moves or ends a game: missing access or
permissions (a moderator editing the channel, an outage) is a passing condition, retried one request per step,
and after half an hour of it the game waits for its next action and its host is told privately.

An edit refused for good (`must_repost`: Unknown Message, or 30046, the cap on edits of messages older than an hour
that a table living for a day meets) is answered by posting the message anew, its id stored, the old one deleted or
pointed at the new one (`retire`): once per refusal, never in a loop. A table is not rolled over before Discord
refuses: that would cost a post and a delete (2 counted requests) every 50 minutes of every living table, while the
refusal costs the same 2 only when it comes (`python -m bench.bench_edit_cap`). An ephemeral panel whose edit failed
stays kept and is edited again at the game's retry, while its token lives.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
import weakref
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import discord

from cogs.runtime.backoff import retry_delay
from cogs.runtime.controls import unkept_view
from cogs.runtime.hands import as_new_message, dms_closed, left_seat_panel, panel_state, show_hand_button, stamped
from cogs.runtime.language import private_locale
from cogs.runtime.recent import Recent
from cogs.runtime.table import TableMessage
from cogs.runtime.text import jump_link, legible
from cogs.runtime.words import game_title
from db.records import GameRecord, SeatRecord
from engine.base import AnyGame, Event
from engine.registry import game_kind
from i18n import say
from service.errors import RefusedError
from service.seats import held_seat, vacated
from service.tables import USER_ERRORS, MoveResult

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=2)  # long enough for one delivery, short enough that a crashed worker's lease lapses
FOLLOWUP_LIFETIME = timedelta(minutes=14)  # an interaction's token works for 15 minutes
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
EDIT_CAP = 30046  # "Maximum number of edits to messages older than 1 hour reached"
LASTING = (UNKNOWN_MESSAGE, EDIT_CAP)  # an edit refused for good: only a new message can show the change
TOKEN_GONE = (401, 404)  # an ephemeral panel's token lapsed, or its message was dismissed: it cannot change again
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
PASSING = (MISSING_ACCESS, MISSING_PERMISSIONS)  # refusals that end when a moderator or Discord sets things right
PAUSE_AFTER = timedelta(minutes=30)  # of passing refusals in a row: stop retrying until the game's next action
ALONE_QUIET = timedelta(minutes=1)  # a member alone with computers who acted this recently is not pinged
DM_CHANNELS_KEPT = 4096  # players whose DM channel is remembered across games
LATEST_KEPT = 2000  # members' latest clicks kept before the expired ones are dropped
CATCH_UP = "table.catch-up"  # the player's move counted, and the table catches up (a message id)
MOVED = "table.moved"  # the game's thread is gone, so it goes on in the channel (a message id)
PAUSED = "table.paused"  # the host's DM after half an hour without access (a message id)
REPOSTED = "table.reposted"  # what an old message says when it could not be deleted: where it goes on (a message id)


@dataclass(slots=True)
class Via:
    """The interaction that caused the change: free edits of its message, free followups in its channel."""

    interaction: discord.Interaction
    message_used: bool = False

    @property
    def message_id(self) -> int | None:
        """The clicked message, while no edit of this change has used it yet."""
        message = self.interaction.message
        return None if message is None or self.message_used else message.id

    @property
    def can_follow_up(self) -> bool:
        """Whether a followup would be a message of its own (after a "thinking" defer it replaces the answer)."""
        return self.interaction.response.type == discord.InteractionResponseType.deferred_message_update

    async def edit(self, **fields: Any) -> None:
        """Edit the clicked message through the interaction (not counted against the global limit)."""
        self.message_used = True
        await self.interaction.edit_original_response(**fields)


@dataclass(slots=True)
class _Shown:
    """A member's latest ephemeral panel of a game, and the latest interaction whose token can still edit it."""

    interaction: discord.Interaction
    message_id: int
    at: float  # when that interaction arrived (the event loop's clock)
    state: str  # what the panel shows (`cogs.runtime.hands.panel_state`), so an unchanged panel is not edited

    def alive(self, now: float) -> bool:
        """Whether its token still works (with a margin: tokens last 15 minutes)."""
        return now - self.at < FOLLOWUP_LIFETIME.total_seconds()


@dataclass(slots=True)
class _Ping:
    message: discord.WebhookMessage
    sent_at: float


def place_gone(error: discord.HTTPException) -> bool:
    """Whether an error says the channel itself is gone (not just one message, and not only out of reach for now)."""
    return error.code == UNKNOWN_CHANNEL


def must_repost(error: discord.HTTPException) -> bool:
    """Whether an edit was refused for good: the message is gone, or it had all the edits an old message may have.

    Neither passes with time or retries (a retry would be refused again, for ever); posting the message anew is the
    only way to show the change, and the place itself is fine.
    """
    return error.code in LASTING


async def retire(place: discord.PartialMessageable, message_id: int, successor: str) -> None:
    """The message an edit was refused for goes, once: deleted (the bot may delete its own), else pointing on.

    Where deleting is refused, it is edited once to `successor` (a line with a link to the new message), without
    its buttons, so that nobody plays on it; should that be refused too (the edit cap), it stays as it was, and a
    click on it is refused as out of date. Never retried: the new message already shows everything.
    """
    old = place.get_partial_message(message_id)
    try:
        await old.delete()
        return
    except discord.NotFound:
        return
    except discord.HTTPException:
        log.info("message %d could not be deleted; it is pointed at its successor instead", message_id)
    try:
        await old.edit(content=successor, embeds=[], attachments=[], view=None)
    except discord.HTTPException:
        log.info("message %d could not be pointed at its successor either; it stays as it was", message_id)


async def edit_refused(edit: Awaitable[Any]) -> int | None:
    """Make an edit: None when it went through, the code of a lasting refusal (`must_repost`); anything else raises."""
    try:
        await edit
    except discord.HTTPException as error:
        if not must_repost(error):
            raise
        return error.code
    return None


def dm_link(title: str, channel_id: int, message_id: int) -> str:
    """`title` as a Markdown link to a message in a direct-message channel."""
    return f"[{title}](https://discord.com/channels/@me/{channel_id}/{message_id})"


def owes_a_cleanup(record: GameRecord) -> bool:
    """Whether a shown game still has something to take away from Discord.

    A turn warning whose turn was played; once the game is over, the closed-DM notice's button.
    """
    warning_owed = record.warning_message_id is not None and not record.warned
    notice_owed = record.dm_notice_message_id is not None and record.status != "running"
    return warning_owed or notice_owed


def is_passing(error: BaseException | None) -> bool:
    """Whether Discord refused for missing access or permissions: a condition that passes, not a lost place."""
    return isinstance(error, discord.HTTPException) and error.code in PASSING


@dataclass(frozen=True, slots=True)
class _Click:
    """A member's interaction and when it arrived (the event loop's clock)."""

    interaction: discord.Interaction
    at: float

    def can_ping_in(self, channel_id: int, now: float) -> bool:
        """Whether a followup of it would be a new message in `channel_id` (free, and it notifies)."""
        return (
            self.interaction.channel_id == channel_id
            and self.interaction.response.type == discord.InteractionResponseType.deferred_message_update
            and now - self.at < FOLLOWUP_LIFETIME.total_seconds()
        )


def panel_digest(panel: dict[str, Any], turn_version: int | None) -> str:
    """What a private panel shows, in short: a live turn panel carries its version (its menu is stamped with it)."""
    text = str(panel.get("content", ""))
    components = panel.get("view")
    ids = [str(item.to_component_dict()) for item in components.children] if components is not None else []
    digest = hashlib.sha256("\n".join([text, *ids]).encode()).hexdigest()[:24]
    return f"turn:{turn_version}:{digest}" if turn_version is not None else f"wait:{digest}"


def is_turn_panel(digest: str | None) -> bool:
    """Whether a stored panel digest is that of a panel with a live move menu."""
    return digest is not None and digest.startswith("turn:")


class Delivery:
    """Settles each game on Discord; one delivery per game at a time (an in-process lock and a database lease)."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.owner = f"bot-{secrets.token_hex(4)}"
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._failures: dict[int, int] = {}
        self._pings: dict[int, _Ping] = {}
        # User id → DM channel id, so that a new game opens no channel again; the newest players' only (a seat keeps
        # its own in the database), so that catching up on thousands of games does not grow it without end.
        self._dm_channels: Recent[int, int] = Recent(DM_CHANNELS_KEPT)
        self._latest: dict[int, _Click] = {}  # user id → their latest interaction, for free pings
        self._shown: dict[int, dict[int, _Shown]] = {}  # game id → user id → their latest ephemeral panel
        self._panel_games: dict[int, int] = {}  # ephemeral panel's message id → its game id
        self._latest_limit = LATEST_KEPT
        self._blocked_since: dict[int, float] = {}  # game id → when passing refusals began (the loop's clock)
        self._tasks: set[asyncio.Task[None]] = set()
        self._paused: set[int] = set()  # games whose retries stopped after PAUSE_AFTER; their next action resumes
        self._panels_owed: dict[int, discord.HTTPException] = {}  # game id → why an ephemeral panel's edit failed

    async def note_interaction(self, interaction: discord.Interaction) -> None:
        """Remember a member's latest interaction (`on_interaction`): a ping in its channel can be its followup.

        A click on a member's latest ephemeral panel renews the token the panel is kept current through.
        """
        if interaction.guild_id is None:
            return
        now = asyncio.get_running_loop().time()
        message = interaction.message
        if message is not None and (game_id := self._panel_games.get(message.id)) is not None:
            shown = self._shown.get(game_id, {}).get(interaction.user.id)
            if shown is not None and shown.message_id == message.id:
                shown.interaction, shown.at = interaction, now
        self._latest[interaction.user.id] = _Click(interaction, now)
        if len(self._latest) > self._latest_limit:  # now and then, forget the clicks whose followups no longer work
            lifetime = FOLLOWUP_LIFETIME.total_seconds()
            self._latest = {user: click for user, click in self._latest.items() if now - click.at < lifetime}
            self._latest_limit = max(LATEST_KEPT, 2 * len(self._latest))  # so the sweep costs O(1) a click

    async def show_panel(self, game_id: int, interaction: discord.Interaction, message_id: int, state: str) -> None:
        """Note a member's new ephemeral panel of a game, answered through `interaction`; the one before it goes.

        The panel before it is deleted through its own token while that lives (else it stays, showing its age).
        """
        now = asyncio.get_running_loop().time()
        panels = self._shown.setdefault(game_id, {})
        old = panels.get(interaction.user.id)
        panels[interaction.user.id] = _Shown(interaction, message_id, now, state)
        self._panel_games[message_id] = game_id
        if old is None or old.message_id == message_id:
            return
        self._panel_games.pop(old.message_id, None)
        if not old.alive(now):
            return
        try:
            await old.interaction.delete_original_response()
        except discord.HTTPException:
            log.debug("game #%d: the ephemeral panel before could not be removed", game_id)

    # -- entry points -------------------------------------------------------------------------------------------------

    async def settle(
        self,
        game_id: int,
        *,
        interaction: discord.Interaction | None = None,
        fresh: Sequence[MoveResult] = (),
    ) -> bool:
        """Bring Discord in line with the stored game; True when it shows the current version entirely.

        Never raises for a Discord failure: the game is already saved, so a failure is logged and retried later.
        `interaction` is the one that caused the change (its message and channel are used for free); `fresh` holds
        the results just saved, whose events spare a replay of the move log.
        """
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        async with lock:
            try:
                now = self.bot.clock()
                record = await self.bot.service.projection.claim_delivery(game_id, self.owner, now + LEASE, now)
            except USER_ERRORS as error:  # the game is gone, or the database is busy: nothing to show now
                log.warning("game #%d could not be claimed for showing: %s", game_id, error)
                if not isinstance(error, RefusedError):
                    self._retry_later(game_id, error)
                return False
            if record is None:
                log.info("game #%d is being shown by another worker; trying again later", game_id)
                self._retry_later(game_id, None)
                return False
            shown: GameRecord | None = None
            try:
                if record.shown and not owes_a_cleanup(record):
                    shown = record  # nothing is owed but, maybe, an ephemeral panel: settling twice changes nothing
                    if record.id in self._panels_owed:
                        await self._show_ephemeral_panels(record, self._engine(record, fresh))
                else:
                    shown = await self._deliver(record, Via(interaction) if interaction else None, fresh)
            except Exception as error:
                self._log_failure(record, error)
                self._retry_later(game_id, error)
            finally:
                try:
                    await self.bot.service.projection.release_delivery(
                        game_id,
                        self.owner,
                        shown_version=shown.version if shown else None,
                        shown_moves=shown.move_count if shown else None,
                    )
                except USER_ERRORS:  # the lease lapses by itself; the watermark is written by the next settle
                    log.warning("game #%d: its delivery could not be recorded", game_id, exc_info=True)
                    shown = None
                    self._retry_later(game_id, None)
            # Whatever Discord did, the game may have changed hands: a computer seat may be next (cogs/computers.py).
            # The record claimed says which seats are computers', so that a game without any need not be read again.
            self.bot.dispatch("game_changed", game_id, record)
            if shown is None:
                return False
            if (owed := self._panels_owed.get(game_id)) is not None:  # shown, but a kept panel's edit is retried
                self._retry_later(game_id, owed)
                return False
            self._failures.pop(game_id, None)
            self._blocked_since.pop(game_id, None)
            self._paused.discard(game_id)
            if interaction is not None and fresh:  # a member's move, now on Discord: its latency
                self.bot.metrics.move_shown(interaction)
            return True

    def pending_retries(self) -> int:
        """Games waiting to retry being shown (their backoff running)."""
        return len(self._retries)

    def close(self) -> None:
        """Stop the pending retries (the bot is shutting down; start-up settles what is still owed)."""
        for task in self._retries.values():
            task.cancel()
        self._retries.clear()

    def forget(self, game_id: int) -> None:
        """Drop what is kept in memory for a game."""
        self._pings.pop(game_id, None)
        self._panels_owed.pop(game_id, None)
        for shown in self._shown.pop(game_id, {}).values():
            self._panel_games.pop(shown.message_id, None)
        self._blocked_since.pop(game_id, None)
        self._paused.discard(game_id)
        task = self._retries.pop(game_id, None)
        if task is not None:
            task.cancel()

    # -- the projection, part by part ---------------------------------------------------------------------------------

    async def _deliver(self, record: GameRecord, via: Via | None, fresh: Sequence[MoveResult]) -> GameRecord:
        if record.state is None or record.status in ("lobby", "frozen"):
            return record  # a lobby has its own message; a frozen game is announced at start-up
        try:
            return await self._deliver_in_place(record, via, fresh)
        except discord.HTTPException as error:
            if not place_gone(error):
                raise
        if record.thread_id is None:
            log.warning("game #%d: its channel is gone; cancelling it", record.id)
            cancelled = await self.bot.service.cancel_lost(record.id)
            self.forget(record.id)
            return cancelled
        log.info("game #%d: its thread is gone; moving it to its channel", record.id)
        moved = await self.bot.service.projection.move_to_channel(record.id)
        self.bot.service.engines.forget(record.id)  # its record names the thread that is gone
        locale = await self.bot.languages.public(record.guild_id)
        try:
            await self.bot.presenter.game_channel(moved).send(say(locale, MOVED, title=game_title(record)))
        except discord.HTTPException as error:
            if not place_gone(error):
                raise
            log.warning("game #%d: its channel is gone too; cancelling it", record.id)
            cancelled = await self.bot.service.cancel_lost(record.id)
            self.forget(record.id)
            return cancelled
        self._pings.pop(record.id, None)
        return await self._deliver_in_place(moved, None, fresh)

    def _engine(self, record: GameRecord, fresh: Sequence[MoveResult]) -> AnyGame:
        """The engine of the claimed record, restored once at most: the move's own when it saved this very version.

        Else a copy of the one the engine cache holds at that version, else restored from the record's snapshot. The
        delivery only reads it (the move's engine is the caller's: the cache kept a copy of its own).
        """
        if fresh and fresh[-1].record.id == record.id and fresh[-1].record.version == record.version:
            return fresh[-1].game
        held = self.bot.service.engines.peek(record.id, record.version)
        return held.game if held is not None else self.bot.service.game_of(record)

    async def _deliver_in_place(self, record: GameRecord, via: Via | None, fresh: Sequence[MoveResult]) -> GameRecord:
        game = self._engine(record, fresh)
        self.bot.presenter.remember(fresh)
        # The table first: through a click on it, it is free and cannot fail like the channel's own routes, so the
        # player who clicked sees the current game even while other posts are refused.
        record = await self._show_table(record, game, via)
        await self._post_notices(record, game, fresh)
        if game_kind(record.kind).private_hands:
            record = await self._show_panels(record, game, via, fresh)
            await self._show_ephemeral_panels(record, game)
        await self._show_ping(record, game, via)
        await self._clear_warning(record)
        await self._retire_dm_notice(record)
        if record.status != "running":
            self.forget(record.id)
        return record

    async def _post_notices(self, record: GameRecord, game: AnyGame, fresh: Sequence[MoveResult]) -> None:
        """Each move's one-off posts, each exactly once: every post that went out is recorded on its own."""
        if record.shown_moves >= record.move_count:
            return
        locale = await self.bot.languages.public(record.guild_id)
        for seq, events in await self._events_after(record, fresh):
            notices = self._notices(record, game, seq, events, locale)
            first = record.shown_notices if seq == record.shown_moves + 1 else 0
            for index in range(first, len(notices)):
                place, text, view = notices[index]
                await place.send(text, view=view or discord.utils.MISSING)
                last = index + 1 == len(notices)
                await self.bot.service.projection.note_notices(
                    record.id, self.owner, moves=seq if last else seq - 1, notices=0 if last else index + 1
                )

    def _notices(
        self, record: GameRecord, game: AnyGame, seq: int, events: tuple[Event, ...], locale: str
    ) -> list[tuple[discord.PartialMessageable, str, discord.ui.View | None]]:
        """Move `seq`'s one-off posts in order, with where each goes (derived again alike at every try).

        They are told in the server's `locale`.
        What a finished game offers (Rematch) goes beside its result, on the result line where the game is played.
        """
        place = self.bot.presenter.game_channel(record)
        notices: list[tuple[discord.PartialMessageable, str, discord.ui.View | None]] = [
            (place, legible(line), None) for line in self.bot.presenter.uis[record.kind].notices(record, events, locale)
        ]
        if seq == record.move_count and record.status == "finished":
            result = self.bot.presenter.result_line(record, game, locale)
            if result is not None:
                notices.append((place, legible(result), self.bot.presenter.finished_view(record, locale)))
                if record.thread_id is not None:
                    parent = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
                    told = say(locale, "result.in-parent", result=result, thread=f"<#{record.thread_id}>")
                    notices.append((parent, legible(told), None))
        return notices

    async def _events_after(
        self, record: GameRecord, fresh: Sequence[MoveResult]
    ) -> list[tuple[int, tuple[Event, ...]]]:
        known = {result.record.move_count: tuple(result.events) for result in fresh}
        owed = range(record.shown_moves + 1, record.move_count + 1)
        if all(seq in known for seq in owed):
            return [(seq, known[seq]) for seq in owed]
        # Not in memory (a restart, or an earlier failure): replay the log, which gives the same events (B1).
        return await self.bot.service.events_after(record, record.shown_moves)

    async def _show_table(self, record: GameRecord, game: AnyGame, via: Via | None) -> GameRecord:
        table = await self.bot.presenter.render_pictured(record, game)
        if record.id in self._blocked_since:  # refused already: one request per try, so text only until it passes
            table = table.without_picture()
        try:
            return await self._put_table(record, table, via)
        except discord.Forbidden as error:
            if table.picture is None or error.code != MISSING_PERMISSIONS:
                raise
            # Invited before pictures, the bot may lack Attach Files here: the text table still goes out.
            log.info("game #%d: no permission to attach the table's picture; showing text only", record.id)
            return await self._put_table(record, table.without_picture(), via)

    async def _put_table(self, record: GameRecord, table: TableMessage, via: Via | None) -> GameRecord:
        """Edit the living table where it is; post it anew where that edit is refused for good (`must_repost`).

        A table deleted is posted again; a table that had all the edits Discord allows an old message (30046) is
        posted again in the same place and the old one retired (`retire`): once per refusal, with no edit of the new
        one in the same step, so a refusal can never turn into a loop. Later updates edit the new message.
        """
        try:
            if await self._edit_table(record, table, via):
                return record
        except discord.HTTPException as error:
            if place_gone(error) or not must_repost(error):
                raise
            log.info("game #%d: Discord refuses to edit its table (%d); posting it anew", record.id, error.code)
            return await self._post_table(record, table, retire_old=error.code == EDIT_CAP)
        return await self._post_table(record, table, retire_old=False)

    async def redraw_table(self, game_id: int) -> None:
        """Draw a game that is over again on its table message, from the stored record (its seats renamed, say).

        One edit in place (a counted request); a refusal only costs the redraw: a game that is over is not posted
        anew, since nothing of it is owed. A running game needs no call: its next settle draws it.
        """
        record = await self.bot.service.get(game_id)
        if record.state is None or record.table_message_id is None or record.status not in ("finished", "cancelled"):
            return
        table = await self.bot.presenter.render_pictured(record, self.bot.service.game_of(record))
        try:
            await self._edit_table(record, table, None)
        except discord.HTTPException as error:
            log.info("game #%d: its table could not be drawn again (%s)", game_id, error.code or error.status)

    async def _edit_table(self, record: GameRecord, table: TableMessage, via: Via | None) -> bool:
        """Edit the table message, through the click on it when there is one; False when it has none yet."""
        fields: dict[str, Any] = {
            "content": table.content,
            "embed": table.embed,
            "view": table.view,
            "attachments": table.files(),
        }
        if via is not None and via.message_id is not None and via.message_id == record.table_message_id:
            await via.edit(**fields)
            return True
        if record.table_message_id is None:
            return False
        await self.bot.presenter.game_channel(record).get_partial_message(record.table_message_id).edit(**fields)
        return True

    async def _post_table(self, record: GameRecord, table: TableMessage, *, retire_old: bool) -> GameRecord:
        """Post the table as a new message in the game's place and store its id; the old one goes when `retire_old`."""
        place = self.bot.presenter.game_channel(record)
        message = await place.send(
            content=table.content,
            embed=table.embed,
            view=table.view or discord.utils.MISSING,
            files=table.files() or discord.utils.MISSING,
        )
        await self.bot.service.projection.set_messages(record.id, table_message_id=message.id)
        if retire_old and record.table_message_id is not None:
            locale = await self.bot.languages.public(record.guild_id)
            link = jump_link(game_title(record), record.guild_id, place.id, message.id)
            await retire(place, record.table_message_id, say(locale, REPOSTED, link=link))
        return await self.bot.service.get(record.id)

    async def _show_panels(
        self, record: GameRecord, game: AnyGame, via: Via | None, fresh: Sequence[MoveResult]
    ) -> GameRecord:
        """Every seated player's private panel, by DM: a new message when their turn comes (it notifies them).

        Not kept up: the panel of a seat nobody plays any more (resigned; a live menu is retired once), and the
        panel of a player whose turn the timer just played: they are away, their next turn brings a new panel, and
        a pick on the old one is refused and answered with the current panel.
        """
        resigned = self._resigned(game)
        timed_out = {result.seat for result in fresh if result.auto}
        closed: list[int] = []
        seats = list(record.seats)
        for seat in record.seats:
            if seat.user_id is None or not seat.dm_ok:
                continue
            if seat.seat in resigned and not is_turn_panel(seat.panel):
                continue
            if seat.seat in timed_out and game.to_move != seat.seat and seat.seat not in resigned:
                continue
            shown, noted = await self._show_panel(record, game, seat, via)
            seats[seat.seat] = noted
            if shown is None:
                closed.append(seat.user_id)
        if closed:  # one notice for everyone found with DMs closed (a start may find several)
            await self._tell_dms_closed(record, closed)
        # The seats as noted (rather than read again): what the ping and the ephemeral panels go on from. A seat that
        # changed hands meanwhile (during a slow DM edit, say) was not noted, and keeps what the claim read; that
        # change has a version of its own, which its own settle shows.
        return replace(record, seats=tuple(seats))

    async def _tell_dms_closed(self, record: GameRecord, user_ids: Sequence[int]) -> None:
        locale = await self.bot.languages.public(record.guild_id)
        view = unkept_view()
        view.add_item(show_hand_button(record.kind, record.id, locale))
        notice = await self.bot.presenter.game_channel(record).send(
            dms_closed(record, user_ids, locale),
            view=view,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id) for user_id in user_ids]),
        )
        # Kept, so that its button goes with the game (`_retire_dm_notice`); the latest notice holds the live button.
        await self.bot.service.projection.set_messages(record.id, dm_notice_message_id=notice.id)

    async def _show_ephemeral_panels(self, record: GameRecord, game: AnyGame) -> None:
        """Keep each member's latest ephemeral panel current through its token, while the token lives.

        Free (an interaction's webhook is not bound to the global limit). A panel whose token lapsed cannot be changed
        any more: it shows its age, and a click on it answers with the current panel.
        """
        self._panels_owed.pop(record.id, None)
        panels = self._shown.get(record.id)
        if not panels:
            return
        now = asyncio.get_running_loop().time()
        for user_id, shown in list(panels.items()):
            seat = held_seat(record, game, user_id)  # a member who left the seat sees nothing of it afterwards
            if seat is None or not shown.alive(now):
                del panels[user_id]
                self._panel_games.pop(shown.message_id, None)
                continue
            if not shown.interaction.response.is_done():
                continue  # its interaction is being answered right now; the next settle finds it answered
            locale = private_locale(shown.interaction)  # the reader's, as the latest interaction on the panel says it
            panel = await self.bot.presenter.hand_panel(record, game, seat, locale)
            state = panel_state(panel, record, game, seat)
            if state == shown.state:
                continue
            try:
                await shown.interaction.edit_original_response(
                    **stamped(panel, record, game, seat, self.bot.clock(), locale)
                )
            except discord.HTTPException as error:
                if error.status in TOKEN_GONE:  # it cannot change any more: it shows its age
                    log.debug("game #%d: an ephemeral panel can no longer be edited", record.id)
                    del panels[user_id]
                    self._panel_games.pop(shown.message_id, None)
                else:  # kept, and edited again at the retry, while its token lives
                    log.debug("game #%d: an ephemeral panel could not be edited; trying again later", record.id)
                    self._panels_owed[record.id] = error
                continue
            shown.state = state

    async def _show_panel(
        self, record: GameRecord, game: AnyGame, seat: SeatRecord, via: Via | None
    ) -> tuple[bool | None, SeatRecord]:
        """Show a seat's DM panel: True when it changed, False when it was current, None when DMs are closed.

        With the seat as noted in the store (as it was, when nothing was noted: the seat changed hands meanwhile).
        """
        assert seat.user_id is not None
        locale = await self.bot.languages.of_user(seat.user_id, record.guild_id)
        if vacated(game, seat.seat):  # its live menu is retired, without the cards the seat is dealt afterwards
            panel = left_seat_panel(locale)
        else:
            panel = self.bot.presenter.uis[record.kind].hand_panel(record, game, seat.seat, locale)
        turn = record.status == "running" and game.to_move == seat.seat
        digest = panel_digest(panel, record.version if turn else None)
        if digest == seat.panel:
            return False, seat
        refused: int | None = None  # the code of a lasting refusal to edit the panel (`must_repost`), if one came
        if via is not None and via.message_id is not None and via.message_id == seat.hand_message_id:
            refused = await edit_refused(via.edit(**panel))
            if refused is None:
                noted = await self.bot.service.projection.note_seat(
                    record.id, seat.seat, holder=seat.user_id, panel=digest
                )
                return True, replace(seat, panel=digest) if noted else seat
        try:
            channel_id = seat.dm_channel_id or self._dm_channels.get(seat.user_id)
            if channel_id is None:
                channel_id = (await self.bot.create_dm(discord.Object(seat.user_id))).id
            self._dm_channels.put(seat.user_id, channel_id)
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            new_turn = turn and not is_turn_panel(seat.panel)
            message_id, refused = await self._put_panel(channel, seat.hand_message_id, panel, new_turn, refused)
        except discord.Forbidden:
            noted = await self.bot.service.projection.note_seat(
                record.id, seat.seat, holder=seat.user_id, dm_ok=False
            )
            return None, replace(seat, dm_ok=False) if noted else seat
        # Only while the seat is still theirs: it may have changed hands during the edit; then nothing is noted, and
        # the change's own settle reaches the new holder.
        noted = await self.bot.service.projection.note_seat(
            record.id,
            seat.seat,
            holder=seat.user_id,
            panel=digest,
            hand_message_id=message_id,
            dm_channel_id=channel_id,
        )
        if refused == EDIT_CAP and seat.hand_message_id is not None:  # one new panel per refusal; the old one goes
            link = dm_link(game_title(record), channel_id, message_id)
            await retire(channel, seat.hand_message_id, say(locale, REPOSTED, link=link))
        if not noted:
            return True, seat
        return True, replace(seat, panel=digest, hand_message_id=message_id, dm_channel_id=channel_id)

    @staticmethod
    async def _put_panel(
        channel: discord.PartialMessageable,
        message_id: int | None,
        panel: dict[str, Any],
        new_turn: bool,
        refused: int | None,
    ) -> tuple[int, int | None]:
        """Edit a DM panel in place, or post it anew; its message id, and the code of a lasting refusal if one came.

        Posted anew at a new turn (a new message notifies), when there is none, or when an edit was refused for good.
        """
        if message_id is not None and not new_turn and refused is None:
            refused = await edit_refused(channel.get_partial_message(message_id).edit(**panel))
            if refused is None:
                return message_id, None
        return (await channel.send(**as_new_message(panel))).id, refused

    @staticmethod
    def _resigned(game: AnyGame) -> set[int]:
        return {index for index, seat in enumerate(game.public_view().seats) if seat.resigned}

    def _ping_target(self, record: GameRecord, game: AnyGame) -> int | None:
        """Whom the turn ping notifies: the member to move, unless their turn reaches them otherwise.

        Not a computer's seat or one whose player resigned (the bot plays it); not by a ping when the turn
        reaches them by DM (a new panel); and not a member alone with computers who has just acted, whose turn
        comes back within seconds of their own move.
        """
        seat = game.to_move
        if record.status != "running" or seat is None:
            return None
        player = record.seats[seat]
        resigned = self._resigned(game)
        if player.user_id is None or seat in resigned:
            return None
        if game_kind(record.kind).private_hands and player.dm_ok:
            return None
        alone = all(other.is_computer or other.seat in resigned for other in record.seats if other.seat != seat)
        latest = self._latest.get(player.user_id)
        now = asyncio.get_running_loop().time()
        if alone and latest is not None and now - latest.at < ALONE_QUIET.total_seconds():
            return None
        return player.user_id

    async def _show_ping(self, record: GameRecord, game: AnyGame, via: Via | None) -> None:
        """One ping per turn: none while the same player goes on, gone once the turn passes or the game ends."""
        target = self._ping_target(record, game)
        if target == record.ping_user_id and (target is None or record.ping_message_id is not None):
            return
        if record.ping_message_id is not None:
            await self._delete_ping(record)
            await self.bot.service.projection.set_messages(record.id, ping_message_id=None, ping_user_id=None)
        if target is None:
            return
        place = self.bot.presenter.game_channel(record)
        locale = await self.bot.languages.public(record.guild_id)
        title = game_title(record)
        if record.table_message_id is not None:  # a jump link: the table stays where it is, however far up
            title = jump_link(title, record.guild_id, place.id, record.table_message_id)
        text = say(locale, "ping.your-turn", player=f"<@{target}>", title=title)
        mentions = discord.AllowedMentions(users=[discord.Object(target)])
        view: discord.ui.View | None = None
        if game_kind(record.kind).private_hands:  # one tap back to the hand, whatever panel they had
            view = unkept_view()
            view.add_item(show_hand_button(record.kind, record.id, locale))
        now = asyncio.get_running_loop().time()
        # A followup of a click in the game's channel (the mover's, else the pinged player's own latest) is free,
        # and it notifies like any message.
        clicks = [_Click(via.interaction, now)] if via is not None else []
        clicks += [latest] if (latest := self._latest.get(target)) is not None else []
        click = next((each.interaction for each in clicks if each.can_ping_in(place.id, now)), None)
        if click is not None:
            sent = await click.followup.send(
                text, allowed_mentions=mentions, view=view or discord.utils.MISSING, wait=True
            )
            self._pings[record.id] = _Ping(sent, asyncio.get_running_loop().time())
            message_id = sent.id
        else:
            message_id = (await place.send(text, allowed_mentions=mentions, view=view or discord.utils.MISSING)).id
            self._pings.pop(record.id, None)
        await self.bot.service.projection.set_messages(record.id, ping_message_id=message_id, ping_user_id=target)

    async def _delete_ping(self, record: GameRecord) -> None:
        assert record.ping_message_id is not None
        kept = self._pings.pop(record.id, None)
        now = asyncio.get_running_loop().time()
        try:
            if (
                kept is not None
                and kept.message.id == record.ping_message_id
                and now - kept.sent_at < FOLLOWUP_LIFETIME.total_seconds()
            ):
                await kept.message.delete()  # through the interaction's webhook: free
            else:
                await self.bot.presenter.game_channel(record).get_partial_message(record.ping_message_id).delete()
        except discord.NotFound as error:
            if place_gone(error):
                raise
            log.debug("game #%d: the old turn ping was already gone", record.id)

    async def _clear_warning(self, record: GameRecord) -> None:
        """A turn warning goes once the turn it warned about is played (a move clears `warned`)."""
        if record.warning_message_id is None or (record.warned and record.status == "running"):
            return
        try:
            await self.bot.presenter.game_channel(record).get_partial_message(record.warning_message_id).delete()
        except discord.NotFound as error:
            if place_gone(error):
                raise
        await self.bot.service.projection.set_messages(record.id, warning_message_id=None)

    async def _retire_dm_notice(self, record: GameRecord) -> None:
        """Once the game is over, the closed-DM notice keeps its words but loses its Show my hand button."""
        if record.dm_notice_message_id is None or record.status == "running":
            return
        try:
            notice = self.bot.presenter.game_channel(record).get_partial_message(record.dm_notice_message_id)
            await notice.edit(view=None)
        except discord.NotFound as error:
            if place_gone(error):
                raise
        await self.bot.service.projection.set_messages(record.id, dm_notice_message_id=None)

    # -- failures ---------------------------------------------------------------------------------------------------

    def _log_failure(self, record: GameRecord, error: Exception) -> None:
        if isinstance(error, discord.HTTPException | OSError | asyncio.TimeoutError):
            log.warning(
                "game #%d: Discord could not be brought up to date (%s); retrying later",
                record.id,
                " ".join(f"{type(error).__name__}: {error}".split()),
            )
        else:
            log.exception("game #%d: showing it on Discord failed; retrying later", record.id)

    def _retry_later(self, game_id: int, error: Exception | None) -> None:
        """Settle again after a backoff (doubling, with jitter) or the delay Discord asked for.

        Missing access or permissions is retried the same way, one request per try; after PAUSE_AFTER of it the
        game waits for its next action (a move, a click, a restart) and its host is told privately, once.
        """
        if game_id in self._retries and not self._retries[game_id].done():
            return
        if is_passing(error):
            now = asyncio.get_running_loop().time()
            since = self._blocked_since.setdefault(game_id, now)
            if now - since >= PAUSE_AFTER.total_seconds():
                if game_id not in self._paused:
                    self._paused.add(game_id)
                    log.warning("game #%d: no access to its channel for 30 minutes; it waits for an action", game_id)
                    task = asyncio.get_running_loop().create_task(self._tell_host_paused(game_id))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
                return
        failures = self._failures[game_id] = self._failures.get(game_id, 0) + 1
        retry_after = getattr(error, "retry_after", None)
        asked = float(retry_after) if isinstance(retry_after, int | float) else None
        delay = retry_delay(failures, asked, jitter=random.uniform(1.0, 1.2))
        # Later still while the process's refusals near its invalid-request budget (cogs/runtime/invalid.py).
        delay = self.bot.invalid_requests.retry_delay(delay, error)
        self._retries[game_id] = asyncio.get_running_loop().create_task(self._retry(game_id, delay))

    async def _tell_host_paused(self, game_id: int) -> None:
        try:
            record = await self.bot.service.get(game_id)
            locale = await self.bot.languages.of_user(record.host_id, record.guild_id)
            channel = await self.bot.create_dm(discord.Object(record.host_id))
            where = f"<#{record.thread_id or record.channel_id}>"
            await channel.send(say(locale, PAUSED, title=game_title(record), channel=where))
        except USER_ERRORS:
            log.info("game #%d is gone; its host need not be told that it waits for access", game_id)
        except discord.HTTPException:
            log.info("game #%d: its host could not be told that the game waits for access", game_id)

    async def _retry(self, game_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        self._retries.pop(game_id, None)
        await self.settle(game_id)


async def settle_and_tell(
    bot: GameBot, interaction: discord.Interaction, results: Sequence[MoveResult], *, done: str | None = None
) -> bool:
    """After a saved change: show it on Discord, then tell the player what happened (only them).

    `done` says what a typed command did (its answer ends Discord's "thinking…"; a click on a button or menu is
    answered by the table and panels themselves, so nothing is said for it); when Discord could not be brought up to
    date the player also learns that the change counted and that the table will catch up.
    """
    if not results:
        return True
    if interaction.type != discord.InteractionType.application_command:
        done = None
    shown = await bot.delivery.settle(results[-1].record.id, interaction=interaction, fresh=results)
    lines = ([done] if done else []) + ([] if shown else [say(private_locale(interaction), CATCH_UP)])
    if lines:
        await _tell(interaction, " ".join(lines))
    return shown


async def tell_caught_up(interaction: discord.Interaction) -> None:
    """Tell the player privately that their change counted and that Discord catches up (something after it failed)."""
    await _tell(interaction, say(private_locale(interaction), CATCH_UP))


async def _tell(interaction: discord.Interaction, text: str) -> None:
    try:
        await interaction.followup.send(legible(text), ephemeral=True)
    except discord.HTTPException:
        log.info("could not tell user %s what their action did", interaction.user.id)

"""Turn timers: warn the player shortly before their deadline, and play for them when it passes.

Deadlines live in SQLite and come from the bot's one clock, so a restart simply carries on: the first
tick after start-up finds every deadline that passed while the bot was down and acts on each once (the
automatic move sets the next deadline from now, not from the missed one).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from cogs.runtime.timing import in_words
from cogs.runtime.words import game_title
from db.records import DueTimer, GameRecord
from engine.registry import game_kind
from i18n import say
from service.tables import USER_ERRORS

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

TICK_SECONDS = 5


class TimerCog(commands.Cog):
    """The loop that keeps timed games moving."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Start ticking once the cog is loaded."""
        self.tick.start()

    async def cog_unload(self) -> None:
        """Stop ticking."""
        self.tick.cancel()

    @tasks.loop(seconds=TICK_SECONDS)
    async def tick(self) -> None:
        """Warn the players whose time runs short; play for those whose time ran out.

        The database answers with the due games only (an index on each game's next timer moment), so a tick costs
        what is due, not what is running; each game is then handled under its own lock. Nothing a tick meets ends
        the loop: a read that fails (the database gone or busy) is tried again at the next tick, which finds every
        timer that fell due meanwhile.
        """
        now = self.bot.clock()
        try:
            due_now = await self.bot.service.due_timers(now)
        except USER_ERRORS as error:  # the store says an outage in its log once; each tick need not
            log.debug("turn timers not read this tick: %s", error)
            return
        except Exception:
            log.exception("turn timers could not be read; trying again at the next tick")
            return
        for due in due_now:
            try:
                if due.is_expired(now):
                    await self.expire(due)
                elif not due.timer.warned:
                    await self.warn(due)
            except USER_ERRORS as error:
                # Someone moved between the query and now: nothing is due any more.
                log.debug("timer of game %s skipped: %s", due.id, error)
            except Exception:
                log.exception("timer of game %s failed", due.id)

    @tick.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def expire(self, record: GameRecord | DueTimer) -> None:
        """Play the turn for the absent player and show it; resign them after too many in a row."""
        results = await self.bot.service.expire(record.id, version=record.version)
        if results:
            await self.bot.delivery.settle(record.id, fresh=results)

    async def warn(self, due: GameRecord | DueTimer) -> None:
        """Tell the player their time runs short where their turn reached them: by DM, else in the game's channel."""
        record = await self.bot.service.mark_warned(due.id, version=due.version)
        seat = self.bot.service.game_of(record).to_move
        if seat is None or record.deadline is None:
            return
        player = record.seats[seat]
        if player.user_id is None:
            return
        # The clock time (each reader's own time zone) beside the time left in words: a relative timestamp would say
        # the time left twice ("ends in 26 seconds (about 26 seconds left)").
        when = f"<t:{int(record.deadline.timestamp())}:t>"
        seconds = max(0, int((record.deadline - self.bot.clock()).total_seconds()))
        title = game_title(record)
        if game_kind(record.kind).private_hands and player.dm_ok and player.dm_channel_id is not None:
            # Their turn came as a DM panel, so the warning goes there too: one request, and the thread stays quiet.
            # In the player's language, as their DM panel is.
            locale = await self.bot.languages.of_user(player.user_id, record.guild_id)
            left = in_words(seconds, locale)
            await self._dm_warning(
                player.dm_channel_id, say(locale, "timer.warning-dm", title=title, when=when, left=left)
            )
            return
        user_id = player.user_id
        locale = await self.bot.languages.public(record.guild_id)
        left = in_words(seconds, locale)
        text = say(locale, "timer.warning", player=f"<@{user_id}>", title=title, when=when, left=left)
        warning = await self.bot.presenter.game_channel(record).send(
            text, allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)])
        )
        # Removed by the delivery once the turn is played (a move clears the warned flag); settling now removes it at
        # once should the move have landed while the warning was being posted.
        await self.bot.service.projection.set_messages(record.id, warning_message_id=warning.id)
        await self.bot.delivery.settle(record.id)

    async def _dm_warning(self, channel_id: int, text: str) -> None:
        try:
            await self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private).send(text)
        except discord.HTTPException:
            log.info("could not DM the timer warning in DM channel %s", channel_id)


async def setup(bot: GameBot) -> None:
    """Add the timer loop."""
    await bot.add_cog(TimerCog(bot))

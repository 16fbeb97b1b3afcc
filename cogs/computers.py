"""Computer seats take their turns by themselves, at a pace people can follow (issue 15).

The cog is poked with a game's id whenever that game may have changed hands: after every change is settled on
Discord (the delivery dispatches `game_changed`), a game's start included. A poke starts (or re-arms) one worker per
game, which waits `pause` seconds, has the service make the computer's decision, and shows it like anyone's move, until
a member is to move or the game is over. A sweep at start-up, then every minute, pokes every running game whose
seat to move is a computer's, in case a poke was lost (a move whose showing failed half way).

Nothing of a computer's turn lives only in memory: each decision is saved before it is shown, so after a restart
the start-up sweep picks the game up wherever it stood (a Garbage turn half done included). Turn timers never
apply to computer seats: the service gives their turns no deadline.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Final

from discord.ext import commands, tasks

from cogs.runtime import timing
from db.records import GameRecord
from service.computers import ComputerPlayers
from service.tables import USER_ERRORS

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

SWEEP_SECONDS: Final = 60
# After an unexpected failure (a bug, not a refusal) the move is tried again this much later, this many times.
RETRY_SECONDS: Final = 30
RETRIES: Final = 3


class ComputerCog(commands.Cog):
    """Plays the computer seats' turns of every running game."""

    def __init__(self, bot: GameBot, pause: float | None = None) -> None:
        self.bot = bot
        self.players = ComputerPlayers(bot.service)
        self.pause = timing.COMPUTER_PAUSE_SECONDS if pause is None else pause
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._poked: set[int] = set()

    def poke(self, game_id: int) -> None:
        """Look at the game soon: if a computer is to move, it will (at most one worker per game)."""
        self._poked.add(game_id)
        if game_id not in self._workers:
            self._workers[game_id] = asyncio.create_task(self._work(game_id), name=f"computers-{game_id}")

    async def cog_load(self) -> None:
        """Start the sweep (its first round runs once the bot is ready)."""
        self.sweep.start()

    async def cog_unload(self) -> None:
        """Stop the sweep and every worker (a computer's pending turn is picked up again at the next start)."""
        self.sweep.cancel()
        for worker in self._workers.values():
            worker.cancel()
        self._workers.clear()

    @commands.Cog.listener()
    async def on_game_changed(self, game_id: int, record: GameRecord | None = None) -> None:
        """A move was shown or a game started: maybe a computer is to move now.

        `record` is the game as the delivery showed it, if it did: a game without a computer seat there is not looked
        at (a seat that changes hands to a computer later is a change of its own, shown and told in turn).
        """
        if record is not None and not any(seat.is_computer for seat in record.seats):
            return
        self.poke(game_id)

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def sweep(self) -> None:
        """Poke every running game whose seat to move is a computer's (at start-up: resume them)."""
        try:
            waiting = await self.players.games_waiting()
        except USER_ERRORS as error:  # the database is gone or busy (the store logs that once): the next sweep looks
            log.debug("could not look for computer players to move: %s", error)
            return
        except Exception:
            log.exception("could not look for computer players to move")
            return
        for record in waiting:
            self.poke(record.id)

    @sweep.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    async def _work(self, game_id: int) -> None:
        """One game's worker: whatever ends its play (the database gone, say), the next poke or sweep starts anew."""
        try:
            while game_id in self._poked:
                self._poked.discard(game_id)
                try:
                    await self._play_while_waiting(game_id)
                except USER_ERRORS as error:  # the game could not be read: the sweep pokes it again
                    log.debug("game %s: computer turns wait for the next sweep: %s", game_id, error)
                except Exception:
                    log.exception("game %s: computer turns stopped; the next sweep tries again", game_id)
        finally:
            self._workers.pop(game_id, None)

    async def _play_while_waiting(self, game_id: int) -> None:
        """Play the computers' decisions one by one, each after a pause, until none is to move."""
        failures = refusals = 0
        while (record := await self.players.waiting(game_id)) is not None:
            await asyncio.sleep(self.pause if not failures else RETRY_SECONDS)
            try:
                result = await self.players.play(game_id, version=record.version)
            except USER_ERRORS as error:
                # Someone acted during the pause (a cancel, a resignation): look at the game again. A refusal that
                # keeps coming (it should not) counts as a failure, so a worker never spins.
                log.debug("computer move in game %s skipped: %s", game_id, error)
                refusals += 1
                if refusals < RETRIES:
                    continue
                failures += 1
                log.error("game %s: a computer's move was refused %d times in a row: %s", game_id, refusals, error)
                if failures >= RETRIES:
                    return
                continue
            except Exception:
                failures += 1
                log.exception("game %s: a computer's move failed (%d of %d tries)", game_id, failures, RETRIES)
                if failures >= RETRIES:
                    return  # the sweep tries again later
                continue
            failures = refusals = 0
            # Saved; showing it never fails the game (the delivery retries by itself).
            await self.bot.delivery.settle(game_id, fresh=[result])


async def setup(bot: GameBot) -> None:
    """Add the cog that moves for computer seats."""
    await bot.add_cog(ComputerCog(bot))

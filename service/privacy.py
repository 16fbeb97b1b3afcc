"""A member's data and a departed server's (issue 45): shown on request, forgotten on request, deleted in time.

Forgetting a member first ends their part in play as they could themselves: each running game in which they hold
a seat is resigned for them (`TableService.resign`, so it is narrated and shown like `/game resign`), each lobby
they sit in is left, or cancelled when they host it. Only then does the store take their id and names out of every
row (`db.privacy`). The caller shows what changed (`Forgetting`).

A server the bot was removed from is marked with the time; a rejoin clears the mark. `purge_departed` deletes the
data of every server marked longer ago than the retention period.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from db.errors import GameNotFoundError, GameNotRunningError, NotInLobbyError, NotSeatedError
from db.records import Forgotten, GameRecord, MemberData
from engine.errors import GameError
from service.errors import RefusedError
from service.ports import MemberRecords
from service.tables import MoveResult, TableService

log = logging.getLogger(__name__)

# What a game that changed under our feet says when resigned or left: it ended, or they already left its seat.
_GONE = (GameError, RefusedError, GameNotFoundError, GameNotRunningError, NotInLobbyError, NotSeatedError)


@dataclass(frozen=True, slots=True)
class Forgetting:
    """What `/privacy forget` did: games resigned, lobbies left or cancelled (as saved before forgetting), rows."""

    resigned: tuple[MoveResult, ...]
    left: tuple[GameRecord, ...]
    cancelled: tuple[GameRecord, ...]
    forgotten: Forgotten


class PrivacyService:
    """Show, forget, and keep a departed server's data only for `retention`."""

    def __init__(
        self, tables: TableService, store: MemberRecords, clock: Callable[[], datetime], retention: timedelta
    ) -> None:
        self.tables = tables
        self.store = store
        self.clock = clock
        self.retention = retention

    async def show(self, user_id: int) -> MemberData:
        """Everything stored under the member's id."""
        return await self.store.member_data(user_id)

    async def forget(self, user_id: int, names: Sequence[str] = ()) -> Forgetting:
        """Resign their running games, leave (or, as host, cancel) their lobbies, then forget them in every row.

        `names` are names of theirs the store may not hold (their display name now): narration saying them is
        changed too.
        """
        resigned: list[MoveResult] = []
        left: list[GameRecord] = []
        cancelled: list[GameRecord] = []
        for record in await self.store.member_games(user_id):
            try:
                if record.status == "running":
                    seat = record.seat_of(user_id)
                    game = self.tables.game_of(record)
                    if seat is not None and not game.public_view().seats[seat].resigned:
                        resigned.append(await self.tables.resign(record.id, user_id))
                elif record.host_id == user_id:
                    cancelled.append(await self.tables.cancel(record.id, user_id, is_manager=False))
                else:
                    left.append(await self.tables.leave(record.id, user_id))
            except _GONE as error:  # it ended or changed meanwhile: nothing of theirs to end there
                log.info("game #%d: nothing to end for a member being forgotten (%s)", record.id, error)
        forgotten = await self.store.forget_member(user_id, names)
        for game_id in forgotten.games:
            self.tables.engines.forget(game_id)
        log.info(
            "forgot a member: %d games resigned, %d lobbies left, %d cancelled, %d games renamed, %d results and "
            "%d ratings deleted",
            len(resigned),
            len(left),
            len(cancelled),
            len(forgotten.games),
            forgotten.results,
            forgotten.ratings,
        )
        return Forgetting(tuple(resigned), tuple(left), tuple(cancelled), forgotten)

    async def departed(self, guild_id: int) -> None:
        """The bot was removed from the server: its data is deleted after the retention period."""
        await self.store.mark_departed(guild_id, self.clock())

    async def present(self, guild_id: int) -> bool:
        """The bot is in the server (joined again, or seen at start-up): keep its data. True if it was marked."""
        return await self.store.clear_departed(guild_id)

    async def purge_departed(self, is_present: Callable[[int], bool] = lambda _: False) -> list[int]:
        """Delete the data of every server the bot left more than the retention period ago; their ids.

        A server `is_present` says the bot is in (a rejoin whose mark could not be cleared then) is kept, its mark
        cleared.
        """
        purged = []
        for guild_id in await self.store.departed_before(self.clock() - self.retention):
            if is_present(guild_id):
                await self.store.clear_departed(guild_id)
                log.info("server %d: the bot is in it again; its data is kept", guild_id)
                continue
            games = await self.store.purge_guild(guild_id)
            for game_id in games:
                self.tables.engines.forget(game_id)
            log.info("server %d: deleted its data (%d games), %s after the bot left it", guild_id, len(games),
                     self.retention)  # fmt: skip
            purged.append(guild_id)
        return purged

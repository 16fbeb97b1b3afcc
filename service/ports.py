"""What the table service needs from storage, port by role, and from whatever serialises the actions on a game.

`GameRepository` (games and moves, with `StartUpChecks`), `DeliveryProjection` (what Discord shows), `Boards`,
`ServerSettings` and `MemberRecords`; `GameStore` is all of them, as one backend provides them: `db.store.Store`
(SQLite) and `db.postgres.store.PostgresStore` satisfy it (each role written once for both, in `db.sql_games`,
`db.sql_checks`, `db.sql_delivery`, `db.sql_boards`, `db.sql_settings` and `db.sql_members`), with the same
promises: every write that names an `expected_version` refuses with `StaleVersionError` when the game moved on, a
move and its snapshot are saved together or not at all, and errors a player can cause are `db.errors` refusals
carrying their facts (said as messages by `service.errors.refusal_message`).

`OpenStore` is a `GameStore` as its opener holds it (`StoreLifecycle`: where it keeps the games, waiting for the
writes queued, closing): what the bot holds. Only the composition root (`db.backends.open_storage`, called by
`bot.py` at start-up) names a backend's class.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any, Protocol, Unpack

from db.records import (
    DueTimer,
    Forgotten,
    GameCounts,
    GameRecord,
    GameStatus,
    LeaderboardPage,
    LeaderboardSort,
    MemberData,
    MessageIds,
    MoveRecord,
    NewLobby,
    Occupant,
    PlayerStats,
    SeatChange,
    SeatReach,
    StartUpCheck,
    TurnClock,
)
from engine.base import Outcome
from engine.message import Message


class StartUpChecks(Protocol):
    """Each running game's snapshot checked against its move log, once per process; an unreplayable game is frozen.

    At start-up cheaply (plain disagreements at once), then each game in full before it is changed, or in the
    background.
    """

    async def start_up_check(self) -> StartUpCheck:
        """Start-up: lobbies and running games, cheaply checked; plain disagreements repaired or frozen at once."""
        ...

    async def checked_game(self, game_id: int, *, held_version: int | None = ...) -> GameRecord | None:
        """The game, checked against its log first if not yet; without snapshot and narration if at `held_version`."""
        ...

    async def unchecked_games(self) -> list[int]:
        """Running games not yet checked against their whole move log by this process."""
        ...

    def take_frozen(self) -> list[GameRecord]:
        """The games a check froze since this was last asked, each once."""
        ...


class GameRepository(StartUpChecks, Protocol):
    """Games and their move logs: lobbies, starts, version-checked moves and deadlines, and the start-up check."""

    async def create_lobby(self, lobby: NewLobby, now: datetime) -> GameRecord:
        """A new lobby with the host in the first seat."""
        ...

    async def join_lobby(self, game_id: int, user_id: int, name: str, now: datetime) -> GameRecord:
        """Seat a player in a lobby."""
        ...

    async def leave_lobby(self, game_id: int, user_id: int, now: datetime) -> GameRecord:
        """Free a player's lobby seat."""
        ...

    async def add_computer(self, game_id: int, strength: str, now: datetime) -> GameRecord:
        """Seat a computer player of `strength` in a lobby, named by its strength."""
        ...

    async def remove_computer(self, game_id: int, name: str, now: datetime) -> GameRecord:
        """Take the computer player called `name` out of a lobby."""
        ...

    async def set_lobby_settings(
        self, game_id: int, settings: dict[str, Any], now: datetime, *, expected_version: int
    ) -> GameRecord:
        """Replace a lobby's settings (its house rules), version-checked."""
        ...

    async def start_game(
        self,
        game_id: int,
        expected_version: int,
        seat_user_ids: Sequence[int | None],
        state: dict[str, Any],
        now: datetime,
        narration: Sequence[Message] = ...,
        *,
        timer: TurnClock = ...,
    ) -> GameRecord:
        """Lobby → running, with the first snapshot and the first turn's timer."""
        ...

    async def cancel_game(self, game_id: int, now: datetime) -> GameRecord:
        """End a lobby or game without results."""
        ...

    async def save_move(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        move: str,
        state: dict[str, Any],
        now: datetime,
        *,
        auto: bool = ...,
        timer: TurnClock = ...,
        outcome: Outcome | None = ...,
        narration: Sequence[Message] = ...,
    ) -> GameRecord:
        """Log a move with its snapshot and the next turn's timer (and results when it ends), version-checked."""
        ...

    async def set_timer(self, game_id: int, timer: TurnClock, *, expected_version: int) -> None:
        """Set the turn's timer (its deadline, warning time and warning flag as one), version-checked."""
        ...

    async def set_auto_streak(self, game_id: int, seat: int, streak: int, *, expected_version: int) -> None:
        """Set a seat's count of automatic turns in a row, if the game is still at `expected_version`."""
        ...

    async def game_moves(self, game_id: int) -> list[MoveRecord]:
        """The move log in order."""
        ...

    async def change_seat(
        self,
        game_id: int,
        expected_version: int,
        seat: int,
        to: Occupant,
        *,
        host_id: int,
        state: dict[str, Any],
        now: datetime,
        narration: Sequence[Message],
        move: str | None = ...,
        timer: TurnClock = ...,
    ) -> GameRecord:
        """Give a running game's seat to `to`, logging `move` (a `rejoin`) if given, and keep the change."""
        ...

    async def seat_changes(self, game_id: int) -> list[SeatChange]:
        """The seats that changed hands during the game, in order."""
        ...

    async def get_game(self, game_id: int) -> GameRecord | None:
        """The game with this id, or None."""
        ...

    async def running_games_with_computers(self) -> list[GameRecord]:
        """Running games with at least one computer seat."""
        ...

    async def due_timers(self, now: datetime) -> list[DueTimer]:
        """Running games whose deadline or (not yet warned) warning time has passed, without their snapshots."""
        ...

    async def games_in_guild(self, guild_id: int, statuses: Sequence[GameStatus] = ...) -> list[GameRecord]:
        """A server's games with one of `statuses`."""
        ...

    async def running_games_in_channel(self, channel_id: int, statuses: Sequence[GameStatus] = ...) -> list[GameRecord]:
        """Games played in a channel or thread."""
        ...


class DeliveryProjection(Protocol):
    """What Discord shows of each game: message ids, DM panels, delivery leases and watermarks (the outbox)."""

    async def set_messages(self, game_id: int, **ids: Unpack[MessageIds]) -> None:
        """Record the Discord ids that show a game."""
        ...

    async def note_seat(self, game_id: int, seat: int, *, holder: int, **reach: Unpack[SeatReach]) -> bool:
        """Record how the seat's player `holder` is reached (DMs, DM channel, panel message, digest), if still theirs.

        False, and nothing written, once the seat changed hands: a note never points the seat at a former holder.
        """
        ...

    async def claim_delivery(self, game_id: int, owner: str, until: datetime, now: datetime) -> GameRecord | None:
        """Lease the game's delivery to Discord; None if another worker holds it."""
        ...

    async def release_delivery(
        self, game_id: int, owner: str, *, shown_version: int | None = ..., shown_moves: int | None = ...
    ) -> None:
        """End a delivery lease, recording how far Discord caught up."""
        ...

    async def note_notices(self, game_id: int, owner: str, *, moves: int, notices: int = 0) -> None:
        """The posts of the first `moves` moves went out, and `notices` of the next one's (under `owner`'s lease)."""
        ...

    async def release_all_deliveries(self) -> int:
        """Void every delivery lease (start-up, while holding the database's file lock)."""
        ...

    async def unshown_game_ids(self, after: int, limit: int) -> list[int]:
        """A page of the started games Discord is behind on: at most `limit` ids above `after`, in order."""
        ...

    async def move_to_channel(self, game_id: int) -> GameRecord:
        """Play on in the game's channel (its thread is gone); everything is shown anew."""
        ...

    async def game_counts(self) -> GameCounts:
        """How many of this process's games run, and how many Discord is behind on (cheap: the health check asks)."""
        ...


class Boards(Protocol):
    """Results as players compare them: leaderboards and player figures."""

    async def leaderboard(
        self,
        guild_id: int,
        kind: str,
        sort: LeaderboardSort = ...,
        page: int = ...,
        per_page: int = ...,
        min_games: int = ...,
        computers: bool = ...,
    ) -> LeaderboardPage:
        """One page of a server's board."""
        ...

    async def player_stats(self, user_id: int, guild_id: int) -> PlayerStats:
        """A player's figures."""
        ...


class ServerSettings(Protocol):
    """Each server's own choices."""

    async def pictures_on(self, guild_id: int) -> bool:
        """Whether the server's tables are shown as pictures."""
        ...

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        """Turn the server's table pictures on or off."""
        ...

    async def language(self, guild_id: int) -> str | None:
        """The locale a manager chose for the server's public text, or None: the server's own default."""
        ...

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Choose the locale of the server's public text (None: back to the server's own default)."""
        ...

    async def house_rules_preset(self, guild_id: int, kind: str) -> dict[str, Any]:
        """The server's usual house rules for a kind (settings by key), empty when none are saved."""
        ...

    async def save_house_rules_preset(self, guild_id: int, kind: str, settings: dict[str, Any], now: datetime) -> None:
        """Keep the server's usual house rules for a kind (an empty one removes them)."""
        ...

    async def reset_house_rules_preset(self, guild_id: int, kind: str) -> bool:
        """Forget the server's usual house rules for a kind; True if there were any."""
        ...


class MemberRecords(Protocol):
    """A member's stored data and a departed server's (issue 45): shown, forgotten, kept a while, then deleted."""

    async def member_data(self, user_id: int) -> MemberData:
        """Everything stored under a member's id."""
        ...

    async def member_games(self, user_id: int, statuses: Sequence[GameStatus] = ...) -> list[GameRecord]:
        """The games of `statuses` in which the member holds a seat."""
        ...

    async def forget_member(self, user_id: int, names: Sequence[str] = ...) -> Forgotten:
        """The member's id and names out of every row; their results and ratings deleted."""
        ...

    async def mark_departed(self, guild_id: int, now: datetime) -> None:
        """The bot was removed from a server."""
        ...

    async def clear_departed(self, guild_id: int) -> bool:
        """The bot is in a server (again); True if it had been marked as departed."""
        ...

    async def departed_since(self, guild_id: int) -> datetime | None:
        """When the bot was removed from a server; None while it is there."""
        ...

    async def departed_before(self, cutoff: datetime) -> list[int]:
        """The servers the bot was removed from before `cutoff`."""
        ...

    async def purge_guild(self, guild_id: int) -> list[int]:
        """Delete everything stored for a server; the deleted games' ids."""
        ...


class GameStore(GameRepository, DeliveryProjection, Boards, ServerSettings, MemberRecords, Protocol):
    """Every port at once: what one backend (`db.store.Store`, `db.postgres.store.PostgresStore`) provides."""


class StoreLifecycle(Protocol):
    """What only the bot's start-up and shutdown ask of its storage, beyond the ports of play."""

    def describe(self) -> str:
        """Where the games are kept, for the log (never a password)."""
        ...

    async def flush(self) -> None:
        """Wait until every write queued so far is saved or refused."""
        ...

    async def close(self) -> None:
        """Close the storage once the writes in progress are done."""
        ...


class OpenStore(GameStore, StoreLifecycle, Protocol):
    """A backend as the bot holds it once opened (`db.backends.open_storage`): every port, and its lifecycle."""


class PlayWatch(Protocol):
    """Told of what the service does, for the operator's figures (`cogs.runtime.metrics.Metrics`); it must not block."""

    def move_saved(self, kind: str) -> None:
        """A move of a game of `kind` was saved (a player's, a computer's or one made for an absent player)."""
        ...

    def decided(self, kind: str, seconds: float) -> None:
        """A computer player of a game of `kind` took `seconds` to decide (in its worker thread)."""
        ...


class Coordinator(Protocol):
    """One action at a time per game.

    `service.coordinator.LocalLocks` in one process; `db.postgres.locks.AdvisoryLocks` across the processes of one
    PostgreSQL database.
    """

    def lock(self, game_id: int) -> AbstractAsyncContextManager[object]:
        """Held while one action reads, checks and saves the game; another action on it waits."""
        ...

"""The table service: every game action the cogs perform, without Discord.

It owns the order of things for one action: take the game's lock, load, check who may act, ask the
engine, save move and snapshot in one version-checked write. Cogs translate Discord input into these
calls and render what comes back; nothing here knows a message, a button or a channel object.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from ai.base import Strength
from ai.players import player_for, strengths_for
from db.errors import StoreError
from db.records import DueTimer, GameRecord, GameStatus, MoveRecord, NewLobby, StartUpCheck
from engine.base import AnyGame, Event, Move, seat_order
from engine.errors import GameError, GameOverError, NotYourTurnError, SettingError
from engine.message import Joined, Message, Seat
from engine.registry import game_class, game_kind
from i18n import LOCALES
from service import house_rules
from service.coordinator import LocalLocks
from service.engine_cache import EngineCache
from service.errors import FROZEN as FROZEN  # the refusal of every action on a frozen game, for the cogs too
from service.errors import RefusedError
from service.ports import (
    Boards,
    Coordinator,
    DeliveryProjection,
    GameRepository,
    GameStore,
    PlayWatch,
    ServerSettings,
)
from service.timers import turn_timer

log = logging.getLogger(__name__)

# Every refusal, whose reason is for the player (`service.errors.refusal_message`): shown to them, nothing changed.
USER_ERRORS: tuple[type[Exception], ...] = (GameError, StoreError, RefusedError)

DEFAULT_AFK_LIMIT = 3
# Engines the background check of every log keeps for their games' next moves, at most: the cache is for games being
# played, and a check that kept all it restored filled it (8,192 engines, about 35 MB with 10,000 games) with games
# that mostly do not move soon (`python -m bench.bench_startup`).
CHECK_KEPT = 256


def narrate(events: Sequence[Event], lead: Sequence[Message] = ()) -> tuple[Message, ...]:
    """One action as messages: `lead` (why the bot acted, if it did), then each event's message."""
    return (*lead, *(event.message() for event in events))


def seating_line(record: GameRecord) -> Message:
    """The start: who sits where."""
    seats = (
        Message("shared.seat-number", {"number": index + 1, "player": Seat(index)})
        for index in range(len(record.seats))
    )
    return Message("shared.game-begins", {"seats": Joined(tuple(seats), "join.comma")})


@dataclass(frozen=True, slots=True)
class LobbyOptions:
    """What the host chose when opening a lobby."""

    seats: int
    settings: dict[str, Any] = field(default_factory=dict)
    turn_seconds: int | None = None
    afk_limit: int = DEFAULT_AFK_LIMIT


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What one action changed: the saved record, the engine after it, and the events to narrate.

    `auto` marks a move the bot made for a player (time ran out, or the host skipped them); `removed`
    is set when that also cost the player their seat.
    """

    record: GameRecord
    game: AnyGame
    events: tuple[Event, ...]
    seat: int
    move: str
    auto: bool = False
    removed: bool = False

    @property
    def finished(self) -> bool:
        """True when this action ended the game."""
        return self.record.status == "finished"

    @property
    def narration(self) -> tuple[Message, ...]:
        """The action's messages, as stored with it."""
        return self.record.narration


@dataclass(frozen=True, slots=True)
class Started:
    """A game that has just left its lobby."""

    record: GameRecord
    game: AnyGame


class TableService:
    """AnyGame actions for the cogs; one lock per game so two quick clicks are applied one after the other."""

    def __init__(
        self,
        store: GameStore,
        clock: Callable[[], datetime],
        new_seed: Callable[[], int] | None = None,
        coordinator: Coordinator | None = None,
        watch: PlayWatch | None = None,
    ) -> None:
        self.store = store
        self.watch = watch  # told of each saved move and computer decision (the bot's metrics); None: nobody
        self.clock = clock
        self.new_seed = new_seed or (lambda: secrets.randbits(62))
        self.coordinator = coordinator or LocalLocks()
        # Ports the cogs read directly: nothing of the service's rules stands between them and the store.
        self.games: GameRepository = store  # reads and lobby writes the service's rules need not stand between
        self.projection: DeliveryProjection = store
        self.boards: Boards = store
        self.server_settings: ServerSettings = store
        self.engines = EngineCache()  # the live engines of recently moved games (see service/engine_cache.py)
        self.check_kept = CHECK_KEPT  # engines the check of every log leaves in `engines` at most (`check_games`)
        # Whether this process is the only one that writes the store (`LocalLocks` says so; SQLite's file lock makes
        # it so): then a game held in `engines` is at the version the store holds, and a display need not read it.
        self.sole_writer = isinstance(self.coordinator, LocalLocks)

    def lock(self, game_id: int) -> AbstractAsyncContextManager[object]:
        """Held while one action changes the game: actions on one game happen one after the other."""
        return self.coordinator.lock(game_id)

    @staticmethod
    def game_of(record: GameRecord) -> AnyGame:
        """The engine state stored with a running or finished game."""
        if record.state is None:
            raise RefusedError(Message("refused.not-started"))
        return game_class(record.kind).from_dict(record.state)

    async def get(self, game_id: int) -> GameRecord:
        """The game's record.

        Raises:
            RefusedError: no such game.
        """
        record = await self.store.get_game(game_id)
        if record is None:
            raise RefusedError(Message("refused.no-such-game"))
        return record

    async def load(self, game_id: int) -> tuple[GameRecord, AnyGame]:
        """A running or finished game with its engine state."""
        record = await self.get(game_id)
        return record, self.game_of(record)

    def held_at(self, game_id: int, version: int) -> tuple[GameRecord, AnyGame] | None:
        """The game as it stood at `version`, from `engines` without a read (the engine a copy of the caller's own).

        For a click made on something drawn at `version`: what it names is looked up in exactly that state. Whether
        `version` is still the stored one is for the action to find out (it reads the game, and its write is
        version-checked). None when the cache does not hold the game at that version.
        """
        held = self.engines.peek(game_id, version)
        if held is None or held.record is None:
            return None
        return self._whole(held.record, held.game), held.game

    async def current(self, game_id: int) -> tuple[GameRecord, AnyGame | None]:
        """For a display: the game as the store holds it now, and its engine (the caller's own copy; None: a lobby).

        Where this process is the store's only writer (`sole_writer`) and `engines` holds the game, that is the stored
        version, and nothing is read. Else one read; the engine is then the cached one when it is at the version read,
        else restored from the snapshot.

        Raises:
            RefusedError: no such game.
        """
        held = self.engines.peek(game_id)
        if held is not None and held.record is not None and self.sole_writer:
            return self._whole(held.record, held.game), held.game
        record = await self.get(game_id)
        if record.state is None:
            return record, None
        if held is not None and held.version == record.version:
            return record, held.game
        return record, self.game_of(record)

    @staticmethod
    def _whole(record: GameRecord, game: AnyGame) -> GameRecord:
        """A cached record as the store gives it: with its snapshot (the engine's, as saved at that version)."""
        return replace(record, state=game.to_dict())

    def known(self, game_id: int) -> GameRecord | None:
        """The game's record as `engines` holds it, without a read, for what never changes (its kind, its server)."""
        return self.engines.record(game_id)

    # Queries: read-only, so no lock

    async def games_in_channel(
        self, channel_id: int, statuses: Sequence[GameStatus] = ("running",)
    ) -> list[GameRecord]:
        """Games (running ones unless `statuses` says otherwise) played in this channel or thread."""
        return await self.store.running_games_in_channel(channel_id, statuses=statuses)

    async def game_holding_channel(self, channel_id: int, *, besides: int | None = None) -> GameRecord | None:
        """The lobby or running game (other than `besides`) played in this channel itself, not in a thread of its own.

        Where the bot may not open threads, a channel holds one game at a time: a second lobby is refused at once.
        """
        for record in await self.store.running_games_in_channel(channel_id, statuses=("lobby", "running")):
            if record.id != besides and record.thread_id is None and record.channel_id == channel_id:
                return record
        return None

    async def games_in_guild(
        self, guild_id: int, statuses: Sequence[GameStatus] = ("lobby", "running")
    ) -> list[GameRecord]:
        """The server's games with one of `statuses`, oldest first."""
        return await self.store.games_in_guild(guild_id, statuses=statuses)

    async def due_timers(self, now: datetime) -> list[DueTimer]:
        """The games whose timer needs the bot at `now`: expired (`is_expired(now)`), else due for the warning.

        Read through an index, without snapshots; act on each with `expire` or `mark_warned` and its version.
        """
        return await self.store.due_timers(now)

    async def recover(self) -> StartUpCheck:
        """Start-up, in a time that does not grow with the games' logs: lobbies and running games, cheaply checked.

        Games whose snapshot and log plainly disagree are repaired or frozen now (`frozen`: say so); every other
        running game is checked against its whole log the first time an action changes it, or by `check_games`.
        """
        return await self.store.start_up_check()

    async def check_games(self) -> list[GameRecord]:
        """After start-up, in the background: check every running game not yet checked against its whole log.

        One game at a time, under its lock, yielding to other work between games, so play goes on meanwhile. The
        check restores each game, so its engine is then kept for the game's next move (`engines`), which need not
        restore it again, while the cache holds fewer than `check_kept` (a game the cache held already is kept as
        before): the check pushes out no engine of a game being played, and with thousands of running games it does
        not fill the cache with games that may not move for hours. Returns the games frozen by any check since
        start-up (each once): their players should be told.
        """
        for game_id in await self.store.unchecked_games():
            async with self.lock(game_id):
                held = game_id in self.engines  # played since start-up: its engine goes back whatever the room
                try:
                    record, game = await self._running_engine(game_id, None)
                except RefusedError:
                    pass  # frozen by the check, finished or gone meanwhile: nothing to keep
                else:
                    if held or len(self.engines) < self.check_kept:
                        self.engines.keep(game_id, record.version, game)
            await asyncio.sleep(0)
        return self.store.take_frozen()

    async def set_pictures(self, guild_id: int, on: bool, *, is_manager: bool) -> None:
        """Turn this server's table pictures on or off.

        Raises:
            RefusedError: the caller may not manage the server.
        """
        if not is_manager:
            raise RefusedError(Message("refused.pictures-managers-only"))
        await self.store.set_pictures(guild_id, on)

    async def set_language(self, guild_id: int, language: str | None, *, is_manager: bool) -> None:
        """Choose the locale of this server's public text (None: the server's own default).

        Raises:
            RefusedError: the caller may not manage the server, or the locale has no catalog.
        """
        if not is_manager:
            raise RefusedError(Message("refused.language-managers-only"))
        if language is not None and language not in LOCALES:
            choices = Joined(tuple(LOCALES), "join.comma")
            raise RefusedError(Message("refused.unknown-language", {"language": language, "choices": choices}))
        await self.store.set_language(guild_id, language)

    async def cancel_lost(self, game_id: int) -> GameRecord:
        """Neither the thread nor the channel of the game is left: cancel it without results."""
        async with self.lock(game_id):
            self.engines.forget(game_id)
            return await self.store.cancel_game(game_id, self.clock())

    async def events_after(self, record: GameRecord, shown_moves: int) -> list[tuple[int, tuple[Event, ...]]]:
        """The events of each logged move after the first `shown_moves`, recomputed by replaying the log (B1).

        Used when the events are no longer in memory (a restart, or a delivery that failed earlier).
        """
        moves = await self.store.game_moves(record.id)
        cls = game_class(record.kind)
        game = cls.new(len(record.seats), record.seed, cls.settings_from_dict(record.settings))
        found = []
        for logged in moves:
            events = game.play(logged.seat, logged.move)
            if logged.seq > shown_moves:
                found.append((logged.seq, tuple(events)))
        return found

    # Lobby

    async def open_lobby(
        self,
        kind: str,
        options: LobbyOptions,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        from_preset: bool = True,
    ) -> GameRecord:
        """A new lobby with the host in the first seat.

        Its settings start from the server's usual house rules for the kind (`from_preset`; those that do not fit the
        seats are left out), under what the host chose (`options.settings`).

        Raises:
            RefusedError: the seat count, a setting or the timer is out of range, or the chosen settings do not fit
                the seats.
        """
        the_kind = game_kind(kind)
        try:
            the_kind.check_seats(options.seats)
        except SettingError as error:
            raise RefusedError(error.message) from error
        settings = dict(options.settings)
        try:
            game_class(kind).settings_from_dict(settings)
        except (ValueError, TypeError) as error:
            # The lobby checked each option (`GameKind.options`), so this is settings stored or built elsewhere
            # (a rematch of an older game): the engine's reason is for the log, the player is told they don't work.
            log.warning("%s settings %r refused: %s", kind, options.settings, error)
            raise RefusedError(Message("refused.settings-unusable")) from error
        if from_preset and the_kind.house_rules:
            preset = house_rules.preset_of(the_kind, await self.store.house_rules_preset(guild_id, kind))
            settings = house_rules.starting_settings(the_kind, preset, settings, options.seats)
        misfit = house_rules.misfit(the_kind, settings, options.seats)
        if misfit is not None:
            raise RefusedError(misfit)
        if (options.turn_seconds is not None and options.turn_seconds < 1) or options.afk_limit < 1:
            raise RefusedError(Message("refused.timer-too-small"))
        lobby = NewLobby(
            kind,
            guild_id,
            channel_id,
            host_id,
            host_name,
            settings,
            self.new_seed(),
            options.seats,
            turn_seconds=options.turn_seconds,
            afk_limit=options.afk_limit,
        )
        return await self.store.create_lobby(lobby, self.clock())

    async def rematch(self, game_id: int, user_id: int, user_name: str) -> GameRecord:
        """A new lobby with the finished game's options, hosted by the player who asked.

        Raises:
            RefusedError: the game is not over, or the caller did not play in it.
        """
        record = await self.get(game_id)
        if record.status != "finished":
            raise RefusedError(Message("refused.rematch-not-finished"))
        if record.seat_of(user_id) is None:
            raise RefusedError(Message("refused.rematch-players-only"))
        options = LobbyOptions(record.max_seats, record.settings, record.turn_seconds, record.afk_limit)
        return await self.open_lobby(
            record.kind,
            options,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=user_id,
            host_name=user_name,
            from_preset=False,  # the same rules as the game just played
        )

    async def set_house_rule(self, game_id: int, user_id: int, setting: str, value: object) -> GameRecord:
        """The host sets one house rule of the lobby (`setting` is the rule's, `value` one it allows).

        The lobby's settings must still suit its seats afterwards (`GameKind.house_rules_fit`): Start checks them
        again against the players seated then.

        Raises:
            RefusedError: not a lobby any more, not the host, no such rule or value, or the rules would not fit the
                lobby's seats (the kind's reason); nothing changed.
        """
        async with self.lock(game_id):
            record = await self.get(game_id)
            if record.status != "lobby":
                raise RefusedError(Message("refused.house-rules-started"))
            if user_id != record.host_id:
                raise RefusedError(Message("refused.host-only-house-rules"))
            kind = game_kind(record.kind)
            rule = house_rules.rule_of(kind, setting)
            settings = {**record.settings, setting: house_rules.checked_value(rule, value)}
            misfit = house_rules.misfit(kind, settings, record.max_seats)
            if misfit is not None:
                raise RefusedError(misfit)
            return await self.store.set_lobby_settings(
                game_id, settings, self.clock(), expected_version=record.version
            )

    # Server presets: a server's usual house rules per kind, which its new lobbies start from

    async def house_rules_preset(self, guild_id: int, kind: str) -> dict[str, Any]:
        """The server's usual house rules for `kind` (only those off their defaults; empty: the main rules)."""
        the_kind = game_kind(kind)
        return house_rules.preset_of(the_kind, await self.store.house_rules_preset(guild_id, kind))

    async def set_preset_rule(
        self, guild_id: int, kind: str, setting: str, value: object, *, is_manager: bool
    ) -> dict[str, Any]:
        """A manager sets one of the server's usual house rules for `kind`; returns the preset as saved.

        A preset is not tied to a number of seats: a lobby leaves out what does not fit its own.

        Raises:
            RefusedError: not a manager, no such rule or value, or settings the game cannot be played with.
        """
        if not is_manager:
            raise RefusedError(Message("refused.house-rules-managers-only"))
        the_kind = game_kind(kind)
        rule = house_rules.rule_of(the_kind, setting)
        preset = {**await self.house_rules_preset(guild_id, kind), setting: house_rules.checked_value(rule, value)}
        return await self._save_preset(guild_id, the_kind.name, preset)

    async def save_lobby_as_preset(self, game_id: int, *, guild_id: int, is_manager: bool) -> dict[str, Any]:
        """A manager keeps a lobby's house rules as the server's usual ones for its kind; returns the preset.

        Raises:
            RefusedError: not a manager, or the lobby is of another server.
        """
        if not is_manager:
            raise RefusedError(Message("refused.house-rules-managers-only"))
        record = await self.get(game_id)
        if record.guild_id != guild_id:
            raise RefusedError(Message("refused.no-such-game"))
        kind = game_kind(record.kind)
        return await self._save_preset(guild_id, kind.name, house_rules.differing(kind, record.settings))

    async def reset_preset(self, guild_id: int, kind: str, *, is_manager: bool) -> bool:
        """A manager forgets the server's usual house rules for `kind`; True if there were any.

        Raises:
            RefusedError: not a manager.
        """
        if not is_manager:
            raise RefusedError(Message("refused.house-rules-managers-only"))
        return await self.store.reset_house_rules_preset(guild_id, game_kind(kind).name)

    async def _save_preset(self, guild_id: int, kind: str, preset: dict[str, Any]) -> dict[str, Any]:
        the_kind = game_kind(kind)
        kept = house_rules.differing(the_kind, preset)
        try:
            the_kind.engine.settings_from_dict(kept)
        except (ValueError, TypeError) as error:
            log.info("%s preset %r refused: %s", kind, kept, error)
            raise RefusedError(house_rules.UNUSABLE) from error
        await self.store.save_house_rules_preset(guild_id, kind, kept, self.clock())
        return kept

    async def join(self, game_id: int, user_id: int, name: str) -> GameRecord:
        """Seat a player in the lobby."""
        async with self.lock(game_id):
            return await self.store.join_lobby(game_id, user_id, name, self.clock())

    async def leave(self, game_id: int, user_id: int) -> GameRecord:
        """Take a player out of the lobby (the host cancels instead)."""
        async with self.lock(game_id):
            return await self.store.leave_lobby(game_id, user_id, self.clock())

    async def start(self, game_id: int, user_id: int) -> Started:
        """Deal: seats drawn from the game's seed, the engine's first state saved.

        Raises:
            RefusedError: not the host, or fewer than two players (computers count; the host is a member).
        """
        async with self.lock(game_id):
            record = await self.get(game_id)
            if record.status != "lobby":
                started = record.status == "running"
                raise RefusedError(Message("refused.already-started" if started else "refused.game-finished"))
            if user_id != record.host_id:
                raise RefusedError(Message("refused.host-only-start"))
            if len(record.seats) < 2 or not record.humans:
                raise RefusedError(Message("refused.too-few-players"))
            misfit = house_rules.misfit(game_kind(record.kind), record.settings, len(record.seats))
            if misfit is not None:  # the rules fit the lobby's seats, but not the players seated now
                raise RefusedError(Message("refused.house-rules-start", {"reason": misfit}))
            cls = game_class(record.kind)
            order = seat_order(record.seed, len(record.seats))
            game = cls.new(len(record.seats), record.seed, cls.settings_from_dict(record.settings))
            users = [record.seats[index].user_id for index in order]
            seated = replace(record, seats=tuple(record.seats[index] for index in order))
            computer_first = game.to_move is not None and users[game.to_move] is None
            deadline = self._deadline(record, game, computer=computer_first)
            saved = await self.store.start_game(
                game_id,
                record.version,
                users,
                game.to_dict(),
                self.clock(),
                timer=turn_timer(deadline, record.turn_seconds),
                narration=[seating_line(seated)],
            )
            self.engines.keep(saved.id, saved.version, game.copy(), saved)  # its first move need not restore it
            return Started(saved, game)

    async def cancel(self, game_id: int, user_id: int, *, is_manager: bool) -> GameRecord:
        """End a lobby or game without results.

        Raises:
            RefusedError: neither the host nor a server manager.
        """
        async with self.lock(game_id):
            record = await self.get(game_id)
            self._require_host(record, user_id, is_manager, "refused.host-only-cancel")
            self.engines.forget(game_id)
            return await self.store.cancel_game(game_id, self.clock())

    # Play

    async def play(self, game_id: int, user_id: int, move: str | Move, *, version: int | None = None) -> MoveResult:
        """Apply a player's move, typed or picked; `version` refuses a click made on an older table.

        Raises:
            RefusedError, GameError, StoreError: with the reason; the game is unchanged.
        """
        async with self.lock(game_id):
            record, game, seat = await self._load_for(game_id, user_id, version)
            if game.to_move is None:
                raise GameOverError(Message("refused.game-over"))
            if game.to_move != seat:
                to_move = record.seats[game.to_move].name
                raise NotYourTurnError(Message("refused.others-turn", {"player": to_move}))
            parsed = game.parse_move(seat, move) if isinstance(move, str) else move
            result = await self._apply(record, game, seat, parsed, auto=False)
            if record.seats[seat].auto_streak:
                # They are back: the AFK count restarts.
                await self.store.set_auto_streak(game_id, seat, 0, expected_version=result.record.version)
            return result

    async def play_computer(
        self, game_id: int, *, version: int, decide: Callable[[GameRecord, AnyGame, int, list[MoveRecord]], Move]
    ) -> MoveResult:
        """A computer seat's next decision, made by `decide(record, game, seat, log)` off the event loop, and saved.

        `version` is the one the caller saw the computer's turn at: if anything moved since, nothing happens.

        Raises:
            RefusedError, StoreError: the game moved on, is over, or the seat to move is not a computer's.
        """
        async with self.lock(game_id):
            record, game = await self._running_engine(game_id, version)
            seat = game.to_move
            if seat is None or not record.seats[seat].is_computer:
                raise RefusedError(Message("refused.no-computer-to-move"))
            moves = await self.store.game_moves(game_id)
            move = await asyncio.to_thread(self._timed, decide, record, game, seat, moves)
            log.debug("game #%d: %s plays %s", game_id, record.seats[seat].name, move)
            return await self._apply(record, game, seat, move, auto=False)

    def _timed(
        self,
        decide: Callable[[GameRecord, AnyGame, int, list[MoveRecord]], Move],
        record: GameRecord,
        game: AnyGame,
        seat: int,
        moves: list[MoveRecord],
    ) -> Move:
        """`decide`, in its worker thread, its duration told to the watch (the thread's own time, not the queue's)."""
        started = time.perf_counter()
        try:
            return decide(record, game, seat, moves)
        finally:
            if self.watch is not None:
                self.watch.decided(record.kind, time.perf_counter() - started)

    async def resign(self, game_id: int, user_id: int) -> MoveResult:
        """The player gives up: they place last; with one opponent left the game ends."""
        async with self.lock(game_id):
            record, game, seat = await self._load_for(game_id, user_id, None)
            return await self._apply(record, game, seat, game.resign_move(), auto=False)

    async def remove(self, game_id: int, user_id: int, target_id: int, *, is_manager: bool) -> MoveResult:
        """The host resigns another player (gone for good, or holding everyone up).

        Raises:
            RefusedError: not the host, or the target has no seat.
        """
        async with self.lock(game_id):
            record, game = await self._running_engine(game_id, None)
            self._require_host(record, user_id, is_manager, "refused.host-only-remove")
            seat = record.seat_of(target_id)
            if seat is None:
                raise RefusedError(Message("refused.member-not-playing"))
            lead = Message("shared.host-removed", {"host": self._host_name(record, user_id), "player": Seat(seat)})
            return await self._apply(record, game, seat, game.resign_move(), auto=True, lead=(lead,))

    async def skip(
        self, game_id: int, user_id: int, *, is_manager: bool, by_name: str | None = None
    ) -> list[MoveResult]:
        """The host plays the current player's turn for them; it counts as an automatic turn.

        Raises:
            RefusedError: not the host.
        """
        async with self.lock(game_id):
            record, game = await self._running_engine(game_id, None)
            self._require_host(record, user_id, is_manager, "refused.host-only-skip")
            by = by_name or self._host_name(record, user_id)
            return await self._play_for_absent(record, game, Message("shared.reason-skipped", {"host": by}))

    async def expire(self, game_id: int, *, version: int) -> list[MoveResult]:
        """The turn's time ran out: play it for the player; after too many such turns in a row, resign them.

        `version` is the one the deadline was read with: if anything moved since, nothing happens (StoreError).
        """
        async with self.lock(game_id):
            record, game = await self._running_engine(game_id, version)
            return await self._play_for_absent(record, game, Message("shared.reason-timed-out"))

    async def mark_warned(self, game_id: int, *, version: int) -> GameRecord:
        """Record that the player to move was warned of their deadline; returns the game as warned.

        `version` is the one the deadline was read with. Under the game's lock, so a move cannot land between the
        check and the write: if anything moved since (or the warning already went out), nothing changes.

        Raises:
            RefusedError, StoreError: the warning is no longer due.
        """
        async with self.lock(game_id):
            record = await self._running(game_id, version)
            if record.warned or record.deadline is None:
                raise RefusedError(Message("refused.no-warning-due"))
            warned = record.timer.as_warned()
            await self.store.set_timer(game_id, warned, expected_version=version)
            return replace(record, timer=warned)

    async def _play_for_absent(self, record: GameRecord, game: AnyGame, reason: Message) -> list[MoveResult]:
        seat = game.to_move
        if seat is None:
            raise RefusedError(Message("refused.game-finished"))
        if record.seats[seat].is_computer:  # issue 15: they move by themselves, never on a timer or a skip
            raise RefusedError(Message("refused.computer-moves-itself", {"player": record.seats[seat].name}))
        results = []
        lead: tuple[Message, ...] = (Message("shared.bot-played", {"player": Seat(seat), "reason": reason}),)
        # A turn can hold several decisions (a Garbage Jack's spot): finish the whole turn. Each decision's stored
        # narration repeats the earlier ones, so the table tells the whole turn whichever decision it shows last.
        while game.to_move == seat:
            move = self._absent_move(record, game, seat)
            result = await self._apply(record, game, seat, move, auto=True, lead=lead)
            results.append(result)
            record, game, lead = result.record, result.game, result.narration
        streak = record.seats[seat].auto_streak + 1
        await self.store.set_auto_streak(record.id, seat, streak, expected_version=record.version)
        if streak >= record.afk_limit and record.status == "running" and not self._has_resigned(game, seat):
            why = Message("shared.auto-resigned", {"player": Seat(seat), "turns": streak})
            resigned = await self._apply(record, game, seat, game.resign_move(), auto=True, lead=(why,))
            results.append(replace(resigned, removed=True))
        return results

    @staticmethod
    def _absent_move(record: GameRecord, game: AnyGame, seat: int) -> Move:
        """The move made for a player whose time ran out: what the medium computer player would play.

        It decides from that seat's view alone, and its randomness comes from the game's seed, so the same position
        always gets the same move; the move itself is logged like any other (B1). Should it fail, the engine's fixed
        simple move stands in, so an absent player's turn is always played.
        """
        if Strength.MEDIUM not in strengths_for(record.kind):  # a kind without computer players: its own simple move
            simple: Move = game.auto_move(seat)
            return simple
        try:
            choice: Move = player_for(record.kind, Strength.MEDIUM, seed=record.seed + seat).choose(game.view(seat))
        except Exception:
            log.exception("game #%d: no computer choice for seat %d; the simple move stands in", record.id, seat)
            fallback: Move = game.auto_move(seat)
            return fallback
        return choice

    async def _running(self, game_id: int, version: int | None, *, held_version: int | None = None) -> GameRecord:
        # Every action that changes a game comes here: the first one after start-up checks it against its log.
        record = await self.store.checked_game(game_id, held_version=held_version)
        if record is None:
            raise RefusedError(Message("refused.no-such-game"))
        if record.status == "lobby":
            raise RefusedError(Message("refused.not-started"))
        if record.status == "frozen":
            raise RefusedError(FROZEN)
        if record.status != "running":
            raise RefusedError(Message("refused.game-finished"))
        if version is not None and version != record.version:
            raise RefusedError(Message("refused.out-of-date"))
        return record

    async def _running_engine(self, game_id: int, version: int | None) -> tuple[GameRecord, AnyGame]:
        """The running game and its engine: the cached one if the game is still at its version, else the snapshot's.

        The cached engine leaves the cache here (only this action, under the game's lock, may change it); after a
        refusal it is simply gone, and the next action restores the game from its snapshot. With the cached engine,
        the record comes without the last change's narration: the action is about to change the game, and says its
        own.
        """
        held = self.engines.take(game_id)
        record = await self._running(game_id, version, held_version=None if held is None else held.version)
        if record.state is None and held is not None and held.version == record.version:
            return record, held.game
        return record, self.game_of(record)

    async def running_engine(self, game_id: int, version: int | None = None) -> tuple[GameRecord, AnyGame]:
        """For an action that changes the running game (hold its `lock`): the record and its engine, to change.

        Raises:
            RefusedError: no such game, not running (frozen, over, a lobby), or no longer at `version`.
        """
        return await self._running_engine(game_id, version)

    def turn_deadline(self, record: GameRecord, game: AnyGame) -> datetime | None:
        """When the turn now to play runs out (None: no timer, a computer's turn, or the game is over)."""
        return self._deadline(record, game)

    async def _load_for(self, game_id: int, user_id: int, version: int | None) -> tuple[GameRecord, AnyGame, int]:
        record, game = await self._running_engine(game_id, version)
        seat = record.seat_of(user_id)
        if seat is None:
            raise RefusedError(Message("refused.not-playing"))
        return record, game, seat

    async def _apply(
        self, record: GameRecord, game: AnyGame, seat: int, move: Move, *, auto: bool, lead: Sequence[Message] = ()
    ) -> MoveResult:
        events = game.apply(seat, move)
        deadline = self._deadline(record, game)
        saved = await self.store.save_move(
            record.id,
            record.version,
            seat,
            str(move),
            game.to_dict(),
            self.clock(),
            auto=auto,
            timer=turn_timer(deadline, record.turn_seconds),
            outcome=game.outcome(),
            narration=narrate(events, lead),
        )
        if self.watch is not None:
            self.watch.move_saved(saved.kind)
        if saved.status == "running":  # the next move starts from a copy of this engine (`game` goes to the caller)
            self.engines.keep(saved.id, saved.version, game.copy(), saved)
        return MoveResult(saved, game, events, seat, str(move), auto)

    def _deadline(self, record: GameRecord, game: AnyGame, *, computer: bool | None = None) -> datetime | None:
        # No timer for a computer seat's turn (issue 15); `computer` says whose turn it is when seats are reordered.
        if computer is None and game.to_move is not None:
            computer = record.seats[game.to_move].is_computer
        if record.turn_seconds is None or game.to_move is None or computer:
            return None
        return self.clock() + timedelta(seconds=record.turn_seconds)

    @staticmethod
    def _has_resigned(game: AnyGame, seat: int) -> bool:
        return bool(game.public_view().seats[seat].resigned)

    @staticmethod
    def _require_host(record: GameRecord, user_id: int, is_manager: bool, refusal: str) -> None:
        """Refuse with the message `refusal` ("Only the host or someone with Manage Server can …") unless allowed."""
        if user_id != record.host_id and not is_manager:
            raise RefusedError(Message(refusal))

    @staticmethod
    def _host_name(record: GameRecord, user_id: int) -> str | Message:
        seat = record.seat_of(user_id)
        return record.seats[seat].name if seat is not None else Message("shared.the-host")

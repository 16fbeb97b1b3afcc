"""A game's history, replayed from its move log (B1): every move's events and narration, and the game after it.

Nothing here is stored beyond what the table already keeps: the seed, the settings and the move log rebuild the game
move by move, so the history of a game, running or finished, is told from the same facts as its table was. What a
history shows of a running game is the public view and the public narration at each move (the engines' events hold
face-up cards only); whatever a finished game may reveal besides is the presenter's to add (`cogs.history`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from db.records import GameRecord, MoveRecord, Occupant, SeatChange, SeatRecord
from engine.base import AnyGame, Event
from engine.errors import GameError
from engine.message import Message, Seat
from engine.registry import game_class
from service.errors import RefusedError
from service.ports import GameRepository
from service.tables import narrate, seating_line


@dataclass(frozen=True, slots=True)
class Step:
    """The game after one step: step 0 is the deal, step `n` the `n`-th logged move (`seq`).

    `narration` is the step as the table told it: the seating for the deal; for a move, its events' messages, after
    a line saying the bot played it where it was an automatic move (time ran out, skipped, or removed).
    """

    number: int
    seat: int | None
    move: str | None
    auto: bool
    at: datetime | None
    events: tuple[Event, ...]
    narration: tuple[Message, ...]
    game: AnyGame  # the game after this step (a copy of its own): its public view is what the table showed
    seats: tuple[SeatRecord, ...] = ()  # who held each seat then (seats change hands: issue 28)


@dataclass(frozen=True, slots=True)
class GameHistory:
    """A started game replayed from its log, up to its `len(steps) - 1`-th move."""

    record: GameRecord
    steps: tuple[Step, ...]
    # A frozen game's log may stop replaying: the move (`seq`) the replay refused, where the history ends before it.
    broken_at: int | None = None

    @property
    def frozen(self) -> bool:
        """Whether the game was stopped because its log could not be restored (it may tell fewer moves than it has)."""
        return self.record.status == "frozen"

    @property
    def finished(self) -> bool:
        """Whether the game is over and recorded: only then may a history reveal more than a spectator saw."""
        return self.record.status == "finished"

    @property
    def moves(self) -> int:
        """How many logged moves the history holds."""
        return len(self.steps) - 1

    def step(self, number: int) -> Step:
        """The step `number`, clamped to the steps there are (a page's button may point past a shorter history)."""
        return self.steps[max(0, min(number, len(self.steps) - 1))]


def _held(seat: SeatRecord, by: Occupant) -> SeatRecord:
    return replace(seat, user_id=by.user_id, name=by.name, is_computer=by.is_computer, strength=by.strength)


def _holders(record: GameRecord, changes: Sequence[SeatChange], step: int) -> tuple[SeatRecord, ...]:
    """The seats as held after step `step`.

    A vacated seat's change shows from its `rejoin` move on (that move, `after_move`, is the new player's); a computer's
    seat taken over shows from the move after `after_move` (the computer made that one).
    """
    seats = list(record.seats)
    for change in sorted(changes, key=lambda change: change.number, reverse=True):
        if change.after_move + (1 if change.before.is_computer else 0) > step:
            seats[change.seat] = _held(seats[change.seat], change.before)
    return tuple(seats)


def replay_history(
    record: GameRecord, moves: Sequence[MoveRecord], changes: Sequence[SeatChange] = ()
) -> GameHistory:
    """Replay the game from its seed and settings through `moves`, keeping every step.

    Seat `changes` (issue 28) name each step's players as they were then, and a change without a move of its own (a
    member taking a computer's seat) is told after the move it followed. A frozen game (its log could not be restored
    at start-up) is told as far as its log replays: the history ends before the first move the replay refuses.

    Raises:
        RefusedError: the game never started (a lobby: there is nothing to tell).
        GameError: a logged move of a game that is not frozen is refused in the replayed position.
    """
    if record.state is None or record.status == "lobby":
        raise RefusedError(Message("refused.not-started"))
    cls = game_class(record.kind)
    game = cls.new(len(record.seats), record.seed, cls.settings_from_dict(record.settings))
    told_apart = {change.after_move: change.narration for change in changes if change.before.is_computer}
    first = _holders(record, changes, 0)
    steps = [Step(0, None, None, False, record.created_at, (), (seating_line(record),), game.copy(), first)]
    for logged in moves:
        try:
            events = tuple(game.play(logged.seat, logged.move))
        except GameError:
            if record.status != "frozen":
                raise
            return GameHistory(record, tuple(steps), broken_at=logged.seq)
        lead = (Message("shared.bot-played-short", {"player": Seat(logged.seat)}),) if logged.auto else ()
        narration = narrate(events, lead) + told_apart.get(logged.seq, ())
        held = _holders(record, changes, logged.seq)
        at = logged.created_at
        steps.append(Step(logged.seq, logged.seat, logged.move, logged.auto, at, events, narration, game.copy(), held))
    return GameHistory(record, tuple(steps))


async def load_history(
    games: GameRepository, game_id: int, *, guild_id: int | None, moves: int | None = None
) -> GameHistory:
    """The history of game `game_id` of server `guild_id`, through its first `moves` moves (None: all, as stored now).

    The replay runs in a worker thread: the longest legal games (some 1,700 moves) take a few tenths of a second to
    replay, which would hold up every other game's interactions on the event loop.

    Raises:
        RefusedError: no such game in that server (a game of another server is not told apart from none), or it
            never started.
    """
    record = await games.get_game(game_id)
    if record is None or record.guild_id != guild_id:
        raise RefusedError(Message("lookup.no-such-game", {"number": game_id}))
    logged = await games.game_moves(game_id)
    if moves is not None:
        logged = [move for move in logged if move.seq <= moves]
    changes = await games.seat_changes(game_id)
    return await asyncio.to_thread(replay_history, record, logged, changes)

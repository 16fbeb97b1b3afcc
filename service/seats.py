"""Seats that change hands during a game (issue 28), for any kind: no kind is named here.

Two changes, each the host's (or a server manager's) decision:
- the host gives a *vacated* seat (its player resigned or was removed) to a computer player of a chosen strength;
- a member asks to take a computer's seat or a vacated seat, and the host approves.

How the engine sees it: a vacated seat is resigned in the engine, whose resigned seats are played automatically. The
change logs the engine's `rejoin` move for the seat, which takes it out of the resigned seats: from then on it waits
for its new player (a member's turn, or the computer's decision, `service.computers`) and places by its standing. The
move log holds `rejoin`, so a replay of the log (B1) reaches the same state. A computer's seat was never resigned, so a
member taking it changes who holds it, and logs no move.

Every change is one write (`GameStore.change_seat`): the seat's new holder, the rejoin (if any), the narration the
table tells, and the change itself (`seat_changes`), which history, replays and the results read. The seat's private
panel follows the seat's holder: the store forgets how the previous holder was reached, so no later panel goes to
them. A member holds at most one seat of a game, ever: one already seated, or who left a seat of the game, is refused.
How a finished game credits a seat that changed hands is `db.results`' (and the README's and `/rules`').
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ai.base import Strength
from db.records import GameRecord, Occupant, free_computer_name
from engine.base import AnyGame
from engine.message import Joined, Message
from service.computers import offered_strengths
from service.errors import RefusedError
from service.tables import MoveResult, TableService
from service.timers import turn_timer


def occupant_words(occupant: Occupant) -> str | Message:
    """Who holds a seat, as narration names them: a member by name, a computer by its strength in the reader's words."""
    if occupant.strength is None:
        return occupant.name
    return Message("computers.name", {"strength": Message(f"computers.strength.{occupant.strength}")})


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A member's request for a seat, checked and waiting for the host: the game, the seat and who holds it now."""

    record: GameRecord
    seat: int
    holder: Occupant


def vacated(game: AnyGame, seat: int) -> bool:
    """Whether the seat's player left (resigned or was removed), so it is played automatically until taken over."""
    return bool(game.public_view().seats[seat].resigned)


def held_seat(record: GameRecord, game: AnyGame, user_id: int) -> int | None:
    """The seat the member holds and still plays; None when they have none, or left theirs (resigned, removed).

    A seat's private views (its panels, Show my hand, `/<kind> hand`) go to its current holder only. The record still
    names a member who left until someone takes the seat over, but the cards dealt to it afterwards are not theirs.
    """
    seat = record.seat_of(user_id)
    return None if seat is None or vacated(game, seat) else seat


def takeable(record: GameRecord, game: AnyGame, seat: int) -> bool:
    """Whether a member may ask for the seat: a computer's, or a vacated one."""
    return record.seats[seat].is_computer or vacated(game, seat)


def takeable_seats(record: GameRecord, game: AnyGame) -> tuple[int, ...]:
    """The seats a member may ask for now (none once the game is over)."""
    if record.status != "running" or game.to_move is None:
        return ()
    return tuple(seat for seat in range(len(record.seats)) if takeable(record, game, seat))


class OpenRequests:
    """The seat requests waiting for the host's answer: at most one per member and game.

    So one member cannot ping the host over and over. Kept in memory: after a restart a member may ask once more
    (the request before it still waits for its answer).
    """

    def __init__(self) -> None:
        self._open: dict[int, set[int]] = {}

    def open(self, game_id: int, user_id: int) -> None:
        """Note the member's request for a seat of the game.

        Raises:
            RefusedError: the member has a request of this game waiting already.
        """
        waiting = self._open.setdefault(game_id, set())
        if user_id in waiting:
            raise RefusedError(Message("refused.seat-already-asked"))
        waiting.add(user_id)

    def close(self, game_id: int, user_id: int) -> None:
        """The request is answered (or could not be posted): the member may ask again."""
        waiting = self._open.get(game_id)
        if waiting is None:
            return
        waiting.discard(user_id)
        if not waiting:
            del self._open[game_id]


class SeatChanges:
    """The seat changes of running games, on top of the table service (its locks, engines and store)."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables

    async def give_to_computer(
        self, game_id: int, host_id: int, seat: int, strength: str, *, is_manager: bool
    ) -> MoveResult:
        """The host gives the vacated seat `seat` (0-based) to a computer player of `strength`, which plays it on.

        Raises:
            RefusedError: not the host, no such seat or strength, the seat is not vacated, the game is not running.
        """
        async with self.tables.lock(game_id):
            record, game = await self.tables.running_engine(game_id)
            self._require_host(record, host_id, is_manager)
            self._check_seat(record, seat)
            offered = offered_strengths(record.kind)
            if strength not in offered:
                strengths = Joined(offered, "join.comma", "join.or")
                raise RefusedError(Message("refused.no-such-computer", {"strengths": strengths}))
            if not vacated(game, seat):
                raise RefusedError(Message("refused.seat-not-vacated", {"number": seat + 1}))
            chosen = Strength(strength).value
            to = Occupant(None, free_computer_name(record.seats, chosen), chosen)
            return await self._change(record, game, seat, to, host_id)

    async def ask(self, game_id: int, user_id: int, seat: int) -> SeatRequest:
        """Check a member's request for `seat` (0-based) before it goes to the host; nothing is stored.

        Raises:
            RefusedError: the game is not running, no such seat, the seat is a member's who still plays it, or the
                member already holds a seat of the game or left one.
        """
        record, game = await self.tables.load(game_id)
        self._check_taker(record, game, seat, user_id, await self._left_before(record))
        return SeatRequest(record, seat, Occupant.of(record.seats[seat]))

    async def approve(
        self, game_id: int, host_id: int, seat: int, user_id: int, user_name: str, *, is_manager: bool
    ) -> MoveResult:
        """The host approves a member's request: the member takes `seat` (0-based) from now on.

        Everything `ask` checked is checked again: the game may have moved on since the request.

        Raises:
            RefusedError: not the host, or the request no longer holds (see `ask`).
        """
        async with self.tables.lock(game_id):
            record, game = await self.tables.running_engine(game_id)
            self._require_host(record, host_id, is_manager)
            self._check_taker(record, game, seat, user_id, await self._left_before(record))
            return await self._change(record, game, seat, Occupant(user_id, user_name), host_id)

    async def check_answerer(self, game_id: int, host_id: int, *, is_manager: bool) -> GameRecord:
        """Check that the one answering a request may: the host (or a manager). Nothing changes.

        Raises:
            RefusedError: not the host, or no such game.
        """
        record = await self.tables.get(game_id)
        self._require_host(record, host_id, is_manager)
        return record

    async def decline(self, game_id: int, host_id: int, *, is_manager: bool) -> GameRecord:
        """The host declines a member's request: nothing changes once the one declining is checked.

        Raises:
            RefusedError: not the host, or no such game.
        """
        return await self.check_answerer(game_id, host_id, is_manager=is_manager)

    async def _change(self, record: GameRecord, game: AnyGame, seat: int, to: Occupant, host_id: int) -> MoveResult:
        before = Occupant.of(record.seats[seat])
        move = game.rejoin_move() if vacated(game, seat) else None
        events = game.apply(seat, move) if move is not None else ()
        host = self._host_name(record, host_id)
        lead = Message(
            "shared.seat-given-computer" if to.is_computer else "shared.seat-given-member",
            {"host": host, "before": occupant_words(before), "after": occupant_words(to)},
        )
        # A member who takes a computer's seat on its turn gets the turn's timer; else the turn's own stands.
        moved = before.is_computer and game.to_move == seat
        seats = list(record.seats)
        seats[seat] = replace(
            record.seats[seat], user_id=to.user_id, name=to.name, is_computer=to.is_computer, strength=to.strength
        )
        deadline = self.tables.turn_deadline(replace(record, seats=tuple(seats)), game) if moved else record.deadline
        saved = await self.tables.store.change_seat(
            record.id,
            record.version,
            seat,
            to,
            host_id=host_id,
            state=game.to_dict(),
            now=self.tables.clock(),
            narration=(lead,),
            move=None if move is None else str(move),
            timer=turn_timer(deadline, record.turn_seconds, warned=record.warned and not moved),
        )
        if saved.status == "running":
            self.tables.engines.keep(saved.id, saved.version, game.copy(), saved)
        return MoveResult(saved, game, tuple(events), seat, "" if move is None else str(move))

    async def _left_before(self, record: GameRecord) -> set[int]:
        changes = await self.tables.store.seat_changes(record.id)
        return {change.before.user_id for change in changes if change.before.user_id is not None}

    @staticmethod
    def _check_taker(record: GameRecord, game: AnyGame, seat: int, user_id: int, left: set[int]) -> None:
        if record.status != "running" or game.to_move is None:
            raise RefusedError(Message("refused.seats-running-only"))
        SeatChanges._check_seat(record, seat)
        if record.seat_of(user_id) is not None:
            raise RefusedError(Message("refused.already-seated-here"))
        if user_id in left:
            raise RefusedError(Message("refused.left-this-game"))
        if not takeable(record, game, seat):
            raise RefusedError(Message("refused.seat-still-played", {"number": seat + 1}))

    @staticmethod
    def _check_seat(record: GameRecord, seat: int) -> None:
        if not 0 <= seat < len(record.seats):
            raise RefusedError(Message("refused.no-seat-number", {"number": seat + 1, "seats": len(record.seats)}))

    @staticmethod
    def _require_host(record: GameRecord, user_id: int, is_manager: bool) -> None:
        if user_id != record.host_id and not is_manager:
            raise RefusedError(Message("refused.host-only-seats"))

    @staticmethod
    def _host_name(record: GameRecord, user_id: int) -> str | Message:
        seat = record.seat_of(user_id)
        return record.seats[seat].name if seat is not None else Message("shared.the-host")

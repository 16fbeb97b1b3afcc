"""Computer players at the table (issue 15): seating them in a lobby, and playing their turns.

A computer seat keeps its strength ("easy", "medium", "hard", or "expert" where the kind has one). When it is the
seat's turn, `play` asks the computer player of that strength for one decision, from the seat's own view and the
public events of the game so far (the same things a person in that seat could have seen), and saves it like any
player's move (B1): the log holds the move, never the randomness that chose it. That randomness comes from the
game's seed, the seat and the number of moves played, so asking again in the same position (after a restart, say)
gives the same decision, whatever happened to the bot in between (the searching players count samples, never the
clock, so a busy host changes nothing either). Deciding runs in a worker thread: a searching player thinks for up to
half a second, and other games must not wait for it.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from ai.base import Strength
from ai.players import player_for, strengths_for
from db.records import GameRecord, MoveRecord
from engine.base import AnyGame, Move
from engine.message import Joined, Message
from engine.registry import game_class, game_kind
from service.errors import RefusedError
from service.tables import MoveResult, TableService

log = logging.getLogger(__name__)


def offered_strengths(kind: str) -> tuple[str, ...]:
    """The strengths a lobby of `kind` can seat, weakest first (expert only where the kind has one)."""
    return tuple(strength.value for strength in strengths_for(kind))


def decision_seed(game_seed: int, seat: int, move_number: int) -> int:
    """The seed of a computer's decision: fixed by the game's seed, the seat and how many moves were played."""
    digest = hashlib.blake2b(f"{game_seed}:{seat}:{move_number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def public_history(record: GameRecord, moves: Sequence[MoveRecord]) -> list[Any]:
    """The events of every logged move, replayed from the seed (the engines' events hold face-up cards only)."""
    cls = game_class(record.kind)
    game = cls.new(len(record.seats), record.seed, cls.settings_from_dict(record.settings))
    history: list[Any] = []
    for move in moves:
        history.extend(game.play(move.seat, move.move))
    return history


def decide(record: GameRecord, game: AnyGame, seat: int, moves: Sequence[MoveRecord]) -> Move:
    """The move the seat's computer player makes here (blocking: call it in a worker thread).

    Should the computer player fail, or offer a move the rules refuse, the medium player stands in, then the
    engine's fixed simple move, so a computer seat never holds a game up.
    """
    strength = Strength(record.seats[seat].strength or Strength.MEDIUM)
    view = game.view(seat)
    seed = decision_seed(record.seed, seat, len(moves))
    try:
        history = public_history(record, moves)
    except Exception:
        log.exception("game #%d: could not replay the move log for the computer's history; deciding without", record.id)
        history = []
    legal = game.legal_moves(seat)
    for stand_in in dict.fromkeys((strength, Strength.MEDIUM)):
        try:
            move: Move = player_for(record.kind, stand_in, seed=seed).choose(view, history)
        except Exception:
            log.exception("game #%d: the %s computer player failed for seat %d", record.id, stand_in, seat)
            continue
        if move in legal:
            return move
        log.error("game #%d: the %s computer player chose %s, which is not legal", record.id, stand_in, move)
    fallback: Move = game.auto_move(seat)
    return fallback


class ComputerPlayers:
    """Lobby seats for computer players and their turns, on top of the table service (its locks and saving)."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables

    async def add(self, game_id: int, user_id: int, strength: str) -> GameRecord:
        """Seat a computer player of `strength` (one of the kind's `offered_strengths`) in the lobby; the host only.

        Raises:
            RefusedError, StoreError: not the host, not a lobby any more, the lobby is full, or no such strength.
        """
        async with self.tables.lock(game_id):
            record = await self.tables.get(game_id)
            offered = offered_strengths(record.kind)
            if strength not in offered:
                strengths = Joined(offered, "join.comma", "join.or")
                raise RefusedError(Message("refused.no-such-computer", {"strengths": strengths}))
            chosen = Strength(strength)
            self._require_host_in_lobby(record, user_id, "refused.host-only-add-computers")
            return await self.tables.games.add_computer(game_id, chosen.value, self.tables.clock())

    async def remove(self, game_id: int, user_id: int, name: str) -> GameRecord:
        """Take the computer player called `name` out of the lobby; the host only.

        Raises:
            RefusedError, StoreError: not the host, not a lobby any more, or no computer of that name.
        """
        async with self.tables.lock(game_id):
            self._require_host_in_lobby(await self.tables.get(game_id), user_id, "refused.host-only-remove-computers")
            return await self.tables.games.remove_computer(game_id, name, self.tables.clock())

    async def waiting(self, game_id: int) -> GameRecord | None:
        """The game, if it is running and a computer seat is to move; else None (read at most once: `current`)."""
        try:
            record, game = await self.tables.current(game_id)
        except RefusedError:  # no such game
            return None
        if record.status != "running" or game is None:
            return None
        seat = game.to_move
        return record if seat is not None and record.seats[seat].is_computer else None

    async def games_waiting(self) -> list[GameRecord]:
        """Start-up: every running game whose seat to move is a computer's."""
        found = []
        for record in await self.tables.games.running_games_with_computers():
            seat = self.tables.game_of(record).to_move
            if seat is not None and record.seats[seat].is_computer:
                found.append(record)
        return found

    async def play(self, game_id: int, *, version: int) -> MoveResult:
        """Make the computer seat's next decision and save it (one decision: a Garbage Jack's spot is the next one).

        `version` is the one the caller saw the computer's turn at: if anything moved since, nothing happens.

        Raises:
            RefusedError, StoreError: the game moved on, is over, or the seat to move is not a computer's.
        """
        return await self.tables.play_computer(game_id, version=version, decide=decide)

    @staticmethod
    def _require_host_in_lobby(record: GameRecord, user_id: int, refusal: str) -> None:
        """Refuse unless the game is a lobby and `user_id` its host (with the message `refusal`: "Only the host …")."""
        if record.status != "lobby":
            late = "refused.computers-after-start" if record.status == "running" else "refused.computers-after-end"
            raise RefusedError(Message(late, {"game": game_kind(record.kind).title, "number": record.id}))
        if user_id != record.host_id:
            raise RefusedError(Message(refusal))

"""Refusals the table service raises, and the one place where any refusal becomes a message for the player.

Like the engines' errors, a `RefusedError` carries a `Message` (an id and its parameters), never a sentence; the
presenter says it in the reader's language. The store's refusals carry facts only (`db.errors`): `refusal_message`
turns each kind of them into a message id here, so every presenter (the cogs, tests, a future web page) says them the
same way without knowing the store, and `db` stays free of words. A store error without an entry here is said as a
generic, honest storage failure.
"""

from __future__ import annotations

from typing import Final

from db.errors import (
    AlreadySeatedError,
    DatabaseBusyError,
    DatabaseUnreachableError,
    GameBusyError,
    GameNotFoundError,
    GameStatusError,
    HostCannotLeaveError,
    LobbyFullError,
    NotSeatedError,
    StaleVersionError,
    StorageUnavailableError,
    StoreError,
)
from engine.errors import GameError
from engine.message import STORED_TEXT, Message, log_text

FROZEN: Final = Message("refused.frozen")
"""A game stopped because it could not be restored after a restart: every action on it is refused with this."""

STORE_FAILED: Final = Message("refused.store-failed")
"""Any other storage refusal: nothing changed, and the player may try again."""


class RefusedError(Exception):
    """A request the bot turns down with a reason (not your game, host only, game full ...); nothing changed.

    The reason is a `Message`. A presenter that has already put its own reason into the reader's words may pass that
    text instead; it is shown as it is (the service itself always says a message).
    """

    def __init__(self, message: Message | str) -> None:
        said = message if isinstance(message, Message) else Message(STORED_TEXT, {"text": message})
        super().__init__(said)
        self.message = said

    def __str__(self) -> str:
        return log_text(self.message)


_BY_STATUS: Final = {
    "lobby": "refused.not-started",
    "running": "refused.already-started",
    "frozen": FROZEN.id,
    "cancelled": "refused.cancelled",
    "finished": "refused.game-finished",
}
"""A game-status refusal (not a lobby any more, not running, already over) by the status the game is in."""


def store_message(error: StoreError) -> Message:
    """One of the store's refusals as a message, from the facts it carries; a generic one for any other."""
    if isinstance(error, DatabaseUnreachableError):
        return Message("refused.database-unreachable")
    if isinstance(error, DatabaseBusyError):
        return Message("refused.database-busy")
    if isinstance(error, GameBusyError):
        return Message("refused.game-busy")
    if isinstance(error, StorageUnavailableError):  # as such: full or not writable (its subclasses come first)
        return Message("refused.storage-unavailable")
    if isinstance(error, StaleVersionError):
        return Message("refused.out-of-date")
    if isinstance(error, GameNotFoundError):
        return Message("refused.no-game-number", {"number": error.game_id})
    if isinstance(error, GameStatusError):
        return Message(_BY_STATUS.get(error.status, "refused.game-finished"))
    if isinstance(error, LobbyFullError):
        return Message("refused.lobby-full", {"taken": error.taken, "seats": error.seats})
    if isinstance(error, AlreadySeatedError):
        return Message("refused.already-joined")
    if isinstance(error, NotSeatedError) and error.seat is None:
        if error.name is not None:
            return Message("refused.no-such-player", {"player": error.name})
        return Message("refused.not-in-game")
    if isinstance(error, HostCannotLeaveError):
        return Message("refused.host-cannot-leave")
    return STORE_FAILED


def refusal_message(error: BaseException) -> Message:
    """What to tell the player about a refusal (any of `service.tables.USER_ERRORS`), as a message.

    Raises:
        TypeError: `error` is not a refusal (a bug is not said to the player as a reason).
    """
    if isinstance(error, GameError | RefusedError):
        return error.message
    if isinstance(error, StoreError):
        return store_message(error)
    raise TypeError(f"not a refusal: {error!r}")

"""Computer players by name in a reader's language: "Computer (hard)" is stored, "Datamaskin (vanskelig)" is said.

A computer seat's stored name is the English one (`db.records.computer_name`, and " 2" after a second of the same
strength in one game); it stays the key the lobby's menu and the store use. What a player reads is the name in their
language, made from the seat's strength, with the number kept. A member's name is theirs and is never translated;
a forgotten member's is "a former player" in each language.
"""

from __future__ import annotations

from db.records import COMPUTER_USER_IDS, FORMER_PLAYER_MESSAGE, SeatRecord, computer_name, is_former_player_id
from i18n import say

STRENGTHS = tuple(COMPUTER_USER_IDS)  # weakest first
_STRENGTH_OF_ID = {user_id: strength for strength, user_id in COMPUTER_USER_IDS.items()}


def computer_words(strength: str, locale: str) -> str:
    """A computer player of `strength` as `locale` calls it ("Computer (hard)", "Gép (nehéz)")."""
    return say(locale, "computers.name", strength=say(locale, f"computers.strength.{strength}"))


def _said(name: str, strength: str | None, locale: str) -> str:
    if strength not in STRENGTHS:
        return name
    stored = computer_name(strength)
    if not name.startswith(stored):
        return name
    return computer_words(strength, locale) + name[len(stored) :]


def seat_name(seat: SeatRecord, locale: str) -> str:
    """The seat's player as `locale` names them: a member by their name, a computer by its strength in words.

    A member who asked to be forgotten (issue 45) is "a former player" in the reader's words.
    """
    if seat.is_computer:
        return _said(seat.name, seat.strength, locale)
    return say(locale, FORMER_PLAYER_MESSAGE) if is_former_player_id(seat.user_id) else seat.name


def player_name(user_id: int, name: str, locale: str) -> str:
    """A player of the boards by name: a computer (`COMPUTER_USER_IDS`) by its strength in `locale`'s words."""
    if is_former_player_id(user_id):
        return say(locale, FORMER_PLAYER_MESSAGE)
    return _said(name, _STRENGTH_OF_ID.get(user_id), locale)

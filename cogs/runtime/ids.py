"""Custom ids of the bot's components: `<kind>:<game_id>:<version>:<action>[:<arg>]`.

Kind is the game kind's one-letter code (`GameKind.code`). The version is the game's stored version when the
component was sent, so a click on an older table is refused; read-only actions (Show my hand, lobby buttons) ignore it.
The templates and builders live together so they cannot drift apart (tests check each builder's output
against its template and Discord's 100-character limit).
"""

from __future__ import annotations

from engine.cards import Card
from engine.registry import game_kind, kind_by_code

ASCII_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
# Any kind's one-letter code: the kind is looked up when a component is rebuilt (`kind_named_by`), so a kind listed
# later (by a test) is matched too.
_CODE = "[a-z]"

LARGEST_NUMBER = 2**63 - 1  # SQLite's INTEGER; every game id, version and page fits
LONGEST_NUMBER = len(str(LARGEST_NUMBER))
_PREFIX = rf"(?P<kind>{_CODE}):(?P<game_id>[0-9]+):(?P<version>[0-9]+)"

LOBBY_TEMPLATE = _PREFIX + r":(?P<action>join|leave|start|cancel)"
# The lobby's menus for the host: add a computer player of a strength, or remove one by name.
LOBBY_COMPUTER_TEMPLATE = _PREFIX + r":(?P<action>cpuadd|cpudrop)"
REMATCH_TEMPLATE = rf"(?P<kind>{_CODE}):(?P<game_id>[0-9]+):0:rematch"
# House rules (issue 26): the lobby's "House rules…" button opens the host's panel; on the panel a control per rule
# (`hr:<index>`, a toggle carrying the value it sets), its pages and the managers' "Save for this server". A game id
# of 0 (no game has it) is the server's usual house rules (`/houserules edit`) rather than a lobby's.
HOUSE_RULES_ACTION = "houserules"
HOUSE_RULES_TEMPLATE = _PREFIX + rf":(?P<action>{HOUSE_RULES_ACTION}|hrsave)"
HOUSE_RULE_TEMPLATE = _PREFIX + r":hr:(?P<index>[0-9]{1,2})(?::(?P<value>on|off))?"
HOUSE_RULES_PAGE_TEMPLATE = _PREFIX + r":hrpage:(?P<page>[0-9]{1,2})"
# A trailing ":h" hides the computer players (boards list them by default).
LEADERBOARD_TEMPLATE = rf"lb:(?P<kind>{_CODE}):(?P<sort>rating|wins|winrate):(?P<page>[0-9]+)(?P<hide>:h)?"


def kind_named_by(code: str) -> str:
    """The name of the kind whose code a custom id carries; the code itself when no kind has it (no game will match)."""
    try:
        return kind_by_code(code).name
    except KeyError:
        return code


def game_template(kind: str, action: str, arg: str | None = None, *, optional: bool = False) -> str:
    """The template of one game component; `arg` is the regex of its argument (a card, a spot), if any."""
    base = rf"{game_kind(kind).code}:(?P<game_id>[0-9]+):(?P<version>[0-9]+):{action}"
    if arg is None:
        return base
    return base + (rf"(?::(?P<arg>{arg}))?" if optional else rf":(?P<arg>{arg})")


def any_kind_template(action: str) -> str:
    """The template of a component every kind shares (Show my hand, Refresh), with the kind's code in it."""
    return _PREFIX + f":{action}"


def component_id(kind: str, game_id: int, version: int, action: str, arg: str | None = None) -> str:
    """The custom id of one game or lobby component."""
    base = f"{game_kind(kind).code}:{game_id}:{version}:{action}"
    return f"{base}:{arg}" if arg is not None else base


def leaderboard_id(kind: str, sort: str, page: int, *, computers: bool = True) -> str:
    """The custom id of a leaderboard page button."""
    return f"lb:{game_kind(kind).code}:{sort}:{page}" + ("" if computers else ":h")


def checked_number(text: str) -> int | None:
    """A whole number as the bot writes one into a custom id or a menu value; None for anything else.

    The one parser of every number a click carries (custom ids and menu values alike are the client's to forge):
    ASCII digits only (`int` would take "²" or " 7" and raise on "abc"), and no more than SQLite's integers hold.
    """
    if not (text.isascii() and text.isdigit()) or len(text) > LONGEST_NUMBER:
        return None
    value = int(text)
    return value if value <= LARGEST_NUMBER else None


def number(text: str) -> int:
    """A game id, version or page read from a custom id (`checked_number`): 0 for anything it cannot be.

    Game ids start at 1, so 0 names no game, and a version of 0 is out of date for every running game: a forged
    id meets a polite refusal further on ("that game no longer exists"), not an OverflowError in SQLite.
    """
    checked = checked_number(text)
    return 0 if checked is None else checked


def index_number(text: str) -> int:
    """A place in a list read from a custom id or a menu value (a seat, a spot, a rule): -1 for anything it cannot be.

    Unlike an id, 0 is a real place here, so a forged value must not become it; -1 is no place, refused in words.
    """
    checked = checked_number(text)
    return -1 if checked is None else checked


def card_arg(card: Card) -> str:
    """A card as lowercase ASCII for a custom id (`10♦` → `10d`); `Card.parse` reads it back."""
    return f"{card.rank_text.lower()}{ASCII_SUITS[card.suit]}"

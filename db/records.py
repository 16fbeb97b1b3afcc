"""The plain values the store returns: frozen dataclasses, never database rows."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal, TypedDict

from engine.base import AnyGame
from engine.message import Message
from engine.registry import game_class


@dataclass(frozen=True, slots=True)
class NewLobby:
    """What opening a lobby stores: where, by whom, the kind's settings, the seed and the seat count.

    `turn_seconds` None means no turn timer; `afk_limit` is the automatic turns in a row before a seat is resigned.
    """

    kind: str
    guild_id: int
    channel_id: int
    host_id: int
    host_name: str
    settings: dict[str, Any]
    seed: int
    max_seats: int
    turn_seconds: int | None = None
    afk_limit: int = 3


class MessageIds(TypedDict, total=False):
    """The Discord ids that show a game: a key given changes that id, None clears it."""

    lobby_message_id: int | None
    thread_id: int | None
    table_message_id: int | None
    ping_message_id: int | None
    ping_user_id: int | None
    warning_message_id: int | None
    dm_notice_message_id: int | None


class SeatReach(TypedDict, total=False):
    """How a seat's player is reached: whether DMs work, their DM channel, panel message and its digest."""

    dm_ok: bool
    hand_message_id: int | None
    dm_channel_id: int | None
    panel: str | None


class SeatChanges(SeatReach, total=False):
    """What may change on a seat: how its player is reached, and its count of automatic turns in a row."""

    auto_streak: int


# "frozen": a running game whose move log could not be replayed at start-up; it accepts no more moves.
GameStatus = Literal["lobby", "running", "finished", "cancelled", "frozen"]
LeaderboardSort = Literal["rating", "wins", "win_rate"]

# Results and ratings name a computer seat by its strength (`ai.base.Strength`): every "Computer (hard)" of a server
# is one rated player.
# Discord ids are positive, so these never collide with a member.
COMPUTER_USER_IDS: Final = {"easy": -1, "medium": -2, "hard": -3, "expert": -4}


def computer_name(strength: str) -> str:
    """How a computer player of `strength` is called on tables and boards: "Computer (hard)"."""
    return f"Computer ({strength})"


def free_computer_name(seats: Iterable[SeatRecord], strength: str) -> str:
    """The name of a new computer of `strength` among `seats`: "Computer (hard)", or "Computer (hard) 2" … if taken."""
    taken = {seat.name for seat in seats}
    base = computer_name(strength)
    if base not in taken:
        return base
    number = 2
    while f"{base} {number}" in taken:
        number += 1
    return f"{base} {number}"


def is_computer_id(user_id: int) -> bool:
    """Whether a results or ratings `user_id` stands for a computer player (see `COMPUTER_USER_IDS`)."""
    return user_id < 0


# A member who asked to be forgotten (`/privacy forget`, issue 45) keeps their seats in stored games, so that every
# finished game still replays, but no longer their id nor their name. Their user id becomes an id Discord never
# gives (a snowflake's low 22 bits are worker, process and counter, its time the rest, so every real id is at least
# 2**22), positive so that it never reads as a computer (`is_computer_id`), and one per seat so that two forgotten
# players of one game stay two seats; a game they hosted is hosted by FORMER_PLAYER_BASE. Their name becomes
# FORMER_PLAYER_NAME, English words kept for readers of the raw rows (an export's tags); presenters recognise the id
# and say message FORMER_PLAYER_MESSAGE in the reader's language, and stored narration carries that message itself.
FORMER_PLAYER_BASE: Final = 1 << 21
FORMER_PLAYER_NAME: Final = "a former player"
FORMER_PLAYER_MESSAGE: Final = "privacy.former-player"


def former_player_id(seat: int) -> int:
    """The id a forgotten member's seat `seat` keeps (never a Discord id, never a computer's)."""
    return FORMER_PLAYER_BASE + seat


def is_former_player_id(user_id: int | None) -> bool:
    """Whether `user_id` stands for a member who asked to be forgotten (see `former_player_id`)."""
    return user_id is not None and FORMER_PLAYER_BASE <= user_id < 1 << 22


@dataclass(frozen=True, slots=True)
class MemberData:
    """Everything stored under one member's id (`/privacy show`), as JSON-safe rows by what they are."""

    user_id: int
    games: tuple[dict[str, Any], ...]  # each seat they hold or held, with its game and their result in it
    seat_changes: tuple[dict[str, Any], ...]  # seats they gave up or took during a game
    hosted: tuple[int, ...]  # the games they opened
    results: tuple[dict[str, Any], ...]  # their place, score and rating change in each finished game
    ratings: tuple[dict[str, Any], ...]  # per server and game kind
    stats: tuple[dict[str, Any], ...]  # games, wins and points per server and game kind

    def to_dict(self) -> dict[str, Any]:
        """The data as one JSON-safe document."""
        return {
            "user_id": self.user_id,
            "games": list(self.games),
            "seat_changes": list(self.seat_changes),
            "hosted_games": list(self.hosted),
            "results": list(self.results),
            "ratings": list(self.ratings),
            "stats": list(self.stats),
        }


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forgetting a member changed: the games whose rows now name a former player, and the rows deleted."""

    games: tuple[int, ...]
    results: int
    ratings: int


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat of a game. `user_id` is None for a computer player; `hand_message_id` is the bot's DM hand message.

    `strength` is the computer player's ("easy", "medium", "hard" or "expert"), None for a member's seat.
    """

    seat: int
    user_id: int | None
    name: str
    is_computer: bool
    dm_ok: bool
    auto_streak: int
    hand_message_id: int | None
    strength: str | None = None  # a computer seat's strength (a key of `COMPUTER_USER_IDS`); None for a member
    dm_channel_id: int | None = None  # the player's DM channel, kept so a move needs no user lookup
    panel: str | None = None  # a digest of the panel the DM message shows (see cogs.runtime.presenter)


@dataclass(frozen=True, slots=True)
class Occupant:
    """Who holds a seat: a member (`user_id`) or a computer player (`strength`), under the name the table shows."""

    user_id: int | None
    name: str
    strength: str | None = None

    @property
    def is_computer(self) -> bool:
        """Whether a computer player holds the seat."""
        return self.user_id is None

    @classmethod
    def of(cls, seat: SeatRecord) -> Occupant:
        """Who holds `seat` now."""
        return cls(seat.user_id, seat.name, seat.strength)


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A seat that changed hands during a game (issue 28), as stored: the `number`-th change of the game.

    `after_move` is the game's move count once the change was made (its `rejoin` move included, when the seat had
    been vacated): history and replays show the change right after that move. `narration` is what the table told.
    """

    number: int
    seat: int
    after_move: int
    before: Occupant
    after: Occupant
    host_id: int
    narration: tuple[Message, ...]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TurnClock:
    """The turn timer of the move to play, as one value: when it runs out, when to warn its player, whether they were.

    `deadline` None: no timer (a game without one, a computer's turn, a game over; `NO_TIMER`). `warn_at` None: no
    warning before the deadline. Stored as the columns `deadline`, `warned` and `timer_at` (`due_at`, when the
    timer next needs the bot), from which it is read back: a warning time is kept only while it is still ahead of
    the deadline and not yet given.
    """

    deadline: datetime | None = None
    warn_at: datetime | None = None
    warned: bool = False

    @property
    def due_at(self) -> datetime | None:
        """When the timer next needs the bot: the warning while one is due (not yet given), then the deadline."""
        if self.deadline is None:
            return None
        if self.warn_at is not None and not self.warned:
            return min(self.warn_at, self.deadline)
        return self.deadline

    def as_warned(self) -> TurnClock:
        """The same turn once its player was warned (the warning time is behind, so it is not kept)."""
        return TurnClock(self.deadline, None, True)

    @classmethod
    def stored(cls, deadline: datetime | None, warned: bool, due_at: datetime | None) -> TurnClock:
        """The clock read back from its columns: the warning time is `due_at` while that is before the deadline."""
        ahead = not warned and deadline is not None and due_at is not None and due_at < deadline
        return cls(deadline, due_at if ahead else None, warned)


NO_TIMER: Final = TurnClock()


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A lobby or game as stored. `seats` are in seat order (in the lobby: join order); times are aware UTC.

    `max_seats` is the lobby's seat limit; `move_count` is the length of the move log (the last move's `seq`).
    `turn_seconds` is the time a player has for a turn (None: no timer), and `afk_limit` how many automatic turns in
    a row resign a player; `timer` is the turn timer of the move to play (`deadline` and `warned` read it).
    """

    id: int
    kind: str
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    table_message_id: int | None
    ping_message_id: int | None
    status: GameStatus
    host_id: int
    settings: dict[str, Any]
    seed: int
    seats: tuple[SeatRecord, ...]
    state: dict[str, Any] | None
    version: int
    timer: TurnClock
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    max_seats: int
    move_count: int
    turn_seconds: int | None
    afk_limit: int
    # The last change as messages (stored with it, so a restart shows it too); the presenter puts it into words.
    narration: tuple[Message, ...] = ()
    # How far Discord has caught up: the version it shows, and the moves whose one-off posts went out.
    shown_version: int = 0
    shown_moves: int = 0
    ping_user_id: int | None = None  # whom the turn ping (`ping_message_id`) notifies
    warning_message_id: int | None = None  # the turn warning in the game's channel, removed once the turn is played
    dm_notice_message_id: int | None = None  # the closed-DM notice, whose Show my hand goes once the game is over
    shown_notices: int = 0  # one-off posts of move `shown_moves + 1` that already went out

    @property
    def deadline(self) -> datetime | None:
        """When the turn to play runs out (None: no timer)."""
        return self.timer.deadline

    @property
    def warned(self) -> bool:
        """Whether the player to move was warned of their deadline."""
        return self.timer.warned

    @property
    def shown(self) -> bool:
        """Whether Discord shows this version of the game entirely."""
        return self.shown_version >= self.version

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` sits in, or None."""
        return next((seat.seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def humans(self) -> int:
        """How many seats members hold."""
        return sum(1 for seat in self.seats if not seat.is_computer)

    @property
    def is_full(self) -> bool:
        """Whether every seat is taken."""
        return len(self.seats) >= self.max_seats

    def game(self) -> AnyGame:
        """The engine object restored from the snapshot.

        Raises:
            ValueError: the game has not started, so there is no snapshot.
        """
        if self.state is None:
            raise ValueError(f"game #{self.id} has not started, so it has no snapshot")
        return game_class(self.kind).from_dict(self.state)


@dataclass(frozen=True, slots=True)
class DueTimer:
    """A running game whose turn timer needs the bot: its deadline has passed, or its player is to be warned.

    `version` is the game's version when this was read: act on the game with it, so that a move made since wins.
    """

    id: int
    version: int
    timer: TurnClock

    def is_expired(self, now: datetime) -> bool:
        """True when the turn's time has run out (else it is time for the warning)."""
        return self.timer.deadline is not None and self.timer.deadline <= now


@dataclass(frozen=True, slots=True)
class StartUpCheck:
    """What start-up found: lobbies and running games (ids, oldest first), and the games it had to freeze."""

    lobbies: tuple[int, ...]
    running: tuple[int, ...]
    frozen: tuple[GameRecord, ...]


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One entry of a game's move log; `seq` counts from 1."""

    seq: int
    seat: int
    move: str
    auto: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One player on a leaderboard page. `rating` is None for a player who never finished a rated game.

    A computer player (negative `user_id`, see `COMPUTER_USER_IDS`) is listed for comparison without a rank of its
    own: `rank` counts members only, so showing or hiding computers never moves anybody's rank.
    """

    rank: int | None
    user_id: int
    name: str
    rating: float | None
    games: int
    wins: int
    win_rate: float
    points: int

    @property
    def is_computer(self) -> bool:
        """Whether this row is a computer player."""
        return is_computer_id(self.user_id)


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """A page of a leaderboard. `pages` is 0 when nobody qualifies; `min_games` applies to the win-rate sort.

    `computers` says whether computer players are listed (they are counted in `total` and `pages` only then).
    """

    rows: tuple[LeaderboardRow, ...]
    page: int
    pages: int
    total: int
    sort: LeaderboardSort
    min_games: int
    computers: bool = True


@dataclass(frozen=True, slots=True)
class Tally:
    """Games, wins (first places, shared ones included) and points summed over result rows.

    `house_rules` counts the games played under house rules (any rule of the kind off its default).
    """

    games: int = 0
    wins: int = 0
    points: int = 0
    house_rules: int = 0

    @property
    def win_rate(self) -> float:
        """Wins per game, 0.0 without games."""
        return self.wins / self.games if self.games else 0.0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.games + other.games,
            self.wins + other.wins,
            self.points + other.points,
            self.house_rules + other.house_rules,
        )


@dataclass(frozen=True, slots=True)
class KindStats:
    """A player's figures for one kind: in this server (with rating and rank if rated) and across all servers."""

    kind: str
    server: Tally
    overall: Tally
    rating: float | None
    rank: int | None
    rated_players: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's figures per kind; `name` is their latest name in this server (None: no finished game here)."""

    user_id: int
    guild_id: int
    name: str | None
    kinds: tuple[KindStats, ...]

    def for_kind(self, kind: str) -> KindStats:
        """The figures for `kind`.

        Raises:
            KeyError: no such kind.
        """
        for stats in self.kinds:
            if stats.kind == kind:
                return stats
        raise KeyError(kind)

    @property
    def server_total(self) -> Tally:
        """All kinds together, in this server."""
        return sum((stats.server for stats in self.kinds), Tally())

    @property
    def overall_total(self) -> Tally:
        """All kinds together, across all servers."""
        return sum((stats.overall for stats in self.kinds), Tally())


@dataclass(frozen=True, slots=True)
class GameCounts:
    """The games of this process an operator watches: running, and owed to Discord (shown_version < version)."""

    running: int
    unshown: int

"""A game as a text file in the spirit of PGN and PBN, and the reader that replays such a file (B1).

The file holds tags, then the moves in the game's notation (`docs/export-format.md`).

A finished game's export carries its seed and settings, so `ExportedGame.replay` rebuilds it card for card. A running
game's carries only what a spectator could know: the same moves and tags, but no seed, so it cannot be replayed
until the game has ended (and it says so in a tag and a comment). A cancelled or frozen game's never gives its seed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engine.base import AnyGame
from engine.registry import game_class, game_kind
from service.history import GameHistory

FORMAT = "kgexport 1"  # the first line's format name and version
HEADER_LINE = f"% {FORMAT}"
TAG = re.compile(r'^\[(?P<name>[A-Za-z][A-Za-z0-9]*) "(?P<value>(?:[^"\\]|\\.)*)"\]$')
MOVE = re.compile(r"^(?P<seq>[0-9]+)\.\s+(?P<seat>[0-9]+):\s+(?P<move>[^{}]*?)\s*(?P<auto>\{auto\})?$")
# Why a file carries no seed, by the game's status (the `Replayable` tag of every game but a finished one).
NOT_REPLAYABLE = {
    "running": "no: a running game carries no seed; export it again once the game has ended",
    "cancelled": "no: the game was cancelled, so its seed is never given",
    "frozen": "no: the game was stopped because its moves could not be restored, so its seed is never given",
}


class ExportFormatError(ValueError):
    """The text is not an export this reader knows, or it misses what a replay needs."""


@dataclass(frozen=True, slots=True)
class ExportedMove:
    """One move line: its number, the seat that made it (0-based, as the engine counts), its notation."""

    seq: int
    seat: int
    move: str
    auto: bool = False


@dataclass(frozen=True, slots=True)
class ExportedGame:
    """An export read back: its tags in order, its moves, and its comments (round results, notes)."""

    tags: dict[str, str]
    moves: tuple[ExportedMove, ...]
    comments: tuple[str, ...] = field(default=())

    @property
    def replayable(self) -> bool:
        """Whether the export carries what a replay needs: a finished game's seed."""
        return "Seed" in self.tags

    def replay(self) -> AnyGame:
        """The game rebuilt from the seed, settings and moves (B1): the same state as the stored game.

        Raises:
            ExportFormatError: no seed (a running game's export), or tags a replay needs are missing or malformed.
            GameError: a move the rules refuse in the replayed position.
        """
        if not self.replayable:
            raise ExportFormatError("this export carries no seed (the game was still running): it cannot be replayed")
        try:
            cls = game_class(self.tags["Kind"])
            settings = json.loads(self.tags.get("Settings", "{}"))
            players = int(self.tags["Players"])
            seed = int(self.tags["Seed"])
        except (KeyError, ValueError) as error:
            raise ExportFormatError(f"the tags a replay needs are missing or malformed: {error}") from error
        return cls.replay(players, seed, settings, ((move.seat, move.move) for move in self.moves))


def _quoted(value: str) -> str:
    flat = " ".join(value.splitlines())
    return flat.replace("\\", "\\\\").replace('"', '\\"')


def _unquoted(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _comment(text: str) -> str:
    """Text as one `{…}` comment on one line (braces inside are turned into parentheses)."""
    flat = " / ".join(line.strip() for line in text.splitlines() if line.strip())
    return "{" + flat.replace("{", "(").replace("}", ")") + "}"


def _time(moment: datetime | None) -> str:
    return "?" if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def export_text(
    history: GameHistory, comments: Mapping[int, Sequence[str]] | None = None, closing: Sequence[str] = ()
) -> str:
    """The export of `history`'s game: tags, one line per move with `comments[seq]` after it, then `closing`.

    Comments are the presenter's words, in the exporter's language.

    A finished game gets its seed and result; any other gets neither (its moves are public already, its seed would
    tell every hidden card).
    """
    record = history.record
    kind = game_kind(record.kind)
    finished = history.finished
    final = history.steps[-1].game
    tags: list[tuple[str, str]] = [
        ("Event", f"{kind.title} #{record.id}"),
        ("Game", kind.title),
        ("Kind", kind.name),
        ("Number", str(record.id)),
        ("Status", record.status),
        ("Settings", json.dumps(final.settings.to_dict(), sort_keys=True, separators=(",", ":"))),
        ("HouseRules", _house_rules(record.kind, record.settings)),
        ("Players", str(len(record.seats))),
        *((f"Seat{seat.seat + 1}", seat.name) for seat in record.seats),
        ("Opened", _time(record.created_at)),
        ("Started", _time(history.steps[1].at if len(history.steps) > 1 else None)),
        ("Finished", _time(record.finished_at) if finished else "?"),
        ("Moves", str(history.moves)),
    ]
    changes = _seat_changes(history)
    if changes:
        tags.append(("SeatChanges", changes))
    outcome = final.outcome() if finished else None
    if outcome is not None:
        standings = sorted(range(len(record.seats)), key=lambda seat: (outcome.places[seat], seat))
        tags.append(("Result", "; ".join(
            f"{outcome.places[seat]}. {record.seats[seat].name} {outcome.scores[seat]}" for seat in standings
        )))  # fmt: skip
        tags.append(("Places", " ".join(str(place) for place in outcome.places)))
        tags.append(("Scores", " ".join(str(score) for score in outcome.scores)))
        tags.append(("Seed", str(record.seed)))
        tags.append(("Replayable", "yes"))
    else:
        tags.append(("Result", "*"))
        tags.append(("Replayable", NOT_REPLAYABLE.get(record.status, NOT_REPLAYABLE["cancelled"])))
    lines = [HEADER_LINE, *(f'[{name} "{_quoted(value)}"]' for name, value in tags), ""]
    told = comments or {}
    for step in history.steps[1:]:
        assert step.seat is not None and step.move is not None  # every step after the deal is a logged move
        lines.append(f"{step.number}. {step.seat + 1}: {step.move}" + (" {auto}" if step.auto else ""))
        lines.extend(_comment(text) for text in told.get(step.number, ()))
    lines.extend(_comment(text) for text in closing)
    return "\n".join(lines) + "\n"


def _seat_changes(history: GameHistory) -> str:
    """The seats that changed hands (issue 28): "after 12: seat 2 bob > dave", in order; empty when none did."""
    said = []
    for before, after in zip(history.steps, history.steps[1:], strict=False):
        for seat, (was, now) in enumerate(zip(before.seats, after.seats, strict=True)):
            if was.name != now.name:
                said.append(f"after {before.number}: seat {seat + 1} {was.name} > {now.name}")
    return "; ".join(said)


def _house_rules(kind: str, settings: Mapping[str, Any]) -> str:
    """The house rules in force by RULES.md's names ("KV2 off; KV5 on"), or "none"."""
    in_force = game_kind(kind).rules_in_force(settings)
    return "; ".join(f"{rule.rule_id} {_value(value)}" for rule, value in in_force) or "none"


def _value(value: bool | int | str) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def read_export(text: str) -> ExportedGame:
    """Read an export back: its tags, moves and comments (lines starting with `;` are skipped).

    Raises:
        ExportFormatError: not an export of this format, or a line that is neither a tag, a move nor a comment.
    """
    lines = text.splitlines()
    if not lines or lines[0].strip() != HEADER_LINE:
        raise ExportFormatError(f"the first line is not {HEADER_LINE!r}")
    tags: dict[str, str] = {}
    moves: list[ExportedMove] = []
    comments: list[str] = []
    for number, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if (tag := TAG.match(line)) is not None:
            tags[tag["name"]] = _unquoted(tag["value"])
        elif line.startswith("{") and line.endswith("}"):
            comments.append(line[1:-1])
        elif (move := MOVE.match(line)) is not None:
            seat = int(move["seat"]) - 1
            if seat < 0:
                raise ExportFormatError(f"line {number}: seats count from 1")
            moves.append(ExportedMove(int(move["seq"]), seat, move["move"], move["auto"] is not None))
        else:
            raise ExportFormatError(f"line {number} is neither a tag, a move nor a comment: {raw!r}")
    return ExportedGame(tags, tuple(moves), tuple(comments))

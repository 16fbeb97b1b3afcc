"""Turn timers as players see them: the presets, durations in words, and the deadline line on the table."""

from __future__ import annotations

from datetime import UTC, datetime

from babel.dates import format_datetime
from discord import app_commands

from db.records import GameRecord
from i18n import SOURCE_LOCALE, counted, say
from service.timers import warning_lead  # noqa: F401 - one rule, kept where the service stores it

TIMER_PRESETS = {"2m": 120, "15m": 900, "24h": 86_400, "off": None}
# Seconds a computer seat waits before each decision (cogs/computers.py): long enough to read the change on the table,
# short enough not to bore. Tests set it to 0 (a module of its own, since discord.py loads each extension afresh).
COMPUTER_PAUSE_SECONDS = 1.5
DEFAULT_TIMER = "24h"
TIMER_CHOICES = [
    app_commands.Choice(name="2 minutes (live play)", value="2m"),
    app_commands.Choice(name="15 minutes", value="15m"),
    app_commands.Choice(name="24 hours (a move a day) — default", value="24h"),
    app_commands.Choice(name="off", value="off"),
]


def in_words(seconds: int, locale: str = SOURCE_LOCALE) -> str:
    """A duration for people, in `locale`: `2 minutes`, `1 hour 30 minutes`, `24 hours`."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    units = ((hours, "hour"), (minutes, "minute"), (secs, "second"))
    parts = [counted(value, unit, locale) for value, unit in units if value]
    return " ".join(parts) or counted(0, "second", locale)


def timer_summary(record: GameRecord, locale: str = SOURCE_LOCALE) -> str:
    """The lobby's timer option in one sentence, and what becomes of a resigned player (in `locale`)."""
    if record.turn_seconds is None:
        return say(locale, "lobby.no-timer")
    timer = say(locale, "lobby.timer", per_turn=in_words(record.turn_seconds, locale), limit=record.afk_limit)
    return f"{timer} {say(locale, 'lobby.resigned-turns')}"


def deadline_line(record: GameRecord, locale: str = SOURCE_LOCALE) -> str:
    """The table's deadline in `locale`: a Discord timestamp (each reader's time zone) and the same in words."""
    if record.deadline is None or record.turn_seconds is None or record.status != "running":
        return ""
    line = say(
        locale,
        "timer.deadline",
        when=f"<t:{int(record.deadline.timestamp())}:R>",
        moment=utc_moment(record.deadline, locale),
        per_turn=in_words(record.turn_seconds, locale),
    )
    return "\n" + line


def utc_moment(moment: datetime, locale: str = SOURCE_LOCALE) -> str:
    """A moment in UTC as `locale` writes it ("14:05 UTC, 01 Dec"): the catalog's date pattern (CLDR's syntax)."""
    return format_datetime(moment, say(locale, "timer.moment-pattern"), tzinfo=UTC, locale=locale)

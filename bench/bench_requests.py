"""Discord requests per move, counted the way Discord's global rate limit counts them.

Plays whole seeded games through SimCord (the real bot, the real discord.py, a real SQLite file) the way players
do: Kasino moves from the DM menus (to 16 points) or, for a player whose DMs are closed, from **Show my hand** on
the table; Garbage decisions from the table's buttons (layouts of 3 spots, to keep the run short; a turn costs the
same at any size). Every REST request the bot makes is recorded; interaction callbacks and followups
(`/interactions/…`, `/webhooks/…`) do not count against the global limit of about 50 requests per second per bot
token, everything else does.

    python -m bench.bench_requests [--games N] [--routes] [--only TEXT] [--storm-games N]

(smaller runs: `--kasino-target POINTS`, `--garbage-size SPOTS`, `--storm-minutes M`, `--storm-timer 2m`)

prints, for each case, `kasino 2p: 2.31 counted requests per move (8.12 in all)`. The cases after the first four
are real play: half the players with DMs closed, members with computers, and a player whose every turn times out
(the automatic-turn limit at its maximum, the warnings included; a move counts whether a member or the timer made
it). The same games count the store's synchronous commits per move (`bench.bench_db` prints them).

A line, `history and replay pages: 0 counted requests per page (2.00 in all)`, pages through a finished Kasino
game's `/game history` and replay (issue 28): every page is an interaction response or an edit through its token,
so none should count.

The last lines (issue 44), `invalid requests during a 50001 storm over 200 games: peak 1234 per 10 min (…)`, take
the bot's access away from 200 running Kasino games (every thread, and their channel, answer 403 Missing Access) for
an hour of virtual time while their turn timers (15 minutes) keep making moves Discord cannot show, then give it back.
Discord blocks an address after 10,000 such refusals in 10 minutes; the peak is the most refusals the bot was answered
within any 10 minutes, observed on its HTTP client, against this process's budget (`cogs/runtime/invalid.py`). Once
access returns every game's shown version must catch up with its stored one: by the game's own retry, or at its next
move (a game refused for half an hour waits for one). The second line gives the process a tenth of the budget (as one of
ten processes would keep), so that its retries have to slow down.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypedDict

import discord
import simcord
from discord.http import Route

import cogs.runtime.timing
from bot import CardBot, create_bot
from cogs.lobby import AFK_LIMIT_MAX
from cogs.runtime.invalid import BUDGET, WINDOW_SECONDS, InvalidRequests
from cogs.runtime.timing import TIMER_PRESETS
from db.records import GameRecord
from db.store import Store
from tests.cogs.helpers import (
    components,
    custom_ids,
    game_thread,
    is_enabled,
    member_for,
    open_and_start,
    response_of,
    table_message,
)
from tests.cogs.test_computers import solo_lobby
from tests.cogs.test_garbage_flow import play_turn_by_buttons
from tests.cogs.test_history import click, enabled, finished_kasino
from tests.cogs.test_kasino_flow import play_turn

FREE_PREFIXES = ("/interactions/", "/webhooks/")
NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


class InjectedError(TypedDict):
    """What SimCord's `Env.inject_error` makes Discord answer."""

    status: int
    code: int
    message: str


CLOSED = InjectedError(status=403, code=50007, message="Cannot send messages to this user")


@dataclass(frozen=True)
class Case:
    """One way of playing: `closed` members have their DMs closed, `computers` seats are the bot's own players, and
    with `timed_out` the first member lets every turn run out."""

    kind: str
    players: int
    label: str = ""
    closed: int = 0
    computers: int = 0
    timed_out: bool = False
    target: int | None = None  # Kasino's points to win (None: the lobby's default, 16)
    size: int = 3  # Garbage's starting layout size

    @property
    def title(self) -> str:
        return f"{self.kind} {self.players}p" + (f", {self.label}" if self.label else "")

    def sized(self, target: int | None, size: int | None) -> Case:
        """This case with Kasino played to `target` points and Garbage from layouts of `size` (None: as it is)."""
        return replace(self, target=self.target if target is None else target, size=self.size if size is None else size)


CASES = (
    Case("kasino", 2),
    Case("kasino", 4),
    Case("garbage", 2),
    Case("garbage", 6),
    Case("kasino", 2, "half DMs closed", closed=1),
    Case("kasino", 4, "half DMs closed", closed=2),
    Case("garbage", 4, "two computers", computers=2),
    Case("kasino", 2, "turns timed out", timed_out=True),
)


@dataclass
class Played:
    """What whole games of a case cost."""

    moves: int = 0
    counted: int = 0
    requests: int = 0
    synchronous_commits: int = 0
    routes: Counter[str] = field(default_factory=Counter)

    def add(self, other: Played) -> None:
        self.moves += other.moves
        self.counted += other.counted
        self.requests += other.requests
        self.synchronous_commits += other.synchronous_commits
        self.routes += other.routes


def timer_seconds(preset: str) -> int:
    """The seconds of a turn timer preset that has a limit ("2m", "15m", "24h")."""
    seconds = TIMER_PRESETS[preset]
    assert seconds is not None, preset
    return seconds


async def record_of(bot: CardBot, game_id: int) -> GameRecord:
    """The game's record (it exists: the bench started it)."""
    record = await bot.store.get_game(game_id)
    assert record is not None, game_id
    return record


def counted(path: str) -> bool:
    """Whether a request counts against the global rate limit."""
    return not path.startswith(FREE_PREFIXES)


async def play_one(case: Case, seed: int, folder: Path) -> Played:
    """One whole game of `case`, from its start to its end."""
    seeds = itertools.count(seed)
    bot = create_bot(folder / f"{case.title}-{seed}.db".replace(" ", "_"), new_seed=lambda: next(seeds), shard_count=1)
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("Cards")
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(name)) for name in NAMES[: case.players - case.computers]]
            closed = {member.id for member in members[len(members) - case.closed :]} if case.closed else set()
            for member in members:
                if member.id in closed:
                    env.inject_error("POST", f"/channels/{member.user.dm_channel.id}/messages", **CLOSED, times=None)
            game_id = await _start(env, case, channel, members)
            rng = random.Random(seed)
            start = len(env.http_requests)
            store = bot.store
            assert isinstance(store, Store)  # an SQLite file: its commits are counted
            commits = store.commits.synchronous
            first = (await record_of(bot, game_id)).move_count  # a computer may have moved already
            moves = await _play(env, bot, case, channel, members, game_id, rng, closed) - first
            requests = env.http_requests[start:]
            by_route = Counter(f"{entry.method} {_route(entry.path)}" for entry in requests if counted(entry.path))
            return Played(moves, sum(by_route.values()), len(requests), store.commits.synchronous - commits,
                          by_route)  # fmt: skip
    finally:
        await bot.close()


async def _start(
    env: simcord.Env, case: Case, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> int:
    options: dict[str, object] = {"seats": case.players}
    if case.kind == "garbage":
        options["size"] = case.size
    elif case.target is not None:
        options["target"] = case.target
    if case.timed_out:
        options.update(timer="2m", afk=AFK_LIMIT_MAX)
    if case.computers:
        opened, game_id = await solo_lobby(channel, members[0], f"{case.kind} new", ["medium"] * case.computers,
                                           **options)  # fmt: skip
        for member in members[1:]:
            await member.click(response_of(opened), label="Join")
        await members[0].click(response_of(opened), label="Start")
        await env.advance_time(0)
        return game_id
    _, game_id = await open_and_start(channel, members[0], members[1:], f"{case.kind} new", **options)
    return game_id


async def _play(
    env: simcord.Env,
    bot: CardBot,
    case: Case,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    game_id: int,
    rng: random.Random,
    closed: set[int],
) -> int:
    """Play to the end; returns the game's number of moves."""
    steps = 0
    idle = members[0].id if case.timed_out else None
    while True:
        record = await record_of(bot, game_id)
        if record.status == "finished":
            return record.move_count
        game = bot.service.game_of(record)
        seat = game.to_move
        assert seat is not None, "a running game has a seat to move"
        player = member_for(members, record, seat) if not record.seats[seat].is_computer else None
        if player is None:
            await env.advance_time(2)  # a computer's turn: it moves by itself
        elif player.id == idle:
            await env.advance_time(timer_seconds("2m") + 1)  # the warning, then the automatic move
        elif case.kind == "kasino":
            await play_turn(env, channel, members, game_id, rng, "panel" if player.id in closed else "dm")
        elif case.computers:
            await _click_table(env, channel, player, game_id, rng)  # computers may answer within the same step
        else:
            await play_turn_by_buttons(env, channel, members, game_id, rng)
        steps += 1
        if steps > 5000:
            raise AssertionError("the game did not end")


async def _click_table(
    env: simcord.Env, channel: simcord.ChannelHandle, player: simcord.MemberActor, game_id: int, rng: random.Random
) -> None:
    table = table_message(game_thread(channel, game_id), game_id)
    await player.click(table, custom_id=rng.choice([cid for cid in custom_ids(table) if is_enabled(table, cid)]))


HISTORY_TITLE = "history and replay pages"


async def history_pages(folder: Path, target: int = 21) -> tuple[int, int, int]:
    """A member pages through a finished Kasino game (member against a computer, to `target`): its whole history,
    its replay move by move for 40 moves, each round from the menu, and back; returns (pages, counted, all requests)."""
    bot = create_bot(folder / "history.db", new_seed=lambda: 7, shard_count=1)
    # The pages are measured, not the computers' pauses.
    pause, cogs.runtime.timing.COMPUTER_PAUSE_SECONDS = cogs.runtime.timing.COMPUTER_PAUSE_SECONDS, 0.0
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("Cards")
            channel = guild.create_text_channel("games")
            alice, reader = (guild.add_member(env.create_user(name)) for name in NAMES[:2])
            record = await finished_kasino(env, channel, alice, target=target)
            start = len(env.http_requests)
            page = await reader.slash(channel, "game history", game=record.id)
            pages = 1
            while enabled(page, "▶"):
                page, pages = await click(reader, page, "▶"), pages + 1
            page, pages = await click(reader, page, "Replay"), pages + 1
            for _ in range(40):
                if not enabled(page, "▶"):
                    break
                page, pages = await click(reader, page, "▶"), pages + 1
            # A game of one round (a smaller --kasino-target) has no menu of rounds.
            rounds = next((c for c in components(response_of(page)) if c.get("custom_id", "").endswith(":round")), None)
            for option in rounds["options"] if rounds is not None else []:
                assert page.response is not None and rounds is not None
                page = await reader.select(page.response, [option["value"]], custom_id=rounds["custom_id"])
                pages += 1
            await click(reader, page, "History")
            pages += 1
            requests = env.http_requests[start:]
            return pages, sum(1 for entry in requests if counted(entry.path)), len(requests)
    finally:
        cogs.runtime.timing.COMPUTER_PAUSE_SECONDS = pause
        await bot.close()


STORM_TITLE = "invalid requests during a 50001 storm"
STORM_SECONDS = 3600.0  # how long the moderator keeps the bot out
STORM_STEP = 30.0  # seconds of virtual time per advance
CATCH_UP_SECONDS = 1800.0  # how long after access returns every game must have caught up
MISSING_ACCESS = InjectedError(status=403, code=50001, message="Missing Access")


@dataclass(frozen=True)
class Storm:
    """What a storm of refusals cost: the busiest 10 minutes, and how the games came back."""

    games: int
    budget: int
    peak: int
    refused: int
    behind: int  # games whose shown version had not caught up CATCH_UP_SECONDS after access returned
    caught_up_after: float  # seconds after access returned when the last game had caught up

    def line(self, label: str) -> str:
        after = f"{(CATCH_UP_SECONDS if self.behind else self.caught_up_after) / 60:.1f} min after access returned"
        back = f"every game caught up {after}" if not self.behind else f"{self.behind} games still behind {after}"
        return (
            f"{STORM_TITLE} over {self.games} games{label}: peak {self.peak} per 10 min "
            f"(budget {self.budget}; {self.refused} refused in all; {back})"
        )


def busiest_window(stamps: list[float]) -> int:
    """The most stamps within any 10 minutes (each window ending at a stamp)."""
    ordered = sorted(stamps)
    start, best = 0, 0
    for end, stamp in enumerate(ordered):
        while ordered[start] <= stamp - WINDOW_SECONDS:
            start += 1
        best = max(best, end - start + 1)
    return best


def observe_refusals(env: simcord.Env) -> list[float]:
    """When each 401, 403 or 429 reached the bot (virtual seconds), seen on its HTTP client by the bench itself."""
    stamps: list[float] = []
    send = env.bot.http.request

    async def request(route: Route, **kwargs: Any) -> Any:
        try:
            return await send(route, **kwargs)
        except discord.HTTPException as error:
            if error.status in (401, 403, 429):
                stamps.append(env.now().timestamp())
            raise

    setattr(env.bot.http, "request", request)  # noqa: B010 - a wrapper in place of the method (mypy: method-assign)
    return stamps


async def storm(folder: Path, games: int, budget: int, timer: str = "15m", seconds: float = STORM_SECONDS) -> Storm:
    """`games` running Kasino games (turn timer `timer`) whose channel refuses the bot for `seconds`, then lets it
    back."""
    seeds = itertools.count(1)
    bot = create_bot(folder / f"storm-{budget}.db", new_seed=lambda: next(seeds), shard_count=1,
                     invalid_requests=InvalidRequests(budget))  # fmt: skip
    try:
        # 200 timers running out in the same step take SimCord longer than its default 5 s to settle.
        async with simcord.run(bot, settle_timeout=120.0) as env:
            guild = env.create_guild("Cards")
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(name)) for name in NAMES]
            ids = []
            for number in range(games):
                host, guest = members[number % 5], members[number % 5 + 1]
                ids.append((await open_and_start(channel, host, [guest], "kasino new", seats=2, timer=timer,
                                                 afk=AFK_LIMIT_MAX))[1])  # fmt: skip
            stamps = observe_refusals(env)
            for place in [channel, *(game_thread(channel, game_id) for game_id in ids)]:
                for method in ("POST", "PATCH", "DELETE"):
                    env.inject_error(method, f"/channels/{place.id}/*", **MISSING_ACCESS, times=None)
            # The first timers run out 15 minutes in: from then on, for an hour, Discord refuses what they change.
            for _ in range(int((timer_seconds(timer) + seconds) / STORM_STEP)):
                await env.advance_time(STORM_STEP)
            env.backend.faults.clear()
            waited, behind = 0.0, games
            while behind and waited < CATCH_UP_SECONDS:
                await env.advance_time(STORM_STEP)
                waited += STORM_STEP
                behind = sum([not (await record_of(bot, game_id)).shown for game_id in ids])
            return Storm(games, budget, busiest_window(stamps), len(stamps), behind, waited)
    finally:
        await bot.close()


def _route(path: str) -> str:
    return "/".join("{id}" if part.isdigit() else part for part in path.split("/"))


async def play_case(case: Case, games: int, folder: Path) -> Played:
    """`games` seeded games of `case`, added up."""
    total = Played()
    for game in range(games):
        total.add(await play_one(case, 1000 + game, folder))
    return total


async def main(argv: Sequence[str] | None = None) -> None:
    """Play each case and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per case (default 1)")
    parser.add_argument("--routes", action="store_true", help="also print counted requests by route")
    parser.add_argument("--only", default="", help="only the cases whose title contains this")
    parser.add_argument("--storm-games", type=int, default=200, help="games in the 50001 storm (default 200)")
    parser.add_argument("--kasino-target", type=int, help="Kasino's points to win (default: 16, and 21 for history)")
    parser.add_argument("--garbage-size", type=int, help="Garbage's starting layout size (default 3)")
    parser.add_argument("--storm-minutes", type=float, default=STORM_SECONDS / 60, help="the storm's length (60)")
    parser.add_argument("--storm-timer", default="15m", choices=("2m", "15m"), help="the storm games' turn timer")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for case in (case for case in CASES if args.only in case.title):
            played = await play_case(case.sized(args.kasino_target, args.garbage_size), args.games, Path(folder))
            print(
                f"{case.title}: {played.counted / played.moves:.2f} counted requests per move "
                f"({played.requests / played.moves:.2f} in all)",
                flush=True,
            )
            if args.routes:
                for route, count in played.routes.most_common():
                    print(f"    {count / played.moves:5.2f}  {route}")
        if args.only in HISTORY_TITLE:
            pages, counted_requests, requests = await history_pages(Path(folder), args.kasino_target or 21)
            per_page = f"{counted_requests / pages:g} counted requests per page ({requests / pages:.2f} in all)"
            print(f"{HISTORY_TITLE}: {per_page}", flush=True)
        if args.only in STORM_TITLE:
            length = args.storm_minutes * 60
            print((await storm(Path(folder), args.storm_games, BUDGET, args.storm_timer, length)).line(""), flush=True)
            tenth = await storm(Path(folder), args.storm_games, BUDGET // 10, args.storm_timer, length)
            print(tenth.line(", a process keeping a tenth of the budget"), flush=True)


if __name__ == "__main__":
    asyncio.run(main())

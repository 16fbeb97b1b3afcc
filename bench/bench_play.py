"""What a turn costs a player: taps, refreshes, and the messages left in the game's thread.

Plays whole seeded games through SimCord (the real bot, the real discord.py, a real SQLite file) as players would,
each acting only on what they were shown:

- a Kasino player acts from their latest private panel (the DM panel, which a new turn brings as a new DM, or their
  latest ephemeral panel, which the bot keeps current through the interaction's token). When that panel does not show
  the current turn, the turn "needed a refresh": they press **Show my hand** on the turn ping (or on the table).
  Then they click what the panel offers (a select's option, else one of its buttons other than Refresh), following
  what their last tap opened (a card's moves, not another card), until a move is played. Taps count from the turn
  notice; opening Discord or the DM is not a tap.
- a Garbage player presses one of the table's buttons per decision.

"Channel messages" are the messages anyone can see in the game's thread when a round (a hand) ends, counted in the
round they appeared in: the table and the closed-DM notice count in the first round, a turn ping the bot deleted
counts nowhere. The lobby message and the result line in the parent channel are not in the thread.

    python -m bench.bench_play [--games N] [--kasino-target POINTS] [--garbage-size SPOTS]

prints `kasino 2p, half DMs closed: 1.50 taps per move, 0% of turns needed a refresh, 2.3 channel messages per
round` and the same for Kasino with four players and Garbage with four.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import simcord

from bench.bench_requests import InjectedError
from bot import CardBot, create_bot
from db.records import GameRecord
from engine.registry import game_class
from tests.cogs.helpers import (
    components,
    custom_ids,
    game_thread,
    is_enabled,
    member_for,
    open_and_start,
    table_message,
)

NAMES = ("alice", "bob", "carol", "dave")
CLOSED = InjectedError(status=403, code=50007, message="Cannot send messages to this user")
NOT_A_MOVE = ("Refresh", "Show my hand")


@dataclass(frozen=True)
class Case:
    """Whole games of `kind` with `players` members, the last `closed` of them with DMs closed."""

    kind: str
    players: int
    closed: int = 0

    @property
    def title(self) -> str:
        return f"{self.kind} {self.players}p" + (", half DMs closed" if self.closed else "")


CASES = (Case("kasino", 2, closed=1), Case("kasino", 4, closed=2), Case("garbage", 4))


@dataclass
class Figures:
    """What the games of a case cost their players."""

    moves: int = 0
    taps: int = 0
    turns: int = 0
    refreshes: int = 0
    rounds: int = 0
    messages: int = 0

    def add(self, other: Figures) -> None:
        for counter in fields(self):
            setattr(self, counter.name, getattr(self, counter.name) + getattr(other, counter.name))


async def _record(bot: CardBot, game_id: int) -> GameRecord:
    record = await bot.store.get_game(game_id)
    assert record is not None, game_id
    return record


def _round_of(record: Any) -> int:
    public = game_class(record.kind).from_dict(record.state).public_view()
    return int(getattr(public, "round", getattr(public, "hand_number", 0)))


def _is_current(message: Any, game_id: int, version: int) -> bool:
    """Whether a panel shows the current turn as the player's: a live control stamped with the current version."""
    return message is not None and any(
        f":{game_id}:{version}:" in part.get("custom_id", "") for part in components(message)
    )


class Player:
    """One member and the panels they were shown."""

    def __init__(self, env: Any, member: Any, closed: bool) -> None:
        self.env, self.member, self.closed = env, member, closed
        self.ephemeral: int | None = None  # id of their latest ephemeral panel

    def latest_panel(self, thread: Any, game_id: int) -> tuple[Any, bool]:
        """Their latest private panel (and whether it is a DM), or None."""
        dms = [] if self.closed else list(self.member.user.dm_channel.history())
        dm = next((m for m in reversed(dms) if components(m) and f"#{game_id}" in (m.content or "")), None)
        if dm is not None and (self.ephemeral is None or dm.id > self.ephemeral):
            return dm, True
        if self.ephemeral is not None:
            found = next((m for m in thread.history(viewer=self.member) if m.id == self.ephemeral), None)
            return found, False
        return None, False

    async def show_hand(self, thread: Any, game_id: int) -> Any:
        """Press Show my hand on the turn ping (else on the table); their new panel."""
        ping = next(
            (m for m in reversed(list(thread.history())) if self.member.mention in (m.content or "") and
             "Show my hand" in [c.get("label") for c in components(m)]),
            None,
        )  # fmt: skip
        shown = await self.member.click(ping or table_message(thread, game_id), label="Show my hand")
        self.ephemeral = shown.response.message.id if shown.response.message is not None else None
        return next(m for m in thread.history(viewer=self.member) if m.id == self.ephemeral)


async def _kasino_turn(env: Any, thread: Any, game_id: int, player: Player, rng: random.Random, fig: Figures) -> None:
    record = await env.bot.store.get_game(game_id)
    panel, is_dm = player.latest_panel(thread, game_id)
    fig.turns += 1
    if not _is_current(panel, game_id, record.version):
        if panel is not None:
            fig.refreshes += 1
        panel, is_dm = await player.show_hand(thread, game_id), False
        fig.taps += 1
    actor = player.member.user if is_dm else player.member
    before: set[str] = set()
    for _ in range(10):
        parts = [part for part in components(panel) if part.get("label") not in NOT_A_MOVE]
        # A player follows what their last tap opened (a card's moves), rather than tapping another card.
        revealed = [part for part in parts if part.get("custom_id") not in before]
        parts, before = revealed or parts, {part.get("custom_id", "") for part in parts}
        select = next((part for part in parts if part["type"] == 3), None)
        if select is not None:
            values = [o["value"] for o in select["options"] if not o["value"].startswith("more:")]
            await actor.select(panel, [rng.choice(values)], custom_id=select["custom_id"])
        else:
            buttons = [part for part in parts if part["type"] == 2 and not part.get("disabled")]
            await actor.click(panel, custom_id=rng.choice(buttons)["custom_id"])
        fig.taps += 1
        if (await env.bot.store.get_game(game_id)).version != record.version:
            return
        place = player.member.user.dm_channel if is_dm else thread
        viewer = {} if is_dm else {"viewer": player.member}
        panel = next(m for m in place.history(**viewer) if m.id == panel.id)
    raise AssertionError("the panel never played a move")


async def play_one(case: Case, seed: int, folder: Path, target: int | None = None, size: int = 3) -> Figures:
    """One whole game of `case`: Kasino to `target` points (None: the lobby's default), Garbage from layouts of
    `size` spots."""
    seeds = itertools.count(seed)
    bot = create_bot(folder / f"{case.title}-{seed}.db".replace(" ", "_"), new_seed=lambda: next(seeds), shard_count=1)
    fig = Figures()
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild("Cards")
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(name)) for name in NAMES[: case.players]]
            closed = {member.id for member in members[len(members) - case.closed :]}
            for member in members:
                if member.id in closed:
                    env.inject_error("POST", f"/channels/{member.user.dm_channel.id}/messages", **CLOSED, times=None)
            players = {member.id: Player(env, member, member.id in closed) for member in members}
            options: dict[str, object] = {"seats": case.players}
            if case.kind == "garbage":
                options["size"] = size
            elif target is not None:
                options["target"] = target
            _, game_id = await open_and_start(channel, members[0], members[1:], f"{case.kind} new", **options)
            thread = game_thread(channel, game_id)
            rng = random.Random(seed)
            record = await _record(bot, game_id)
            round_number, counted = _round_of(record), 0
            while record.status == "running":
                seat = bot.service.game_of(record).to_move
                assert seat is not None, "a running game has a seat to move"
                member = member_for(members, record, seat)
                if case.kind == "kasino":
                    await _kasino_turn(env, thread, game_id, players[member.id], rng, fig)
                else:
                    table = table_message(thread, game_id)
                    await member.click(
                        table, custom_id=rng.choice([c for c in custom_ids(table) if is_enabled(table, c)])
                    )
                    fig.taps += 1
                fig.moves += 1
                record = await _record(bot, game_id)
                if record.status != "running" or _round_of(record) != round_number:
                    visible = len(list(thread.history()))
                    fig.rounds += 1
                    fig.messages += visible - counted
                    round_number, counted = _round_of(record), visible
                if fig.moves > 5000:
                    raise AssertionError("the game did not end")
    finally:
        await bot.close()
    return fig


async def main(argv: Sequence[str] | None = None) -> None:
    """Play each case and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games per case (default 1)")
    parser.add_argument("--kasino-target", type=int, help="Kasino's points to win (default: the lobby's, 16)")
    parser.add_argument("--garbage-size", type=int, default=3, help="Garbage's starting layout size (default 3)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for case in CASES:
            total = Figures()
            for game in range(args.games):
                total.add(await play_one(case, 2000 + game, Path(folder), args.kasino_target, args.garbage_size))
            unit, per = ("move", "round") if case.kind == "kasino" else ("decision", "hand")
            line = f"{case.title}: {total.taps / total.moves:.2f} taps per {unit}"
            if case.kind == "kasino":
                line += f", {100 * total.refreshes / total.turns:.0f}% of turns needed a refresh"
            print(f"{line}, {total.messages / total.rounds:.1f} channel messages per {per}", flush=True)


if __name__ == "__main__":
    asyncio.run(main())

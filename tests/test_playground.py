"""The playground: the real bot in a simulated Discord, served on the loopback address."""

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from bot import create_bot
from playground import Playground, serve
from tests.cogs.helpers import custom_ids, is_enabled, lobby_button, private_text, table_message
from tests.startup_helpers import unused_port

BOT = Path(__file__).resolve().parent.parent / "bot.py"


async def test_the_playground_serves_its_page_and_plays_a_game_through_its_actors(tmp_path: Path) -> None:
    stop, ready = asyncio.Event(), asyncio.Queue[tuple[str, Playground, Any]]()
    database = tmp_path / "playground.db"
    running = asyncio.create_task(serve(create_bot, database, unused_port(), stop, ready, wall_clock=False))
    try:
        url, playground, _ = await asyncio.wait_for(ready.get(), timeout=60)
        assert url.startswith("http://127.0.0.1:")
        async with aiohttp.ClientSession() as session, session.get(url) as page:
            assert page.status == 200
        you, kari = playground.members[:2]
        channel = playground.channel
        opened = await you.slash(channel, "garbage new", seats=2, size=2)
        await kari.click(opened.response, label="Join")
        started = await you.click(opened.response, label="Start")
        assert started.acknowledged
        game_id = 1
        for _ in range(3):  # a few moves, by whoever is to play, as the page would click them
            record = await playground.env.bot.store.get_game(game_id)
            table = table_message(channel, game_id)
            mover = next(m for m in playground.members if m.id == record.seats[record.state["to_move"]].user_id)
            choice = next(cid for cid in custom_ids(table) if is_enabled(table, cid))  # stock, or a Jack's spot
            clicked = await mover.click(table, custom_id=choice)
            assert clicked.acknowledged and not clicked.ephemeral
        assert len(await playground.env.bot.store.game_moves(game_id)) >= 3
    finally:
        stop.set()
        await asyncio.wait_for(running, timeout=30)


async def test_the_playground_has_named_people_a_manager_and_a_page_that_follows_the_bots_own_moves(
    tmp_path: Path,
) -> None:
    # Issue 24: "you places K♦" read badly; /pictures could not be tried; computer moves needed a manual Refresh.
    stop, ready = asyncio.Event(), asyncio.Queue[tuple[str, Playground, Any]]()
    running = asyncio.create_task(serve(create_bot, tmp_path / "p.db", unused_port(), stop, ready, wall_clock=False))
    try:
        _, playground, preview = await asyncio.wait_for(ready.get(), timeout=60)
        maja = playground.members[0]
        channel, env = playground.channel, playground.env
        managed = await maja.slash(channel, "pictures", show="off")
        assert "now shown as text only" in private_text(managed)
        opened = await maja.slash(channel, "garbage new", seats=2)
        assert "Players (1/2): Maja" in opened.response.content
        await playground.show_changes(preview)
        assert not await playground.show_changes(preview)  # nothing new: the page is not republished
        # The bot's own work, with nobody acting on the page (as a computer's move or a timer's post would be).
        await env.bot.get_partial_messageable(channel.id).send("A computer places 7♥.")
        assert await playground.show_changes(preview)
        snapshot = await preview.snapshot()
        assert "A computer places 7♥." in str(snapshot)
    finally:
        stop.set()
        await asyncio.wait_for(running, timeout=30)


def test_python_bot_py_playground_prints_its_address_serves_it_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DISCORD")}
    port = unused_port()
    process = subprocess.Popen(
        [sys.executable, str(BOT), "--playground", "--port", str(port), "--database", str(tmp_path / "p.db")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("Playground ready: open http://127.0.0.1:") and f":{port}/" in line, line
        url = line.split("open ", 1)[1].split(" ", 1)[0]
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=5) == 0
        assert time.monotonic() - sent < 5
        rest = process.stdout.read()
        assert "Traceback" not in rest and rest.strip().endswith("Playground stopped.")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        assert process.stdout is not None
        process.stdout.close()


async def test_the_clock_follows_real_time_and_waits_while_someone_acts() -> None:
    from simcord.backend.errors import SetupError

    from playground import follow_wall_clock

    class Env:
        def __init__(self) -> None:
            self.advanced: list[float] = []
            self.busy = True

        async def advance_time(self, seconds: float) -> None:
            if self.busy:  # a page action is running: SimCord refuses overlapping operations
                self.busy = False
                raise SetupError("operation overlaps")
            self.advanced.append(seconds)

    env, stop, ticks = Env(), asyncio.Event(), []

    async def tick() -> None:
        ticks.append(sum(env.advanced))

    follower = asyncio.create_task(follow_wall_clock(env, stop, tick))
    await asyncio.sleep(2.5)
    stop.set()
    await follower
    assert len(env.advanced) >= 1 and sum(env.advanced) >= 1.9  # the refused second is caught up, not lost
    assert len(ticks) == len(env.advanced)  # the page is looked at after each step of the clock, not while refused


def test_without_the_preview_extra_the_playground_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import playground

    monkeypatch.setattr(playground, "preview_available", lambda: False)
    assert playground.main([], create_bot) == 2
    assert capsys.readouterr().err.strip() == playground.NO_PREVIEW


def test_a_port_in_use_is_named_in_one_line_with_a_non_zero_status(tmp_path: Path) -> None:
    import playground

    env = {key: value for key, value in os.environ.items() if not key.startswith("DISCORD")}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, str(BOT), "--playground", "--port", str(port), "--database", str(tmp_path / "p.db")],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert done.returncode == playground.EXIT_NO_PORT and done.returncode != 0
    assert done.stderr.splitlines() == [f"playground: port {port} is in use; choose another with --port N"]
    assert done.stdout == ""


def test_the_locale_flag_is_parsed_with_english_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    import pytest

    import playground

    assert playground.parse([]).locale == "en"
    assert playground.parse(["--locale", "hu"]).locale == "hu"
    with pytest.raises(SystemExit):
        playground.parse(["--locale", "de"])
    assert "invalid choice" in capsys.readouterr().err


async def test_the_locale_reaches_the_server_and_its_players_discord(tmp_path: Path) -> None:
    # Issue 25: `--locale no` makes a Norwegian server whose players' Discord speaks Norwegian.
    import simcord.interactions

    real = simcord.interactions.base_payload
    stop, ready = asyncio.Event(), asyncio.Queue[tuple[str, Playground, Any]]()
    running = asyncio.create_task(
        serve(create_bot, tmp_path / "p.db", unused_port(), stop, ready, wall_clock=False, locale="no")
    )
    try:
        _, playground, _ = await asyncio.wait_for(ready.get(), timeout=60)
        maja, kari = playground.members[:2]
        channel, bot = playground.channel, playground.env.bot
        assert bot.get_guild(playground.guild.id).preferred_locale == discord.Locale.norwegian
        assert bot.languages.server_default(playground.guild.id) == "no"
        opened = await maja.slash(channel, "kasino new", seats=2)
        await kari.click(opened.response, custom_id=lobby_button(opened.response, "join"))  # "Bli med"
        await maja.click(opened.response, custom_id=lobby_button(opened.response, "start"))
        assert await bot.languages.of_user(kari.id, playground.guild.id) == "no"  # as her interactions said
        table = table_message(channel, 1)
        picture = next(a for a in table.attachments if a.filename == "table.png")
        assert picture.description is not None
        assert picture.description.startswith("Bilde av bordet: ")
    finally:
        stop.set()
        await asyncio.wait_for(running, timeout=30)
    assert simcord.interactions.base_payload is real  # SimCord is itself again once the playground stops

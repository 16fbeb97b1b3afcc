"""Regenerate the README's screenshots from the real bot: `python docs/screenshots.py` from the repository root.

The bot runs inside SimCord (a simulated Discord running the real discord.py) on a throwaway SQLite file; each
scene is shown through SimCord's preview in Discord's dark theme and captured with headless Chromium (Debian's
`chromium` package). The last scene is the playground page (`python bot.py --playground`).
"""

from __future__ import annotations

import asyncio
import io
import itertools
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402 - after the path is set
import simcord  # noqa: E402

from bot import create_bot  # noqa: E402
from tests.cogs.helpers import components, game_thread, labels, open_and_start, table_message  # noqa: E402
from tests.cogs.test_garbage_flow import play_turn_by_buttons  # noqa: E402
from tests.cogs.test_kasino_flow import play_turn  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
WIDTH = 1000
PHONE_WIDTH = 300  # about what a phone gives an image in a channel


async def capture(env: simcord.Env, place: Any, viewers: list[Any], name: str, height: int) -> None:
    """Show `place` as `viewers[0]` sees it and save docs/screenshots/<name>.png."""
    async with env.preview(
        place, viewers=viewers, layout="channel", display="fixed", width=WIDTH, height=height
    ) as preview:
        chromium = await asyncio.create_subprocess_exec(
            "chromium", "--headless=new", "--no-sandbox", "--disable-gpu", f"--screenshot={OUT / name}.png",
            f"--window-size={WIDTH},{height}", "--virtual-time-budget=8000", preview.url,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )
        await chromium.communicate()
    sys.stdout.write(f"wrote docs/screenshots/{name}.png\n")


async def phone_sized(table: Any, name: str) -> None:
    """The table's picture as a phone shows it, 300 px wide: docs/screenshots/<name>.png."""
    from PIL import Image

    picture = Image.open(io.BytesIO(await table.attachments[0].read()))
    height = round(picture.height * PHONE_WIDTH / picture.width)
    picture.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS).save(OUT / f"{name}.png")
    sys.stdout.write(f"wrote docs/screenshots/{name}.png\n")


async def playground_scene() -> None:
    """The playground page (`python bot.py --playground`) with a game under way, as Maja (you) sees it."""
    from playground import serve

    stop, ready = asyncio.Event(), asyncio.Queue()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "playground.db"
        running = asyncio.create_task(serve(create_bot, database, 0, stop, ready, wall_clock=False))
        url, playground, _ = await ready.get()
        maja, kari = playground.members[:2]
        opened = await maja.slash(playground.channel, "kasino new", seats=2)
        await kari.click(opened.response, label="Join")
        await maja.click(opened.response, label="Start")
        await maja.click(table_message(playground.channel, 1), label="Show my hand")
        chromium = await asyncio.create_subprocess_exec(
            "chromium", "--headless=new", "--no-sandbox", "--disable-gpu", f"--screenshot={OUT / 'playground'}.png",
            f"--window-size={WIDTH},1000", "--virtual-time-budget=8000", url,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )
        await chromium.communicate()
        stop.set()
        await running
    sys.stdout.write("wrote docs/screenshots/playground.png\n")


async def main() -> None:
    """Play the scenes and capture each."""
    if shutil.which("chromium") is None:
        sys.exit("Cannot take screenshots: install Debian's chromium package (apt-get install chromium).")
    OUT.mkdir(parents=True, exist_ok=True)
    seeds = itertools.count(11)
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(Path(folder) / "screens.db", new_seed=lambda: next(seeds), shard_count=1)
        try:
            async with simcord.run(bot) as env:
                await scenes(env)
        finally:
            await bot.close()
    await playground_scene()


async def scenes(env: simcord.Env) -> None:
    """Lobby, a Kasino table and its DM hand, the end of a round, a Garbage Jack choice, the leaderboard."""
    guild = env.create_guild("Card Club")
    channel = guild.create_text_channel("games")
    alice, bob, carol = (guild.add_member(env.create_user(name)) for name in ("alice", "bob", "carol"))

    lobby = await alice.slash(channel, "kasino new", seats=3, target=1)
    await bob.click(lobby.response, label="Join")
    await capture(env, channel, [alice], "lobby", 520)

    await carol.click(lobby.response, label="Join")
    await alice.click(lobby.response, label="Start")
    kasino_id = int(lobby.response.content.split("#", 1)[1].split(" ", 1)[0])
    thread = game_thread(channel, kasino_id)
    rng = random.Random(5)
    for _ in range(4):
        await play_turn(env, channel, [alice, bob, carol], kasino_id, rng, "dm")
    await capture(env, thread, [alice], "kasino-table", 1000)
    await phone_sized(table_message(thread, kasino_id), "kasino-table-300px")
    await capture(env, alice.user.dm_channel, [alice.user], "kasino-hand", 760)
    while (await env.bot.store.get_game(kasino_id)).status == "running":  # to 1 point: the first round ends it
        await play_turn(env, channel, [alice, bob, carol], kasino_id, rng, "dm")
    await capture(env, thread, [alice], "kasino-round-end", 1100)
    await alice.slash(thread, "game history", game=kasino_id)
    await capture(env, thread, [alice], "game-history", 1100)

    _, garbage_id = await open_and_start(channel, bob, [carol], "garbage new", seats=2, size=5)
    garbage_thread = game_thread(channel, garbage_id)
    for _ in range(400):
        if any(label and label.startswith("Jack") for label in labels(table_message(garbage_thread, garbage_id))):
            break
        await play_turn_by_buttons(env, channel, [alice, bob, carol], garbage_id, rng)
    await capture(env, garbage_thread, [bob], "garbage-jack", 1000)

    await alice.slash(channel, "leaderboard", game="kasino")
    await capture(env, channel, [alice], "leaderboard", 900)

    await house_rules_scene(env)

    for locale in ("no", "id", "hu"):
        await language_scene(env, locale)


def control(message: Any, suffix: str) -> str:
    """The custom id of the component whose id ends with `suffix`."""
    return next(c["custom_id"] for c in components(message) if c.get("custom_id", "").endswith(suffix))


async def house_rules_scene(env: simcord.Env) -> None:
    """A Garbage lobby whose host opened **House rules…** and chose Kings wild, Jokers and the last turn."""
    guild = env.create_guild("Trash Talk")
    channel = guild.create_text_channel("games")
    dana, eve = (guild.add_member(env.create_user(name)) for name in ("dana", "eve"))
    lobby = await dana.slash(channel, "garbage new", seats=3)
    await eve.click(lobby.response, label="Join")
    panel = await dana.click(lobby.response, custom_id=control(lobby.response, ":0:houserules"))
    panel = await dana.select(panel.response, ["king"], custom_id=control(panel.response, ":hr:0"))
    panel = await dana.click(panel.response, custom_id=control(panel.response, ":hr:1:on"))
    await dana.click(panel.response, custom_id=control(panel.response, ":hr:3:on"))
    await capture(env, channel, [dana], "house-rules", 900)


async def language_scene(env: simcord.Env, locale: str) -> None:
    """A Kasino table whose server chose `locale` with `/language`: its narration is told in that language."""
    guild = env.create_guild(f"Kortklubb {locale}")
    managers = guild.create_role("Hosts", permissions=discord.Permissions(manage_guild=True))
    channel = guild.create_text_channel("games")
    kari = guild.add_member(env.create_user(f"kari{locale}", global_name="Kari"), roles=[managers])
    ola = guild.add_member(env.create_user(f"ola{locale}", global_name="Ola"))
    await kari.slash(channel, "language", language=locale)
    _, game_id = await open_and_start(channel, kari, [ola], "kasino new", seats=2)
    rng = random.Random(3)
    for _ in range(5):
        await play_turn(env, channel, [kari, ola], game_id, rng, "dm")
    await capture(env, game_thread(channel, game_id), [kari], f"kasino-table-{locale}", 1000)


if __name__ == "__main__":
    asyncio.run(main())

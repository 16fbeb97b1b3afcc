"""Try the bot without Discord: `python bot.py --playground` serves it as a Discord-like page on 127.0.0.1.

The real bot, with its real cogs and a real SQLite file (`data/playground.db` unless `--database` says otherwise),
runs inside SimCord, a simulated Discord that drives the real discord.py offline. One server, a #games channel,
Maja (you, who may manage the server) and three friends; the page lets you act as any of them ("Viewing as"), run
slash commands and click buttons, and it follows what the bot does by itself (computer moves, timers).

SimCord's preview presents one channel, so the playground is set up to keep everything there: the bot may not
open threads in #games (games are played in the channel, one at a time), and direct messages are closed, so each
player sees their hand with **Show my hand** (visible to them only). SimCord's clock does not move by itself; here
it follows the wall clock, so turn timers run as on Discord.

`--locale {en,no,id,hu}` (English by default) makes the whole bot speak that language, as it would on Discord: the
server's preferred locale is set to it (so the table, its picture and the public posts are told in it) and every
player's Discord client speaks it (so their panels, suggestions and refusals are too). `/language` still overrides
the server's choice for the public text, as on Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import signal
import sys
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import discord

MakeBot = Callable[..., discord.Client]  # bot.create_bot: (database, shard_count=...) -> the bot

DEFAULT_DATABASE: Final = Path("data/playground.db")
DEFAULT_PORT: Final = 8765
# People's names, so the bot's sentences read as on Discord ("Kari places K♦"); the first may manage the server.
PLAYERS: Final = ("Maja", "Kari", "Ola", "Nora")
TICK_SECONDS: Final = 1.0
NO_PREVIEW: Final = (
    'The playground needs SimCord\'s preview: run `.venv/bin/pip install "simcord[preview]==3.2.1"` and try again.'
)
PORT_IN_USE: Final = "playground: port {port} is in use; choose another with --port N"
NO_PORT: Final = "playground: cannot listen on port {port} ({reason}); choose another with --port N"
EXIT_NO_PREVIEW: Final = 2
EXIT_NO_PORT: Final = 3
# The catalogs' locales (i18n.LOCALES) as Discord names them: its `no` is Bokmål; English is US English.
DISCORD_LOCALES: Final = {"en": "en-US", "no": "no", "id": "id", "hu": "hu"}
DEFAULT_LOCALE: Final = "en"


class PortError(Exception):
    """The page's port cannot be listened on; the message is one line for the person starting the playground."""


def port_error(port: int, error: BaseException) -> PortError | None:
    """The one-line reason when `error` (SimCord's, caused by the OS's) says the port cannot be bound; else None."""
    cause = error if isinstance(error, OSError) else error.__cause__
    if not isinstance(cause, OSError):
        return None
    if cause.errno == errno.EADDRINUSE:
        return PortError(PORT_IN_USE.format(port=port))
    reason = (cause.strerror or type(cause).__name__).lower()
    return PortError(NO_PORT.format(port=port, reason=reason))


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The playground's command line (after `--playground`)."""
    parser = argparse.ArgumentParser(prog="bot.py --playground", description="Try the bot in your browser.")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"loopback port (default {DEFAULT_PORT})")
    parser.add_argument("--database", type=Path, default=DEFAULT_DATABASE, help="SQLite file for the playground")
    parser.add_argument(
        "--locale",
        choices=tuple(DISCORD_LOCALES),
        default=DEFAULT_LOCALE,
        help="the language of the server and of its players' Discord (default en)",
    )
    return parser.parse_args(list(argv))


def preview_available() -> bool:
    """Whether SimCord's preview extra is installed."""
    try:
        from simcord.preview import _require_preview_runtime

        _require_preview_runtime()
    except Exception:  # ImportError, or SimCord's own SetupError naming the missing packages
        return False
    return True


async def follow_wall_clock(env: Any, stop: asyncio.Event, on_tick: Callable[[], Awaitable[object]]) -> None:
    """Move SimCord's clock with real time, so timers and tasks run as they would on Discord; `on_tick` after each."""
    from simcord.backend.errors import SetupError

    loop = asyncio.get_running_loop()
    last = loop.time()
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), TICK_SECONDS)
        now = loop.time()
        with contextlib.suppress(SetupError):  # someone is acting on the page: catch up on the next tick
            await env.advance_time(now - last)
            last = now
            await on_tick()


@contextlib.contextmanager
def clients_speaking(locale: str) -> Iterator[None]:
    """While inside, every interaction SimCord makes says its user's Discord speaks `locale` (a catalog locale).

    On Discord each interaction carries its user's client language (`interaction.locale`) and the server's
    (`guild_locale`); SimCord always says en-US, so the playground sets them here, and puts SimCord back on leaving.
    """
    import simcord.interactions

    real = simcord.interactions.base_payload
    code = DISCORD_LOCALES[locale]

    def base_payload(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = real(backend, **fields)
        payload["locale"] = code
        if "guild_locale" in payload:
            payload["guild_locale"] = code
        return record, payload

    simcord.interactions.base_payload = base_payload
    try:
        yield
    finally:
        simcord.interactions.base_payload = real


class Playground:
    """A running playground: the bot inside SimCord, its server (speaking `locale`), and the preview page."""

    def __init__(self, env: Any, locale: str = DEFAULT_LOCALE) -> None:
        import discord

        self.env = env
        self.locale = locale
        self.guild = env.create_guild("Playground", preferred_locale=DISCORD_LOCALES[locale])
        hosts = self.guild.create_role("Hosts", permissions=discord.Permissions(manage_guild=True))
        self.members = [
            self.guild.add_member(env.create_user(name.lower(), global_name=name), roles=[hosts] if seat == 0 else [])
            for seat, name in enumerate(PLAYERS)
        ]
        no_threads = discord.PermissionOverwrite(create_public_threads=False)
        self.channel = self.guild.create_text_channel("games", overwrites={self.guild.me: no_threads})
        # Every player's DMs are closed, as a real user may choose; hands are shown with Show my hand.
        env.inject_error("POST", "/users/@me/channels", status=403, code=50007, times=None)
        self._shown: tuple[object, ...] = ()

    def channel_state(self) -> tuple[object, ...]:
        """What the channel shows to everyone now, to tell whether the page is behind."""
        return tuple(
            (message.id, message.content, [embed.to_dict() for embed in message.embeds], message.edited_at)
            for message in self.channel.history()
        )

    async def show_changes(self, preview: Any) -> bool:
        """Republish the page when the bot changed the channel by itself (a computer's move, a timer); True if so.

        SimCord's page is republished after an action taken on it, but not after the bot's own work.
        """
        if self.channel_state() == self._shown:
            return False
        await preview.refresh()  # settles the bot's pending work first, so read what it shows afterwards
        self._shown = self.channel_state()
        return True


async def serve(
    make_bot: MakeBot,
    database: Path,
    port: int,
    stop: asyncio.Event,
    ready: asyncio.Queue[tuple[str, Playground, Any]] | None = None,
    *,
    wall_clock: bool = True,
    locale: str = DEFAULT_LOCALE,
) -> None:
    """Run the playground until `stop` is set; the page's address goes to stdout (and to `ready`, for tests).

    `ready` gets the address, the playground and its preview. `locale` is the server's and its players' language.

    `make_bot(database, shard_count=1)` is `bot.create_bot`, handed in by `bot.py` so this module need not import
    the bot that starts it. `wall_clock=False` leaves SimCord's clock to the caller (a test that drives the actors).

    Raises:
        PortError: the port cannot be listened on (another program has it, or it is not ours to use).
    """
    import simcord

    bot = make_bot(database, shard_count=1)
    try:
        async with simcord.run(bot) as env, contextlib.AsyncExitStack() as stack:
            playground = Playground(env, locale)
            stack.enter_context(clients_speaking(locale))
            try:
                preview = await stack.enter_async_context(
                    env.preview(
                        playground.channel,
                        viewers=playground.members,
                        layout="channel",
                        port=port,
                        locale=DISCORD_LOCALES[locale],
                    )
                )
            except (simcord.SetupError, OSError) as error:
                if (reason := port_error(port, error)) is not None:
                    raise reason from None
                raise
            sys.stdout.write(f"Playground ready: open {preview.url} in your browser (Ctrl-C stops it).\n")
            sys.stdout.flush()
            if ready is not None:
                await ready.put((preview.url, playground, preview))
            if wall_clock:
                await follow_wall_clock(env, stop, lambda: playground.show_changes(preview))
            else:
                await stop.wait()
    finally:
        await bot.close()


def main(argv: Sequence[str], make_bot: MakeBot) -> int:
    """`python bot.py --playground [--port N] [--database PATH] [--locale L]`; 0 when stopped by Ctrl-C.

    Else one line on stderr says why: 2 without SimCord's preview, 3 when the port cannot be listened on.
    """
    options = parse(argv)
    if not preview_available():
        sys.stderr.write(NO_PREVIEW + "\n")
        return EXIT_NO_PREVIEW

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        await serve(make_bot, options.database, options.port, stop, locale=options.locale)

    try:
        asyncio.run(run())
    except PortError as error:
        sys.stderr.write(f"{error}\n")
        return EXIT_NO_PORT
    sys.stdout.write("Playground stopped.\n")
    return 0

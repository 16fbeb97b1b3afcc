"""Issue 25: the table, its panels, pings, round scores, results and timers in the reader's language.

A Norwegian server (chosen with `/language`, or Norwegian on Discord) sees its tables, round scores, result lines,
turn pings and timer warnings in Norwegian; a Hungarian player there gets their own panels (and their DM warning) in
Hungarian. Expectations are the catalogs' words for the same message ids (`say`), and each check also makes sure
the English words of that id are not what was shown.
"""

import random
import re
from pathlib import Path
from typing import Any

import pytest
import simcord

from cogs.kasino.render import hand_text, score_table
from cogs.runtime.hands import whose_turn
from cogs.runtime.house_rules import house_rules_line
from cogs.runtime.table import turn_headline
from cogs.runtime.text import jump_link, legible
from cogs.runtime.timing import deadline_line, in_words
from db.records import GameRecord
from engine.garbage import GarbageGame
from engine.kasino import KasinoGame
from i18n import LOCALES, counted, say
from i18n.catalog import LOCALES_DIR, load, read_catalog
from tests.cogs.helpers import (
    bot_of,
    components,
    game_thread,
    given,
    labels,
    member_for,
    open_and_start,
    response_of,
    seat_to_move,
    state_of,
    table_message,
)
from tests.cogs.test_kasino_flow import dm_hand_message, play_to_end
from tests.cogs.test_language import manager, speaking

ROOT = Path(__file__).resolve().parents[2]


async def norwegian(env: simcord.Env, guild: simcord.GuildHandle, channel: simcord.ChannelHandle) -> None:
    """The server's managers choose Norsk for its public text."""
    await manager(env, guild).slash(channel, "language", language="no")
    assert await bot_of(env).languages.public(guild.id) == "no"


async def kasino_state(env: simcord.Env, game_id: int) -> tuple[GameRecord, KasinoGame]:
    record = await bot_of(env).store.get_game(game_id)
    assert record is not None
    return record, KasinoGame.from_dict(state_of(record))


def warning_language(text: str, record: GameRecord, message_id: str, **params: Any) -> str | None:
    """Which catalog's words of a timer warning `text` is (None: no catalog's), whatever time it said was left."""
    assert record.deadline is not None and record.turn_seconds is not None
    when = f"<t:{int(record.deadline.timestamp())}:t>"
    title = f"{record.kind.title()} #{record.id}"
    for locale in LOCALES:
        for left in range(0, record.turn_seconds + 1):
            if text == say(locale, message_id, title=title, when=when, left=in_words(left, locale), **params):
                return locale
    return None


def in_norwegian_not_english(shown: str | None, message_id: str, **params: Any) -> None:
    """`shown` holds the Norwegian words of `message_id`, and not the English ones."""
    assert shown is not None, message_id
    norwegian, english = say("no", message_id, **params), say("en", message_id, **params)
    assert norwegian != english, message_id
    assert legible(norwegian) in shown and legible(english) not in shown, (message_id, shown)


async def test_a_kasino_game_on_a_norwegian_server_is_told_in_norwegian_from_table_to_result(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    await norwegian(simcord_env, guild, channel)
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, target=1)
    thread = game_thread(channel, game_id)
    record, game = await kasino_state(simcord_env, game_id)
    names = [seat.name for seat in record.seats]
    view = game.public_view()
    table = table_message(thread, game_id)
    stage = say("no", "kasino.table.stage", round=1)
    assert table.content.startswith(legible(turn_headline(record, stage, game.to_move, "no")))
    assert legible(turn_headline(record, say("en", "kasino.table.stage", round=1), game.to_move, "en")) not in (
        table.content
    )
    embed = table.embeds[0]
    assert embed.title == say("no", "kasino.table.title", title=f"Kasino #{game_id}", round=1)
    counts = {
        "stock": counted(view.stock, "card", "no"),
        "dealer": names[view.dealer],
        "target": counted(1, "point", "no"),
    }
    in_norwegian_not_english(embed.description, "kasino.table.counts", **counts)
    seat = view.seats[0]
    in_norwegian_not_english(
        embed.fields[0].value,
        "kasino.table.seat",
        hand=seat.hand_size,
        captured=seat.captured,
        sweeps=seat.sweeps,
        score=seat.score,
    )
    assert [button["label"] for button in components(table)] == [say("no", "panel.show-hand")]

    # The players' clients speak English: their own panels and answers stay English while the game plays out.
    record = await play_to_end(simcord_env, channel, members, game_id, random.Random(5), ["dm", "slash"])
    game = KasinoGame.from_dict(state_of(record))
    posts = [message.content for message in thread.history()]
    last_round = game.public_view().last_round
    assert last_round is not None
    scores = legible(score_table(names, last_round, 1, "no"))
    assert scores in posts and legible(score_table(names, last_round, 1, "en")) not in posts
    assert scores.startswith(say("no", "kasino.table.scored", round=1))
    result = bot_of(simcord_env).presenter.result_line(record, game, "no")
    assert result is not None
    assert result.startswith(say("no", "result.over", title=f"Kasino #{game_id}", standings=""))
    assert legible(result) in posts
    assert bot_of(simcord_env).presenter.result_line(record, game, "en") not in posts
    assert channel.last_message is not None
    assert channel.last_message.content == legible(
        say("no", "result.in-parent", result=result, thread=f"<#{thread.id}>")
    )
    in_norwegian_not_english(
        table_message(thread, game_id).content, "table.headline-over", title=f"**Kasino #{game_id}**"
    )


async def test_a_garbage_game_on_a_norwegian_server_pings_and_warns_in_norwegian(
    simcord_env: simcord.Env, members: list[simcord.MemberActor]
) -> None:
    guild = simcord_env.create_guild("Kortklubben", preferred_locale="no")  # Norwegian on Discord: no /language
    channel = guild.create_text_channel("spill")
    alice, bob = (guild.add_member(simcord_env.create_user(name)) for name in ("kari", "ola"))
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3, timer="2m")
    thread = game_thread(channel, game_id)
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    game = GarbageGame.from_dict(state_of(record))
    table = table_message(thread, game_id)
    stage = say("no", "garbage.table.stage", hand=1)
    layout = "\n" + given(house_rules_line("garbage", record.settings, "no"))  # a layout of 3 is house rule GV3
    headline = turn_headline(record, stage, game.to_move, "no")
    assert table.content == legible(headline + layout + deadline_line(record, "no"))
    assert game.to_move is not None
    in_norwegian_not_english(
        table.content,
        "table.headline",
        title=f"**Garbage #{game_id}**",
        stage=stage,
        player=record.seats[game.to_move].name,
    )
    assert deadline_line(record, "en") not in table.content
    assert table.embeds[0].title == say("no", "garbage.table.title", title=f"Garbage #{game_id}", hand=1)
    assert say("no", "garbage.table.draw-stock") in labels(table) and "Draw from stock" not in labels(table)

    # The turn ping: in the thread, in Norwegian, with a jump to the table.
    mover = member_for([alice, bob], record, game.to_move)
    link = jump_link(f"Garbage #{game_id}", guild.id, thread.id, table.id)
    ping = say("no", "ping.your-turn", player=f"<@{mover.id}>", title=link)
    assert ping in [message.content for message in thread.history()]
    assert say("en", "ping.your-turn", player=f"<@{mover.id}>", title=link) != ping

    # The timer's warning, in the thread (Garbage has no DM panel) and in Norwegian.
    await simcord_env.advance_time(95)
    warnings = [message.content for message in thread.history() if message.content.startswith("⏳")]
    assert len(warnings) == 1
    player = f"<@{mover.id}>"
    assert warning_language(warnings[0], record, "timer.warning", player=player) == "no", warnings

    # A click on a Norwegian button plays, and the table tells the turn under its Norwegian heading.
    played = await mover.click(table_message(thread, game_id), label=say("no", "garbage.table.draw-stock"))
    assert played.acknowledged and not played.ephemeral
    fields = [field.name for field in table_message(thread, game_id).embeds[0].fields]
    assert say("no", "garbage.table.last-turn") in fields and "Last turn" not in fields


async def test_a_hungarian_player_at_a_norwegian_table_reads_their_panel_in_hungarian(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await norwegian(simcord_env, guild, channel)
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, timer="2m")
    record, game = await kasino_state(simcord_env, game_id)
    seat = seat_to_move(game)
    magyar = member_for(members, record, seat)
    speaking(monkeypatch, magyar, "hu")
    thread = game_thread(channel, game_id)
    shown = await magyar.click(table_message(thread, game_id), label=say("no", "panel.show-hand"))
    assert shown.ephemeral
    panel = shown.response
    assert panel is not None
    assert panel.content.startswith(legible(hand_text(record, game, seat, "hu")))
    assert say("en", "kasino.table.panel-turn", title=f"Kasino #{game_id}", round=1, move=1) not in panel.content
    assert say("hu", "kasino.table.panel-turn", title=f"Kasino #{game_id}", round=1, move=1) in panel.content
    footnote = panel.embeds[-1].description
    drawn = f"<t:{int(simcord_env.now().timestamp())}:R>"
    assert footnote == say("hu", "panel.stamp", turn=whose_turn(record, game, seat, "hu"), when=drawn)
    assert say("hu", "panel.refresh") in labels(panel) and "Refresh" not in labels(panel)
    assert panel.attachments[0].description == say("hu", "kasino.table.hand-picture")

    # Their DM follows the language their client last spoke in: the timer warns them in Hungarian.
    await simcord_env.advance_time(95)
    assert magyar.user.dm_channel.last_message is not None
    warning = magyar.user.dm_channel.last_message.content
    assert warning_language(warning, record, "timer.warning-dm") == "hu", warning

    # A move on the Hungarian panel: the DM panel, drawn again, is Hungarian too; the table stays Norwegian.
    picks = [c["custom_id"] for c in components(panel) if ":pick:" in c.get("custom_id", "")]
    if not picks:  # every card has several moves: the first tap shows one card's moves
        chosen = await magyar.click(
            panel, custom_id=next(c["custom_id"] for c in components(panel) if ":card:" in c.get("custom_id", ""))
        )
        panel = response_of(chosen)
        picks = [c["custom_id"] for c in components(panel) if ":pick:" in c.get("custom_id", "")]
    await magyar.click(panel, custom_id=picks[0])
    after, game_after = await kasino_state(simcord_env, game_id)
    assert after.version == record.version + 1
    assert dm_hand_message(magyar, after, seat).content == legible(hand_text(after, game_after, seat, "hu"))
    assert say("hu", "kasino.table.last-move") not in str(table_message(thread, game_id).embeds[0].to_dict())
    in_norwegian_not_english(
        str([field.name for field in table_message(thread, game_id).embeds[0].fields]), "kasino.table.last-move"
    )


TABLE_DOMAINS = ("table", "kasino_table", "garbage_table")
SAID_ID = re.compile(r'"((?:table|panel|ping|timer|result|kasino\.table|garbage\.table)\.[a-z-]+)"')


def test_every_table_message_the_cogs_say_is_in_the_catalogs_and_every_one_there_is_said() -> None:
    written = {key for path in (ROOT / "cogs").rglob("*.py") for key in SAID_ID.findall(path.read_text("utf-8"))}
    written.discard("table.png")  # the picture's file name, not a message
    english = load("en").entries
    assert sorted(key for key in written if key not in english) == []
    catalogued = {
        str(message.id[0] if isinstance(message.id, tuple) else message.id)
        for domain in TABLE_DOMAINS
        for message in read_catalog(LOCALES_DIR / "en" / f"{domain}.po")
        if message.id
    }
    assert sorted(catalogued - written) == []

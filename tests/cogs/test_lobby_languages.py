"""Issue 25: the lobby, game management, the boards and /stats in the server's or the reader's language.

Public text (the lobby message and its buttons, the leaderboard, a cancel's announcement) follows the server's
language; what only the actor reads (a refusal, a menu, /stats) follows theirs. Every expectation is the catalog's
message rendered with `say` in that language, and each is checked to differ from the same message in English, so a
text left in English cannot pass for a translation.
"""

from collections.abc import Awaitable, Callable
from typing import Any, cast

import discord
import pytest
import simcord

from cogs.leaderboard import COMPUTER_MARK, _kind_field, leaderboard_embed, leaderboard_view, shown_rating
from cogs.runtime.lookup import game_title
from cogs.runtime.names import computer_words
from cogs.runtime.text import RESIGNED_TURNS
from cogs.runtime.timing import in_words
from db.records import GameRecord, LeaderboardPage, LeaderboardRow
from engine.registry import GAME_KINDS, game_kind
from i18n import LOCALES, SOURCE_LOCALE, counted, render_message, say
from tests.cogs.helpers import (
    Shown,
    bot_of,
    components,
    lobby_button,
    open_and_start,
    private_text,
    record_of,
    response_of,
)
from tests.cogs.test_language import manager, speaking
from tests.cogs.test_leaderboard import finish_garbage

TRANSLATED = [locale for locale in LOCALES if locale != SOURCE_LOCALE]
ACTIONS = ("join", "leave", "start", "cancel")
BUTTONS = {action: f"lobby.button.{action}" for action in ACTIONS} | {"houserules": "lobby.button.house-rules"}

# A server of three members: the guild, its channel and the members.
Server = tuple[simcord.GuildHandle, simcord.ChannelHandle, list[simcord.MemberActor]]


def translated(locale: str, message_id: str, **params: Any) -> str:
    """The message in `locale`, checked to be words of its own: not the English rendering of the same message."""
    words = say(locale, message_id, **params)
    assert words != say(SOURCE_LOCALE, message_id, **params), (locale, message_id, words)
    return words


def menu(message: Shown, action: str) -> dict[str, Any]:
    return next(c for c in components(message) if c.get("custom_id", "").endswith(f":0:{action}"))


def lines_of(content: str) -> list[str]:
    return content.split("\n")


async def norwegian_server(env: simcord.Env) -> Server:
    guild = env.create_guild("Kortklubben", preferred_locale="no")
    channel = guild.create_text_channel("spill")
    members = [guild.add_member(env.create_user(name)) for name in ("kari", "ola", "nora")]
    return guild, channel, members


async def hungarian_server(env: simcord.Env) -> Server:
    """A server whose managers chose Hungarian with /language (its own Discord language is English)."""
    guild = env.create_guild("Kártyaklub")
    channel = guild.create_text_channel("jatek")
    members = [guild.add_member(env.create_user(name)) for name in ("anna", "bela", "csaba")]
    await manager(env, guild).slash(channel, "language", language="hu")
    return guild, channel, members


def check_lobby(content: str, view: Shown, locale: str, record: GameRecord, host: simcord.MemberActor) -> None:
    """The open lobby: heading, settings, timer, seats, the join line and the buttons, all in `locale`."""
    heading, seated, join = lines_of(content)
    title = game_title(record)
    kind = game_kind(record.kind)
    assert heading.startswith(translated(locale, "lobby.heading", title=title, host=host.mention))
    settings = render_message(kind.describe_settings(record.settings), locale)
    assert settings != render_message(kind.describe_settings(record.settings), SOURCE_LOCALE)
    assert record.turn_seconds is not None
    timer = translated(locale, "lobby.timer", per_turn=in_words(record.turn_seconds, locale), limit=record.afk_limit)
    assert f" {settings} {timer} {translated(locale, 'lobby.resigned-turns')}" in heading
    names = ", ".join(seat.name for seat in record.seats)
    assert seated == translated(
        locale, "lobby.players", seated=len(record.seats), seats=record.max_seats, players=names
    )
    assert join in (translated(locale, "lobby.join-or-add-computers"), translated(locale, "lobby.full"))
    labels = {c["custom_id"].rsplit(":", 1)[1]: c.get("label") for c in components(view) if c["type"] == 2}
    assert labels == {action: translated(locale, words) for action, words in BUTTONS.items()}
    adding = menu(view, "cpuadd")
    assert adding["placeholder"] == translated(locale, "lobby.add-computer")
    offered = [option["label"] for option in adding["options"]]
    assert offered and offered == [translated(locale, f"computers.menu.{o['value']}") for o in adding["options"]]


@pytest.mark.parametrize("server", [norwegian_server, hungarian_server], ids=["no", "hu"])
async def test_a_lobby_speaks_the_servers_language_from_opening_to_start(
    simcord_env: simcord.Env, server: Callable[[simcord.Env], Awaitable[Server]]
) -> None:
    guild, channel, (host, friend, _) = await server(simcord_env)
    locale = await bot_of(simcord_env).languages.public(guild.id)
    assert locale in TRANSLATED
    opened = await host.slash(channel, "kasino new", seats=3, timer="2m")
    record = await record_of(simcord_env, 1)
    check_lobby(response_of(opened).content, response_of(opened), locale, record, host)
    assert "Players" not in response_of(opened).content and "Join" not in response_of(opened).content

    await friend.click(response_of(opened), custom_id=lobby_button(response_of(opened), "join"))
    await host.select(response_of(opened), ["hard"], custom_id=menu(response_of(opened), "cpuadd")["custom_id"])
    record = await record_of(simcord_env, 1)
    content = response_of(opened).content
    # The computer is named in the server's language; the menu to remove it too, its value the stored name.
    robot = computer_words("hard", locale)
    assert robot == translated(locale, "computers.name", strength=translated(locale, "computers.strength.hard"))
    names = f"{host.name}, {friend.name}, {robot}"
    players = translated(locale, "lobby.players", seated=3, seats=3, players=names)
    assert lines_of(content)[1:] == [players, translated(locale, "lobby.full")]
    dropping = menu(response_of(opened), "cpudrop")
    assert dropping["placeholder"] == translated(locale, "lobby.remove-computer")
    assert [(o["label"], o["value"]) for o in dropping["options"]] == [(robot, "Computer (hard)")]

    await host.click(response_of(opened), custom_id=lobby_button(response_of(opened), "start"))
    record = await record_of(simcord_env, 1)  # the seats are shuffled at the start
    assert record is not None
    names = ", ".join(robot if seat.is_computer else seat.name for seat in record.seats)
    thread = next(thread for thread in channel.threads if thread.name == game_title(record))
    started = translated(locale, "lobby.started-in", title=game_title(record), players=names, thread=f"<#{thread.id}>")
    assert response_of(opened).content == started and response_of(opened).components == []


async def test_a_cancelled_lobby_and_its_announcement_are_public_and_the_cancellers_answer_is_theirs(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, channel, (host, friend, _) = await norwegian_server(simcord_env)
    speaking(monkeypatch, host, "id")
    _, game_id = await open_and_start(channel, host, [friend], "garbage new", seats=2, size=2)
    record = await record_of(simcord_env, game_id)
    thread = next(thread for thread in channel.threads if thread.name == game_title(record))
    done = await host.slash(thread, "game cancel")
    assert record is not None
    players = " dan ".join(seat.name for seat in record.seats)
    assert private_text(done) == translated("id", "manage.cancelled-game", title=game_title(record), players=players)
    announced = [followup.content for followup in done.followups if not followup.ephemeral]
    assert announced == [translated("no", "manage.cancelled-by", title=game_title(record), user=host.mention)]


def _no_threads_channel(guild: simcord.GuildHandle) -> simcord.ChannelHandle:
    me = guild.me
    assert me is not None
    return guild.create_text_channel(
        "uten-tråder", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )


async def test_the_one_game_refusal_with_its_jump_link_is_in_the_refused_users_own_language(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild, channel, (host, friend, other) = await norwegian_server(simcord_env)
    no_threads = _no_threads_channel(guild)
    opened = await host.slash(no_threads, "kasino new", seats=2)
    speaking(monkeypatch, other, "hu")
    refused = await other.slash(no_threads, "kasino new", seats=2)
    link = f"[Kasino #1](https://discord.com/channels/{guild.id}/{no_threads.id}/{response_of(opened).message.id})"
    assert refused.ephemeral
    assert private_text(refused) == translated("hu", "lobby.one-game-waiting", game=link)
    # The host started it in the channel, and was told why there is no thread in their own language (Norwegian).
    speaking(monkeypatch, host, "no")
    await friend.click(response_of(opened), custom_id=lobby_button(response_of(opened), "join"))
    started = await host.click(response_of(opened), custom_id=lobby_button(response_of(opened), "start"))
    assert private_text(started) == translated("no", "lobby.threads-not-allowed")
    # The lookup's refusals are the actor's too: no game in this channel.
    missing = await other.slash(channel, "game resign")
    assert private_text(missing) == translated("hu", "lookup.no-game-here")


async def test_the_cancel_menu_and_the_games_list_are_in_the_readers_language(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice = members[0]
    speaking(monkeypatch, alice, "hu")
    await alice.slash(channel, "kasino new", seats=2)
    await alice.slash(channel, "garbage new", seats=3)
    listed = await alice.slash(channel, "games")
    records = [await record_of(simcord_env, game_id) for game_id in (1, 2)]
    assert set(lines_of(private_text(listed))) == {
        translated("hu", "games.line-lobby", title=game_title(r), where=f"<#{channel.id}>", players="alice")
        for r in records
    }
    offered = await alice.slash(channel, "game cancel")
    assert private_text(offered) == translated("hu", "manage.cancel-which")
    shown = offered.followups[0] if offered.followups else response_of(offered)
    picker = components(shown)[0]
    assert picker["placeholder"] == translated("hu", "manage.choose-cancel")
    assert [option["label"] for option in picker["options"]] == [
        translated("hu", "manage.label-lobby", title=game_title(r), host="alice", seated=1, seats=r.max_seats)
        for r in records
    ]
    done = await alice.select(shown, ["2"], custom_id="game:cancel")
    lobby = records[1]
    assert translated("hu", "manage.cancelled-lobby", title=game_title(lobby), host="alice") in private_text(done)


async def test_leaderboard_and_stats_in_indonesian(simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    guild = simcord_env.create_guild("Kartu", preferred_locale="id")
    channel = guild.create_text_channel("main")
    alice, bob, carol = (guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol"))
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=1)
    await finish_garbage(simcord_env, channel, [alice, bob], game_id)
    boards = bot_of(simcord_env).service.boards

    # The board is posted in the channel: the server's language, whoever asks (carol's client speaks English).
    shown = await carol.slash(channel, "leaderboard", game="garbage", sort="winrate")
    assert not shown.ephemeral
    assert shown.response is not None
    embed = shown.response.embeds[0]
    assert embed.title == translated("id", "board.title", game="Garbage", server="Kartu")
    assert embed.description == translated("id", "board.empty-min-games", games=counted(3, "game", "id"))
    shown = await carol.slash(channel, "leaderboard", game="garbage")
    assert shown.response is not None
    embed = shown.response.embeds[0]
    board = await boards.leaderboard(guild.id, "garbage", "rating", page=0, per_page=10, min_games=3, computers=True)
    assert {row.name for row in board.rows} == {"alice", "bob"}
    said, english = leaderboard_embed("Kartu", "garbage", board, "id"), leaderboard_embed("Kartu", "garbage", board)
    assert embed.description == said.description and embed.footer.text == said.footer.text
    assert embed.description is not None and english.description is not None
    assert len(lines_of(embed.description)) == 2
    for line, in_english in zip(lines_of(embed.description), lines_of(english.description), strict=True):
        assert line != in_english
    assert embed.footer.text != english.footer.text

    # /stats answers only the one who asked, in their language: Indonesian for bob, English for carol.
    speaking(monkeypatch, bob, "id")
    mine = await bob.slash(channel, "stats")
    assert mine.ephemeral
    assert mine.response is not None
    assert mine.response.embeds[0].title == translated("id", "stats.title", name="bob")
    stats = await boards.player_stats(bob.id, guild.id)
    for kind_stats in stats.kinds:
        field = next(f for f in mine.response.embeds[0].fields if f.name == game_kind(kind_stats.kind).title)
        assert field.value == _kind_field(kind_stats, "id")
        for line, in_english in zip(lines_of(field.value), lines_of(_kind_field(kind_stats)), strict=True):
            assert line != in_english
    garbage = next(kind for kind in stats.kinds if kind.kind == "garbage")
    assert garbage.rating is not None
    rank = translated(
        "id", "stats.rating-rank", rating=shown_rating(garbage.rating), rank=garbage.rank, of=garbage.rated_players
    )
    assert rank in _kind_field(garbage, "id")
    kasino = next(kind for kind in stats.kinds if kind.kind == "kasino")
    unplayed = translated(
        "id", "stats.this-server", tally=say("id", "stats.no-games"), rating=say("id", "stats.unrated")
    )
    assert _kind_field(kasino, "id").startswith(unplayed)
    theirs = await carol.slash(channel, "stats")
    assert theirs.response is not None
    assert theirs.response.embeds[0].title == say(SOURCE_LOCALE, "stats.title", name="carol")


def test_the_board_s_pages_computers_and_buttons_in_indonesian() -> None:
    rows = (
        LeaderboardRow(1, 5, "alice", 0.0, 2, 1, 0.5, 10),
        LeaderboardRow(None, -3, "Computer (hard)", 1.0, 4, 3, 0.75, 20),
    )
    page = LeaderboardPage(rows, 0, 3, 25, "rating", 3)
    embed = leaderboard_embed("Kartu", "kasino", page, "id")
    assert embed.description is not None
    robot = embed.description.split("\n")[1]
    assert robot.startswith(f"{COMPUTER_MARK} {computer_words('hard', 'id')} — ")
    assert computer_words("hard", "id") != computer_words("hard", "en")
    assert embed.footer.text is not None
    footer = embed.footer.text.split(" · ")
    assert footer[-1] == translated("id", "board.computer-unranked", mark=COMPUTER_MARK)
    hidden = leaderboard_embed("Kartu", "kasino", LeaderboardPage(rows[:1], 0, 3, 25, "rating", 3, False), "id")
    assert hidden.footer.text is not None
    assert hidden.footer.text.split(" · ")[-1] == translated("id", "board.computers-hidden")
    view = leaderboard_view("kasino", "rating", page, "id")
    assert view is not None
    assert all(isinstance(item, discord.ui.DynamicItem) for item in view.children)  # the page buttons
    assert [cast("discord.ui.DynamicItem[Any]", item).item.label for item in view.children] == [
        translated("id", "board.previous"),
        translated("id", "board.next"),
    ]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_lobby_s_resign_rule_is_the_one_sentence_the_rules_use_in_every_language(locale: str) -> None:
    said = say(locale, "lobby.resigned-turns")
    if locale == SOURCE_LOCALE:
        assert said == RESIGNED_TURNS
    else:
        assert said != RESIGNED_TURNS
    for kind in GAME_KINDS:
        assert said in say(locale, f"{kind.name}.rules.leaving", resign="/game resign"), (locale, kind.name)

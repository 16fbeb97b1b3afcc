"""Issue 5: lobbies, threads, cancel, and refusals — driven through SimCord against a real SQLite file."""

import discord
import pytest
import simcord

from service.tables import LobbyOptions
from tests.cogs.helpers import (
    bot_of,
    components,
    game_thread,
    given,
    guild_of,
    open_and_start,
    private_text,
    public_texts,
    record_of,
    response_of,
    table_message,
)


async def test_lobby_lists_players_as_they_join_and_leave(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    opened = await alice.slash(channel, "kasino new", seats=3)
    assert opened.response is not None
    assert "Players (1/3): alice" in opened.response.content
    await bob.click(opened.response, label="Join")
    await carol.click(opened.response, label="Join")
    assert opened.response is not None
    assert "Players (3/3): alice, bob, carol" in opened.response.content
    left = await bob.click(opened.response, label="Leave")
    assert opened.response is not None
    assert left.acknowledged and "Players (2/3): alice, carol" in opened.response.content


async def test_joining_twice_or_a_full_lobby_is_refused_ephemerally(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    opened = await alice.slash(channel, "kasino new", seats=2)
    again = await alice.click(response_of(opened), label="Join")
    assert "already joined" in private_text(again).lower()
    assert opened.response is not None
    assert "Press **Join** to take a seat." in opened.response.content
    await bob.click(opened.response, label="Join")
    assert opened.response is not None
    assert "Players (2/2)" in opened.response.content
    # A full lobby no longer asks anyone to join: it says so, and that the host may start.
    assert "The lobby is full: the host can press **Start**." in opened.response.content
    assert "Join" not in opened.response.content
    # Join is disabled once full: Discord would not even send the click.
    with pytest.raises(simcord.SetupError, match="disabled"):
        await carol.click(opened.response, label="Join")
    assert opened.response is not None
    assert "carol" not in opened.response.content


async def test_only_the_host_may_start(channel: simcord.ChannelHandle, members: list[simcord.MemberActor]) -> None:
    alice, bob = members[:2]
    opened = await alice.slash(channel, "garbage new", seats=2)
    await bob.click(response_of(opened), label="Join")
    refused = await bob.click(response_of(opened), label="Start")
    assert private_text(refused) == "Only the host can start the game."
    assert opened.response is not None
    assert "Players (2/2)" in opened.response.content
    assert channel.threads == []


async def test_start_needs_two_players(channel: simcord.ChannelHandle, members: list[simcord.MemberActor]) -> None:
    alice = members[0]
    opened = await alice.slash(channel, "kasino new")
    refused = await alice.click(response_of(opened), label="Start")
    assert "At least two players" in private_text(refused)


async def test_start_opens_a_thread_with_the_living_table_and_pings_the_first_player(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    opened, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    thread = game_thread(channel, game_id)
    assert opened.response is not None
    assert f"Play in <#{thread.id}>" in opened.response.content
    assert opened.response.components == []  # the lobby buttons are gone
    table = table_message(thread, game_id)
    assert "to play" in table.content
    pings = [m for m in thread.history() if "your turn" in m.content]
    assert len(pings) == 1 and (alice.mention in pings[0].content or bob.mention in pings[0].content)


async def test_host_cancels_lobby(channel: simcord.ChannelHandle, members: list[simcord.MemberActor]) -> None:
    alice, bob = members[:2]
    opened = await alice.slash(channel, "kasino new")
    refused = await bob.click(response_of(opened), label="Cancel")
    assert "Only the host" in private_text(refused)
    done = await alice.click(response_of(opened), label="Cancel")
    assert opened.response is not None
    assert done.acknowledged and opened.response.content == "Kasino #1 was cancelled."
    assert opened.response.components == []


async def test_member_with_manage_server_cancels_a_running_game(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    thread = game_thread(channel, game_id)
    refused = await bob.slash(thread, "game cancel")
    assert "Only the host or someone with Manage Server" in private_text(refused)
    done = await mod.slash(thread, "game cancel")
    players = " and ".join(seat.name for seat in (await record_of(simcord_env, game_id)).seats)
    assert private_text(done) == f"You cancelled Kasino #{game_id}, the game of {players}; no results are recorded."
    announced = [followup for followup in done.followups if not followup.ephemeral]
    assert [followup.content for followup in announced] == [
        f"Kasino #{game_id} was cancelled by {mod.mention}; no results recorded."
    ]
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert record.status == "cancelled"
    table = table_message(thread, game_id)
    assert table.content == f"Kasino #{game_id} was cancelled; no results were recorded."
    assert table.components == []


async def test_two_games_from_one_channel_each_get_their_own_thread(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol, dave = members[:4]
    _, first = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    _, second = await open_and_start(channel, carol, [dave], "garbage new", seats=2)
    assert first != second
    threads = {thread.name for thread in channel.threads}
    assert threads == {f"Kasino #{first}", f"Garbage #{second}"}
    assert table_message(game_thread(channel, first), first)
    assert table_message(game_thread(channel, second), second)


def _no_threads_channel(guild: simcord.GuildHandle) -> simcord.ChannelHandle:
    me = guild.me
    assert me is not None
    return guild.create_text_channel(
        "no-threads", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)}
    )


def _jump_link(guild: simcord.GuildHandle, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild.id}/{channel_id}/{message_id}"


async def test_without_thread_permission_the_game_plays_in_the_channel_and_a_second_lobby_is_refused_at_new(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    no_threads = _no_threads_channel(guild)
    _, first = await open_and_start(no_threads, alice, [bob], "garbage new", seats=2, size=2)
    assert no_threads.threads == []
    table = table_message(no_threads, first)
    refused = await carol.slash(no_threads, "garbage new", seats=2)
    # Refused at once, in a sentence, with a jump link (Discord shows it as a link named after the game) to the table.
    assert refused.ephemeral
    link = _jump_link(guild, no_threads.id, table.id)
    assert private_text(refused).startswith(f"[Garbage #{first}]({link}) is already being played in this channel")
    assert "may not open threads here" in private_text(refused)
    record = await bot_of(simcord_env).store.get_game(first + 1)
    assert record is None  # no second lobby was opened


async def test_without_thread_permission_an_open_lobby_holds_the_channel_too(
    guild: simcord.GuildHandle, members: list[simcord.MemberActor]
) -> None:
    alice, carol = members[0], members[2]
    no_threads = _no_threads_channel(guild)
    opened = await alice.slash(no_threads, "kasino new", seats=2)
    refused = await carol.slash(no_threads, "kasino new", seats=2)
    assert opened.response is not None
    link = _jump_link(guild, no_threads.id, opened.response.message.id)
    assert private_text(refused).startswith(f"[Kasino #1]({link}) is waiting for players in this channel")
    assert "Join that one" in private_text(refused)


async def test_where_threads_may_be_opened_two_lobbies_share_a_channel(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, carol = members[0], members[2]
    first = await alice.slash(channel, "kasino new", seats=2)
    second = await carol.slash(channel, "garbage new", seats=2)
    assert not first.ephemeral and not second.ephemeral
    assert second.response is not None
    assert "Garbage #2" in second.response.content


async def test_start_still_refuses_a_second_game_in_a_channel_without_threads(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, members: list[simcord.MemberActor]
) -> None:
    # Two lobbies can be open only if the bot lost the thread permission after the second was opened.
    alice, bob, carol, dave = members[:4]
    no_threads = _no_threads_channel(guild)
    opened = await carol.slash(no_threads, "garbage new", seats=2)
    await dave.click(response_of(opened), label="Join")
    second = await bot_of(simcord_env).service.open_lobby(
        "garbage",
        LobbyOptions(seats=2),
        guild_id=guild.id,
        channel_id=no_threads.id,
        host_id=alice.id,
        host_name="alice",
    )
    await bot_of(simcord_env).service.join(second.id, bob.id, "bob")
    await bot_of(simcord_env).service.start(second.id, alice.id)
    refused = await carol.click(response_of(opened), label="Start")
    # Its table was never posted (it was started behind the bot's back), so the link is to the channel.
    assert f"Garbage #{second.id} (<#{no_threads.id}>) is already being played in this channel" in private_text(refused)
    assert opened.response is not None
    assert "Players (2/2)" in opened.response.content


async def test_cancel_with_several_games_here_offers_them_in_a_menu_and_says_what_it_cancelled(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    await alice.slash(channel, "kasino new", seats=2)
    await alice.slash(channel, "garbage new", seats=3)
    asked = await alice.slash(channel, "game cancel")
    assert asked.ephemeral and "Which one do you cancel?" in private_text(asked)
    menu = asked.followups[0] if asked.followups else response_of(asked)
    options = [option["label"] for option in components(menu)[0]["options"]]
    assert options == ["Kasino #1 — lobby of alice (1/2)", "Garbage #2 — lobby of alice (1/3)"]
    done = await alice.select(menu, ["2"], custom_id="game:cancel")
    assert "You cancelled Garbage #2, the lobby of alice; no results are recorded." in private_text(done)
    assert (await record_of(simcord_env, 2)).status == "cancelled"
    assert (await record_of(simcord_env, 1)).status == "lobby"
    assert any(
        m.content == f"Garbage #2 was cancelled by {alice.mention}; no results recorded." for m in channel.history()
    )


async def test_cancel_offers_the_games_as_autocomplete_choices_this_channels_first(
    guild: simcord.GuildHandle, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    elsewhere = guild.create_text_channel("elsewhere")
    await bob.slash(elsewhere, "garbage new", seats=2)
    await alice.slash(channel, "kasino new", seats=2)
    choices = await alice.autocomplete(channel, "game cancel", "game", "")
    assert choices == [
        {"name": "Kasino #2 — lobby of alice (1/2)", "value": 2},
        {"name": "Garbage #1 — lobby of bob (1/2)", "value": 1},
    ]
    assert await alice.autocomplete(channel, "game cancel", "game", "garb") == [
        {"name": "Garbage #1 — lobby of bob (1/2)", "value": 1}
    ]
    done = await alice.slash(channel, "game cancel", game=2)
    assert private_text(done) == "You cancelled Kasino #2, the lobby of alice; no results are recorded."


async def test_rules_are_ephemeral_and_state_the_value_and_points_tables(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    shown = await members[0].slash(channel, "rules", game="kasino")
    assert shown.ephemeral
    assert shown.response is not None
    text = given(shown.response.embeds[0].description)
    assert "10♦ (big)    10 / 16" in text and "most spades     2" in text


async def test_games_lists_lobbies_and_running_games(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, running = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    await carol.slash(channel, "garbage new")
    listed = await carol.slash(channel, "games")
    assert listed.ephemeral
    assert listed.response is not None
    assert f"Kasino #{running}** — playing" in listed.response.content
    assert "Garbage #2** — waiting for players" in listed.response.content


@pytest.mark.parametrize("command", ["kasino play", "kasino hand"])
async def test_kasino_commands_outside_a_game_are_refused_with_a_reason(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor], command: str
) -> None:
    options = {"move": "5h place"} if command == "kasino play" else {}
    refused = await members[0].slash(channel, command, **options)
    assert private_text(refused) == "You are not playing in a Kasino game in this server."
    assert public_texts(guild_of(channel)) == ""


@pytest.mark.simcord(approved_intents=discord.Intents.default())
async def test_the_bot_needs_no_privileged_intents(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    # With only the default intents approved, a bot asking for more would fail to start here.
    _, game_id = await open_and_start(channel, members[0], [members[1]], "garbage new", seats=2, size=2)
    assert table_message(game_thread(channel, game_id), game_id)


def test_every_strength_has_menu_words_and_a_rated_id_and_nothing_else_does() -> None:
    from ai.base import Strength
    from cogs.lobby import STRENGTH_WORDS
    from db.records import COMPUTER_USER_IDS

    assert list(STRENGTH_WORDS) == list(Strength)  # weakest first, as the menu offers them
    assert set(COMPUTER_USER_IDS) == set(Strength)

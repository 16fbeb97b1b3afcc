"""Issue 26 through the real bot in SimCord, with the toy kind's house rules (tests/toy_game.py: TV1 rounds, a choice;
TV2 showdown, on/off for three seats only; TV3 aces low, on/off and also an option of `/toy new`): the host's panel in
the lobby, refusals with their reasons, a server's usual house rules, and the rules told on the table, in `/rules`
and counted by `/stats`."""

from collections.abc import Callable, Iterator

import discord
import pytest
import simcord

from bot import CardBot
from engine import registry
from tests import toy_game
from tests.cogs.helpers import (
    InjectedError,
    Shown,
    bot_of,
    components,
    custom_ids,
    game_thread,
    lobby_button,
    member_for,
    private_text,
    record_of,
    response_of,
    state_of,
    table_message,
)


@pytest.fixture
def simcord_bot(make_bot: Callable[[], CardBot]) -> Iterator[CardBot]:
    with registry.registered(toy_game.KIND), toy_game.toy_words():
        yield make_bot()


def manager(env: simcord.Env, guild: simcord.GuildHandle) -> simcord.MemberActor:
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user("mod"), roles=[mods])


def game_id_of(opened: simcord.InteractionResult) -> int:
    return int(response_of(opened).content.split("#", 1)[1].split("*", 1)[0])


def rule_control(message: Shown, index: int, value: str | None = None) -> str:
    """The custom id of the panel's control of rule `index` (a toggle carries the value it sets)."""
    suffix = f":hr:{index}" if value is None else f":hr:{index}:{value}"
    return next(custom_id for custom_id in custom_ids(message) if custom_id.endswith(suffix))


def house_rules_button(message: Shown) -> str:
    return next(custom_id for custom_id in custom_ids(message) if custom_id.endswith(":0:houserules"))


async def open_panel(host: simcord.MemberActor, opened: simcord.InteractionResult) -> simcord.InteractionResult:
    panel = await host.click(response_of(opened), custom_id=house_rules_button(response_of(opened)))
    assert panel.ephemeral, panel
    return panel


async def test_the_host_sets_house_rules_and_the_lobby_lists_those_off_their_defaults(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened = await alice.slash(channel, "toy new", seats=3)
    assert opened.response is not None
    assert "House rules" not in opened.response.content  # the main rules: nothing to list
    panel = await open_panel(alice, opened)
    assert response_of(panel).content.startswith(f"**House rules for High Card #{game_id_of(opened)}.**")
    assert "No house rules: the main rules." in response_of(panel).content
    shown = {component["custom_id"].split(":hr:")[1]: component for component in components(response_of(panel))}
    assert [option["label"] for option in shown["0"]["options"]] == [
        "Rounds: three cards",
        "Rounds: one card",
        "Rounds: two cards",
    ]
    assert [option.get("default", False) for option in shown["0"]["options"]] == [True, False, False]
    assert shown["0"]["options"][1]["description"] == "Each player is dealt one card: one show decides."
    assert shown["1:on"]["label"] == "Showdown: highest wins" and shown["2:on"]["label"] == "Aces: high"

    await alice.select(response_of(panel), ["1"], custom_id=rule_control(response_of(panel), 0))
    await alice.click(response_of(panel), custom_id=rule_control(response_of(panel), 1, "on"))
    content = opened.response.content  # live: the lobby message as it is now
    assert "House rules: Rounds: one card; Showdown: lowest wins." in content
    # Showdown is for three players; one is seated so far: the lobby says what Start needs.
    assert "Before Start: Showdown needs exactly three players, not 1." in content
    assert "House rules: Rounds: one card; Showdown: lowest wins." in response_of(panel).content  # the panel redrawn
    toggles = {component["custom_id"]: component for component in components(response_of(panel))}
    assert any(custom_id.endswith(":hr:1:off") for custom_id in toggles)  # pressed again, it turns showdown off
    record = await bot_of(simcord_env).store.get_game(game_id_of(opened))
    assert record is not None
    assert record.settings == {"rounds": 1, "showdown": True}

    await alice.click(response_of(panel), custom_id=rule_control(response_of(panel), 1, "off"))
    assert "House rules: Rounds: one card." in opened.response.content
    assert "Before Start" not in opened.response.content


async def test_a_guest_is_refused_the_panel_with_the_reason(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    opened = await alice.slash(channel, "toy new", seats=3)
    await bob.click(response_of(opened), custom_id=lobby_button(response_of(opened), "join"))
    refused = await bob.click(response_of(opened), custom_id=house_rules_button(response_of(opened)))
    assert private_text(refused) == "Only the host can change the house rules."
    assert (await record_of(simcord_env, game_id_of(opened))).settings == {}


async def test_a_rule_that_does_not_fit_the_seats_is_refused_with_the_reason(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    opened = await alice.slash(channel, "toy new", seats=2)
    panel = await open_panel(alice, opened)
    refused = await alice.click(response_of(panel), custom_id=rule_control(response_of(panel), 1, "on"))
    assert private_text(refused) == "Showdown needs exactly three players, not 2."
    assert (await record_of(simcord_env, game_id_of(opened))).settings == {}
    assert opened.response is not None
    assert "House rules" not in opened.response.content
    assert any(custom_id.endswith(":hr:1:on") for custom_id in custom_ids(response_of(panel)))  # still off


async def test_start_is_refused_while_the_rules_do_not_fit_the_players_seated(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    opened = await alice.slash(channel, "toy new", seats=3)
    game_id = game_id_of(opened)
    panel = await open_panel(alice, opened)
    await alice.click(response_of(panel), custom_id=rule_control(response_of(panel), 1, "on"))
    await bob.click(response_of(opened), custom_id=lobby_button(response_of(opened), "join"))
    assert opened.response is not None
    assert "not 2." in opened.response.content  # told again as the seats change
    refused = await alice.click(opened.response, custom_id=lobby_button(opened.response, "start"))
    assert private_text(refused) == (
        "The game cannot start with these house rules: Showdown needs exactly three players, not 2."
    )
    await carol.click(opened.response, custom_id=lobby_button(opened.response, "join"))
    assert opened.response is not None
    assert "Before Start" not in opened.response.content
    await alice.click(opened.response, custom_id=lobby_button(opened.response, "start"))
    assert (await record_of(simcord_env, game_id)).status == "running"


async def test_a_server_preset_applies_to_new_lobbies_and_is_shown_and_reset(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    mod = manager(simcord_env, guild)
    refused = await alice.slash(channel, "houserules edit", game="toy")
    assert private_text(refused) == "Only someone with Manage Server can change this server's usual house rules."
    panel = await mod.slash(channel, "houserules edit", game="toy")
    assert response_of(panel).content.startswith("**High Card: this server's usual house rules.**")
    await mod.select(response_of(panel), ["2"], custom_id=rule_control(response_of(panel), 0))
    await mod.click(response_of(panel), custom_id=rule_control(response_of(panel), 2, "on"))
    assert "House rules: Rounds: two cards; Aces: low." in response_of(panel).content
    assert await bot_of(simcord_env).store.house_rules_preset(guild.id, "toy") == {"rounds": 2, "aces_low": True}

    shown = await bob.slash(channel, "houserules show", game="toy")
    assert private_text(shown).splitlines()[1:3] == [
        "• Each player is dealt two cards and shows them both.",
        "• Aces are low: they count 1.",
    ]
    opened = await alice.slash(channel, "toy new", seats=2)
    assert opened.response is not None
    content = opened.response.content  # aces low is an option of `/toy new` too: its settings sentence says it
    assert "Aces low." in content and "House rules: Rounds: two cards." in content and "Aces: low" not in content
    chose = await alice.slash(channel, "toy new", seats=2, aces_low=False)  # what the host chose comes first
    assert chose.response is not None
    assert "House rules: Rounds: two cards." in chose.response.content

    refused = await alice.slash(channel, "houserules reset", game="toy")
    assert private_text(refused) == "Only someone with Manage Server can change this server's usual house rules."
    reset = await mod.slash(channel, "houserules reset", game="toy")
    assert private_text(reset) == "Done: new High Card lobbies in this server play by the main rules again."
    shown = await bob.slash(channel, "houserules show", game="toy")
    assert private_text(shown).startswith("New High Card lobbies in this server play by the main rules")
    opened = await alice.slash(channel, "toy new", seats=2)
    assert opened.response is not None
    assert "House rules" not in opened.response.content


async def test_a_manager_saves_a_lobbys_rules_for_the_server_and_a_member_cannot(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice = members[0]
    opened = await alice.slash(channel, "toy new", seats=2)
    panel = await open_panel(alice, opened)
    assert not any(custom_id.endswith(":hrsave") for custom_id in custom_ids(response_of(panel)))  # not a manager
    mod = manager(simcord_env, guild)
    opened = await mod.slash(channel, "toy new", seats=2)
    panel = await open_panel(mod, opened)
    await mod.select(response_of(panel), ["1"], custom_id=rule_control(response_of(panel), 0))
    save = next(custom_id for custom_id in custom_ids(response_of(panel)) if custom_id.endswith(":hrsave"))
    saved = await mod.click(response_of(panel), custom_id=save)
    assert private_text(saved) == (
        "Saved: new High Card lobbies in this server start from these house rules. House rules: Rounds: one card."
    )
    assert await bot_of(simcord_env).store.house_rules_preset(guild.id, "toy") == {"rounds": 1}


async def test_the_table_rules_and_stats_tell_the_house_rules_of_the_game(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    opened = await alice.slash(channel, "toy new", seats=2)
    game_id = game_id_of(opened)
    panel = await open_panel(alice, opened)
    await alice.select(response_of(panel), ["1"], custom_id=rule_control(response_of(panel), 0))
    await bob.click(response_of(opened), custom_id=lobby_button(response_of(opened), "join"))
    await alice.click(response_of(opened), custom_id=lobby_button(response_of(opened), "start"))
    thread = game_thread(channel, game_id)
    assert "House rules: Rounds: one card." in table_message(thread, game_id).content.splitlines()[1]

    rules = await bob.slash(thread, "rules")  # in the game's thread, no game named: this game's rules
    assert rules.response is not None
    fields = {field.name: field.value for field in rules.response.embeds[0].fields}
    assert fields[f"House rules in High Card #{game_id}"] == "• Each player is dealt one card: one show decides."
    elsewhere = await bob.slash(channel, "rules", number=game_id)
    assert elsewhere.response is not None
    assert f"House rules in High Card #{game_id}" in [field.name for field in elsewhere.response.embeds[0].fields]
    which = await bob.slash(channel, "rules")
    assert private_text(which) == "Which game's rules? Name the game, or ask in a game's thread."

    for _ in range(2):  # one card each
        record = await bot_of(simcord_env).store.get_game(game_id)
        assert record is not None
        game = toy_game.HighCard.from_dict(state_of(record))
        assert game.to_move is not None
        player = member_for(members, record, game.to_move)
        await player.slash(thread, "toy play", move=str(game.legal_moves(game.to_move)[0]))
    assert (await record_of(simcord_env, game_id)).status == "finished"
    stats = await alice.slash(channel, "stats")
    assert stats.response is not None
    field = next(field for field in stats.response.embeds[0].fields if field.name == "High Card")
    assert field.value is not None
    assert "1 game under house rules" in field.value


async def test_a_lobby_redrawn_in_its_channel_after_an_edit_refused_with_30046_is_posted_anew_once(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    """Issue 44, item 7: the panel redraws the lobby through its channel, where the edit cap may refuse it too."""
    alice = members[0]
    opened = await alice.slash(channel, "toy new", seats=3)
    assert opened.response is not None
    game_id, old = game_id_of(opened), opened.response.message.id
    panel = await open_panel(alice, opened)
    refused: InjectedError = {
        "status": 400,
        "code": 30046,
        "message": "Maximum number of edits to messages older than 1 hour reached",
    }
    simcord_env.inject_error("PATCH", f"/channels/{channel.id}/messages/{old}", **refused, times=None)

    await alice.select(response_of(panel), ["1"], custom_id=rule_control(response_of(panel), 0))
    new = (await record_of(simcord_env, game_id)).lobby_message_id
    assert new != old
    lobbies = [message for message in channel.history() if f"#{game_id}" in (message.content or "")]
    assert [message.id for message in lobbies] == [new]  # one new lobby; the old one deleted
    assert "House rules: Rounds: one card." in lobbies[0].content

    # the new lobby is edited
    await alice.click(response_of(panel), custom_id=rule_control(response_of(panel), 1, "on"))
    assert (await record_of(simcord_env, game_id)).lobby_message_id == new
    shown = next(message for message in channel.history() if message.id == new)
    assert "House rules: Rounds: one card; Showdown: lowest wins." in shown.content

"""Which language (issue 25): public text follows the server's language, private text the reader's.

Expectations are rendered from the catalogs (`render_message` in the locale), since the `no`, `id` and `hu`
catalogs are still being filled: where an entry is not translated yet both sides say it in English. The tests that
must tell the languages apart whatever the catalogs hold use a pseudo-catalog: the locale's words are the English
ones marked "⟦hu⟧", so a text told in that locale shows the mark and one told in another does not.
"""

import random
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
import simcord.interactions
from simcord.backend import Backend
from simcord.backend.models import Interaction

import i18n.render
from cogs.runtime.language import Languages, catalog_locale
from cogs.runtime.text import clip, legible
from db.records import GameRecord
from i18n import render_message, say, sentence_start
from i18n.catalog import Entry, LocaleCatalog, load
from service.errors import RefusedError
from service.ports import ServerSettings
from tests.cogs.helpers import (
    bot_of,
    components,
    game_thread,
    member_for,
    open_and_start,
    private_text,
    record_of,
    response_of,
    seat_to_move,
    table_message,
)
from tests.cogs.test_kasino_flow import play_turn


def pseudo_catalogs(monkeypatch: pytest.MonkeyPatch, *locales: str) -> None:
    """The given locales' catalogs become English words marked with the locale ("⟦hu⟧ Place 4♠")."""
    real = load  # what i18n.render reads its catalogs with

    def load_marked(locale: str) -> LocaleCatalog:
        if locale not in locales:
            return real(locale)
        english = real("en")
        entries = {
            key: Entry(tuple(f"⟦{locale}⟧ {form}" for form in entry.forms), entry.selector)
            for key, entry in english.entries.items()
        }
        return LocaleCatalog(locale, entries, english.plural)

    monkeypatch.setattr(i18n.render, "load", load_marked)


def speaking(monkeypatch: pytest.MonkeyPatch, member: simcord.MemberActor, locale: str) -> None:
    """The member's Discord client speaks `locale`: their interactions carry it (SimCord always says en-US)."""
    real = simcord.interactions.base_payload

    def base_payload(backend: Backend, **fields: Any) -> tuple[Interaction, dict[str, Any]]:
        record, payload = real(backend, **fields)
        if fields.get("user_id") == member.id:
            payload["locale"] = locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)


def manager(env: simcord.Env, guild: simcord.GuildHandle) -> simcord.MemberActor:
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user("mod"), roles=[mods])


def last_move_field(place: simcord.ChannelHandle, game_id: int, locale: str) -> str:
    """The table's "Last move" field, as the table names it in `locale`."""
    embed = table_message(place, game_id).embeds[0]
    value = next(field.value for field in embed.fields if field.name == say(locale, "kasino.table.last-move"))
    assert value is not None
    return value


async def one_move_played(
    env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor], game_id: int
) -> tuple[GameRecord, list[str]]:
    await play_turn(env, channel, members, game_id, random.Random(3), "dm")
    record = await bot_of(env).store.get_game(game_id)
    assert record is not None
    return record, [seat.name for seat in record.seats]


def told(record: GameRecord, names: list[str], locale: str) -> list[str]:
    return [legible(render_message(message, locale, names)) for message in record.narration]


async def test_a_server_set_to_norsk_tells_its_table_in_norwegian(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    mod = manager(simcord_env, guild)
    done = await mod.slash(channel, "language", language="no")
    assert "Norsk" in private_text(done)
    assert await bot_of(simcord_env).store.language(guild.id) == "no"
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, names = await one_move_played(simcord_env, channel, members, game_id)
    shown = last_move_field(game_thread(channel, game_id), game_id, "no")
    lines = told(record, names, "no")
    assert lines and all(line in shown for line in lines)


async def test_the_server_language_reaches_the_table_and_not_the_players_own_panels(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pseudo_catalogs(monkeypatch, "no")
    mod = manager(simcord_env, guild)
    await mod.slash(channel, "language", language="no")
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, names = await one_move_played(simcord_env, channel, members, game_id)
    shown = last_move_field(game_thread(channel, game_id), game_id, "no")
    assert "⟦no⟧" in shown and all(line in shown for line in told(record, names, "no"))
    # The players' clients speak English (en-US): their DM panels are theirs, not the server's.
    for seat in record.seats:
        member = member_for(members, record, seat.seat)
        panels = [str(components(m)) for m in member.user.dm_channel.history()]
        assert panels and not any("⟦no⟧" in panel for panel in panels)


async def test_a_non_manager_is_refused_language_with_a_reason(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice = members[0]
    assert "language" not in alice.available_commands(channel)  # Discord hides it from members without Manage Server
    with pytest.raises(RefusedError) as refused:
        await bot_of(simcord_env).service.set_language(guild.id, "no", is_manager=False)
    assert refused.value.message.id == "refused.language-managers-only"
    assert await bot_of(simcord_env).store.language(guild.id) is None


async def test_a_hungarian_player_gets_their_panel_and_suggestions_in_hungarian(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pseudo_catalogs(monkeypatch, "hu")
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record = await record_of(simcord_env, game_id)
    game = bot_of(simcord_env).service.game_of(record)
    assert game.to_move is not None
    mover = member_for(members, record, seat_to_move(game))
    speaking(monkeypatch, mover, "hu")
    thread = game_thread(channel, game_id)
    shown = await mover.click(table_message(thread, game_id), label="Show my hand")
    assert shown.ephemeral
    picks = [c for c in components(response_of(shown)) if c["type"] == 2 and ":pick:" in c["custom_id"]]
    labels = {
        clip(legible(sentence_start(render_message(game.describe_move(move), "hu"))), 80)
        for move in game.legal_moves(game.to_move)
    }
    assert picks and all(pick["label"] in labels and "⟦hu⟧" in pick["label"] for pick in picks)
    cards = [c for c in components(response_of(shown)) if c["type"] == 2 and ":card:" in c["custom_id"]]
    assert all("⟦hu⟧" in card["label"] for card in cards)  # "7♦ (⟦hu⟧ 2 moves)"
    suggested = await mover.autocomplete(thread, "kasino play", "move", "")
    assert suggested and all("⟦hu⟧" in choice["name"] for choice in suggested)
    # The table is public: the server's language (English here), not the player's.
    assert "⟦hu⟧" not in str(table_message(thread, game_id).embeds[0].to_dict())


async def test_the_server_default_follows_the_servers_own_language(
    simcord_env: simcord.Env, members: list[simcord.MemberActor], monkeypatch: pytest.MonkeyPatch
) -> None:
    pseudo_catalogs(monkeypatch, "hu")
    guild = simcord_env.create_guild("Kártya", preferred_locale="hu")
    channel = guild.create_text_channel("games")
    alice, bob = (guild.add_member(simcord_env.create_user(name)) for name in ("anna", "bela"))
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    assert bot_of(simcord_env).languages.server_default(guild.id) == "hu"
    record, names = await one_move_played(simcord_env, channel, [alice, bob], game_id)
    shown = last_move_field(game_thread(channel, game_id), game_id, "hu")
    assert "⟦hu⟧" in shown and all(line in shown for line in told(record, names, "hu"))
    mod = manager(simcord_env, guild)
    await mod.slash(channel, "language", language="en")
    assert await bot_of(simcord_env).languages.public(guild.id) == "en"
    back = await mod.slash(channel, "language", language="default")
    assert "Magyar" in private_text(back)
    assert await bot_of(simcord_env).store.language(guild.id) is None
    assert await bot_of(simcord_env).languages.public(guild.id) == "hu"


async def test_without_the_guild_cached_the_latest_interactions_guild_locale_is_the_default() -> None:
    class Settings:
        async def language(self, guild_id: int) -> str | None:
            return None

    # Languages asks the settings for the server's language alone.
    languages = Languages(lambda guild_id: None, cast("ServerSettings", Settings()))
    assert languages.server_default(7) == "en"
    interaction = SimpleNamespace(
        user=SimpleNamespace(id=1), locale=discord.Locale.hungarian, guild_id=7, guild_locale=discord.Locale.norwegian
    )
    await languages.note_interaction(cast("discord.Interaction", interaction))  # reads the ids and locales alone
    assert languages.server_default(7) == "no" and await languages.public(7) == "no"
    assert await languages.of_user(1, 7) == "hu"  # a DM follows the user's own language
    assert await languages.of_user(2, 7) == "no"  # else the server's


def test_discord_locales_map_onto_the_catalogs() -> None:
    assert [catalog_locale(code) for code in ("no", "id", "hu", "en-US", "en-GB", "de", None)] == [
        "no",
        "id",
        "hu",
        "en",
        "en",
        "en",
        "en",
    ]
    assert catalog_locale(discord.Locale.indonesian) == "id"
    assert load("no").locale == "no"

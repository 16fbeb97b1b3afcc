"""Whole games in every language (issue 25): Kasino and Garbage played to their result through SimCord on a server
that speaks the language, by a player whose Discord speaks it too.

Everything the player could read is gathered: the channel and the game's thread (table, pings, round summaries,
result), the player's ephemeral answers (panels, refusals) and their DMs. None of it may hold a sentence that only the
English catalog has. The English-only sentences are found from the catalogs themselves, not from a hand-made list:
the words of each English message between its placeholders (two words or more, or one long word, such as a button's
"Rematch"), where the language's own catalog does not use the same words anywhere.
"""

import random
import re
from typing import Any

import pytest
import simcord

from i18n import LOCALES, SOURCE_LOCALE
from i18n.catalog import load
from tests.cogs.helpers import (
    components,
    custom_ids,
    game_thread,
    is_enabled,
    lobby_button,
    private_text,
    response_of,
    table_message,
    texts_visible_to,
)
from tests.cogs.test_computers import solo_lobby, state
from tests.cogs.test_language import speaking

OTHER_LOCALES = [locale for locale in LOCALES if locale != SOURCE_LOCALE]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[^\W\d_]{2,}")


def _words(text: str) -> str:
    return " ".join(WORD.findall(text.lower()))


def english_only_sentences(locale: str) -> set[str]:
    """The words English messages say between placeholders (two words or more, or one of four letters or more) that
    `locale`'s catalog never says."""
    own = " | ".join(_words(form) for entry in load(locale).entries.values() for form in entry.forms)
    found: set[str] = set()
    for entry in load(SOURCE_LOCALE).entries.values():
        for form in entry.forms:
            for piece in PLACEHOLDER.split(form):
                words = _words(piece)
                if (len(words.split()) >= 2 or len(words) >= 4) and words not in own:
                    found.add(words)
    return found


HIDDEN = re.compile(r"'(custom_id|url|proxy_url)': '[^']*'")  # what Discord keeps from the reader


def english_left_in(texts: list[str], locale: str) -> list[str]:
    said = _words(HIDDEN.sub("", "\n".join(texts)))
    return sorted(sentence for sentence in english_only_sentences(locale) if f" {sentence} " in f" {said} ")


def everything_seen_by(member: simcord.MemberActor, guild: simcord.GuildHandle) -> list[str]:
    dms = member.user.dm_channel.history() if member.user.dm_channel is not None else []
    texts = [texts_visible_to(member, guild)]
    for message in dms:
        texts += [message.content or "", *(str(embed.to_dict()) for embed in message.embeds)]
        texts += [str(components(message))]
    return texts


def speaking_server(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch, locale: str
) -> tuple[simcord.GuildHandle, simcord.ChannelHandle, simcord.MemberActor, simcord.MemberActor]:
    """A server whose language is `locale`, with a player and a bystander whose Discord speaks it too."""
    guild = env.create_guild(f"cards-{locale}", preferred_locale=locale)
    channel = guild.create_text_channel("games")
    player, bystander = (guild.add_member(env.create_user(f"{who}-{locale}")) for who in ("player", "bystander"))
    speaking(monkeypatch, player, locale)
    speaking(monkeypatch, bystander, locale)
    return guild, channel, player, bystander


async def started_against_a_computer(
    channel: simcord.ChannelHandle, player: simcord.MemberActor, command: str, strength: str, **options: Any
) -> tuple[int, simcord.ChannelHandle]:
    """A two-seat game of `player` against a computer, started from its lobby; returns its id and thread."""
    opened, game_id = await solo_lobby(channel, player, command, [strength], seats=2, **options)
    await player.click(response_of(opened), custom_id=lobby_button(response_of(opened), "start"))
    return game_id, game_thread(channel, game_id)


async def bystander_refused(bystander: simcord.MemberActor, thread: simcord.ChannelHandle, game_id: int) -> str:
    """A member who is not playing presses the table's first button: refused, in their language."""
    table = table_message(thread, game_id)
    pressed = await bystander.click(table, custom_id=next(c for c in custom_ids(table) if is_enabled(table, c)))
    return private_text(pressed)


def assert_no_english_left(seen: list[str], locale: str) -> None:
    if locale == SOURCE_LOCALE:
        assert english_left_in(seen, "no")  # where English is spoken, the check finds it
    else:
        assert english_left_in(seen, locale) == []


def test_the_check_finds_english_it_is_shown() -> None:
    """The check can fail: an English message's words are found in a text, and a translation's are not."""
    english = load(SOURCE_LOCALE).entries
    norwegian = load("no").entries
    key = next(key for key, entry in english.items() if len(_words(PLACEHOLDER.sub("", entry.forms[0])).split()) >= 4)
    assert english_left_in([english[key].forms[0]], "no")
    assert not english_left_in([norwegian[key].forms[0]], "no")


@pytest.mark.parametrize("locale", LOCALES)
async def test_kasino_plays_to_its_result_in_every_language(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    guild, channel, player, bystander = speaking_server(simcord_env, monkeypatch, locale)
    game_id, thread = await started_against_a_computer(channel, player, "kasino new", "medium", target=1)
    wrong = await player.slash(thread, "kasino play", move="Z♠ take 9")  # not a card
    refusals = [private_text(wrong), await bystander_refused(bystander, thread, game_id)]
    rng = random.Random(5)
    for _ in range(200):
        record, _ = await state(simcord_env, game_id)
        if record.status != "running":
            break
        await player.click(table_message(thread, game_id), label=_show_hand_label(thread, game_id))
        choices = await player.autocomplete(thread, "kasino play", "move", "")
        await player.slash(thread, "kasino play", move=rng.choice(choices)["value"])
    assert record.status == "finished"
    assert all(refusal.strip() for refusal in refusals)
    assert_no_english_left(everything_seen_by(player, guild) + refusals, locale)


@pytest.mark.parametrize("locale", LOCALES)
async def test_garbage_plays_to_its_result_in_every_language(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, locale: str
) -> None:
    guild, channel, player, bystander = speaking_server(simcord_env, monkeypatch, locale)
    game_id, thread = await started_against_a_computer(channel, player, "garbage new", "easy", size=2)
    rng = random.Random(6)
    refusals = [await bystander_refused(bystander, thread, game_id)]
    for _ in range(500):
        record, _ = await state(simcord_env, game_id)
        if record.status != "running":
            break
        table = table_message(thread, game_id)
        enabled = [cid for cid in custom_ids(table) if is_enabled(table, cid)]
        await player.click(table, custom_id=rng.choice(enabled))
    assert record.status == "finished"
    assert all(refusal.strip() for refusal in refusals)
    assert_no_english_left(everything_seen_by(player, guild) + refusals, locale)


def _show_hand_label(thread: simcord.ChannelHandle, game_id: int) -> str:
    """The table's button that shows a player their hand, in whatever language the table speaks."""
    table = table_message(thread, game_id)
    label: str = next(c["label"] for c in components(table) if c.get("custom_id", "").endswith(":hand"))
    return label

"""Issue 25: `/rules` is answered in the reader's language (the answer is theirs alone): the rules, the title and how
moves are typed, within Discord's embed limits in every language, and with no English sentence left over."""

import re

import discord
import pytest
import simcord

from cogs.garbage.rules import GARBAGE_RULES
from cogs.kasino.rules import KASINO_RULES
from i18n import LOCALES, SOURCE_LOCALE
from tests.cogs.helpers import given
from tests.cogs.test_language import speaking
from tests.discord_limits import violations

RULES = {"kasino": KASINO_RULES, "garbage": GARBAGE_RULES}
WORD = re.compile(r"[^\W\d_]{2,}")


def sentences(text: str) -> set[str]:
    """The text's sentences and lines that say something (three words or more), spaces evened out."""
    parts = re.split(r"(?<=[.!?;:])\s+|\n", text)
    return {" ".join(part.split()) for part in parts if len(WORD.findall(part)) >= 3}


def shown_text(embed: discord.Embed) -> str:
    parts = [given(embed.title), given(embed.description)]
    return "\n".join([*parts, *(f"{field.name}\n{field.value}" for field in embed.fields)])


async def rules_for(member: simcord.MemberActor, channel: simcord.ChannelHandle, game: str) -> discord.Embed:
    shown = await member.slash(channel, "rules", game=game)
    assert shown.ephemeral
    assert shown.response is not None
    return shown.response.embeds[0]


@pytest.mark.parametrize(("locale", "title"), [("no", "Slik spiller du Kasino"), ("hu", "Kasino – a játék szabályai")])
async def test_rules_are_told_in_the_readers_language(
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
    locale: str,
    title: str,
) -> None:
    reader, english_reader = members[:2]
    speaking(monkeypatch, reader, locale)
    embed = await rules_for(reader, channel, "kasino")
    assert embed.title == title
    assert embed.description == KASINO_RULES(locale)
    english = await rules_for(english_reader, channel, "kasino")
    assert english.title == "How to play Kasino" and english.fields[0].name == "Typing a move"
    assert sentences(shown_text(embed)) and sentences(shown_text(embed)).isdisjoint(sentences(shown_text(english)))


async def test_norwegian_rules_use_the_norwegian_kasino_words_and_commands(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor], monkeypatch: pytest.MonkeyPatch
) -> None:
    speaking(monkeypatch, members[0], "no")
    text = given((await rules_for(members[0], channel, "kasino")).description)
    for words in ("bygg", "Høyne", "Tabbe", "lille kasino", "store kasino", "`/kasino spill trekk:`", "`/kasino hånd`"):
        assert words in text, words


@pytest.mark.parametrize("game", ["kasino", "garbage"])
@pytest.mark.parametrize("locale", LOCALES)
async def test_rules_fit_discords_limits_and_leave_no_english_sentence(
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    locale: str,
) -> None:
    reader, english_reader = members[:2]
    speaking(monkeypatch, reader, locale)
    embed = await rules_for(reader, channel, game)
    assert violations({"embeds": [embed.to_dict()]}) == []
    if locale != SOURCE_LOCALE:
        english = await rules_for(english_reader, channel, game)
        shared = sentences(shown_text(embed)) & sentences(shown_text(english))
        assert shared == set(), shared


def test_the_sentence_check_can_fail() -> None:
    english = "**Deal.** Each player gets 4 cards. The dealer moves one seat each round; the player after leads."
    assert sentences("**Utdeling.** Hver spiller får 4 kort. The dealer moves one seat each round;") & sentences(
        english
    ) == {"The dealer moves one seat each round;"}

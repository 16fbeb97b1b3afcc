"""Issue 25: the slash commands in Norwegian, Indonesian and Hungarian, through discord.py's `Translator`.

The bot syncs every command, group, option and choice with its words in `no`, `id` and `hu`
(`name_localizations`, `description_localizations`), each within Discord's rules: names of 1–32 lowercase letters,
digits, `-` and `_`, unique among their siblings in each language; descriptions and choice names of 1–100
characters. Every text of the command tree has its catalog entry (`cogs.runtime.translator`), whose English is the
code's own words: a new command, or a changed description, without its translation fails here and is named.
"""

import unicodedata
from typing import Any, cast

import discord
import pytest
import simcord
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation

from cogs.lobby import new_lobby_command
from cogs.runtime.hands import hand_command
from cogs.runtime.host import GameBot
from cogs.runtime.translator import CommandTranslator, Entry, entry_for, is_proper_name, slash, words
from engine import registry
from tests import toy_cog, toy_game
from tests.cogs.helpers import bot_of

LOCALES = ("no", "id", "hu")
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2  # option types that are commands, not values


def valid_name(name: str) -> bool:
    """Discord's rule for command and option names: `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, lowercase."""
    return (
        1 <= len(name) <= 32
        and name == name.lower()
        and all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)
    )


def problems_in(payloads: list[dict[str, Any]]) -> list[str]:
    """Every way the synced commands break Discord's rules or lack a language, in words naming the command."""
    problems: list[str] = []

    def unique(siblings: list[dict[str, Any]], where: str) -> None:
        for locale in LOCALES:
            names = [item.get("name_localizations", {}).get(locale, item["name"]) for item in siblings]
            twice = sorted({name for name in names if names.count(name) > 1})
            if twice:
                problems.append(f"{where}: the {locale} names {twice} are given twice")

    def localized(item: dict[str, Any], where: str) -> None:
        for key, check in (("name_localizations", valid_name), ("description_localizations", described)):
            given = item.get(key) or {}
            problems.extend(f"{where}: no {key} for {locale}" for locale in LOCALES if locale not in given)
            problems.extend(
                f"{where}: {key} {locale} {text!r} breaks Discord's rules"
                for locale, text in given.items()
                if not check(text)
            )

    def visit(item: dict[str, Any], path: list[str]) -> None:
        where = "/" + " ".join(path)
        localized(item, where)
        options = item.get("options") or []
        unique(options, f"{where}'s options")
        for option in options:
            if option["type"] in (SUBCOMMAND, SUBCOMMAND_GROUP):
                visit(option, [*path, option["name"]])
                continue
            localized(option, f"{where} {option['name']}:")
            for choice in option.get("choices") or []:
                given = choice.get("name_localizations") or {}
                offered = app_commands.Choice(name=choice["name"], value=choice["value"])
                if not is_proper_name(offered):
                    problems.extend(
                        f"{where} {option['name']}: choice {choice['name']!r} has no {locale} name"
                        for locale in LOCALES
                        if locale not in given
                    )
                problems.extend(
                    f"{where} {option['name']}: choice name {text!r} is too long"
                    for text in given.values()
                    if not described(text)
                )

    unique(payloads, "the top level")
    for payload in payloads:
        visit(payload, [payload["name"]])
    return problems


def described(text: str) -> bool:
    return 1 <= len(text) <= 100


def untranslated(tree: app_commands.CommandTree[Any]) -> list[str]:
    """Each text of the tree whose entry is missing in a catalog or whose English differs from the code's words."""
    found: list[str] = []

    def check(entry: Entry, english: str, where: str) -> None:
        said = words(entry, "en")
        if said is None:
            found.append(f"{where}: no entry ({entry.keys[0]})")
        elif said != english:
            found.append(f"{where}: the English entry says {said!r}, the code {english!r}")
        else:
            found.extend(
                f"{where}: no {locale} words ({entry.keys[0]})" for locale in LOCALES if words(entry, locale) is None
            )

    for command in tree.walk_commands():
        path = command.qualified_name
        check(entry_for(path, "name"), command.name, f"/{path} name")
        check(entry_for(path, "description"), command.description, f"/{path} description")
        if not isinstance(command, app_commands.Command):
            continue
        for option in command.parameters:
            name = option.display_name
            check(entry_for(path, f"option.{name}.name"), name, f"/{path} {name}: name")
            check(entry_for(path, f"option.{name}.description"), option.description, f"/{path} {name}: description")
            for choice in option.choices:
                if not is_proper_name(choice):
                    tail = f"option.{name}.choice.{choice.value}"
                    check(entry_for(path, tail), choice.name, f"/{path} {name}: choice {choice.name!r}")
    return found


async def test_every_synced_command_carries_its_words_in_norwegian_indonesian_and_hungarian(
    simcord_env: simcord.Env,
) -> None:
    synced = list(simcord_env.backend.commands[None].values())
    assert {command["name"] for command in synced} >= {"kasino", "garbage", "game", "rules", "language"}
    assert problems_in(synced) == []
    kasino = next(command for command in synced if command["name"] == "kasino")
    play = next(option for option in kasino["options"] if option["name"] == "play")
    assert play["name_localizations"]["no"] == "spill"
    assert play["options"][0]["name_localizations"] == {"no": "trekk", "id": "langkah", "hu": "lépés"}


async def test_the_translated_payload_of_the_tree_is_what_was_synced(simcord_env: simcord.Env) -> None:
    tree = bot_of(simcord_env).tree
    translator = tree.translator
    assert translator is not None
    translated = [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]
    assert problems_in(translated) == []


async def test_every_command_text_has_an_entry_saying_the_codes_english(simcord_env: simcord.Env) -> None:
    assert untranslated(bot_of(simcord_env).tree) == []


async def test_a_command_without_its_words_is_named() -> None:
    # The toy kind (tests/toy_game.py) brings no catalog: its own texts are named; what it shares with every kind
    # (`/toy new`'s seats, timer and afk, `/toy hand`) comes from the shared entries.
    with registry.registered(toy_game.KIND):
        tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
        group = app_commands.Group(name="toy", description=toy_game.KIND.tagline)
        for command in (new_lobby_command(toy_game.KIND), hand_command(toy_game.KIND)):
            group.add_command(command)
        cog = toy_cog.ToyCog(cast("GameBot", None))  # its commands are defined without a bot
        assert cog.app_command is not None
        play = cog.app_command.get_command("play")
        assert play is not None
        group.add_command(play)
        tree.add_command(group)
        missing = untranslated(tree)
    assert "/toy play description: no entry (toy.command.play.description)" in missing
    assert "/toy name: no entry (toy.command.name)" in missing
    assert "/toy new aces_low: description: no entry (toy.command.new.option.aces_low.description)" in missing
    assert not any(
        where.startswith(("/toy hand", "/toy new name", "/toy new seats", "/toy new timer")) for where in missing
    )


async def test_the_translator_gives_nothing_for_english_or_a_language_without_a_catalog(
    simcord_env: simcord.Env,
) -> None:
    translator = bot_of(simcord_env).tree.translator
    assert isinstance(translator, CommandTranslator)
    rules = bot_of(simcord_env).tree.get_command("rules")
    assert isinstance(rules, app_commands.Command)
    context: TranslationContext[Any, Any] = TranslationContext(TranslationContextLocation.command_name, rules)
    said = {
        locale: await translator.translate(app_commands.locale_str("rules"), locale, context)
        for locale in (
            discord.Locale.norwegian,
            discord.Locale.indonesian,
            discord.Locale.hungarian,
            discord.Locale.american_english,
            discord.Locale.german,
        )
    }
    assert list(said.values()) == ["regler", "aturan", "szabályok", None, None]


@pytest.mark.parametrize(
    ("path", "option", "locale", "typed"),
    [
        ("kasino play", "move", "en", "/kasino play move:"),
        ("kasino play", "move", "no", "/kasino spill trekk:"),
        ("kasino hand", None, "hu", "/kasino lapjaim"),
        ("game resign", None, "id", "/permainan menyerah"),
        ("garbage jack", "spot", "no", "/garbage knekt plass:"),
    ],
)
def test_a_command_is_named_as_the_reader_types_it(path: str, option: str | None, locale: str, typed: str) -> None:
    assert slash(path, locale, option) == typed


def test_a_kinds_own_entry_comes_before_the_one_every_kind_shares() -> None:
    entry = entry_for("kasino new", "option.seats.description")
    assert entry == Entry(
        ("kasino.command.new.option.seats.description", "command.any-game.new.option.seats.description"),
        {"game": "Kasino", "low": 2, "high": 4, "afk": entry.params["afk"]},
    )
    assert words(entry, "en") == "How many players may join (2–4)"
    assert entry_for("rules", "option.game.name").keys == ("command.rules.option.game.name",)


def test_the_payload_check_can_fail() -> None:
    def names(no: str, id_: str, hu: str) -> dict[str, str]:
        return {"no": no, "id": id_, "hu": hu}

    said = names("x", "y", "z")
    payloads: list[dict[str, Any]] = [
        {
            "name": "rules",
            "name_localizations": names("regler", "aturan", "szabályok"),
            "description_localizations": {"no": "x" * 101, "id": "y"},
        },
        {
            "name": "stats",
            "name_localizations": names("Statistikk", "statistik", "szabályok"),
            "description_localizations": said,
        },
        {
            "name": "games",
            "name_localizations": names("partier", "daftar permainan", "játszmák"),
            "description_localizations": said,
            "options": [
                {
                    "type": 3,
                    "name": "sort",
                    "name_localizations": said,
                    "description_localizations": said,
                    "choices": [{"name": "wins", "value": "wins", "name_localizations": {"no": "seire"}}],
                }
            ],
        },
    ]
    assert problems_in(payloads) == [
        "the top level: the hu names ['szabályok'] are given twice",
        "/rules: no description_localizations for hu",
        "/rules: description_localizations no " + repr("x" * 101) + " breaks Discord's rules",
        "/stats: name_localizations no 'Statistikk' breaks Discord's rules",
        "/games: name_localizations id 'daftar permainan' breaks Discord's rules",
        "/games sort: choice 'wins' has no id name",
        "/games sort: choice 'wins' has no hu name",
    ]

"""Issue 23: a kind's lobby options are typed (a whole number, yes/no, one of a few choices), each with its check
and its words, and `/<kind> new` offers each the way Discord shows that type."""

from collections.abc import Callable
from typing import Any, cast

import pytest
from discord import AppCommandOptionType

from cogs.lobby import new_lobby_command
from engine.errors import SettingError
from engine.kasino import KasinoGame
from engine.kinds import GameKind, LobbyOption, OneOf, WholeNumber, YesNo
from engine.message import Message
from tests.said import refusal

SPEED = OneOf("speed", "speed", "How fast", (("slow", "Slow and steady"), ("fast", "Fast")), "slow")
JOKERS = YesNo("jokers", "jokers", "Play with Jokers", False)
TARGET = WholeNumber("target", "target", "Points to win", 1, 99, 16)
TOY = GameKind(
    name="toy",
    code="t",
    engine=KasinoGame,
    score_unit="count.point",
    private_hands=False,
    tagline="A toy kind",
    options=(TARGET, JOKERS, SPEED),
    settings_line=cast("Callable[[Any], Message]", str),  # never said here: any object's text will do
)


def test_each_option_type_is_offered_as_discord_shows_it() -> None:
    command = new_lobby_command(TOY)
    params = {param.name: param for param in command.parameters}
    assert params["target"].type is AppCommandOptionType.integer
    assert (params["target"].min_value, params["target"].max_value) == (1, 99)
    assert params["jokers"].type is AppCommandOptionType.boolean and not params["jokers"].required
    assert params["speed"].type is AppCommandOptionType.string and not params["speed"].required
    assert [(choice.name, choice.value) for choice in params["speed"].choices] == [
        ("Slow and steady", "slow"),
        ("Fast", "fast"),
    ]
    assert params["speed"].description == "How fast"


def test_each_option_checks_its_value_with_a_sentence() -> None:
    assert TARGET.check(21) == 21
    assert JOKERS.check(True) is True
    assert SPEED.check("fast") == "fast"
    refusals: dict[LobbyOption, object] = {TARGET: 100, JOKERS: "maybe", SPEED: "warp"}
    said: dict[str, str] = {}
    for option, value in refusals.items():
        with pytest.raises(SettingError) as refused:  # a ValueError too, as the lobby's checks expect
            option.check(value)
        said[option.name] = refusal(refused.value)
    assert said == {
        "target": "Target must be a whole number from 1 to 99.",
        "jokers": "Jokers is yes or no.",
        "speed": "Speed is one of: Slow and steady, Fast.",
    }
    with pytest.raises(ValueError):
        TARGET.check(True)  # a bool is no whole number here

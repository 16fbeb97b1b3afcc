"""Custom ids: every builder's output is read back by its own template and fits Discord's 100 characters."""

import random
import re
from collections.abc import Iterator
from typing import Any, cast

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.games import CancelPick
from cogs.garbage.cog import TurnButton
from cogs.house_rules import HouseRuleControl, HouseRulesButton, HouseRulesPage
from cogs.kasino.panel import CardButton, MoveSelect
from cogs.leaderboard import PageButton
from cogs.lobby import ComputerSelect, LobbyButton, RematchButton
from cogs.runtime.hands import refresh_button, show_hand_button
from engine.cards import Card, new_deck
from engine.kasino import KasinoGame

BIG_ID, BIG_VERSION = 10**19, 10**7  # far beyond any snowflake-sized game id or version we will reach


def items() -> Iterator[discord.ui.DynamicItem[Any]]:
    yield from (
        LobbyButton(kind, BIG_ID, action)
        for kind in ("kasino", "garbage")
        for action in ("join", "leave", "start", "cancel")
    )
    yield from (RematchButton(kind, BIG_ID) for kind in ("kasino", "garbage"))
    yield from (
        ComputerSelect(kind, BIG_ID, action) for kind in ("kasino", "garbage") for action in ("cpuadd", "cpudrop")
    )
    yield CancelPick()
    for kind in ("kasino", "garbage"):
        for game_id in (BIG_ID, 0):  # a lobby's house rules, and (0) the server's usual ones
            yield from (HouseRulesButton(kind, game_id, action) for action in ("houserules", "hrsave"))
            yield from (HouseRuleControl(kind, game_id, 24, value) for value in (None, "on", "off"))
            yield HouseRulesPage(kind, game_id, 99)
    yield show_hand_button("kasino", BIG_ID)
    yield refresh_button("kasino", BIG_ID)
    yield from (CardButton(BIG_ID, BIG_VERSION, card) for card in new_deck())
    yield MoveSelect(BIG_ID, BIG_VERSION)
    yield TurnButton(BIG_ID, BIG_VERSION, "stock")
    yield TurnButton(BIG_ID, BIG_VERSION, "discard", top=Card.parse("7♣"))
    yield from (TurnButton(BIG_ID, BIG_VERSION, "jack", spot=spot) for spot in range(1, 11))
    yield from (
        PageButton(kind, sort, 99, computers=shown)
        for kind in ("kasino", "garbage")
        for sort in ("rating", "wins", "winrate")
        for shown in (True, False)
    )


@pytest.mark.parametrize("item", list(items()), ids=lambda item: item.custom_id)
def test_custom_id_matches_its_template_and_fits(item: discord.ui.DynamicItem[Any]) -> None:
    assert isinstance(item, discord.ui.DynamicItem)
    assert 1 <= len(item.custom_id) <= 100
    assert re.fullmatch(item.__discord_ui_compiled_template__, item.custom_id)


def test_no_custom_id_is_claimed_by_two_templates() -> None:
    classes = {type(item) for item in items()}
    for item in items():
        claimed = [cls for cls in classes if re.fullmatch(cls.__discord_ui_compiled_template__, item.custom_id)]
        assert claimed == [type(item)], item.custom_id


async def test_the_card_button_reads_back_its_card() -> None:
    for card in new_deck():
        button = CardButton(1, 2, card)
        match = re.fullmatch(CardButton.__discord_ui_compiled_template__, button.custom_id)
        assert match is not None
        # The card button reads its custom id alone: no interaction is needed.
        rebuilt = await CardButton.from_custom_id(cast("discord.Interaction", None), button.item, match)
        assert (rebuilt.game_id, rebuilt.version, rebuilt.card) == (1, 2, card)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_every_kasino_move_fits_a_select_option_and_an_autocomplete_value(seed: int, players: int) -> None:
    # Discord caps option values and autocomplete values at 100 characters; a move's notation is both.
    game = KasinoGame.new(players, seed)
    chooser = random.Random(seed)
    while game.to_move is not None:
        moves = game.legal_moves(game.to_move)
        assert all(len(str(move)) <= 100 for move in moves)
        game.apply(game.to_move, chooser.choice(moves))


async def test_the_page_button_reads_back_whether_computers_show() -> None:
    for shown in (True, False):
        button = PageButton("garbage", "wins", 3, computers=shown)
        match = re.fullmatch(PageButton.__discord_ui_compiled_template__, button.custom_id)
        assert match is not None
        # The page button reads its custom id alone: no interaction is needed.
        rebuilt = await PageButton.from_custom_id(cast("discord.Interaction", None), button.item, match)
        assert (rebuilt.page, rebuilt.computers) == (3, shown)

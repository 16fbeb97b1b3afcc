"""The Kasino table picture: drawn from the public view alone, every table card once, readable on a phone."""

import io
import random
from collections import Counter
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bench.bench_render import CROWDED_HANDS, CROWDED_TABLE, crowded_kasino
from engine.cards import Card
from engine.kasino import KasinoGame
from engine.kasino.table import TableItem
from engine.kasino.views import KasinoPublicView, SeatSummary
from render import render_table
from render.kasino import render_kasino_table
from tests.render.helpers import assert_phone_readable, assert_sound_layout, backs, faces

NAMES = ["Kari", "Ola", "Siri", "Per"]


def table_cards(view: KasinoPublicView) -> Counter[str]:
    return Counter(card.code for item in view.table for card in item.cards)


def test_renders_a_view_built_by_hand_with_nothing_else() -> None:
    # No game anywhere: the renderer can only know what this view says.
    build = TableItem("build", (Card.parse("4♠"), Card.parse("5♥")), 9, owner=1, contributors=(1,), doubled=True)
    view = KasinoPublicView(
        round=3, dealer=0, to_move=1, stock=0,
        table=(TableItem.loose(Card.parse("7♣")), TableItem("pile", (Card.parse("8♣"), Card.parse("8♦")), 8), build),
        seats=(SeatSummary(0, 2, 10, 1, 5, False), SeatSummary(1, 3, 4, 0, 9, False)),
        target=16, last_round=None, over=False,
    )  # fmt: skip
    picture = render_table(view, ["Kari", "Ola"])
    assert Image.open(io.BytesIO(picture.png)).size == (picture.width, picture.height)
    assert faces(picture, "table") == Counter(["7♣", "8♣", "8♦", "4♠", "5♥"])
    assert backs(picture) == []  # the stock is empty
    assert_sound_layout(picture)


def test_a_seat_view_is_refused() -> None:
    game = KasinoGame.new(2, seed=1)
    with pytest.raises(TypeError):
        render_table(cast(Any, game.view(0)), ["Kari", "Ola"])  # deliberately a seat's view


def test_one_name_per_seat() -> None:
    with pytest.raises(ValueError, match="2 seats need 2 names"):
        render_kasino_table(KasinoGame.new(2, seed=1).public_view(), ["Kari"])


def test_hidden_cards_do_not_change_the_picture() -> None:
    # Same table, hand sizes and stock size; different hands and stock order (K16: nobody sees them).
    one = KasinoGame.from_position(["A♠ 9♥", "K♣ 3♦"], ["7♣", "8♦ 8♣"], stock="2♥ 5♣", to_move=0)
    two = KasinoGame.from_position(["5♣ 2♥", "A♠ 9♥"], ["7♣", "8♦ 8♣"], stock="3♦ K♣", to_move=0)
    assert render_table(one.public_view(), NAMES[:2]).png == render_table(two.public_view(), NAMES[:2]).png


def test_crowded_table_shows_every_card_once_in_its_own_box() -> None:
    view = crowded_kasino().public_view()
    assert len(view.table) == 16
    picture = render_table(view, NAMES)
    assert faces(picture, "table") == table_cards(view)
    assert backs(picture) == ["stock"]
    assert_sound_layout(picture)


def test_largest_table_fits_a_phone() -> None:
    # 16 items, the widest ones fanned: a four-card build and a three-card pile (K5).
    picture = render_table(crowded_kasino().public_view(), NAMES)
    assert_phone_readable(picture)
    assert len(picture.png) <= 200_000


def test_builds_with_many_cards_wrap_and_stay_inside() -> None:
    table: list[Any] = [{"build": "A♠ A♥ A♦ 2♥ 2♦ 3♣ 3♦", "owner": 0}, *CROWDED_TABLE[:12]]
    game = KasinoGame.from_position(["2♠ " + CROWDED_HANDS[0], "4♠"], table, to_move=0)
    picture = render_table(game.public_view(), ["Kari", "Ola"])
    assert faces(picture, "table") == table_cards(game.public_view())
    assert_sound_layout(picture)
    assert_phone_readable(picture)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), moves=st.integers(0, 60))
def test_any_reachable_table_is_drawn_whole(players: int, seed: int, moves: int) -> None:
    game = KasinoGame.new(players, seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        if game.to_move is None:
            break
        game.apply(game.to_move, chooser.choice(game.legal_moves(game.to_move)))
    view = game.public_view()
    picture = render_table(view, NAMES[:players])
    assert faces(picture, "table") == table_cards(view)
    assert backs(picture) == (["stock"] if view.stock else [])
    assert_sound_layout(picture)


def test_finished_game_is_drawn() -> None:
    game = KasinoGame.new(2, seed=3)
    chooser = random.Random(3)
    while game.to_move is not None:
        game.apply(game.to_move, chooser.choice(game.legal_moves(game.to_move)))
    view = game.public_view()
    assert view.over
    picture = render_table(view, ["Kari", "Ola"])
    assert faces(picture) == table_cards(view)
    assert_sound_layout(picture)

"""A Kasino player's own hand as a picture: drawn from that seat's view alone."""

from collections import Counter
from typing import Any, cast

import pytest

from engine.cards import Card
from engine.kasino import KasinoGame
from engine.kasino.views import KasinoPublicView, KasinoView, SeatSummary
from render.kasino_hand import render_hand
from tests.render.helpers import assert_phone_readable, assert_sound_layout, faces


def test_renders_a_seat_view_built_by_hand_with_nothing_else() -> None:
    public = KasinoPublicView(
        round=1, dealer=1, to_move=0, stock=40, table=(), target=16, last_round=None, over=False,
        seats=(SeatSummary(0, 3, 0, 0, 0, False), SeatSummary(1, 4, 0, 0, 0, False)),
    )  # fmt: skip
    view = KasinoView(public, seat=0, hand=tuple(Card.parse(c) for c in ("A♠", "10♦", "7♣")), legal_moves=())
    picture = render_hand(view)
    assert faces(picture, "hand") == Counter(["A♠", "10♦", "7♣"])
    assert len(picture.cards) == 3
    assert_sound_layout(picture)


def test_other_hands_and_the_stock_do_not_change_the_picture() -> None:
    one = KasinoGame.from_position(["A♠ 10♦ K♥ 2♠", "2♣ 5♦"], ["7♣"], stock="3♥ 4♥", to_move=0)
    two = KasinoGame.from_position(["A♠ 10♦ K♥ 2♠", "4♥ 3♥"], ["7♣"], stock="5♦ 2♣", to_move=0)
    assert render_hand(one.view(0)).png == render_hand(two.view(0)).png


def test_shows_the_seats_cards_large() -> None:
    game = KasinoGame.from_position(["A♠ 10♦ K♥ 2♠", "2♣"], ["7♣"], to_move=1)
    picture = render_hand(game.view(0))
    assert faces(picture) == Counter(["A♠", "10♦", "K♥", "2♠"])
    assert_sound_layout(picture)
    assert_phone_readable(picture)
    assert min(d.box.width for d in picture.cards) >= 100  # "large": twice a table card on a phone
    assert len(picture.png) <= 200_000


def test_an_empty_hand_is_drawn() -> None:
    game = KasinoGame.from_position(["", "2♣"], ["7♣"], to_move=1)
    assert render_hand(game.view(0)).cards == ()


def test_only_a_seat_view_is_accepted() -> None:
    with pytest.raises(TypeError):
        render_hand(cast(Any, KasinoGame.new(2, seed=1).public_view()))  # deliberately the public view

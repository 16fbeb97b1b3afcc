"""The Garbage table picture: drawn from the public view alone, every visible card once, readable on a phone."""

import random
from collections import Counter
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.bench_render import garbage_game
from engine.cards import Card
from engine.garbage import GarbageGame, GarbageSettings
from engine.garbage.views import GarbagePublicView, SeatView
from render import render_table
from render.garbage import render_garbage_table
from render.layout import Rendered
from tests.render.helpers import assert_phone_readable, assert_sound_layout, backs, faces

NAMES = ["Kari", "Ola", "Siri", "Per", "Ingrid", "Lars"]


def assert_shows_view(picture: Rendered, view: GarbagePublicView) -> None:
    """Each spot drawn where it lies (face up as itself, face down as a back), plus discard top, stock, pending."""
    spots = {d.place: d.label for d in picture.cards if d.place.startswith("seat ")}
    expected = {
        f"seat {seat.seat} spot {number}": card.code if card is not None else "back"
        for seat in view.seats
        for number, card in enumerate(seat.spots, start=1)
    }
    assert spots == expected
    assert faces(picture, "discard") == (Counter([view.discard_top.code]) if view.discard_top else Counter())
    pending = [seat.pending.code for seat in view.seats if seat.pending is not None]
    assert faces(picture, "pending") == Counter(pending)
    assert backs(picture).count("stock") == (1 if view.stock_size else 0)
    assert len(picture.cards) == len(expected) + bool(view.discard_top) + len(pending) + bool(view.stock_size)


def test_renders_a_view_built_by_hand_with_nothing_else() -> None:
    jack, six = Card.parse("J♥"), Card.parse("6♠")
    view = GarbagePublicView(
        seats=(
            SeatView(0, 3, 7, False, (Card.parse("A♠"), None, jack), pending=None),
            SeatView(1, 10, 0, True, (None,) * 9 + (Card.parse("10♦"),), pending=None),
        ),
        discard=(Card.parse("K♣"), six), stock_size=30, to_move=0, hand_number=8, move_count=120,
    )  # fmt: skip
    picture = render_table(view, ["Kari", "Ola"])
    assert_shows_view(picture, view)
    assert_sound_layout(picture)


def test_a_seat_view_is_refused() -> None:
    with pytest.raises(TypeError):
        render_table(cast(Any, GarbageGame.new(2, seed=1).view(0)), ["Kari", "Ola"])  # deliberately a seat's view


def test_one_name_per_seat() -> None:
    with pytest.raises(ValueError, match="3 seats need 3 names"):
        render_garbage_table(GarbageGame.new(3, seed=1).public_view(), ["Kari", "Ola"])


def test_face_down_cards_do_not_change_the_picture() -> None:
    # G11: nobody sees a face-down card, the owner included; nor the stock's order.
    given: dict[str, Any] = {"face_up": [[1], [3]], "discard": "9♣", "settings": GarbageSettings(start_size=4)}
    one = GarbageGame.from_position(["A♠ 2♥ 7♦ 5♣", "Q♣ 5♠ 3♦ 8♥"], seed=1, **given)
    two = GarbageGame.from_position(["A♠ K♥ 4♦ 2♣", "6♣ 2♠ 3♦ Q♥"], seed=2, **given)
    assert render_table(one.public_view(), NAMES[:2]).png == render_table(two.public_view(), NAMES[:2]).png


def test_jack_choice_shows_the_card_in_hand_and_marks_jacks() -> None:
    game = GarbageGame.from_position(
        ["A♠ J♣ 3♦ 4♣ 5♣", "Q♣ 5♠ 3♥ 8♥ 9♠"], face_up=[[1, 2], []], pending="J♥", discard="9♣",
        settings=GarbageSettings(start_size=5),
    )  # fmt: skip
    view = game.public_view()
    picture = render_table(view, NAMES[:2])
    assert_shows_view(picture, view)
    assert faces(picture, "pending") == Counter(["J♥"])
    assert {d.place: d.label for d in picture.cards}["seat 0 spot 2"] == "J♣"
    assert_sound_layout(picture)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_largest_tables_fit_a_phone(players: int) -> None:
    # A fresh deal: every seat at layout size 10 (G2), all face down; then the same table mid-game.
    for game in (GarbageGame.new(players, seed=players), garbage_game(players)):
        view = game.public_view()
        picture = render_table(view, NAMES[:players])
        assert_shows_view(picture, view)
        assert_sound_layout(picture)
        assert_phone_readable(picture)
        assert len(picture.png) <= 200_000


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), moves=st.integers(0, 150))
def test_any_reachable_table_is_drawn_whole(players: int, seed: int, moves: int) -> None:
    game = GarbageGame.new(players, seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        if game.to_move is None:
            break
        game.apply(game.to_move, chooser.choice(game.legal_moves(game.to_move)))
    view = game.public_view()
    picture = render_table(view, NAMES[:players])
    assert_shows_view(picture, view)
    assert_sound_layout(picture)


def test_finished_game_is_drawn() -> None:
    game = GarbageGame.new(2, seed=5, settings=GarbageSettings(start_size=2))
    chooser = random.Random(5)
    while game.to_move is not None:
        game.apply(game.to_move, chooser.choice(game.legal_moves(game.to_move)))
    view = game.public_view()
    picture = render_table(view, NAMES[:2])
    assert_shows_view(picture, view)
    assert_sound_layout(picture)

"""Pictures read on a phone: measured from what the drawing code wrote, not from fixed numbers.

Discord shows a table picture about 300 px wide on a phone. Every run of words (`Rendered.texts`) and every
word on a card (`Drawn.text_size`) must still be 11 px there, every name must be written whole (wrapped at
spaces, never cut with "…"), and no words may run into other words or cards.
"""

import random
from collections.abc import Callable

import pytest

from bench.bench_render import crowded_kasino, garbage_game
from engine.garbage import GarbageGame, GarbageSettings
from engine.kasino import KasinoGame
from render import render_table
from render.kasino_hand import render_hand
from render.layout import Rendered

PHONE = 300
SMALLEST_ON_PHONE = 11
LONG_NAMES = ["Computer (hard) 2", "Bartholomew Longname", "Kari", "Ola Nordmann", "Computer (expert) 12", "Per-Henrik"]


def finished_kasino() -> KasinoGame:
    game = KasinoGame.new(2, seed=3)
    chooser = random.Random(3)
    while game.to_move is not None:
        game.apply(game.to_move, chooser.choice(game.legal_moves(game.to_move)))
    return game


def jack_choice() -> GarbageGame:
    return GarbageGame.from_position(
        ["A♠ J♣ 3♦ 4♣ 5♣", "Q♣ 5♠ 3♥ 8♥ 9♠"], face_up=[[1, 2], []], pending="J♥", discard="9♣",
        settings=GarbageSettings(start_size=5),
    )  # fmt: skip


def kings_and_jokers() -> GarbageGame:
    """House rules GV1 and GV2: Kings and Jokers standing in spots, a Joker waiting for one, a Joker on the pile."""
    return GarbageGame.from_position(
        ["A♠ 🃏 3♦ K♣ 5♣", "🃟 5♠ 3♥ 8♥ 9♠"], face_up=[[1, 2, 4], [1]], pending="🃟#1", discard="🃏#1",
        settings=GarbageSettings(start_size=5, wild_rank="king", jokers=True, decks=2),
    )  # fmt: skip


TABLES: dict[str, Callable[[], KasinoGame | GarbageGame]] = {
    "kasino 2 players": lambda: KasinoGame.new(2, seed=1),
    "kasino 4 players, crowded": crowded_kasino,
    "kasino 4 players, fresh": lambda: KasinoGame.new(4, seed=2),
    "kasino finished": finished_kasino,
    "garbage 2 players": lambda: garbage_game(2),
    "garbage 6 players": lambda: garbage_game(6),
    "garbage 6 players, fresh": lambda: GarbageGame.new(6, seed=6),
    "garbage Jack choice": jack_choice,
    "garbage Kings wild, Jokers": kings_and_jokers,
}


def smallest_on_phone(picture: Rendered) -> float:
    """The smallest type the picture holds, in pixels, once it is shown PHONE pixels wide."""
    sizes = [text.size for text in picture.texts] + [card.text_size for card in picture.cards if card.text_size]
    assert sizes
    return min(sizes) * PHONE / picture.width


def assert_words_sound(picture: Rendered) -> None:
    """Every run inside the picture, none cut with an ellipsis, none touching another run or a card."""
    boxes = [text.box for text in picture.texts]
    for text in picture.texts:
        assert text.box.inside(picture.width, picture.height), text
        assert "…" not in text.words, text
    for index, first in enumerate(boxes):
        for second in boxes[index + 1 :]:
            assert not first.overlaps(second), (picture.texts[index], second)
        for card in picture.cards:
            assert not first.overlaps(card.box), (picture.texts[index], card)


@pytest.mark.parametrize("case", TABLES)
@pytest.mark.parametrize("names", ["short", "long"])
def test_tables_read_on_a_phone(case: str, names: str) -> None:
    view = TABLES[case]().public_view()
    seats = len(view.seats)
    chosen = LONG_NAMES[:seats] if names == "long" else ["Kari", "Ola", "Siri", "Per", "Ingrid", "Lars"][:seats]
    picture = render_table(view, chosen)
    assert smallest_on_phone(picture) >= SMALLEST_ON_PHONE
    assert_words_sound(picture)
    written = " ".join(text.words for text in picture.texts)  # a wrapped name's lines join back with spaces
    for name in chosen:
        assert name in written


def test_the_measure_sees_small_type() -> None:
    # The check can fail: the same picture claimed at twice its width would show its type half as large.
    picture = render_table(KasinoGame.new(2, seed=1).public_view(), ["Kari", "Ola"])
    assert smallest_on_phone(picture) / 2 < SMALLEST_ON_PHONE


def test_common_tables_are_not_much_taller_than_wide() -> None:
    # A chat shows tall pictures, but a usual table fits a screen: at most 1.5 times as tall as wide. The worst
    # tables (16 items under four long names, six Garbage layouts) are allowed more.
    for case, most in [("kasino 2 players", 1.5), ("kasino 4 players, fresh", 1.5), ("garbage 2 players", 1.5),
                       ("garbage 6 players", 1.8), ("kasino 4 players, crowded", 2.1)]:  # fmt: skip
        view = TABLES[case]().public_view()
        picture = render_table(view, LONG_NAMES[: len(view.seats)])
        assert picture.height <= most * picture.width, case


def test_the_hand_reads_on_a_phone() -> None:
    picture = render_hand(crowded_kasino().view(0))
    assert smallest_on_phone(picture) >= SMALLEST_ON_PHONE
    assert_words_sound(picture)

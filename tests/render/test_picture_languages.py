"""Issue 25: the pictures speak the server's language (the hand picture its reader's), and their words still fit.

Every word a picture writes comes from the catalogs (domain `pictures.po`) and every card face carries the
language's rank letters, so each translated picture differs from the English one; the fit checks are the legibility
tests' own (every word at least 11 px on a phone, none cut, none running into another word or a card).
"""

import random
import re
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.bench_render import crowded_kasino
from engine.base import AnyGame
from engine.cards import Card
from engine.garbage import GarbageGame, GarbageSettings
from engine.kasino import KasinoGame
from engine.kasino.views import KasinoPublicView, KasinoView, SeatSummary
from i18n import LOCALES, SOURCE_LOCALE, card_words, say
from render import render_table
from render.kasino_hand import render_hand
from render.layout import Rendered
from tests.render.helpers import assert_phone_readable, assert_sound_layout, faces
from tests.render.test_legibility import (
    LONG_NAMES,
    SMALLEST_ON_PHONE,
    TABLES,
    assert_words_sound,
    smallest_on_phone,
)

TRANSLATED = tuple(locale for locale in LOCALES if locale != SOURCE_LOCALE)
SHORT_NAMES = ["Kari", "Ola", "Siri", "Per", "Ingrid", "Lars"]
GAME_NAMES = {"kasino", "garbage"}
CARD_NAMES = {"joker"}  # a card is written as the catalog `cards.po` says, and every language says "Joker" (GV2)


def written(picture: Rendered) -> str:
    return " ".join(text.words for text in picture.texts)


def words(picture: Rendered, names: Sequence[str]) -> set[str]:
    """The picture's words of two letters or more, lower case, without the players' names, the games' or cards."""
    text = written(picture)
    for name in names:
        text = text.replace(name, " ")
    return {word for word in re.findall(r"[^\W\d_]{2,}", text.lower()) if word not in GAME_NAMES | CARD_NAMES}


def assert_fits(picture: Rendered, names: Sequence[str]) -> None:
    assert smallest_on_phone(picture) >= SMALLEST_ON_PHONE
    assert_words_sound(picture)
    assert_sound_layout(picture)
    assert_phone_readable(picture)
    for name in names:
        assert name in written(picture)


@pytest.mark.parametrize("locale", TRANSLATED)
@pytest.mark.parametrize("case", TABLES)
@pytest.mark.parametrize("long", [False, True], ids=["short names", "long names"])
def test_each_table_is_drawn_in_the_language_and_its_words_fit(locale: str, case: str, long: bool) -> None:
    view = TABLES[case]().public_view()
    names = (LONG_NAMES if long else SHORT_NAMES)[: len(view.seats)]
    english = render_table(view, names)
    picture = render_table(view, names, locale)
    assert picture.png != english.png
    assert_fits(picture, names)
    assert words(picture, names) and not words(picture, names) & words(english, names), written(picture)
    # The same cards in the same places: only the words and the rank letters differ.
    assert [(card.label, card.place) for card in picture.cards] == [(card.label, card.place) for card in english.cards]


@pytest.mark.parametrize("locale", TRANSLATED)
@pytest.mark.parametrize("state", ["your turn", "waiting", "over"])
def test_the_hand_is_drawn_in_its_readers_language_and_fits(locale: str, state: str) -> None:
    public = KasinoPublicView(
        round=12, dealer=1, to_move=None if state == "over" else 0 if state == "your turn" else 1, stock=40,
        table=(), target=16, last_round=None, over=state == "over",
        seats=(SeatSummary(0, 4, 0, 0, 0, False), SeatSummary(1, 4, 0, 0, 0, False)),
    )  # fmt: skip
    hand = tuple(Card.parse(card) for card in ("J♠", "A♠", "10♦", "2♠"))  # every card with a "takes" caption too
    view = KasinoView(public, seat=0, hand=hand, legal_moves=())
    english, picture = render_hand(view), render_hand(view, locale)
    assert picture.png != english.png
    assert faces(picture) == faces(english)
    assert smallest_on_phone(picture) >= SMALLEST_ON_PHONE
    assert_words_sound(picture)
    assert_sound_layout(picture)
    assert not words(picture, []) & words(english, [])
    assert say(locale, "picture.hand.title", round=12) in written(picture)


def test_a_crowded_hand_reads_in_every_language() -> None:
    for locale in LOCALES:
        picture = render_hand(crowded_kasino().view(0), locale)
        assert smallest_on_phone(picture) >= SMALLEST_ON_PHONE
        assert_words_sound(picture)


def test_a_held_jack_is_named_with_the_languages_letters() -> None:
    game = GarbageGame.from_position(
        ["A♠ J♣ 3♦ 4♣ 5♣", "Q♣ 5♠ 3♥ 8♥ 9♠"], face_up=[[1, 2], []], pending="J♥", discard="9♣",
        settings=GarbageSettings(start_size=5),
    )  # fmt: skip
    for locale, jack in [("en", "J♥"), ("no", "Kn♥"), ("hu", "B♥"), ("id", "J♥")]:
        picture = render_table(game.public_view(), SHORT_NAMES[:2], locale)
        assert card_words(Card.parse("J♥"), locale) == jack
        assert jack in written(picture).replace("\n", " ")


def test_the_english_words_are_unchanged() -> None:
    # English is the source: the pictures say what they said before issue 25.
    view = KasinoGame.new(2, seed=1).public_view()
    text = written(render_table(view, ["Kari", "Ola"]))
    assert "Kasino · round 1" in text and "to play" in text and "playing to 16 points" in text
    game = GarbageGame.new(2, seed=1)
    text = written(render_table(game.public_view(), ["Kari", "Ola"]))
    assert "Garbage · hand 1" in text and "discard pile" in text and "stock" in text


@settings(max_examples=30, deadline=None)
@given(
    locale=st.sampled_from(TRANSLATED),
    kind=st.sampled_from([KasinoGame, GarbageGame]),
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 120),
    long=st.booleans(),
)
def test_any_reachable_table_fits_in_any_language(
    locale: str, kind: type[AnyGame], players: int, seed: int, moves: int, long: bool
) -> None:
    game = kind.new(players, seed)
    chooser = random.Random(seed)
    for _ in range(moves):
        if game.to_move is None:
            break
        game.apply(game.to_move, chooser.choice(game.legal_moves(game.to_move)))
    names = (LONG_NAMES if long else SHORT_NAMES)[:players]
    picture = render_table(game.public_view(), names, locale)
    assert smallest_on_phone(picture) >= SMALLEST_ON_PHONE
    assert_words_sound(picture)
    assert_sound_layout(picture)

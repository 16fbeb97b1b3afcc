"""Issue 25: cards as each language writes them, and cards typed in any of those ways read back by the engine."""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.kasino.cog import typed_cards
from engine.cards import SUITS, Card, new_decks
from engine.kasino import KasinoGame
from engine.kasino.moves import _VERBS, KasinoMove
from engine.message import Message
from i18n import LOCALES, card_words, english_ranks, local_ranks, rank_words, render_message
from i18n.catalog import LOCALES_DIR, read_catalog

ASCII_SUIT = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
EVERY_CARD = new_decks(3)  # with the copies of multi-deck games, which write `#deck`


def typed_forms(card: Card, locale: str) -> list[str]:
    """Ways a player of `locale` may type `card`: its words, ASCII suits, lower case, with a separator."""
    rank = rank_words(card.rank, locale)
    suit = ASCII_SUIT[card.suit]
    deck = f"#{card.deck}" if card.deck else ""
    forms = [card_words(card, locale), f"{rank}{suit}", f"{rank.lower()}{suit}", f"{rank}-{suit}", f"{rank}/{suit}"]
    return [form + deck for form in forms]


@pytest.mark.parametrize(
    ("locale", "letters"),
    [("en", "A J Q K"), ("no", "E Kn D K"), ("id", "A J Q K"), ("hu", "A B D K")],
)
def test_each_language_writes_its_own_rank_letters(locale: str, letters: str) -> None:
    assert " ".join(card_words(Card.parse(rank + "♠"), locale)[:-1] for rank in "AJQK") == letters
    assert card_words(Card.parse("10♦"), locale) == "10♦" and card_words(Card.parse("7c"), locale) == "7♣"


def test_english_is_the_cards_own_display_form() -> None:
    assert [card_words(card) for card in EVERY_CARD] == [str(card) for card in EVERY_CARD]


def test_the_rank_letters_are_the_catalogs() -> None:
    for locale in LOCALES:
        ids = [message.id for message in read_catalog(LOCALES_DIR / locale / "cards.po") if message.id]
        # The Joker (Garbage's house rule GV2): its name in texts and the letters on its corner.
        expected = ["card.joker", "card.rank.A", "card.rank.J", "card.rank.Jo", "card.rank.K", "card.rank.Q"]
        assert sorted(ids) == expected, locale


@pytest.mark.parametrize("locale", LOCALES)
def test_a_joker_is_written_by_the_catalog_and_read_back_by_the_engine(locale: str) -> None:
    for joker in new_decks(3, jokers=True)[52:54] + new_decks(3, jokers=True)[-2:]:
        written = card_words(joker, locale)
        assert written and "{" not in written
        assert rank_words(joker.rank, locale) == "Jo"
        deck = f"#{joker.deck}" if joker.deck else ""
        for typed in (written + deck, written.lower() + deck, str(joker) + deck, "Jo" + deck):
            assert Card.parse(english_ranks(typed, locale)).is_joker, (locale, typed)
    assert english_ranks("Joker 5♦", locale).split()[1] == "5♦"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_round_trips_through_its_words_and_the_engines_parser(locale: str) -> None:
    for card in EVERY_CARD:
        for typed in typed_forms(card, locale):
            assert Card.parse(english_ranks(typed, locale)) == card, (locale, typed)


@pytest.mark.parametrize("locale", LOCALES)
def test_english_forms_still_parse_in_every_language(locale: str) -> None:
    for card in EVERY_CARD:
        english = [str(card), card.code, card.code.lower(), str(card)[:-1] + ASCII_SUIT[card.suit]]
        for typed in english:
            assert english_ranks(typed, locale) == typed
            assert Card.parse(english_ranks(typed, locale)).rank == card.rank
    for typed in ("Td", "td", "10d", "qh", "QH", "as", "1s", "k-d", "J♣", "A♠"):
        assert english_ranks(typed, locale) == typed


def test_local_letters_and_suit_letters_are_told_apart() -> None:
    # Hungarian and Norwegian D is the Queen; d is also diamonds. The rank comes first, the suit last.
    assert english_ranks("Dd", "hu") == "Qd" and english_ranks("dd", "no") == "qd"
    assert english_ranks("10d Td dd", "hu") == "10d Td qd"
    assert english_ranks("Bd bs B♣", "hu") == "Jd js J♣"  # Hungarian B is the Jack (bubi)
    assert english_ranks("Kn♠ K♠ kns ks", "no") == "J♠ K♠ js ks"  # Kn before K
    assert english_ranks("E♥ eh", "no") == "A♥ ah"
    assert english_ranks("D♠", "id") == "D♠"  # not an Indonesian rank: the engine says so itself


def test_move_words_and_values_are_never_touched() -> None:
    words = [*_VERBS, "resign", "double", "build", "bubi", "dame", "knekt", "ess", "dd9", "10dd", "kn", "d", "b"]
    for locale in LOCALES:
        for word in words:
            assert english_ranks(word, locale) == word, (locale, word)
            assert local_ranks(word, locale) == word, (locale, word)
    assert english_ranks("3♣ raise 6", "hu") == "3♣ raise 6"
    assert english_ranks("Dd take 5h+3d | 8", "hu") == "Qd take 5h+3d | 8"


WORD = st.text(alphabet="abcdehjknqstsæøåáéőű", min_size=4, max_size=9)  # a card is at most 3 letters


@settings(max_examples=200, deadline=None)
@given(
    locale=st.sampled_from(LOCALES),
    parts=st.lists(st.one_of(WORD, st.sampled_from(EVERY_CARD)), min_size=1, max_size=8),
    seps=st.lists(st.sampled_from([" ", "+", " | ", ", ", "  "]), min_size=8, max_size=8),
)
def test_only_cards_change_in_typed_text(locale: str, parts: list[str | Card], seps: list[str]) -> None:
    pairs = list(zip(parts, seps[: len(parts)], strict=True))
    local = "".join((card_words(part, locale) if isinstance(part, Card) else part) + sep for part, sep in pairs)
    english = "".join((str(part) if isinstance(part, Card) else part) + sep for part, sep in pairs)
    assert english_ranks(local, locale) == english
    assert english_ranks(english, locale) == english
    assert local_ranks(english, locale) == local


@pytest.mark.parametrize("locale", LOCALES)
def test_every_kasino_move_typed_with_local_ranks_is_the_same_move(locale: str) -> None:
    for seed in range(6):
        game = KasinoGame.new(2 + seed % 3, seed)
        chooser = random.Random(seed)
        for _ in range(40):
            if game.to_move is None:
                break
            moves = game.legal_moves(game.to_move)
            for move in moves:
                local = local_ranks(str(move), locale)
                assert KasinoMove.parse(english_ranks(local, locale)) == move, (locale, local)
                assert KasinoMove.parse(english_ranks(local.lower(), locale)) == move
            game.apply(game.to_move, chooser.choice(moves))


def test_a_card_in_a_message_is_said_with_the_languages_letters() -> None:
    placed = Message("kasino.placed", {"player": "Kari", "card": Card.parse("Q♠")})
    assert render_message(placed, "en") == "Kari places Q♠."
    assert "D♠" in render_message(placed, "no") and "Q♠" not in render_message(placed, "no")
    assert "D♠" in render_message(placed, "hu")
    assert "Q♠" in render_message(placed, "id")
    jack = Message("kasino.placed", {"player": "Kari", "card": Card.parse("J♦")})
    assert "Kn♦" in render_message(jack, "no") and "B♦" in render_message(jack, "hu")


@pytest.mark.parametrize(
    ("locale", "typed", "shown"),
    [
        ("en", "td", "10♦"),
        ("en", "5h take qs", "5♥ take q♠"),
        ("no", "qs", "d♠"),
        ("no", "ds", "d♠"),
        ("no", "kns take 5h+es", "kn♠ take 5♥+e♠"),
        ("no", "js", "kn♠"),
        ("no", "legg ut d", "legg ut d"),  # a card half typed stays as typed
        ("hu", "bd", "b♦"),
        ("hu", "qd", "d♦"),
        ("hu", "dd build 10d", "d♦ build 10♦"),
        ("id", "qh", "q♥"),
    ],
)
def test_typed_cards_are_written_as_the_suggestions_write_them(locale: str, typed: str, shown: str) -> None:
    assert typed_cards(typed, locale) == shown


@pytest.mark.parametrize("locale", LOCALES)
def test_a_typed_card_finds_the_suggestion_that_names_it(locale: str) -> None:
    for card in new_decks(1):
        words = card_words(card, locale).lower()
        for typed in [*typed_forms(card, locale)[1:3], str(card)[:-1].lower() + ASCII_SUIT[card.suit]]:
            assert typed_cards(typed.lower(), locale) == words, (locale, typed)


def test_suits_are_the_same_symbols_everywhere() -> None:
    for locale in LOCALES:
        for card in new_decks(1):
            assert card_words(card, locale)[-1] == card.suit in SUITS
            assert re.fullmatch(r"(10|[2-9]|[A-Za-z]{1,2})[♠♥♦♣]", card_words(card, locale))

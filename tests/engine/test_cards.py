import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import SUITS, Card, cards_from_codes, format_cards, new_deck, new_decks, parse_cards
from engine.errors import InvalidMoveError
from engine.message import Message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A♠", Card(1, "♠")),
        ("As", Card(1, "♠")),
        ("as", Card(1, "♠")),
        ("2♠", Card(2, "♠")),
        ("2s", Card(2, "♠")),
        ("10♦", Card(10, "♦")),
        ("10d", Card(10, "♦")),
        ("Td", Card(10, "♦")),
        ("jc", Card(11, "♣")),
        ("QH", Card(12, "♥")),
        ("k-d", Card(13, "♦")),
        (" 7♣ ", Card(7, "♣")),
        ("9♡", Card(9, "♥")),
    ],
)
def test_card_parse_accepts_the_typed_forms_of_the_rules(text: str, expected: Card) -> None:
    assert Card.parse(text) == expected


@pytest.mark.parametrize("text", ["", "11s", "0h", "Ax", "10", "♠", "banana", "1010d", "Zs"])
def test_card_parse_refuses_non_cards_with_a_reason(text: str) -> None:
    with pytest.raises(InvalidMoveError) as refused:
        Card.parse(text)
    assert refused.value.message == Message("refused.not-a-card", {"text": text.strip()})


def test_card_display_is_rank_then_suit() -> None:
    assert [str(Card.parse(t)) for t in ["as", "2s", "td", "jc", "qh", "kd"]] == ["A♠", "2♠", "10♦", "J♣", "Q♥", "K♦"]


def test_deck_copies_stay_distinguishable_and_round_trip() -> None:
    decks = new_decks(3)
    assert len(decks) == 156 and len(set(decks)) == 156
    copy = Card(5, "♥", 2)
    assert copy.code == "5♥#2" and str(copy) == "5♥"
    assert Card.parse(copy.code) == copy


def test_one_deck_has_52_distinct_cards() -> None:
    deck = new_deck()
    assert len(set(deck)) == 52
    assert {card.suit for card in deck} == set(SUITS)


def test_parse_cards_and_format_cards() -> None:
    cards = parse_cards("3d+ah, A♠")
    assert format_cards(cards) == "3♦ A♥ A♠"


@given(st.integers(1, 13), st.sampled_from(SUITS), st.integers(0, 2))
def test_card_code_round_trips(rank: int, suit: str, deck: int) -> None:
    card = Card(rank, suit, deck)
    assert Card.parse(card.code) == card
    assert eval(repr(card), {"Card": Card}) == card


@given(st.integers(1, 13), st.sampled_from(SUITS), st.integers(0, 5))
def test_from_code_reads_a_code_back_as_one_shared_card(rank: int, suit: str, deck: int) -> None:
    card = Card(rank, suit, deck)
    found = Card.from_code(card.code)
    assert found == card and Card.from_code(card.code) is found
    assert cards_from_codes([card.code, card.code]) == [card, card]


def test_the_cached_code_takes_no_part_in_equality_order_or_hashing() -> None:
    assert [field.name for field in dataclasses.fields(Card) if field.compare] == ["rank", "suit", "deck"]
    card = Card(10, "♦")
    assert card == Card.parse("td") and hash(card) == hash(Card.parse("10d"))
    assert dataclasses.replace(card, rank=9).code == "9♦"
    assert sorted([Card(3, "♠"), Card(2, "♥")]) == [Card(2, "♥"), Card(3, "♠")]


def test_from_code_reads_other_spellings_without_keeping_them() -> None:
    assert Card.from_code("td") == Card(10, "♦")
    assert Card.from_code("td") is not Card.from_code("td")  # only canonical codes are shared
    with pytest.raises(InvalidMoveError) as refused:
        cards_from_codes(["A♠", "banana"])
    assert refused.value.message == Message("refused.not-a-card", {"text": "banana"})

"""Determinization deals only unseen cards, and agrees with what the seat knows."""

import random
from typing import Any

from ai.determinize import deal_hidden
from ai.garbage_hard import sample_hand
from ai.garbage_knowledge import visible_cards
from ai.kasino_hard import sample_hands
from ai.kasino_inference import weighted_deal
from ai.kasino_knowledge import knowledge_from
from engine.cards import Card
from engine.garbage import GarbageGame, GarbageSettings
from engine.kasino import KasinoGame
from engine.kasino.table import hand_value


def test_deal_hidden_serves_requirements_first() -> None:
    places, rest = deal_hidden(list(range(20)), [3, 2], random.Random(1), [lambda n: n == 17, None])
    assert 17 in places[0]
    assert [len(place) for place in places] == [3, 2]
    assert sorted([*places[0], *places[1], *rest]) == list(range(20))


def test_kasino_samples_never_deal_a_card_the_seat_has_seen() -> None:
    game = KasinoGame.new(3, seed=2)
    history: list[Any] = []
    for _ in range(7):  # some takes happen, and their cards are public
        seat = game.to_move
        assert seat is not None
        history.extend(game.apply(seat, game.legal_moves(seat)[0]))
    seat = game.to_move
    assert seat is not None
    know = knowledge_from(game.view(seat), history)
    seen = {*know.hand, *(c for item in know.table for c in item.cards), *(c for cards in know.taken for c in cards)}
    for sample in range(20):
        hands = sample_hands(know, random.Random(sample))
        assert hands[seat] == list(know.hand)
        dealt = [card for other, hand in enumerate(hands) if other != seat for card in hand]
        assert not set(dealt) & seen
        assert [len(hand) for hand in hands] == list(know.hand_sizes)


def test_kasino_samples_give_a_build_owner_a_card_to_take_it() -> None:
    table: list[Any] = ["3♥", {"build": "4♦ 5♠", "owner": 1}]
    game = KasinoGame.from_position(["5♥ 2♠", "9♣ K♦"], table, stock="8♠ 8♥ 2♦ 3♣", to_move=0)
    know = knowledge_from(game.view(0))
    for sample in range(30):
        hands = sample_hands(know, random.Random(sample))
        assert any(hand_value(card) == 9 for card in hands[1])


def test_garbage_samples_keep_every_face_up_card_and_deal_the_rest() -> None:
    game = GarbageGame.from_position(
        ["A♠ 9♥ 3♦", "K♣ 2♥ Q♦"], face_up=[[1, 3], [2]], stock="5♠ 8♣", discard="4♦ 7♣",
        settings=GarbageSettings(start_size=3))  # fmt: skip
    view = game.view(0)
    seen = set(visible_cards(view.public))
    for sample in range(20):
        hand = sample_hand(view, random.Random(sample))
        assert hand.layouts[0][0] == Card.parse("A♠") and hand.layouts[0][2] == Card.parse("3♦")
        assert hand.layouts[1][1] == Card.parse("2♥")
        hidden = [hand.layouts[0][1], hand.layouts[1][0], hand.layouts[1][2], *hand.stock]
        assert not set(hidden) & seen
        assert len(hidden) == len(set(hidden)) == 52 - len(seen)


def test_expert_deals_hidden_cards_by_their_inference_weights() -> None:
    pool = [Card(rank, suit) for rank in range(2, 10) for suit in "♠♥♦♣"]
    unlikely = {value: (0.01 if value == 7 else 1.0) for value in range(2, 17)}  # seat 1 passed up takes a 7 made
    sevens = 0
    for sample in range(200):
        dealt = weighted_deal(pool, {1: 4, 2: 4}, {1: unlikely}, {2: 9}, random.Random(sample))
        assert [len(dealt[1]), len(dealt[2])] == [4, 4]
        assert len(set(dealt[1]) | set(dealt[2])) == 8 and set(dealt[1]) | set(dealt[2]) <= set(pool)
        assert any(hand_value(card) == 9 for card in dealt[2])  # seat 2 owns a 9 build: it holds a 9 (K7)
        sevens += sum(card.rank == 7 for card in dealt[1])
    assert sevens < 10  # uniform dealing would give seat 1 about 200 * 4 * 4 / 32 = 100 sevens

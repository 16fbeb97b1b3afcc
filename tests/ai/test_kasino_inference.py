"""Expert's inference: the table rebuilt from public events, and what a passed-up take says about a hand."""

import random
from typing import Any

from ai.kasino_inference import deal_decisions, hand_weights
from engine.cards import Card
from engine.kasino import KasinoGame
from engine.kasino.events import CardPlaced, CardsDealt, RoundStarted


def test_the_deal_s_moves_and_tables_are_rebuilt_from_public_events_alone() -> None:
    for seed in range(6):
        game = KasinoGame.new(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        history: list[Any] = []
        deal = []
        for _ in range(60):
            seat = game.to_move
            assert seat is not None
            view = game.view(seat)
            move = rng.choice(view.legal_moves)
            deal.append((seat, set(view.public.table), move))
            events = game.apply(seat, move)
            history.extend(events)
            if any(isinstance(event, CardsDealt | RoundStarted) for event in events):
                deal = []
            rebuilt = deal_decisions(history, game.public_view().table)
            assert [(seat, set(table), move) for seat, table, move in rebuilt] == deal


def test_a_passed_up_capture_makes_its_card_unlikely() -> None:
    table = tuple(Card.parse(name) for name in ("10♦", "4♠", "9♥", "2♦"))
    history = [RoundStarted(1, 0, 1, 4, table, 36), CardPlaced(1, Card.parse("K♣"))]
    weights = hand_weights(history, [1])[1]
    assert weights[10] < 0.5  # a 10 would have taken the 10♦ (2 points): seat 1 probably holds none
    assert weights[13] == 1.0  # nothing a K could take

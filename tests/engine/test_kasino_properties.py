"""Hypothesis over random Kasino games with 2, 3 and 4 players: B1-B3, K14 and K16 invariants after every move."""

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields, is_dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, new_deck
from engine.errors import GameError, NotYourTurnError
from engine.kasino import KasinoGame, KasinoSettings
from engine.kasino.events import RoundEnded
from engine.kasino.moves import Build, CardMove, Double, KasinoMove, KasinoPlay, Place, Raise, Take
from engine.kasino.rules import illegal_reason
from tests.said import refusal

DECK = tuple(new_deck())
MAX_MOVES = 48 * 100  # a round is at most 48 moves; no game here needs anywhere near 100 rounds
PROPERTY = settings(max_examples=30, deadline=None)
HEAVY = settings(max_examples=8, deadline=None)

players = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**32)


def state_cards(state: dict[str, Any]) -> list[Card]:
    """Every card of a snapshot, with repeats (B2 wants each of the 52 exactly once)."""
    codes = [c for hand in state["hands"] for c in hand] + state["stock"] + state["set_aside"]
    codes += [c for item in state["table"] for c in item["cards"]] + [c for pile in state["captured"] for c in pile]
    return [Card.parse(code) for code in codes]


def hidden_cards(state: dict[str, Any], seat: int | None = None) -> set[Card]:
    """Cards nobody but their holder may see: hands (except `seat`'s own) and the stock."""
    hands = [hand for other, hand in enumerate(state["hands"]) if other != seat]
    return {Card.parse(code) for code in [c for hand in hands for c in hand] + state["stock"]}


def cards_in(value: object) -> set[Card]:
    if isinstance(value, Card):
        return {value}
    if is_dataclass(value):
        return set().union(*(cards_in(getattr(value, field.name)) for field in fields(value)))
    if isinstance(value, tuple | list | set | frozenset):
        return set().union(*(cards_in(item) for item in value)) if value else set()
    return set()


def tied_away(ended: RoundEnded) -> int:
    """K14 points nobody scored because of a tie: 1 for most cards, 2 for most spades."""
    cards = [score.cards for score in ended.scores]
    spades = [score.spades for score in ended.scores]
    return (cards.count(max(cards)) > 1) * 1 + (spades.count(max(spades)) > 1) * 2


def playout(
    game: KasinoGame,
    chooser: random.Random,
    on_position: Callable[[KasinoGame, int], None] | None = None,
    resign_chance: float = 0.0,
) -> Iterator[tuple[int, KasinoPlay, Sequence[Any]]]:
    """Play random legal moves (and the odd resign) to the end; yield (seat, move, events) per move."""
    while game.to_move is not None:
        assert game.move_count < MAX_MOVES, "the game did not end"
        seat = game.to_move
        if on_position is not None:
            on_position(game, seat)
        if resign_chance and chooser.random() < resign_chance:
            seat = chooser.choice([s for s in range(game.players) if not game.public_view().seats[s].resigned])
            move: KasinoPlay = KasinoMove.parse("resign")
        else:
            move = chooser.choice(game.legal_moves(seat))
        yield seat, move, game.apply(seat, move)


@PROPERTY
@given(players, seeds, seeds, st.booleans(), st.integers(min_value=1, max_value=16))
def test_b1_b2_k14_k15_random_games_conserve_cards_score_eleven_end_and_replay(
    count: int, seed: int, choice: int, resigns: bool, target: int
) -> None:
    game = KasinoGame.new(count, seed, KasinoSettings(target=target))
    log = []
    for seat, move, events in playout(game, random.Random(choice), resign_chance=0.01 if resigns else 0.0):
        log.append((seat, str(move)))
        cards = state_cards(game.to_dict())
        assert len(cards) == 52 and set(cards) == set(DECK)  # B2
        for event in events:
            if isinstance(event, RoundEnded) and event.last_taker is not None:  # K14
                assert sum(score.round_total - score.sweeps for score in event.scores) == 11 - tied_away(event)
    outcome = game.outcome()
    assert outcome is not None and game.legal_moves(0) == ()
    assert sorted(outcome.places)[0] == 1 and outcome.scores == game.scores
    assert KasinoGame.replay(count, seed, KasinoSettings(target=target), log) == game  # B1
    assert KasinoGame.from_dict(json.loads(json.dumps(game.to_dict()))) == game


@HEAVY
@given(players, seeds, seeds)
def test_every_listed_move_parses_back_checks_legal_and_applies(count: int, seed: int, choice: int) -> None:
    def check(game: KasinoGame, seat: int) -> None:
        state = game.to_dict()
        moves = game.legal_moves(seat)
        assert moves and len(set(moves)) == len(moves)
        hand, table = list(game.view(seat).hand), list(game.public_view().table)
        for move in moves:
            text = str(move)
            assert len(text) <= 100
            assert KasinoMove.parse(text) == move
            assert game.parse_move(seat, text) == move
            assert illegal_reason(seat, hand, table, move) is None
            trial = KasinoGame.from_dict(state)
            trial.apply(seat, move)
            assert len(state_cards(trial.to_dict())) == 52

    for _ in playout(KasinoGame.new(count, seed), random.Random(choice), on_position=check):
        pass


def random_move(chooser: random.Random, game: KasinoGame, seat: int) -> CardMove:
    """A random move from the hand or any card, naming table items by their keys or cards not on the table."""
    view = game.view(seat)
    keys = [item.key for item in view.public.table]
    on_table = {card for item in view.public.table for card in item.cards}
    elsewhere = [card for card in DECK if card not in on_table]
    hand_card = chooser.choice([*view.hand, chooser.choice(DECK)])
    kind: Any = chooser.choice([Take, Build, Raise, Double, Place])
    if kind is Place:
        return Place(hand_card)

    def pick() -> Any:
        return chooser.choice(keys) if keys and chooser.random() < 0.9 else chooser.choice(elsewhere)

    if kind is Take:
        return Take(hand_card, frozenset(pick() for _ in range(chooser.randint(1, 4))))
    move: CardMove = kind(hand_card, pick())
    return move


@PROPERTY
@given(players, seeds, seeds)
def test_b3_random_moves_are_refused_with_a_reason_unchanged_unless_listed(count: int, seed: int, choice: int) -> None:
    chooser = random.Random(choice)

    def check(game: KasinoGame, seat: int) -> None:
        legal = set(game.legal_moves(seat))
        before = game.to_dict()
        for _ in range(3):
            move = random_move(chooser, game, seat)
            hand, table = list(game.view(seat).hand), list(game.public_view().table)
            assert (illegal_reason(seat, hand, table, move) is None) == (move in legal)
            if move in legal:
                continue
            trial = KasinoGame.from_dict(before)
            try:
                trial.apply(seat, move)
            except GameError as error:
                said = refusal(error)  # a sentence in words (B3), every placeholder filled
                assert (said[:1].isupper() or said[:1].isdigit()) and said.endswith("."), said
                assert "{" not in said, said
                assert trial.to_dict() == before
            else:
                raise AssertionError(f"{move} was applied but is not a legal move")
        other = (seat + 1) % game.players
        try:
            game.apply(other, game.legal_moves(seat)[0])
        except NotYourTurnError as error:
            assert error.message.id == "refused.not-your-turn"
        assert game.to_dict() == before

    for _ in playout(KasinoGame.new(count, seed), chooser, on_position=check):
        pass


@HEAVY
@given(players, seeds, seeds)
def test_k16_views_and_events_never_show_a_hidden_card(count: int, seed: int, choice: int) -> None:
    def check(game: KasinoGame, seat: int) -> None:
        state = game.to_dict()
        assert not cards_in(game.public_view()) & hidden_cards(state)
        for viewer in range(game.players):
            view = game.view(viewer)
            assert not cards_in(view) & hidden_cards(state, viewer)
            assert set(view.hand) == {Card.parse(code) for code in state["hands"][viewer]}

    game = KasinoGame.new(count, seed)
    for _, _, events in playout(game, random.Random(choice), on_position=check):
        if not any(isinstance(event, RoundEnded) for event in events):  # a new deal reuses last round's cards
            assert not cards_in(events) & hidden_cards(game.to_dict())

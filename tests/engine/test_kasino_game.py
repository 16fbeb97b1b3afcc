"""Kasino game flow (K13-K16), B1-B3, notation, resigning, views, events and setting up positions."""

import doctest
import json
from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass
from types import ModuleType
from typing import Any, cast

import pytest

import engine.kasino.describe
import engine.kasino.game
import engine.kasino.moves
from engine.base import AnyGame, Outcome
from engine.cards import Card, new_deck, parse_cards
from engine.core import Resign
from engine.errors import (
    AmbiguousMoveError,
    GameError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
)
from engine.kasino import KasinoGame, KasinoSettings
from engine.kasino.events import (
    AutoPlayed,
    CardsDealt,
    GameOver,
    Resigned,
    RoundEnded,
    RoundStarted,
)
from engine.kasino.moves import Build, CardMove, Double, KasinoMove, Place, Raise, Take
from engine.kasino.positions import CardsSpec
from engine.message import Message
from engine.registry import game_class
from tests.said import label, refusal, said

NAMES = ["Kari", "Ola", "Per", "Siri"]
DECK = frozenset(new_deck())


def card(text: str) -> Card:
    return Card.parse(text)


def position(hands: Sequence[CardsSpec], table: Sequence[Any] = (), **kwargs: Any) -> KasinoGame:
    kwargs.setdefault("to_move", 0)
    return KasinoGame.from_position(hands, table, **kwargs)


def play_out(
    game: KasinoGame, choose: Callable[[Sequence[CardMove]], CardMove] = lambda moves: moves[0]
) -> list[Any]:
    events: list[Any] = []
    while game.to_move is not None:
        seat = game.to_move
        events += game.apply(seat, choose(game.legal_moves(seat)))
    return events


def cards_in(value: object) -> set[Card]:
    """Every Card reachable from a view by walking dataclass fields, tuples and lists."""
    if isinstance(value, Card):
        return {value}
    if is_dataclass(value):
        return set().union(*(cards_in(getattr(value, field.name)) for field in fields(value)))
    if isinstance(value, tuple | list | set | frozenset):
        return set().union(*(cards_in(item) for item in value)) if value else set()
    return set()


def hidden_from(game: KasinoGame, seat: int) -> set[Card]:
    state = game.to_dict()
    hidden = {card for other, hand in enumerate(state["hands"]) if other != seat for card in hand}
    return {Card.parse(code) for code in hidden | set(state["stock"])}


# --- K13 Round end ----------------------------------------------------------------------------


def test_k13_the_table_goes_to_the_last_taker_who_scores_the_last_take() -> None:
    game = position(["K♠", ""], ["Q♥", "3♦"], last_taker=1, captured=["5♠", "6♣ 7♣"])
    events = game.play(0, "ks place")
    ended = next(event for event in events if isinstance(event, RoundEnded))
    assert ended.last_taker == 1
    assert set(ended.leftover) == {card("Q♥"), card("3♦"), card("K♠")}
    assert set(ended.captured[1]) == {card(text) for text in ["6♣", "7♣", "Q♥", "3♦", "K♠"]}
    assert [score.last_take for score in ended.scores] == [0, 1]


def test_k13_if_nobody_took_anything_the_table_is_set_aside_unscored() -> None:
    game = position(["K♠", ""], ["Q♥", "3♦"])
    ended = next(event for event in game.play(0, "ks place") if isinstance(event, RoundEnded))
    assert ended.last_taker is None
    assert ended.captured == ((), ())
    assert sum(score.round_total for score in ended.scores) == 0
    assert "nobody took anything" in said(ended, NAMES)


def test_k13_the_round_ends_only_when_the_stock_and_every_hand_are_empty() -> None:
    game = position(["K♠", "2♥"], ["Q♥"], stock="")
    assert not any(isinstance(event, RoundEnded) for event in game.play(0, "ks place"))
    assert any(isinstance(event, RoundEnded) for event in game.play(1, "2h place"))


# --- K14 Scoring --------------------------------------------------------------------------------


def test_k14_scoring_table_line_by_line() -> None:
    captured = ["A♠ A♥ 2♠ 10♦ 3♠ 4♠ 5♥", "A♦ 6♠ 7♦", "A♣ 8♣"]
    game = position(["K♠", "", ""], ["Q♥"], captured=captured, sweeps=[0, 2, 0], last_taker=2, scores=[1, 2, 3])
    ended = next(event for event in game.play(0, "ks place") if isinstance(event, RoundEnded))
    first, second, third = ended.scores
    assert (first.cards, first.spades) == (7, 4)
    assert (first.most_cards, first.most_spades, first.aces, first.little_casino, first.big_casino) == (1, 2, 2, 1, 2)
    assert (first.sweeps, first.last_take, first.round_total, first.game_total) == (0, 0, 8, 9)
    assert (second.aces, second.sweeps, second.round_total, second.game_total) == (1, 2, 3, 5)
    # Q♥ and K♠ came with the last take.
    assert (third.cards, third.aces, third.last_take, third.round_total) == (4, 1, 1, 2)
    assert game.scores == (9, 5, 5)


def test_k14_ties_for_most_cards_and_most_spades_score_nobody() -> None:
    game = position(["K♥", ""], [], captured=["2♣ 3♠", "4♣ 5♠ 6♥"], last_taker=0)
    ended = next(event for event in game.play(0, "kh place") if isinstance(event, RoundEnded))
    assert [(score.cards, score.most_cards) for score in ended.scores] == [(3, 0), (3, 0)]
    assert [score.most_spades for score in ended.scores] == [0, 0]


def test_k14_without_sweeps_a_round_distributes_eleven_points() -> None:
    game = KasinoGame.new(3, seed=21, settings={"sweeps": False})
    events: list[Any] = []
    while not any(isinstance(event, RoundEnded) for event in events):
        seat = game.to_move
        assert seat is not None
        events += game.apply(seat, game.legal_moves(seat)[0])
    ended = next(event for event in events if isinstance(event, RoundEnded))
    assert ended.last_taker is not None
    assert sum(score.round_total for score in ended.scores) == 11


def test_k14_the_points_table_is_a_setting() -> None:
    settings = KasinoSettings(most_spades=3, ace=2, sweep=5)
    game = position(["K♥", ""], [], captured=["A♠ 2♠ 3♠", "4♣"], sweeps=[1, 0], last_taker=0, settings=settings)
    ended = next(event for event in game.play(0, "kh place") if isinstance(event, RoundEnded))
    first = ended.scores[0]
    assert (first.most_spades, first.aces, first.sweeps) == (3, 2, 5)
    assert first.round_total == 1 + 3 + 2 + 1 + 5 + 1


def test_k14_sweeps_score_nothing_when_switched_off() -> None:
    game = position(["K♥", ""], [], captured=["4♣", "5♣"], sweeps=[2, 0], settings={"sweeps": False})
    ended = next(event for event in game.play(0, "kh place") if isinstance(event, RoundEnded))
    assert ended.scores[0].sweeps == 0


# --- K15 Game end -----------------------------------------------------------------------------


def test_k15_the_game_ends_when_someone_reaches_the_target_alone_at_the_top() -> None:
    game = position(["K♠", ""], ["Q♥"], captured=["A♥ A♣ 5♠", "A♦ 6♠"], scores=[15, 15])
    events = game.play(0, "ks place")
    assert game.scores == (18, 16)
    assert game.to_move is None and game.is_over()
    assert game.outcome() == Outcome(places=(1, 2), scores=(18, 16))
    assert events[-1] == GameOver((1, 2), (18, 16))
    assert game.legal_moves(0) == ()
    with pytest.raises(GameOverError):
        game.play(1, "resign")


def test_k15_a_shared_highest_total_means_another_round() -> None:
    game = position(["K♠", ""], ["Q♥"], captured=["A♥ 5♠", "A♦ 6♠"], scores=[15, 15], dealer=1)
    events = game.play(0, "ks place")
    assert game.scores == (16, 16)
    assert game.outcome() is None
    started = events[-1]
    assert isinstance(started, RoundStarted) and started.round == 2 and started.dealer == 0
    assert game.to_move == 1


def test_k15_reaching_the_target_while_behind_still_ends_the_game() -> None:
    game = position(["K♠", ""], ["Q♥"], captured=["A♥ A♣ 5♠", "A♦ 6♠"], scores=[15, 16])
    game.play(0, "ks place")
    assert game.outcome() == Outcome(places=(1, 2), scores=(18, 17))


def test_k15_target_is_a_setting() -> None:
    game = KasinoGame.new(2, seed=4, settings=KasinoSettings(target=1))
    play_out(game)
    assert max(game.scores) >= 1
    assert game.public_view().round < 10


# --- K16 What each player may see ---------------------------------------------------------------


def test_k16_views_hold_no_other_hand_and_no_stock_card() -> None:
    game = KasinoGame.new(4, seed=2)
    for _ in range(30):
        for seat in range(4):
            view = game.view(seat)
            assert set(view.hand) == {card for card in cards_in(view) if card in view.hand}
            assert not cards_in(view) & hidden_from(game, seat)
            assert not cards_in(game.public_view()) & (hidden_from(game, seat) | set(view.hand))
        mover = game.to_move
        assert mover is not None
        game.apply(mover, game.legal_moves(mover)[-1])


def test_k16_the_leak_check_can_fail() -> None:
    game = KasinoGame.new(2, seed=2)
    other_hand = set(game.view(1).hand)
    assert cards_in(game.view(1)) & other_hand
    assert hidden_from(game, 0) >= other_hand


def test_k16_public_view_shows_sizes_table_scores_and_turn() -> None:
    game = position(["5♥ 2♠", "K♣ 3♦ 4♦"], ["10♣", {"build": "4♠ 5♠", "owner": 1}], stock="7♣ 8♣",
                    captured=["", "Q♠ 2♥"], sweeps=[0, 1], scores=[3, 4])  # fmt: skip
    view = game.public_view()
    assert [(seat.hand_size, seat.captured, seat.sweeps, seat.score) for seat in view.seats] == [
        (2, 0, 0, 3), (3, 2, 1, 4)
    ]  # fmt: skip
    assert view.stock == 2 and view.to_move == 0 and view.dealer == 1 and view.round == 1
    build = view.table[1]
    assert (build.kind, build.value, build.owner, build.contributors, build.doubled) == ("build", 9, 1, (1,), False)
    assert game.view(0).hand == (card("5♥"), card("2♠"))  # by hand value: 2♠ is worth 15
    assert game.view(1).legal_moves == ()


def test_k16_capture_piles_are_revealed_when_the_round_is_scored() -> None:
    game = position(["K♠", ""], [], captured=["5♠ 6♣", "7♦"], last_taker=0)
    ended = next(event for event in game.play(0, "ks place") if isinstance(event, RoundEnded))
    assert ended.captured == (tuple(parse_cards("5♠ 6♣ K♠")), (card("7♦"),))
    assert game.public_view().last_round == ended.scores


# --- B1 Determinism ---------------------------------------------------------------------------


def test_b1_replaying_seed_settings_and_moves_gives_the_same_state() -> None:
    settings = KasinoSettings(target=8)
    game = KasinoGame.new(3, seed=77, settings=settings)
    log: list[tuple[int, str]] = []
    while game.to_move is not None and len(log) < 200:
        seat = game.to_move
        move = game.legal_moves(seat)[len(log) % len(game.legal_moves(seat))]
        log.append((seat, str(move)))
        game.apply(seat, move)
    replayed = KasinoGame.replay(3, 77, settings, log)
    assert replayed == game
    assert replayed.to_dict() == game.to_dict()
    assert replayed.move_count == len(log) == game.move_count


def test_b1_the_same_seed_deals_the_same_cards_and_another_seed_does_not() -> None:
    assert KasinoGame.new(2, seed=5) == KasinoGame.new(2, seed=5)
    assert KasinoGame.new(2, seed=5) != KasinoGame.new(2, seed=6)


def test_b1_snapshots_round_trip_through_json() -> None:
    game = KasinoGame.new(4, seed=9)
    for _ in range(60):
        seat = game.to_move
        assert seat is not None
        game.apply(seat, game.legal_moves(seat)[0])
    data = json.loads(json.dumps(game.to_dict()))
    assert data["schema"] == 1
    restored = KasinoGame.from_dict(data)
    assert restored == game
    seat = game.to_move
    assert seat is not None
    assert restored.legal_moves(seat) == game.legal_moves(seat)


def test_b1_snapshots_refuse_other_schemas_and_broken_states() -> None:
    data = KasinoGame.new(2, seed=1).to_dict()
    with pytest.raises(ValueError, match="schema"):
        KasinoGame.from_dict({**data, "schema": 2})
    with pytest.raises(ValueError, match="52 cards"):
        KasinoGame.from_dict({**data, "stock": data["stock"][1:]})
    with pytest.raises(ValueError, match="readable"):
        KasinoGame.from_dict({key: value for key, value in data.items() if key != "hands"})


# --- B2 Conservation --------------------------------------------------------------------------


def test_b2_every_card_is_in_exactly_one_place_through_a_whole_game() -> None:
    game = KasinoGame.new(2, seed=31)
    while game.to_move is not None:
        state = game.to_dict()
        codes = [c for hand in state["hands"] for c in hand] + state["stock"] + state["set_aside"]
        codes += [c for item in state["table"] for c in item["cards"]] + [c for pile in state["captured"] for c in pile]
        assert len(codes) == 52 and {Card.parse(code) for code in codes} == DECK
        seat = game.to_move
        game.apply(seat, game.legal_moves(seat)[-2 if len(game.legal_moves(seat)) > 1 else 0])


def test_b2_from_position_sets_aside_the_cards_it_was_not_given() -> None:
    game = position(["5♥", "K♣"], ["10♣"])
    assert len(game.to_dict()["set_aside"]) == 49


def test_b2_from_position_refuses_a_card_twice() -> None:
    with pytest.raises(ValueError, match="placed twice: 5♥"):
        position(["5♥", "K♣"], ["5♥"])


# --- B3 Illegal moves -------------------------------------------------------------------------


BUILD_OF_9 = "The 9 build (4♠ 5♠) can only be taken by a card worth 9, and 5♥ is worth 5 from the hand."


@pytest.mark.parametrize(
    ("seat", "text", "error", "message", "said"),
    [
        (
            0,
            "3h place",
            IllegalMoveError,
            ("kasino.refused.not-in-hand", {"card": card("3♥")}),
            "3♥ is not in your hand.",
        ),
        (1, "kc place", NotYourTurnError, ("refused.not-your-turn", {}), "It is not your turn."),
        (0, "5h take 7c", IllegalMoveError, ("kasino.refused.not-on-table", {"card": card("7♣")}), None),
        (0, "5h take 2s", IllegalMoveError, ("kasino.refused.in-hand-not-table", {"card": card("2♠")}), None),
        (0, "5h build 10c", IllegalMoveError, ("kasino.refused.already-own-build", {"value": 9}), None),
        (0, "5h take 4s", IllegalMoveError, ("kasino.refused.build-needs-value", {"value": 9, "worth": 5}), BUILD_OF_9),
        (0, "5h jump 10c", InvalidMoveError, ("kasino.refused.not-an-action", {"verb": "jump"}), None),
        (0, "xx place", InvalidMoveError, ("refused.not-a-card", {"text": "xx"}), None),
        (0, "5h take 10c+10c", IllegalMoveError, ("kasino.refused.named-twice", {"item": card("10♣")}), None),
        (0, "5h raise 10c", IllegalMoveError, ("kasino.refused.not-a-build", {"item": card("10♣")}), None),
        (0, "5h build", InvalidMoveError, ("kasino.refused.say-which-item", {"verb": "build"}), None),
        (0, "5h take 9", IllegalMoveError, ("kasino.refused.build-needs-value", {"card": card("5♥")}), BUILD_OF_9),
        (0, "5h double 6", IllegalMoveError, ("kasino.refused.no-item-worth", {"value": 6}), None),
    ],
)
def test_b3_illegal_moves_are_refused_with_a_reason_and_change_nothing(
    seat: int, text: str, error: type[GameError], message: tuple[str, dict[str, Any]], said: str | None
) -> None:
    game = position(["5♥ 2♠ 9♦", "K♣"], ["10♣", {"build": "4♠ 5♠", "owner": 0}])
    before = game.to_dict()
    with pytest.raises(error) as refused:
        game.play(seat, text)
    message_id, params = message
    assert refused.value.message.id == message_id
    assert {name: refused.value.message.params[name] for name in params} == params
    assert said is None or refusal(refused.value) == said
    assert game.to_dict() == before


def test_b3_a_move_object_that_is_not_legal_is_refused_unchanged() -> None:
    game = position(["5♥ 2♠", "K♣"], ["10♣", "3♦"])
    before = game.to_dict()
    moves: list[CardMove] = [Take(card("5♥"), frozenset({card("10♣")})), Build(card("2♠"), card("10♣")),
                 Double(card("5♥"), card("3♦")), Raise(card("5♥"), card("10♣")), Place(card("K♣"))]  # fmt: skip
    for move in moves:
        with pytest.raises(GameError) as refused:
            game.apply(0, move)
        said = refusal(refused.value)
        assert (said[:1].isupper() or said[:1].isdigit()) and said.endswith("."), said
        assert game.to_dict() == before


# --- Notation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["5♥ take 3♦+A♥+A♠", "8♠ take 8♣ | 5♦+3♥", "5♥ build 10♣", "3♣ raise 4♦", "7♦ double 7♣", "Q♠ place", "resign"],
)
def test_notation_round_trips_without_a_table(text: str) -> None:
    move = KasinoMove.parse(text)
    assert str(move) == text
    assert KasinoMove.parse(str(move)) == move
    assert eval(repr(move), {"KasinoMove": KasinoMove, "Resign": Resign}) == move


def test_notation_reads_ascii_and_any_case() -> None:
    assert KasinoMove.parse("5h take 3d+ah+as") == KasinoMove.parse("5♥ take 3♦+A♥+A♠")
    assert KasinoMove.parse("QS PLACE") == Place(card("Q♠"))
    assert KasinoMove.parse("  td   double  10-c ") == Double(card("10♦"), card("10♣"))


def test_notation_by_value_needs_the_table() -> None:
    with pytest.raises(InvalidMoveError) as refused:
        KasinoMove.parse("3♣ raise 6")
    assert refused.value.message == Message("kasino.refused.value-needs-table", {"value": 6})


def test_notation_names_an_item_by_any_card_or_by_an_unambiguous_value() -> None:
    game = position(["3♣ 9♠ 7♠", "K♣"], [{"build": "4♦ 2♥", "owner": 1}, "7♣ 7♦", "6♣"])
    assert game.parse_move(0, "3♣ raise 6") == Raise(card("3♣"), card("4♦"))  # the only build worth 6
    assert game.parse_move(0, "3c raise 2h") == Raise(card("3♣"), card("4♦"))
    assert game.parse_move(0, "7s double 7d") == Double(card("7♠"), card("7♣"))
    assert str(game.parse_move(0, "7s double 7")) == "7♠ double 7♣"


def test_notation_an_ambiguous_value_says_how_to_tell_items_apart() -> None:
    game = position(["3♣ 9♠ 6♠", "K♣"], [{"build": "4♦ 2♥", "owner": 1}, "6♣"])
    with pytest.raises(AmbiguousMoveError) as refused:
        game.parse_move(0, "6s take 6")
    assert refused.value.message.id == "kasino.refused.ambiguous-value"
    assert refusal(refused.value) == (
        "2 items are worth 6 (the 6 build (4♦ 2♥), 6♣); name one by a card, e.g. “6♠ take 4♦”."
    )
    assert game.parse_move(0, "3c raise 6") == Raise(card("3♣"), card("4♦"))  # only builds can be raised


def test_notation_every_legal_move_parses_back_to_itself_in_context() -> None:
    game = position(["A♠ 9♥ 5♦ K♣", "2♣", "4♠"],
                    ["A♥", "3♥", "4♥", "6♥", "7♥", "8♥", "10♥", "J♥", "Q♥", "7♣ 7♦", "6♠", "2♥",
                     {"build": "3♣ 2♦", "owner": 1}, {"build": "4♣ 5♣", "owner": 2}])  # fmt: skip
    moves = game.legal_moves(0)
    assert len(moves) == len(set(moves)) > 300
    for move in moves:
        text = str(move)
        assert len(text) <= 100
        assert game.parse_move(0, text) == move
        assert str(game.parse_move(0, text)) == text
        assert KasinoMove.parse(text) == move


def test_notation_legal_moves_are_in_a_stable_order() -> None:
    table = ["8♣", "5♦", "3♥", {"build": "4♠ 4♥", "owner": 1}]
    game = position(["8♠ 3♣ A♦", "K♣"], table)
    first = game.legal_moves(0)
    assert first == position(["A♦ 3♣ 8♠", "K♣"], table).legal_moves(0)
    assert first == KasinoGame.from_dict(game.to_dict()).legal_moves(0)
    # Per hand card by hand value; takes of fewer items first; items in table order.
    assert [str(move) for move in first] == [
        "3♣ take 3♥", "3♣ build 5♦", "3♣ double 3♥", "3♣ place",
        "8♠ take 8♣", "8♠ take 4♠", "8♠ take 5♦+3♥", "8♠ take 8♣ | 4♠", "8♠ take 8♣ | 5♦+3♥",
        "8♠ take 5♦+3♥ | 4♠", "8♠ take 8♣ | 5♦+3♥ | 4♠", "8♠ double 8♣", "8♠ place",
        "A♦ place",
    ]  # fmt: skip


# --- describe_move and events -------------------------------------------------------------------


def test_describe_move_in_words() -> None:
    game = position(["5♥ 2♠ 3♣ 7♦ 9♦", "K♣"],
                    ["8♣", "3♦", "A♥", "A♠", "10♣", "7♣", {"build": "4♦ 2♥", "owner": 1}])  # fmt: skip
    words = {str(move): label(game, move) for move in game.legal_moves(0)}
    assert words["5♥ take 3♦+A♥+A♠"] == "Take 3♦+A♥+A♠ with 5♥"
    assert words["5♥ build 10♣"] == "Build 15 on 10♣ with 5♥"
    assert words["3♣ raise 4♦"] == "Raise the 6 to 9 with 3♣"
    assert words["7♦ double 7♣"] == "Double 7♣ with 7♦"
    assert label(game, Place(card("9♦"))) == "Place 9♦"
    assert label(game, Resign()) == "Resign from the game"


def test_k2_k6_a_take_is_worded_by_its_groups_with_the_played_cards_value() -> None:
    # K6: several groups in one take; K2: 10♦ counts 16 from the hand, so its value is said.
    game = position(["10♦ 9♠", "K♣"], ["K♥", "3♥", "10♥", "6♦", {"build": "5♣ 4♠", "owner": 1}, "8♣ 8♥"])
    words = {str(move): label(game, move) for move in game.legal_moves(0)}
    assert words["10♦ take K♥+3♥ | 10♥+6♦"] == "Take K♥+3♥ and 10♥+6♦ with 10♦ (16)"
    assert words["9♠ take 5♣"] == "Take the 9 build with 9♠"  # face value 9: no value said
    assert words["9♠ take 3♥+6♦ | 5♣"] == "Take 3♥+6♦ and the 9 build with 9♠"
    ace = position(["A♠", "K♣"], ["6♦", "8♣ 8♥"])
    assert label(ace, ace.legal_moves(0)[0]) == "Take 6♦+the 8 pile with A♠ (14)"  # K2: an Ace counts 14


def test_a_move_has_the_same_words_in_the_menu_and_in_the_narration() -> None:
    names = ("Kari", "Ola")
    cases: list[tuple[list[str], list[Any], str, str]] = [
        (["4♠ 9♥", "K♣"], ["5♣"], "4s build 5c", "Build 9 on 5♣ with 4♠"),
        (["4♠ 9♥", "K♣"], ["5♣"], "4s place", "Place 4♠"),
        (["7♦ 9♥", "K♣"], ["7♣"], "7d double 7c", "Double 7♣ with 7♦"),
        (["7♦ 7♥", "K♣"], ["7♣ 7♠"], "7d double 7c", "Double the 7 pile with 7♦"),
        (["3♣ 9♥", "K♣"], [{"build": "4♦ 2♥", "owner": 1}], "3c raise 6", "Raise the 6 to 9 with 3♣"),
        (["10♦ 2♥", "K♣"], ["K♥", "3♥", "10♥", "6♦", "2♣"], "10d take K♥+3♥ | 10♥+6♦",
         "Take K♥+3♥ and 10♥+6♦ with 10♦ (16)"),
    ]  # fmt: skip
    for hands, table, typed, menu in cases:
        game = position(hands, table)
        move = game.parse_move(0, typed)
        assert label(game, move) == menu
        sentence = said(game.apply(0, move)[0], names)
        verb, rest = menu.split(" ", 1)
        # "Place 4♠" in the menu, "Kari places 4♠." after (a raise adds whose build it was)
        assert sentence.startswith(f"Kari {verb.lower()}s {rest}") and sentence.endswith(".")


def test_narration_says_when_a_build_changes_hands() -> None:
    game = position(["3♣ 9♥", "K♣"], [{"build": "4♦ 2♥", "owner": 1}])
    (raised, *_) = game.play(0, "3c raise 6")
    assert said(raised, ("Kari", "Ola")) == "Kari raises the 6 to 9 with 3♣ and takes the build over from Ola."


def test_events_are_sentences_and_a_deal_carries_no_cards() -> None:
    game = position(["5♥", "6♣"], ["K♣"], to_move=1, dealer=0, stock="2♥ 3♥ 4♥ 7♥ 8♥ 9♥ J♥ Q♥")
    game.play(1, "6c place")
    placed, dealt = game.play(0, "5h place")
    assert said(placed, NAMES) == "Kari places 5♥."
    assert dealt == CardsDealt(4, 0)
    assert said(dealt, NAMES) == "Everyone gets 4 new cards; 0 cards are left in the stock."
    assert cards_in(dealt) == set()


def test_every_event_of_a_game_describes_itself_in_one_sentence() -> None:
    game = KasinoGame.new(3, seed=12)
    assert game.to_move is not None
    events = [*game.play(game.to_move, "resign")]
    events += play_out(game, choose=lambda moves: moves[len(moves) // 2])
    kinds = {type(event).__name__ for event in events}
    assert {"Resigned", "AutoPlayed", "CardsTaken", "RoundEnded", "RoundStarted", "GameOver"} <= kinds
    for event in events:
        sentence = said(event, NAMES[:3])
        assert sentence.endswith(".") and "\n" not in sentence


# --- Resign and auto_move -----------------------------------------------------------------------


def test_resign_with_two_players_ends_the_game_at_once_and_places_the_resigner_last() -> None:
    game = KasinoGame.new(2, seed=3)
    assert game.to_move is not None
    other = 1 - game.to_move
    events = game.play(other, "resign")  # out of turn is fine
    assert events[0] == Resigned(other)
    assert isinstance(events[-1], GameOver)
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.places[other] == 2 and outcome.places[1 - other] == 1
    assert game.move_count == 1


def test_resigned_seats_are_played_automatically_and_place_below_everyone() -> None:
    game = KasinoGame.new(4, seed=6)
    first = game.to_move
    assert first is not None
    events = game.play(first, "resign")
    assert isinstance(events[1], AutoPlayed) and events[1].seat == first
    assert "has resigned" in said(events[1], NAMES)
    assert game.to_move != first
    second = (first + 2) % 4
    game.play(second, "resign")
    with pytest.raises(IllegalMoveError) as refused:
        game.play(second, "resign")
    assert refused.value.message.id == "refused.already-resigned"
    play_out(game)
    outcome = game.outcome()
    assert outcome is not None
    places = outcome.places
    assert places[second] == 3 and places[first] == 4  # the later resigner above the earlier one
    assert sorted(places[seat] for seat in range(4) if seat not in (first, second)) in ([1, 2], [1, 1])


def test_resign_counts_as_a_move_and_replays() -> None:
    game = KasinoGame.new(3, seed=8)
    assert game.to_move is not None
    log = [(game.to_move, str(game.legal_moves(game.to_move)[0]))]
    game.play(*log[0])
    log.append((0, "resign"))
    game.play(0, "resign")
    assert game.move_count == 2
    assert KasinoGame.replay(3, 8, None, log) == game


def test_a_resigned_seat_cannot_play_moves() -> None:
    game = KasinoGame.new(3, seed=8)
    assert game.to_move is not None
    seat = (game.to_move + 1) % 3
    game.play(seat, "resign")
    with pytest.raises(NotYourTurnError) as refused:
        game.play(seat, "kh place")
    assert refused.value.message.id == "refused.resigned-turns-played"


def test_auto_move_places_the_lowest_hand_value_card() -> None:
    game = position(["A♠ 2♠ 2♥ 3♦", "K♣"], ["10♣"])
    assert game.auto_move(0) == Place(card("2♥"))  # A♠ is worth 14 and 2♠ 15 from the hand
    game = position(["4♣ 4♠ 9♦", "K♣"], ["10♣"])
    assert game.auto_move(0) == Place(card("4♠"))
    assert game.auto_move(0) in game.legal_moves(0)


# --- Protocol, settings, from_position ---------------------------------------------------------


def test_kasino_game_satisfies_the_game_protocol() -> None:
    game: AnyGame = KasinoGame.new(2, seed=1)
    assert KasinoGame.KIND == "kasino" and game_class("kasino") is KasinoGame
    assert game.players == 2 and game.move_count == 0 and game.to_move in (0, 1)
    assert KasinoGame.settings_from_dict(None) == KasinoSettings()
    for name in ["new", "replay", "settings_from_dict", "from_dict", "to_dict", "parse_move", "legal_moves",
                 "apply", "auto_move", "outcome", "public_view", "view"]:  # fmt: skip
        assert callable(getattr(game, name))


def test_settings_round_trip_and_validate() -> None:
    settings = KasinoSettings(target=21, sweeps=cast(Any, False), big_casino=3)  # KV2: the old boolean form
    assert KasinoGame.settings_from_dict(json.loads(json.dumps(settings.to_dict()))) == settings
    assert KasinoSettings.from_dict({"target": 10}) == KasinoSettings(target=10)
    with pytest.raises(ValueError, match="at least 1"):
        KasinoSettings(target=0)
    with pytest.raises(ValueError, match="negative"):
        KasinoSettings(ace=-1)
    with pytest.raises(ValueError, match="unknown Kasino settings: jokers"):
        KasinoSettings.from_dict({"jokers": True})
    with pytest.raises(ValueError, match="whole number"):
        KasinoSettings(target=cast(Any, "16"))  # deliberately not an int


def test_from_position_round_trips_through_position() -> None:
    game = position(["5♥ 2♠", "K♣ 3♦"], ["10♣", "7♣ 7♦", {"build": "4♦ 5♠", "owner": 1, "contributors": [0]}],
                    stock="9♣ 9♦ 8♥ 8♦", captured=["Q♠", ""], sweeps=[1, 0], scores=[2, 5], last_taker=0)  # fmt: skip
    again = KasinoGame.from_position(**game.position())
    assert again == game
    assert game.public_view().table[2].contributors == (0, 1)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (["7♣ 8♦"], "one table value"),
        ([{"build": "7♣", "owner": 0}], "two or more cards"),
        ([{"build": "9♣ 9♦", "owner": 0}], "worth 2 to 16"),
        ([{"build": "2♣ 3♦", "owner": 0}, {"build": "4♣ 3♥", "owner": 0}], "only one build"),
        ([{"build": "2♣ 3♦", "owner": 5}], "out of range"),
        ([{"build": "2♣ 3♦", "owner": 0, "size": 3}], "unknown build fields"),
        ([42], "a table item is"),
    ],
)
def test_from_position_refuses_impossible_positions(table: list[Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        position(["5♥", "K♣"], table)


def test_from_position_needs_the_seat_to_move_to_hold_a_card() -> None:
    with pytest.raises(ValueError, match="hold at least one card"):
        position(["", "K♣"], ["10♣"])


@pytest.mark.parametrize("module", [engine.kasino.game, engine.kasino.moves, engine.kasino.describe])
def test_docstring_examples_run(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0

"""Garbage rules G1–G11 and B1–B3, one behaviour per test, on exact positions built with `from_position`."""

import dataclasses
import doctest
import json
from collections import Counter
from typing import Any, cast

import pytest

import engine.garbage.game
import engine.garbage.moves
from engine.base import Outcome
from engine.cards import Card, new_decks
from engine.errors import GameError, GameOverError, IllegalMoveError, InvalidMoveError, NotYourTurnError
from engine.garbage import (
    AutoPlayed,
    Discarded,
    DiscardReason,
    DrawDiscard,
    DrawStock,
    DrewFromStock,
    GameOver,
    GarbageGame,
    GarbageSettings,
    HandWon,
    JackDisplaced,
    JackPlaced,
    NewHandDealt,
    PlacedOnSpot,
    PlaceJack,
    Resign,
    Resigned,
    StockReshuffled,
    TookDiscard,
)
from engine.message import Count, Joined, Message
from tests.outcome import outcome_of
from tests.said import label, refusal, said

C = Card.parse
NAMES = ["Kari", "Ola", "Per", "Siri", "Tor", "Una"]
# Spots 1..10 of a layout whose spots 1–3 and 5–10 lie face up, so only spot 4 (9♦ here) is face down.
ONE_DOWN = "A♥ 2♥ 3♥ 9♦ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥"
ALL_BUT_4 = [1, 2, 3, 5, 6, 7, 8, 9, 10]
OTHER = "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠"  # a second layout, all face down
JACKS_2_3_7 = Joined(("jack 2", "jack 3", "jack 7"), "join.comma")  # the spots a drawn Jack may go to, as typed


# ----- helpers shared with test_garbage_properties.py ---------------------------------------------------------


def card_codes(game: GarbageGame) -> list[str]:
    """Every card the state holds, wherever it is (for B2)."""
    state = game.to_dict()
    codes = [code for spots in state["layouts"] for code in spots] + state["stock"] + state["discard"]
    return sorted(codes + ([state["pending"]] if state["pending"] else []))


def full_decks(players: int) -> list[str]:
    return sorted(card.code for card in new_decks({2: 1, 3: 2, 4: 2, 5: 3, 6: 3}[players]))


def hidden_cards(game: GarbageGame) -> set[Card]:
    """The face-down cards and the stock: what no view and no event may ever show."""
    state = game.to_dict()
    hidden = {C(code) for code in state["stock"]}
    for spots, ups in zip(state["layouts"], state["face_up"], strict=True):
        hidden |= {C(code) for code, up in zip(spots, ups, strict=True) if not up}
    return hidden


def cards_in(value: object) -> list[Card]:
    """Every Card reachable through dataclass fields, tuples, lists and dicts."""
    if isinstance(value, Card):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [card for field in dataclasses.fields(value) for card in cards_in(getattr(value, field.name))]
    if isinstance(value, list | tuple | set | frozenset):
        return [card for item in value for card in cards_in(item)]
    if isinstance(value, dict):
        return [card for item in value.values() for card in cards_in(item)]
    return []


def position(**kwargs: Any) -> GarbageGame:
    kwargs.setdefault("layouts", [ONE_DOWN, OTHER])
    kwargs.setdefault("face_up", [ALL_BUT_4, []])
    return GarbageGame.from_position(**kwargs)


# ----- G1 decks -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_g1_two_players_one_deck_three_four_two_decks_five_six_three(players: int, decks: int) -> None:
    game = GarbageGame.new(players, seed=1)
    codes = card_codes(game)
    assert len(codes) == 52 * decks == len(set(codes))
    assert codes == full_decks(players)
    assert Counter(C(code).deck for code in codes) == dict.fromkeys(range(decks), 52)


@pytest.mark.parametrize("players", [0, 1, 7])
def test_g1_player_count_outside_two_to_six_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 6 players"):
        GarbageGame.new(players, seed=1)


# ----- G2 layouts ---------------------------------------------------------------------------------------------


def test_g2_layout_has_start_size_minus_hands_won_spots() -> None:
    assert [seat.layout_size for seat in GarbageGame.new(3, seed=2).public_view().seats] == [10, 10, 10]
    game = GarbageGame.from_position(["A♥ 2♥ 3♥", OTHER], hands_won=[7, 0])
    assert [game.layout_size(seat) for seat in (0, 1)] == [3, 10]
    with pytest.raises(ValueError, match="must have 8"):
        GarbageGame.from_position(["A♥ 2♥ 3♥", OTHER], hands_won=[2, 0])


def test_g2_house_rule_start_size_sets_every_layout() -> None:
    game = GarbageGame.new(4, seed=3, settings=GarbageSettings(start_size=4))
    assert [seat.layout_size for seat in game.public_view().seats] == [4, 4, 4, 4]
    for bad in (0, 11, "10"):
        with pytest.raises(ValueError, match="start_size"):
            GarbageSettings(start_size=cast(Any, bad))  # "10": deliberately not an int


def test_g2_a_ten_drawn_with_nine_spots_is_discarded() -> None:
    game = GarbageGame.from_position(["A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥", OTHER], stock="10♣")
    events = game.play(0, "draw stock")
    assert events == (DrewFromStock(0, C("10♣")), Discarded(0, C("10♣"), DiscardReason.ABOVE_LAYOUT, 9))
    assert game.public_view().discard_top == C("10♣")
    assert said(events[1], NAMES) == "Kari discarded 10♣: Kari's layout has only 9 spots."


# ----- G3 deal ------------------------------------------------------------------------------------------------


def test_g3_deal_is_face_down_the_rest_is_stock_and_the_discard_is_empty() -> None:
    game = GarbageGame.new(3, seed=4)
    view = game.public_view()
    assert all(seat.spots == (None,) * 10 for seat in view.seats)
    assert view.stock_size == 104 - 30
    assert view.discard == () and view.hand_number == 1
    assert [len(spots) for spots in game.to_dict()["layouts"]] == [10, 10, 10]


# ----- G4 first player ----------------------------------------------------------------------------------------


def test_g4_first_player_is_random_from_the_seed() -> None:
    firsts = [GarbageGame.new(4, seed).to_move for seed in range(60)]
    assert set(firsts) == {0, 1, 2, 3}
    assert firsts == [GarbageGame.new(4, seed).to_move for seed in range(60)]


def test_g4_winner_of_the_previous_hand_plays_first() -> None:
    game = position(layouts=[OTHER, ONE_DOWN, OTHER.replace("♠", "♣")], face_up=[[], ALL_BUT_4, []], to_move=1,
                    stock="4♦")  # fmt: skip
    events = game.play(1, "draw stock")
    assert events[-1] == NewHandDealt(hand=2, layout_sizes=(10, 9, 10), first=1)
    assert game.to_move == 1


# ----- G5 turn start ------------------------------------------------------------------------------------------


def test_g5_first_turn_of_a_hand_can_only_draw_from_the_stock() -> None:
    game = GarbageGame.new(2, seed=5)
    assert game.to_move is not None
    assert game.legal_moves(game.to_move) == (DrawStock(),)
    with pytest.raises(IllegalMoveError) as refused:
        game.play(game.to_move, "draw discard")
    assert refused.value.message == Message("garbage.refused.discard-empty")


def test_g5_taking_the_discard_takes_its_top_card() -> None:
    game = position(face_up=[[1, 2, 3], []], discard="4♣ K♦")  # listed from the top down
    assert game.legal_moves(0) == (DrawStock(), DrawDiscard())
    assert label(game, DrawDiscard()) == "Take 4♣ from the discard pile"
    events = game.play(0, "discard")
    assert events[:3] == (
        TookDiscard(0, C("4♣")),
        PlacedOnSpot(0, 4, C("4♣"), C("9♦")),
        PlacedOnSpot(0, 9, C("9♦"), C("9♥")),
    )
    assert game.public_view().discard == (C("K♦"), C("9♥"))


# ----- G6 placing ---------------------------------------------------------------------------------------------


def test_g6a_chain_places_each_turned_up_card_until_a_discard() -> None:
    layout = "2♣ 3♣ 5♣ 9♦ 6♣ 7♣ 8♣ 10♣ Q♠ K♣"  # spot 4 hides 9♦, spot 9 hides Q♠
    game = GarbageGame.from_position([layout, OTHER], stock="4♣")
    events = game.play(0, "draw stock")
    assert events == (
        DrewFromStock(0, C("4♣")),
        PlacedOnSpot(0, 4, C("4♣"), C("9♦")),
        PlacedOnSpot(0, 9, C("9♦"), C("Q♠")),
        Discarded(0, C("Q♠"), DiscardReason.QUEEN_OR_KING, 10),
    )
    assert [said(event, NAMES) for event in events] == [
        "Kari drew 4♣ from the stock.",
        "Kari put 4♣ on spot 4 and turned up 9♦.",
        "Kari put 9♦ on spot 9 and turned up Q♠.",
        "Kari discarded Q♠: queens and kings have no spot.",
    ]
    assert game.public_view().seats[0].spots[3:9] == (C("4♣"), None, None, None, None, C("9♦"))
    assert game.to_move == 1


def test_g6b_then_g6c_pip_card_sends_the_jack_on_to_a_face_down_spot() -> None:
    game = GarbageGame.from_position(["A♥ 2♥ 3♥ J♦ 8♣ 6♥ 7♥ 9♣ 10♦ 4♥", OTHER], face_up=[[1, 2, 3, 4], []],
                                     stock="4♣")  # fmt: skip
    events = game.play(0, "draw stock")
    assert events[-1] == JackDisplaced(0, 4, C("4♣"), C("J♦"))
    assert game.to_move == 0 and game.public_view().seats[0].pending == C("J♦")
    assert game.legal_moves(0) == tuple(PlaceJack(spot) for spot in range(5, 11))
    events = game.play(0, "jack 10")
    assert events[0] == JackPlaced(0, 10, C("J♦"), C("4♥"))
    assert events[1] == Discarded(0, C("4♥"), DiscardReason.SPOT_FILLED, 10)
    assert game.public_view().seats[0].spots[3] == C("4♣")


def test_g6b_jack_moves_on_by_itself_when_one_spot_is_face_down() -> None:
    game = position(layouts=["A♥ 2♥ 3♥ 4♦ 5♥ 6♥ 7♥ 8♥ J♦ 10♥", OTHER], face_up=[[1, 2, 3, 5, 6, 7, 8, 9, 10], []],
                    stock="9♣")  # fmt: skip
    events = game.play(0, "draw stock")
    assert events[1:4] == (
        JackDisplaced(0, 9, C("9♣"), C("J♦")),
        JackPlaced(0, 4, C("J♦"), C("4♦")),
        HandWon(0, 1, C("4♦"), (9, 10), game_won=False),
    )


def test_g6c_a_drawn_jack_waits_for_a_choice_of_face_down_spot() -> None:
    game = GarbageGame.from_position(["A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥", OTHER], face_up=[[1, 4, 5, 6, 8], []],
                                     stock="J♣")  # fmt: skip
    assert game.play(0, "draw stock") == (DrewFromStock(0, C("J♣")),)
    assert game.legal_moves(0) == (PlaceJack(2), PlaceJack(3), PlaceJack(7))
    assert game.legal_moves(1) == ()
    assert game.auto_move(0) == PlaceJack(2)
    assert label(game, PlaceJack(7)) == "Put the Jack on spot 7"
    before = game.to_dict()
    for text, reason in [
        ("jack 4", Message("garbage.refused.spot-face-up", {"spot": 4})),
        ("jack 9", Message("garbage.refused.spot-beyond-layout", {"spot": 9, "layout": Count(8, "spot")})),
        ("draw stock", Message("garbage.refused.choose-spot-first", {"card": C("J♣"), "choices": JACKS_2_3_7})),
    ]:
        with pytest.raises(IllegalMoveError) as refused:
            game.play(0, text)
        assert refused.value.message == reason
    assert refusal(refused.value) == "First choose a face-down spot for J♣: jack 2, jack 3, jack 7."
    assert game.to_dict() == before
    assert game.play(0, "j 7")[0] == JackPlaced(0, 7, C("J♣"), C("7♥"))


@pytest.mark.parametrize(
    ("layout", "face_up", "drawn", "reason"),
    [
        (OTHER, [], "Q♥", DiscardReason.QUEEN_OR_KING),
        (OTHER, [], "K♥", DiscardReason.QUEEN_OR_KING),
        ("A♠ 2♠ 3♠ 4♠ 5♠", [], "6♦", DiscardReason.ABOVE_LAYOUT),
        (OTHER, [3], "3♦", DiscardReason.SPOT_FILLED),
    ],
)
def test_g6d_cards_that_cannot_be_placed_are_discarded_and_end_the_turn(
    layout: str, face_up: list[int], drawn: str, reason: DiscardReason
) -> None:
    game = GarbageGame.from_position([layout, ONE_DOWN], face_up=[face_up, ALL_BUT_4], stock=drawn)
    events = game.play(0, "stock")
    assert events[-1] == Discarded(0, C(drawn), reason, len(layout.split()))
    assert game.public_view().discard == (C(drawn),) and game.to_move == 1


# ----- G7 winning a hand, G9 next hand ------------------------------------------------------------------------


def test_g7_turning_up_the_last_spot_wins_the_hand_and_discards_the_card_in_hand() -> None:
    game = position(stock="4♣")
    events = game.play(0, "draw stock")
    assert events == (
        DrewFromStock(0, C("4♣")),
        PlacedOnSpot(0, 4, C("4♣"), C("9♦")),
        HandWon(0, 1, C("9♦"), (9, 10), game_won=False),
        NewHandDealt(2, (9, 10), first=0),
    )
    assert said(events[2], NAMES) == (
        "Kari filled every spot and wins hand 1; 9♦ goes to the discard pile. Layouts now: Kari 9 spots, Ola 10 spots."
    )
    assert said(events[3], NAMES) == "Hand 2 is dealt: Kari 9 spots, Ola 10 spots. Kari plays first."


def test_g7_a_jack_on_the_last_face_down_spot_wins_the_hand() -> None:
    events = position(stock="J♥").play(0, "draw stock")
    assert events[1:3] == (JackPlaced(0, 4, C("J♥"), C("9♦")), HandWon(0, 1, C("9♦"), (9, 10), game_won=False))


def test_g9_next_hand_gathers_every_card_and_deals_the_new_sizes() -> None:
    game = position(layouts=[ONE_DOWN, OTHER, OTHER.replace("♠", "♣")], face_up=[ALL_BUT_4, [], []], stock="4♦",
                    hands_won=[0, 0, 0], hand_number=3)  # fmt: skip
    game.play(0, "draw stock")
    view = game.public_view()
    assert view.hand_number == 4 and view.discard == ()
    assert [seat.spots for seat in view.seats] == [(None,) * 9, (None,) * 10, (None,) * 10]
    assert view.stock_size == 104 - 29
    assert card_codes(game) == full_decks(3)
    assert [seat.hands_won for seat in view.seats] == [1, 0, 0]


# ----- G8 stock runs out --------------------------------------------------------------------------------------


def test_g8_empty_stock_reshuffles_the_discard_pile_except_its_top_card() -> None:
    game = position(stock="", discard="5♣ 6♣", rest="discard")
    assert game.public_view().stock_size == 0
    pile = game.public_view().discard_size
    events = game.play(0, "draw stock")
    assert events[0] == StockReshuffled(size=pile - 1)
    assert said(events[0], NAMES) == (
        f"The stock ran out: the discard pile under its top card ({pile - 1} cards) was shuffled into a new stock."
    )
    assert isinstance(events[1], DrewFromStock)
    assert game.public_view().discard[0] == C("5♣")
    assert card_codes(game) == full_decks(2)


def test_g8_a_stock_that_ran_out_leaves_taking_the_discard_open() -> None:
    game = position(stock="", discard="4♣", rest="discard")
    assert game.legal_moves(0) == (DrawStock(), DrawDiscard())
    assert game.play(0, "draw discard")[0] == TookDiscard(0, C("4♣"))


# ----- G10 game end -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("drawn", ["A♠", "J♥"])
def test_g10_filling_the_single_ace_spot_wins_the_game(drawn: str) -> None:
    game = GarbageGame.from_position(["5♦", "2♣ 3♣"], stock=drawn)
    events = game.play(0, "draw stock")
    assert events[-2] == HandWon(0, 1, C("5♦"), (0, 2), game_won=True)
    assert events[-1] == GameOver(places=(1, 2), scores=(10, 8), label=Message("garbage.hands-won"))
    assert said(events[-1], NAMES) == "Game over: Kari wins; hands won: Kari 10, Ola 8."
    assert game.to_move is None and game.legal_moves(0) == ()
    assert outcome_of(game).winners == (0,) and outcome_of(game).scores == (10, 8)
    assert game.public_view().discard_top == C("5♦")
    with pytest.raises(GameOverError) as refused:
        game.play(1, "draw stock")
    assert refused.value.message.id == "refused.game-over"


def test_g10_with_house_rule_start_size_one_the_first_hand_ends_the_game() -> None:
    game = GarbageGame.from_position(["5♦", "2♣", "3♣"], stock="A♦", settings=GarbageSettings(start_size=1))
    game.play(0, "draw stock")
    assert outcome_of(game).places == (1, 2, 2)


# ----- G11 what each player may see ---------------------------------------------------------------------------


def test_g11_views_show_face_up_cards_and_never_a_face_down_card_or_the_stock() -> None:
    game = GarbageGame.from_position(["A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥", OTHER], face_up=[[1, 4], []], stock="J♣",
                                     discard="9♣ K♦")  # fmt: skip
    game.play(0, "draw stock")
    view = game.view(0)
    assert view.public.seats[0].spots == (C("A♥"), None, None, C("4♥"), None, None, None, None)
    assert view.public.seats[0].pending == C("J♣") and view.public.seats[1].spots == (None,) * 10
    assert view.public.discard == (C("K♦"), C("9♣")) and view.public.stock_size == 52 - 18 - 3
    assert view.legal_moves == (PlaceJack(2), PlaceJack(3), PlaceJack(5), PlaceJack(6), PlaceJack(7), PlaceJack(8))
    hidden = hidden_cards(game)
    assert len(hidden) == 6 + 10 + view.public.stock_size
    shown = cards_in(view) + cards_in(game.public_view()) + cards_in(game.view(1))
    assert shown and not set(shown) & hidden


def test_g11_views_walk_finds_planted_cards() -> None:
    # The leak check above must be able to fail: a face-down card put into a view is found.
    game = GarbageGame.new(2, seed=9)
    hidden = hidden_cards(game)
    leaked = dataclasses.replace(game.public_view(), discard=(next(iter(hidden)),))
    assert set(cards_in(leaked)) & hidden


# ----- B1 determinism, B2 conservation, B3 illegal moves -------------------------------------------------------


def play_randomly(game: GarbageGame, moves: int, pick: int = 0) -> list[tuple[int, str]]:
    log = []
    for step in range(moves):
        if game.to_move is None:
            break
        seat = game.to_move
        legal = game.legal_moves(seat)
        move = legal[(step * 7 + pick) % len(legal)]
        log.append((seat, str(move)))
        game.apply(seat, move)
    return log


@pytest.mark.parametrize("players", [2, 4, 6])
def test_b1_replay_of_seed_settings_and_moves_gives_the_same_state(players: int) -> None:
    settings = GarbageSettings(start_size=3)
    game = GarbageGame.new(players, seed=11, settings=settings)
    log = play_randomly(game, 300)
    assert GarbageGame.replay(players, 11, settings, log) == game
    assert GarbageGame.replay(players, 11, settings.to_dict(), log).to_dict() == game.to_dict()
    assert GarbageGame.new(players, seed=12, settings=settings) != GarbageGame.new(players, seed=11, settings=settings)


def test_b1_snapshot_round_trips_through_json() -> None:
    game = GarbageGame.new(5, seed=13, settings=GarbageSettings(start_size=2))
    play_randomly(game, 40, pick=1)
    data = json.loads(json.dumps(game.to_dict()))
    assert data["schema"] == 1
    assert GarbageGame.from_dict(data) == game
    with pytest.raises(ValueError, match="schema"):
        GarbageGame.from_dict({**data, "schema": 2})
    with pytest.raises(ValueError, match="not a readable Garbage snapshot"):
        GarbageGame.from_dict({key: value for key, value in data.items() if key != "stock"})
    with pytest.raises(ValueError, match="exactly once"):
        GarbageGame.from_dict({**data, "stock": data["stock"][1:]})
    with pytest.raises(ValueError, match="exactly once"):
        GarbageGame.from_dict({**data, "stock": [*data["stock"][1:], data["layouts"][0][0]]})


@pytest.mark.parametrize("players", [2, 3, 5])
def test_b2_every_card_is_in_exactly_one_place_through_a_whole_game(players: int) -> None:
    game = GarbageGame.new(players, seed=14, settings=GarbageSettings(start_size=2))
    expected = full_decks(players)
    while game.to_move is not None:
        play_randomly(game, 1, pick=game.move_count)
        assert card_codes(game) == expected


def test_b3_illegal_moves_are_refused_with_a_reason_and_change_nothing() -> None:
    game = position(stock="K♦")
    before = game.to_dict()
    cases: list[tuple[int, Any, type[GameError], Message]] = [
        (1, DrawStock(), NotYourTurnError, Message("refused.not-your-turn")),
        (0, DrawDiscard(), IllegalMoveError, Message("garbage.refused.discard-empty")),
        (0, PlaceJack(4), IllegalMoveError, Message("garbage.refused.no-jack")),
        (2, DrawStock(), IllegalMoveError, Message("refused.no-such-seat", {"seat": 2})),
        (0, "draw stock", InvalidMoveError, Message("garbage.refused.not-a-garbage-move", {"move": "'draw stock'"})),
    ]
    for seat, move, error, reason in cases:
        with pytest.raises(error) as refused:
            game.apply(seat, move)
        assert refused.value.message == reason
        assert game.to_dict() == before


def test_b3_parse_move_checks_the_position_too() -> None:
    game = position()
    refused: pytest.ExceptionInfo[GameError]
    with pytest.raises(InvalidMoveError) as refused:
        game.parse_move(0, "draw a card")
    assert refused.value.message == Message("garbage.refused.not-a-move", {"text": "draw a card"})
    with pytest.raises(IllegalMoveError) as refused:
        game.parse_move(0, "jack 4")
    assert refused.value.message.id == "garbage.refused.no-jack"
    assert game.parse_move(0, "Draw Stock") == DrawStock()


# ----- resigning ----------------------------------------------------------------------------------------------


def test_resign_by_a_seat_out_of_turn_then_its_turns_are_played_automatically() -> None:
    game = position(layouts=[ONE_DOWN, OTHER, OTHER.replace("♠", "♣")], face_up=[ALL_BUT_4, [], []],
                    stock="K♦ Q♦ 5♦")  # fmt: skip
    assert game.play(2, "resign") == (Resigned(2),)
    assert game.to_move == 0 and game.move_count == 1
    game.play(0, "draw stock")  # K♦ discarded
    events = game.play(1, "draw stock")  # Q♦ discarded, then seat 2's turn runs automatically
    assert events[2:4] == (AutoPlayed(2, DrawStock(), Message("garbage.move-draw-stock")), DrewFromStock(2, C("5♦")))
    assert said(events[2], NAMES) == "Per has resigned, so their turn is played for them: draw from the stock."
    assert game.to_move == 0 and game.move_count == 3
    refused: pytest.ExceptionInfo[GameError]
    with pytest.raises(NotYourTurnError) as refused:
        game.apply(2, DrawStock())
    assert refused.value.message.id == "refused.resigned-turns-played"
    with pytest.raises(IllegalMoveError) as refused:
        game.apply(2, Resign())
    assert refused.value.message.id == "refused.already-resigned"


def test_resign_on_your_turn_with_a_jack_waiting_discards_it_and_passes_the_turn() -> None:
    game = GarbageGame.from_position(["A♥ 2♥ 3♥", "A♠ 2♠ 3♠", "A♣ 2♣ 3♣"], stock="J♣ K♦",
                                     settings=GarbageSettings(start_size=3))  # fmt: skip
    game.play(0, "draw stock")
    events = game.play(0, "resign")
    assert events[:2] == (Resigned(0), Discarded(0, C("J♣"), DiscardReason.RESIGNED, 3))
    assert game.to_move == 1 and game.public_view().discard_top == C("J♣")
    assert card_codes(game) == full_decks(3)


def test_resign_leaving_one_player_ends_the_game_and_places_the_resigner_last() -> None:
    game = GarbageGame.new(2, seed=15)
    seat = game.to_move
    assert seat is not None
    events = game.play(seat, "resign")
    assert isinstance(events[-1], GameOver) and game.to_move is None
    assert isinstance(events[0], Resigned)
    winner = 1 - events[0].seat
    assert outcome_of(game).winners == (winner,)
    assert outcome_of(game).places[1 - winner] == 2


def test_resign_placings_put_later_resigners_above_earlier_ones() -> None:
    game = GarbageGame.from_position(["A♥ 2♥", "A♠ 2♠", "A♣ 2♣", "A♦ 2♦"], hands_won=[8, 8, 8, 8])
    for seat in (3, 1, 0):
        game.apply(seat, Resign())
    assert outcome_of(game).places == (2, 3, 1, 4)


def test_resign_a_resigned_seat_places_below_players_still_in_however_many_hands_it_won() -> None:
    game = GarbageGame.from_position(["5♦", "2♣ 3♣", "2♥ 3♥", "4♠"], resigned=[3], stock="A♠")
    game.play(0, "draw stock")  # G10: seat 0 wins; seats 1 and 2 tie on 8 hands; seat 3 resigned with 9
    assert game.outcome() == Outcome(places=(1, 2, 2, 4), scores=(10, 8, 8, 9))


def test_resign_when_the_game_ends_with_a_jack_waiting_keeps_every_card() -> None:
    game = GarbageGame.from_position(["A♥ 2♥ 3♥", "A♠ 2♠ 3♠"], stock="J♣", settings=GarbageSettings(start_size=3))
    game.play(0, "draw stock")
    events = game.play(1, "resign")
    assert events[1] == Discarded(0, C("J♣"), DiscardReason.GAME_OVER, 3)
    assert card_codes(game) == full_decks(2) and outcome_of(game).places == (1, 2)


# ----- positions, settings, notation in context ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"layouts": [ONE_DOWN, ONE_DOWN]}, "appears twice"),
        ({"layouts": [ONE_DOWN, "A♠#1 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠"]}, "not in this game's 1 deck"),
        ({"face_up": [[4], []]}, "spot 4 of seat 0 is face up with 9♦"),
        ({"face_up": [list(range(1, 11)), []], "layouts": ["A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ J♥", OTHER]}, "already won"),
        ({"pending": "Q♣"}, "pending must be a Jack"),
        ({"to_move": 1, "resigned": [1]}, "must not have resigned"),
        ({"rest": "hand"}, "rest must be"),
    ],
)
def test_from_position_refuses_impossible_positions(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        position(**kwargs)


def test_from_position_multi_deck_copies_are_written_with_their_deck() -> None:
    game = GarbageGame.from_position([ONE_DOWN, "9♦#1 2♠ 3♠", "9♦#2 2♣ 3♣", "4♠ 5♠", "4♣ 5♣"],
                                     face_up=[ALL_BUT_4, [], [], [], []])  # fmt: skip
    assert card_codes(game) == full_decks(5)
    assert C("9♦#2") in {C(code) for code in game.to_dict()["layouts"][2]}


def test_settings_round_trip_and_defaults() -> None:
    assert GarbageGame.settings_from_dict(None) == GarbageSettings() == GarbageSettings(start_size=10)
    assert GarbageSettings.from_dict(GarbageSettings(start_size=3).to_dict()) == GarbageSettings(start_size=3)
    with pytest.raises(ValueError, match="unknown Garbage settings: speed"):
        GarbageSettings.from_dict({"speed": 2})


def test_describe_move_in_words() -> None:
    game = position()
    assert [label(game, move) for move in (DrawStock(), DrawDiscard(), PlaceJack(7), Resign())] == [
        "Draw from the stock",
        "Take the top card of the discard pile",
        "Put the Jack on spot 7",
        "Resign",
    ]


def test_auto_move_draws_from_the_stock_and_refuses_out_of_turn() -> None:
    game = position()
    assert game.auto_move(0) == DrawStock()
    with pytest.raises(NotYourTurnError):
        game.auto_move(1)


def test_refusals_are_game_errors_the_bot_can_show() -> None:
    game = position()
    with pytest.raises(GameError) as refused:
        game.play(1, "stock")
    assert refused.value.message == Message("refused.not-your-turn")
    assert refusal(refused.value) == "It is not your turn."
    assert str(refused.value) == "refused.not-your-turn"  # for logs: the id and parameters, no words


def test_docstring_examples_run() -> None:
    for module in (engine.garbage.game, engine.garbage.moves):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0

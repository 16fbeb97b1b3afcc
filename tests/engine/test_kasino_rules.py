"""Kasino rules K1-K12 (moves and their legality), each test named after the rule it proves."""

from collections.abc import Sequence
from typing import Any

import pytest

from engine.cards import Card, new_deck, parse_cards
from engine.errors import GameError, IllegalMoveError
from engine.kasino import KasinoGame
from engine.kasino.events import BuildMade, BuildRaised, CardPlaced, CardsTaken, Doubled, Swept
from engine.kasino.moves import Build, Double, Place, Raise, Take
from engine.kasino.positions import CardsSpec
from engine.kasino.table import TableItem, hand_value, table_value
from tests.said import refusal


def card(text: str) -> Card:
    return Card.parse(text)


def cards(text: str) -> set[Card]:
    return set(parse_cards(text))


def position(hands: Sequence[CardsSpec], table: Sequence[Any] = (), **kwargs: Any) -> KasinoGame:
    kwargs.setdefault("to_move", 0)
    return KasinoGame.from_position(hands, table, **kwargs)


def notations(game: KasinoGame, seat: int = 0) -> list[str]:
    return [str(move) for move in game.legal_moves(seat)]


def takes(game: KasinoGame, seat: int = 0, hand_card: str | None = None) -> set[frozenset[str]]:
    return {
        frozenset(map(str, move.targets))
        for move in game.legal_moves(seat)
        if isinstance(move, Take) and (hand_card is None or str(move.card) == hand_card)
    }


def item_at(game: KasinoGame, key: str) -> TableItem:
    return next(item for item in game.public_view().table if str(item.key) == key)


def refused(game: KasinoGame, seat: int, text: str, reason: str, said: str | None = None) -> None:
    """The move is refused with the message `kasino.refused.<reason>` (in English `said`, if given); nothing changes."""
    before = game.to_dict()
    with pytest.raises(IllegalMoveError) as refusing:
        game.play(seat, text)
    assert refusing.value.message.id == f"kasino.refused.{reason}"
    assert said is None or refusal(refusing.value) == said
    assert game.to_dict() == before


# --- K1 Players and cards ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_k1_two_to_four_players_share_one_deck(players: int) -> None:
    game = KasinoGame.new(players, seed=11)
    assert game.players == players
    state = game.to_dict()
    dealt = [code for hand in state["hands"] for code in hand] + state["stock"]
    dealt += [code for item in state["table"] for code in item["cards"]]
    assert sorted(dealt) == sorted(card.code for card in new_deck())


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_k1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        KasinoGame.new(players, seed=1)


# --- K2 Card values ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "on_table", "from_hand"),
    [("A♠", 1, 14), ("A♦", 1, 14), ("2♠", 2, 15), ("2♥", 2, 2), ("10♦", 10, 16), ("10♣", 10, 10),
     ("7♥", 7, 7), ("J♣", 11, 11), ("Q♦", 12, 12), ("K♠", 13, 13)],
)  # fmt: skip
def test_k2_card_values_on_the_table_and_from_the_hand(text: str, on_table: int, from_hand: int) -> None:
    assert table_value(card(text)) == on_table
    assert hand_value(card(text)) == from_hand


def test_k2_hand_ace_takes_sums_of_14_but_not_a_table_ace() -> None:
    game = position(["A♠ 3♣", "4♣"], ["K♦", "A♥", "Q♣", "2♦", "9♥"])
    assert takes(game, hand_card="A♠") == {
        frozenset({"K♦", "A♥"}), frozenset({"Q♣", "2♦"}), frozenset({"K♦", "A♥", "Q♣", "2♦"})
    }  # fmt: skip


def test_k2_a_15_build_is_taken_only_by_little_casino() -> None:
    table = [{"build": "10♣ 5♥", "owner": 1}]
    with_little = position(["2♠ 5♣", "4♣"], table)
    assert takes(with_little) == {frozenset({"10♣"})}
    assert str(with_little.parse_move(0, "2s take 15")) == "2♠ take 10♣"
    refused(position(["2♥ 5♣", "4♣"], table), 0, "2h take 10c", "build-needs-value")


def test_k2_a_16_build_is_taken_only_by_big_casino() -> None:
    game = position(["10♦ 10♥", "4♣"], [{"build": "9♣ 7♥", "owner": 1}])
    assert takes(game) == {frozenset({"9♣"})}
    assert takes(game, hand_card="10♥") == set()


# --- K3 Deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_k3_four_cards_each_then_redeal_from_the_stock(players: int, deals: int) -> None:
    game = KasinoGame.new(players, seed=5)
    view = game.public_view()
    assert [seat.hand_size for seat in view.seats] == [4] * players
    assert len(view.table) == 4
    assert view.stock == 52 - 4 * players - 4
    redeals = 0
    while game.public_view().round == 1:
        seat = game.to_move
        assert seat is not None
        events = game.apply(seat, game.auto_move(seat))
        redeals += sum(type(event).__name__ == "CardsDealt" for event in events)
        if game.public_view().round == 1 and any(type(event).__name__ == "CardsDealt" for event in events):
            after = game.public_view()
            assert [seat.hand_size for seat in after.seats] == [4] * players
            assert sum(len(item.cards) for item in after.table) == 4 + 4 * players * redeals
    assert redeals == deals - 1


def test_k3_no_new_cards_go_to_the_table_on_a_redeal() -> None:
    game = position(["5♥", "6♣"], ["K♣"], to_move=1, dealer=0, stock="2♥ 3♥ 4♥ 7♥ 8♥ 9♥ J♥ Q♥")
    game.play(1, "6c place")
    events = game.play(0, "5h place")
    assert [type(event).__name__ for event in events] == ["CardPlaced", "CardsDealt"]
    view = game.public_view()
    assert [item.key for item in view.table] == [card("K♣"), card("6♣"), card("5♥")]
    assert view.stock == 0
    assert [seat.hand_size for seat in view.seats] == [4, 4]
    assert game.view(1).hand == tuple(parse_cards("2♥ 3♥ 4♥ 7♥"))  # the seat after the dealer is dealt first


# --- K4 Order ---------------------------------------------------------------------------------


def test_k4_the_seat_after_the_dealer_leads_and_play_passes_seat_by_seat() -> None:
    game = KasinoGame.new(4, seed=3)
    dealer = game.public_view().dealer
    order = []
    for _ in range(8):
        seat = game.to_move
        assert seat is not None
        order.append(seat)
        game.apply(seat, game.auto_move(seat))
    assert order == [(dealer + 1 + step) % 4 for step in range(8)]


def test_k4_the_dealer_moves_one_seat_each_round() -> None:
    game = KasinoGame.new(3, seed=8)
    dealers = [game.public_view().dealer]
    while game.public_view().round < 4 and game.to_move is not None:
        seat = game.to_move
        game.apply(seat, game.legal_moves(seat)[0])
        if game.public_view().round > len(dealers):
            dealers.append(game.public_view().dealer)
            assert game.to_move == (dealers[-1] + 1) % 3
    assert dealers == [(dealers[0] + step) % 3 for step in range(len(dealers))]
    assert len(dealers) >= 2


def test_k4_the_first_dealer_is_drawn_from_the_seed() -> None:
    dealers = {KasinoGame.new(4, seed).public_view().dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert KasinoGame.new(4, 99).public_view().dealer == KasinoGame.new(4, 99).public_view().dealer


# --- K5 A turn --------------------------------------------------------------------------------


def test_k5_every_action_plays_exactly_one_hand_card() -> None:
    game = position(["5♥ 2♠ 7♦ 8♠", "K♣"], ["10♣", "7♣", "3♦", "5♦"])
    for move in game.legal_moves(0):
        trial = KasinoGame.from_dict(game.to_dict())
        trial.apply(0, move)
        assert len(trial.view(0).hand) == 3
        assert move.card not in trial.view(0).hand


@pytest.mark.parametrize("text", ["pass", "5h pass", "5h", ""])
def test_k5_passing_is_not_a_move(text: str) -> None:
    game = position(["5♥", "K♣"], ["10♣"])
    with pytest.raises(GameError):
        game.play(0, text)


# --- K6 Take ----------------------------------------------------------------------------------


def test_k6_example_5h_takes_3d_ah_as() -> None:
    game = position(["5♥", "K♣"], ["8♣", "3♦", "A♥", "A♠"])
    assert takes(game) == {frozenset({"3♦", "A♥", "A♠"})}
    events = game.play(0, "5♥ take 3♦+A♥+A♠")
    assert events[0] == CardsTaken(0, card("5♥"), tuple(parse_cards("3♦ A♥ A♠")))
    assert [str(item.key) for item in game.public_view().table] == ["8♣"]
    assert game.public_view().seats[0].captured == 4


def test_k6_example_8s_takes_8c_or_5d_3h_or_all_three() -> None:
    game = position(["8♠", "K♣"], ["8♣", "5♦", "3♥"])
    assert takes(game) == {frozenset({"8♣"}), frozenset({"5♦", "3♥"}), frozenset({"8♣", "5♦", "3♥"})}
    assert "8♠ take 8♣ | 5♦+3♥" in notations(game)
    game.play(0, "8♠ take 8♣ | 5♦+3♥")
    assert game.public_view().table == ()
    assert game.public_view().seats[0].captured == 4


def test_k6_one_set_of_items_is_one_move_however_it_is_grouped() -> None:
    game = position(["8♠", "K♣"], ["8♣", "5♦", "3♥"])
    listed = [move for move in game.legal_moves(0) if isinstance(move, Take) and len(move.targets) == 3]
    assert len(listed) == 1
    assert game.parse_move(0, "8s take 5d+3h | 8c") == listed[0]
    assert game.parse_move(0, "8s take 3h 8c 5d") == listed[0]


def test_k6_a_build_is_taken_only_as_a_group_of_its_own() -> None:
    game = position(["9♠ 4♥", "K♣"], [{"build": "4♦ 5♠", "owner": 1}, "6♣", "3♥", "7♦", "2♣"])
    assert takes(game, hand_card="9♠") == {
        frozenset(keys) for keys in (
            {"4♦"}, {"6♣", "3♥"}, {"7♦", "2♣"}, {"4♦", "6♣", "3♥"}, {"4♦", "7♦", "2♣"},
            {"6♣", "3♥", "7♦", "2♣"}, {"4♦", "6♣", "3♥", "7♦", "2♣"},
        )
    }  # fmt: skip
    refused(
        position(["9♠", "K♣"], [{"build": "4♦ 2♠", "owner": 1}, "3♥"]),
        0,
        "9s take 4d+3h",
        "build-needs-value",
    )


def test_k6_a_pile_is_taken_whole_like_a_loose_card_of_its_value() -> None:
    game = position(["9♥", "K♣"], ["7♣ 7♦", "2♦"])
    events = game.play(0, "9h take 7d+2d")  # any card of the pile names it
    assert isinstance(events[0], CardsTaken)
    assert events[0].taken == tuple(parse_cards("7♣ 7♦ 2♦"))


def test_k6_taking_is_never_compulsory() -> None:
    game = position(["8♠", "K♣"], ["8♣"])
    assert "8♠ place" in notations(game)
    game.play(0, "8s place")
    assert len(game.public_view().table) == 2


def test_k6_a_take_needs_exact_sums() -> None:
    refused(position(["8♠", "K♣"], ["5♦", "2♥"]), 0, "8s take 5d+2h", "cannot-split")
    refused(position(["8♠", "K♣"], ["8♣", "5♦"]), 0, "8s take 8c+5d", "cannot-split")


# --- K7 Build ---------------------------------------------------------------------------------


def test_k7_example_5h_builds_15_on_10c_with_2s_in_hand() -> None:
    game = position(["5♥ 2♠", "K♣"], ["10♣"])
    assert "5♥ build 10♣" in notations(game)
    events = game.play(0, "5h build 10c")
    assert events[0] == BuildMade(0, card("5♥"), (card("10♣"),), 15)
    build = item_at(game, "10♣")
    assert (build.kind, build.value, build.owner, build.contributors) == ("build", 15, 0, (0,))


def test_k7_example_5h_build_on_10c_is_illegal_without_2s() -> None:
    game = position(["5♥ 3♠", "K♣"], ["10♣"])
    assert "5♥ build 10♣" not in notations(game)
    refused(
        game,
        0,
        "5h build 10c",
        "build-no-capturer",
        "After building 15 you would hold no card worth 15 from the hand.",
    )


def test_k7_a_player_owns_at_most_one_build() -> None:
    game = position(["5♥ 9♠ 3♦ 8♥", "K♣"], ["4♣", {"build": "A♦ 4♦", "owner": 0}])
    assert not any(isinstance(move, Build) for move in game.legal_moves(0))
    refused(game, 0, "5h build 4c", "already-own-build", "You already own a build (5).")


def test_k7_a_build_can_be_made_on_a_pile() -> None:
    game = position(["3♥ 10♠", "K♣"], ["7♣ 7♦"])
    game.play(0, "3h build 7c")
    build = item_at(game, "7♣")
    assert (build.kind, build.value, build.cards) == ("build", 10, tuple(parse_cards("7♣ 7♦ 3♥")))


def test_k7_only_loose_cards_and_piles_can_be_built_on() -> None:
    refused(position(["2♥ 9♠", "K♣"], [{"build": "4♦ 3♠", "owner": 1}]), 0, "2h build 4d", "part-of-build")


# --- K8 Raise ---------------------------------------------------------------------------------


def test_k8_raising_another_players_build_takes_it_over() -> None:
    game = position(["3♣ 9♠", "K♣"], [{"build": "4♦ 2♥", "owner": 1}])
    assert "3♣ raise 4♦" in notations(game)
    events = game.play(0, "3c raise 6")
    assert events[0] == BuildRaised(0, card("3♣"), 1, 6, 9)
    build = item_at(game, "4♦")
    assert (build.value, build.owner, build.contributors) == (9, 0, (0, 1))


def test_k8_an_owner_cannot_raise_their_own_build() -> None:
    refused(position(["3♣ 9♠", "K♣"], [{"build": "4♦ 2♥", "owner": 0}]), 0, "3c raise 4d", "raise-own-build")


def test_k8_a_doubled_build_cannot_be_raised() -> None:
    table = [{"build": "4♦ 2♥ 6♣", "owner": 1, "value": 6, "doubled": True}]
    refused(position(["3♣ 9♠", "K♣"], table), 0, "3c raise 4d", "build-doubled")


def test_k8_each_player_adds_at_most_one_card_to_a_build() -> None:
    table = [{"build": "4♦ 2♥ A♣", "owner": 1, "contributors": [0, 1]}]
    refused(position(["3♣ 10♠", "K♣"], table), 0, "3c raise 4d", "already-added")


def test_k8_raising_needs_no_other_own_build_and_a_capturing_card() -> None:
    table = [{"build": "4♦ 2♥", "owner": 1}, {"build": "A♠ 2♣", "owner": 0}]
    refused(
        position(["3♣ 9♠ 3♦", "K♣"], table),
        0,
        "3c raise 4d",
        "already-own-build",
        "You already own a build (3).",
    )
    refused(
        position(["3♣ 8♠", "K♣"], ["J♥", {"build": "4♦ 2♥", "owner": 1}]),
        0,
        "3c raise 4d",
        "raise-no-capturer",
    )


# --- K9 Double a card or pile -----------------------------------------------------------------


def test_k9_example_7d_doubles_7c_then_a_7_takes_both() -> None:
    game = position(["7♦ 9♠", "7♥ K♣"], ["7♣", "2♦"])
    events = game.play(0, "7♦ double 7♣")
    assert events[0] == Doubled(0, card("7♦"), "loose", (card("7♣"),), 7)
    pile = item_at(game, "7♣")
    assert (pile.kind, pile.value, pile.cards, pile.owner) == ("pile", 7, tuple(parse_cards("7♣ 7♦")), None)
    game.play(1, "7h take 7c")
    assert game.public_view().seats[1].captured == 3


def test_k9_example_then_a_9_takes_the_pile_and_the_2() -> None:
    game = position(["7♦ 9♠", "K♥ K♣"], ["7♣", "2♦"])
    game.play(0, "7♦ double 7♣")
    game.play(1, "kh place")
    assert "9♠ take 7♣+2♦" in notations(game)
    events = game.play(0, "9♠ take 7♣+2♦")
    assert isinstance(events[0], CardsTaken)
    assert set(events[0].taken) == cards("7♣ 7♦ 2♦")


def test_k9_doubling_needs_no_capturing_card_and_a_pile_can_grow() -> None:
    game = position(["7♦ 9♠", "7♥ K♣"], ["7♣ 7♠"])
    game.play(0, "7d double 7s")
    assert item_at(game, "7♣").cards == tuple(parse_cards("7♣ 7♠ 7♦"))


def test_k9_a_double_needs_equal_values() -> None:
    refused(position(["8♦ 9♠", "K♣"], ["7♣"]), 0, "8d double 7c", "double-unequal")


# --- K10 Double a build -----------------------------------------------------------------------


def test_k10_doubling_your_own_build() -> None:
    game = position(["9♦ 9♠ 3♣", "K♣"], [{"build": "4♦ 5♠", "owner": 0}])
    events = game.play(0, "9d double 4d")
    assert events[0] == Doubled(0, card("9♦"), "build", tuple(parse_cards("4♦ 5♠")), 9, 0)
    build = item_at(game, "4♦")
    assert (build.value, build.owner, build.doubled) == (9, 0, True)


def test_k10_doubling_another_players_build_takes_it_over_and_it_may_be_doubled_again() -> None:
    game = position(["9♦ 9♠ 3♣", "9♥ 9♣ K♣"], [{"build": "4♦ 5♠", "owner": 1}])
    game.play(0, "9d double 9")
    assert (item_at(game, "4♦").owner, item_at(game, "4♦").doubled) == (0, True)
    assert not any(isinstance(move, Raise) for move in game.legal_moves(1))
    game.play(1, "9h double 4d")
    assert item_at(game, "4♦").owner == 1
    assert item_at(game, "4♦").contributors == (0, 1)


def test_k10_doubling_needs_a_capturing_card_and_no_other_own_build() -> None:
    table = [{"build": "4♦ 5♠", "owner": 1}]
    refused(position(["9♦ 3♣", "K♣"], table), 0, "9d double 4d", "double-no-capturer")
    table.append({"build": "A♠ 2♣", "owner": 0})
    refused(
        position(["9♦ 9♠ 3♣", "K♣"], table),
        0,
        "9d double 4d",
        "already-own-build",
        "You already own a build (3).",
    )


# --- K11 Place --------------------------------------------------------------------------------


def test_k11_placing_is_always_allowed() -> None:
    game = position(["5♥ 2♠ 8♠ A♦", "K♣"], ["10♣", "3♦", "8♣", {"build": "4♦ 5♠", "owner": 0}])
    for hand_card in ["5♥", "2♠", "8♠", "A♦"]:
        assert f"{hand_card} place" in notations(game)
    assert game.play(0, "ad place")[0] == CardPlaced(0, card("A♦"))


def test_k11_on_an_empty_table_placing_is_the_only_action() -> None:
    game = position(["5♥ 2♠ 8♠ A♦", "K♣"], [])
    assert all(isinstance(move, Place) for move in game.legal_moves(0))
    assert len(game.legal_moves(0)) == 4


# --- K12 Sweep --------------------------------------------------------------------------------


def test_k12_a_take_that_clears_the_table_is_a_sweep() -> None:
    game = position(["5♥ K♠", "2♣ 3♣"], ["3♦", "2♥"])
    events = game.play(0, "5h take 3d+2h")
    assert events[-1] == Swept(0, 1)
    assert game.public_view().seats[0].sweeps == 1


def test_k12_the_very_last_play_of_a_round_is_no_sweep() -> None:
    game = position(["5♥", ""], ["3♦", "2♥"])
    events = game.play(0, "5h take 3d+2h")
    assert not any(isinstance(event, Swept) for event in events)
    last_round = game.public_view().last_round
    assert last_round is not None
    assert last_round[0].sweeps == 0


def test_k12_a_take_leaving_cards_is_no_sweep() -> None:
    game = position(["5♥ K♠", "2♣ 3♣"], ["3♦", "2♥", "Q♦"])
    assert not any(isinstance(event, Swept) for event in game.play(0, "5h take 3d+2h"))


def test_k12_doubles_and_builds_never_sweep() -> None:
    game = position(["7♦ K♠", "2♣"], ["7♣"])
    assert not any(isinstance(event, Swept) for event in game.play(0, "7d double 7c"))
    assert game.public_view().seats[0].sweeps == 0


def test_k5_k9_legal_moves_list_doubles_builds_and_raises_for_every_target() -> None:
    game = position(["7♦ 9♠ 2♥", "K♣"], ["7♣", "2♦", {"build": "A♦ 3♠", "owner": 1}])
    listed = set(game.legal_moves(0))
    assert Double(card("7♦"), card("7♣")) in listed
    assert Build(card("7♦"), card("2♦")) in listed  # 7 + 2 = 9, 9♠ kept
    assert Build(card("2♥"), card("7♣")) in listed
    assert Raise(card("2♥"), card("A♦")) not in listed  # 4 + 2 = 6: no 6 in hand
    assert Raise(card("7♦"), card("A♦")) not in listed  # 11: no J
    assert len(listed) == len(game.legal_moves(0))

"""Garbage's house rules GV1–GV5 (RULES.md "House rules (variants)"): one test per rule id, named after it.

Exact positions (`from_position`) pin each rule's steps; whole games, random and between computer players, play the
last turn (GV4) and Kings wild with Jokers (GV1 + GV2) to the end, checking conservation (B2, Jokers counted), replay
(B1), snapshots, and that no view or event shows a hidden card (G11). Games with the default settings play exactly
as before the house rules (the fingerprints below were taken with the code before them).
"""

import hashlib
import json
import random
from collections import Counter
from typing import Any, cast

import pytest

from ai.arena import play_game
from engine.base import AnyGame
from engine.cards import BLACK_JOKER, JOKER, KING, WHITE_JOKER, Card, new_deck, new_decks
from engine.errors import IllegalMoveError
from engine.garbage import (
    Discarded,
    DiscardReason,
    DrawDiscard,
    DrawStock,
    GameOver,
    GarbageGame,
    GarbageSettings,
    HandWon,
    JackDisplaced,
    JackPlaced,
    NewHandDealt,
    PlaceJack,
    Resign,
)
from engine.garbage.events import AlsoWon, LastTurns, LastTurnsOver
from engine.garbage.kind import KIND
from engine.garbage.moves import GarbageDecision
from engine.kasino import KasinoGame
from engine.kinds import value_key
from engine.message import Message
from i18n import LOCALES, render_message
from i18n.catalog import load
from tests.ai.conftest import make_player
from tests.engine.test_garbage import cards_in, hidden_cards
from tests.outcome import outcome_of
from tests.said import label, refusal, said

C = Card.parse
NAMES = ["Kari", "Ola", "Per", "Siri", "Tor", "Una"]
KINGS = GarbageSettings(wild_rank="king")
KINGS_AND_JOKERS = GarbageSettings(wild_rank="king", jokers=True)
LAST_TURN = GarbageSettings(last_turn=True)


def codes(game: GarbageGame) -> list[str]:
    """Every card the state holds, wherever it is (for B2)."""
    state = game.to_dict()
    found = [code for spots in state["layouts"] for code in spots] + state["stock"] + state["discard"]
    return sorted(found + ([state["pending"]] if state["pending"] else []))


def expected_codes(game: GarbageGame) -> list[str]:
    """B2: the cards of the game's decks, Jokers included when the decks bring them."""
    decks = game.public_view().decks
    return sorted(card.code for card in new_decks(decks, jokers=game.settings.jokers))


def check_whole_game(game: GarbageGame, log: list[tuple[int, str]], events_seen: list[Any]) -> None:
    """At the end: B1 replay equals the game, and the JSON snapshot restores every field."""
    assert GarbageGame.replay(game.players, game.seed, game.settings.to_dict(), log) == game
    restored = GarbageGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert {slot: getattr(restored, slot) for slot in GarbageGame.__slots__} == {
        slot: getattr(game, slot) for slot in GarbageGame.__slots__
    }
    assert game.outcome() is not None and 1 in outcome_of(game).places
    assert events_seen and isinstance(events_seen[-1], GameOver)


def play_random(players: int, seed: int, settings: GarbageSettings, resign_rate: float = 0.0) -> tuple[Any, ...]:
    """A random game to its end, checked at every move: B2 (Jokers counted), G11 views and events, snapshots."""
    game = GarbageGame.new(players, seed, settings)
    rng = random.Random(seed)
    expected = expected_codes(game)
    log: list[tuple[int, str]] = []
    events_seen: list[Any] = []
    while game.to_move is not None:
        assert game.move_count < 20_000, "the game did not end"
        still_in = [seat for seat in range(players) if seat not in game.to_dict()["resigned"]]
        move: GarbageDecision | Resign
        if rng.random() < resign_rate and len(still_in) > 2:
            seat, move = rng.choice(still_in), Resign()
        else:
            seat = game.to_move
            move = rng.choice(game.legal_moves(seat))
        events = game.apply(seat, move)
        log.append((seat, str(move)))
        events_seen += events
        assert codes(game) == expected  # B2
        hidden = hidden_cards(game)
        assert hidden == set(game.hidden_cards())
        shown = cards_in(game.public_view()) + [card for one in range(players) for card in cards_in(game.view(one))]
        assert not set(shown) & hidden  # G11: no face-down card, no stock card, in any view
        if not any(isinstance(event, NewHandDealt) for event in events):
            assert not set(cards_in(events)) & hidden
        if game.move_count % 37 == 0 and game.to_move is not None:
            # A snapshot taken mid-game reads back to the same game (mid last turns too).
            assert GarbageGame.from_dict(json.loads(json.dumps(game.to_dict()))) == game
    check_whole_game(game, log, events_seen)
    return game, events_seen


# ----- the interface: KIND.house_rules, settings, stored games ---------------------------------------------------


def test_every_house_rule_is_a_setting_with_its_specified_default() -> None:
    rules = {rule.rule_id: rule for rule in KIND.house_rules}
    assert list(rules) == ["GV1", "GV2", "GV3", "GV4", "GV5"]
    defaults = GarbageSettings()
    assert [(rule.setting, rule.default) for rule in KIND.house_rules] == [
        ("wild_rank", "jack"),
        ("jokers", False),
        ("start_size", 10),
        ("last_turn", False),
        ("decks", 0),
    ]
    for rule in KIND.house_rules:
        assert getattr(defaults, rule.setting) == rule.default
        assert rule.default in rule.values
        for value in rule.values:
            assert rule.check(value) == value
            GarbageSettings(**{rule.setting: cast(Any, value)})  # every value the lobby offers is a valid setting


@pytest.mark.parametrize("locale", LOCALES)
def test_every_house_rule_and_value_has_its_words_in_every_language(locale: str) -> None:
    entries = load(locale).entries
    for rule in KIND.house_rules:
        base = f"garbage.rule.{rule.setting}"
        assert base in entries, (locale, base)
        for value in rule.values:
            assert f"{base}.{value_key(value)}" in entries, (locale, value)
            assert f"{base}.{value_key(value)}.rules" in entries, (locale, value)


def test_stored_settings_and_snapshots_from_before_the_house_rules_still_load_and_replay() -> None:
    # A game stored before issue 26 has only `start_size` in its settings, and its snapshot the keys it had then.
    game = GarbageGame.new(3, seed=21, settings={"start_size": 4})
    log = []
    for _ in range(30):
        seat = game.to_move
        assert seat is not None
        move = game.legal_moves(seat)[-1]
        game.apply(seat, move)
        log.append((seat, str(move)))
    stored = json.loads(json.dumps(game.to_dict()))
    stored["settings"] = {"start_size": 4}
    assert "first" not in stored and "finishers" not in stored  # default games write what they wrote before
    assert GarbageGame.from_dict(stored) == game
    assert GarbageGame.replay(3, 21, {"start_size": 4}, log) == game
    assert GarbageGame.settings_from_dict({"start_size": 4}) == GarbageSettings(start_size=4)


# Taken with the code before the house rules: seed, seats, layout, every move chosen at random from the seed, then
# the final snapshot (its settings left out: they now list the house rules too) and every event.
FINGERPRINTS = {
    (2, 1, 3): ("a93ceee74f4e7c20", 26),
    (3, 2, 2): ("ae72b81bdb29ab87", 81),
    (4, 3, 2): ("b06f719d30e3961c", 36),
    (6, 4, 1): ("e4a6212ca4804711", 7),
    (2, 5, 10): ("e926b80a81fad111", 378),
}


@pytest.mark.parametrize(("players", "seed", "size"), list(FINGERPRINTS))
def test_default_settings_play_exactly_as_before_the_house_rules(players: int, seed: int, size: int) -> None:
    game = GarbageGame.new(players, seed, GarbageSettings(start_size=size))
    rng = random.Random(seed)
    told = []
    while game.to_move is not None:
        seat = game.to_move
        told.append(repr(game.apply(seat, rng.choice(game.legal_moves(seat)))))
    state = game.to_dict()
    state.pop("settings")
    text = json.dumps(state, sort_keys=True, ensure_ascii=False) + "".join(told)
    assert (hashlib.sha256(text.encode()).hexdigest()[:16], game.move_count) == FINGERPRINTS[players, seed, size]


@pytest.mark.parametrize(
    "bad",
    [{"wild_rank": "queen"}, {"jokers": 1}, {"last_turn": "yes"}, {"decks": 4}, {"decks": True}, {"wild": "king"}],
)
def test_settings_outside_the_house_rules_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        GarbageSettings.from_dict(bad)


# ----- GV1 wild rank ---------------------------------------------------------------------------------------------


def test_gv1_kings_wild_a_king_plays_every_jack_rule_and_jacks_are_dead() -> None:
    # G6c: a drawn King waits for a spot; placing it turns up the card there.
    game = GarbageGame.from_position(["A♥ 9♦ 3♥ 7♣", "A♠ 2♠ 3♠ 4♠"], face_up=[[1, 3], []], stock="K♣ J♦",
                                     settings=GarbageSettings(start_size=4, wild_rank="king"))  # fmt: skip
    events = game.play(0, "draw stock")
    assert game.legal_moves(0) == (PlaceJack(2), PlaceJack(4))
    assert said(events[-1], NAMES) == "Kari drew K♣ from the stock."
    assert label(game, PlaceJack(2)) == "Put the King on spot 2"
    events = game.play(0, "king 2")  # typed as the King it is; the move is written `jack 2`
    assert events[0] == JackPlaced(0, 2, C("K♣"), C("9♦"))
    # The 9 has no spot in four: discarded. Then a Jack is no wild card: a court card without a spot (G6d).
    assert events[-1] == Discarded(0, C("9♦"), DiscardReason.ABOVE_LAYOUT, 4)
    game.play(1, "draw stock")
    assert game.to_dict()["discard"][-1] == "J♦"
    # G6b: a 2 takes its spot from the King, which moves on to the last face-down spot by itself.
    game = GarbageGame.from_position(["A♥ K♣ 3♥ 7♣", "A♠ 2♠ 3♠ 4♠"], face_up=[[1, 2, 3], []], stock="2♦",
                                     settings=GarbageSettings(start_size=4, wild_rank="king"))  # fmt: skip
    events = game.play(0, "draw stock")
    assert events[1] == JackDisplaced(0, 2, C("2♦"), C("K♣"))
    assert events[2] == JackPlaced(0, 4, C("K♣"), C("7♣"))
    assert isinstance(events[-2], HandWon) and isinstance(events[-1], NewHandDealt)


def test_gv1_kings_wild_a_drawn_jack_goes_to_the_discard_pile_as_a_court_card() -> None:
    game = GarbageGame.from_position(["A♥ 9♦ 3♥", "A♠ 2♠ 3♠"], stock="J♣", settings=GarbageSettings(start_size=3,
                                     wild_rank="king"))  # fmt: skip
    events = game.play(0, "draw stock")
    assert events[-1] == Discarded(0, C("J♣"), DiscardReason.JACK_OR_QUEEN, 3)
    assert said(events[-1], NAMES) == "Kari discarded J♣: jacks and queens have no spot."
    # The refusal of a spot choice names the King.
    game = GarbageGame.from_position(["A♥ 9♦ 3♥", "A♠ 2♠ 3♠"], stock="5♣", settings=GarbageSettings(start_size=3,
                                     wild_rank="king"))  # fmt: skip
    with pytest.raises(IllegalMoveError) as refused:
        game.play(0, "jack 2")
    assert refusal(refused.value) == "You have no King to place; draw from the stock or take from the discard pile."


def test_gv1_kings_wild_a_king_fills_the_single_ace_spot_and_wins_the_game() -> None:
    game = GarbageGame.from_position(["7♦", "2♣", "3♣"], stock="K♥", settings=GarbageSettings(start_size=1,
                                     wild_rank="king"))  # fmt: skip
    events = game.play(0, "draw stock")
    assert events[1] == JackPlaced(0, 1, C("K♥"), C("7♦"))
    assert events[-2] == HandWon(0, 1, C("7♦"), (0, 1, 1), game_won=True)
    assert outcome_of(game).places == (1, 2, 2)


def test_gv1_kings_wild_a_face_up_jack_is_not_a_position_play_could_reach() -> None:
    with pytest.raises(ValueError, match="only a 2 or a wild card"):
        GarbageGame.from_position(["A♥ J♦ 3♥", "A♠ 2♠ 3♠"], face_up=[[2], []], settings=GarbageSettings(start_size=3,
                                  wild_rank="king"))  # fmt: skip
    with pytest.raises(ValueError, match="pending must be a Jack"):
        GarbageGame.from_position(["A♥ 9♦ 3♥", "A♠ 2♠ 3♠"], pending="J♦", settings=GarbageSettings(start_size=3,
                                  wild_rank="king"))  # fmt: skip


# ----- GV2 Jokers ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_gv2_each_deck_brings_two_jokers_and_b2_counts_them(players: int, decks: int) -> None:
    game = GarbageGame.new(players, seed=7, settings={"jokers": True})
    found = [C(code) for code in codes(game)]
    assert len(found) == 54 * decks == len(set(found))
    jokers = sorted(card for card in found if card.is_joker)
    assert jokers == sorted(Card(JOKER, suit, deck) for deck in range(decks) for suit in (BLACK_JOKER, WHITE_JOKER))
    assert Counter(card.deck for card in found) == dict.fromkeys(range(decks), 54)
    # A snapshot without its Jokers, or with Jokers the settings do not bring, breaks B2.
    state = game.to_dict()
    state["stock"] = [code for code in state["stock"] if not C(code).is_joker]
    with pytest.raises(ValueError, match="B2"):
        GarbageGame.from_dict(state)
    plain = GarbageGame.new(players, seed=7).to_dict()
    plain["stock"][0] = "🃏"
    with pytest.raises(ValueError, match="B2"):
        GarbageGame.from_dict(plain)


@pytest.mark.parametrize("settings", [GarbageSettings(start_size=4, jokers=True), GarbageSettings(start_size=4,
                         wild_rank="king", jokers=True)], ids=["jacks", "kings"])  # fmt: skip
def test_gv2_a_joker_is_wild_exactly_like_the_wild_rank(settings: GarbageSettings) -> None:
    game = GarbageGame.from_position(["A♥ 9♦ 3♥ 7♣", "A♠ 2♠ 3♠ 4♠"], face_up=[[1, 3], []], stock="🃟 2♦",
                                     settings=settings)  # fmt: skip
    game.play(0, "draw stock")
    assert game.public_view().seats[0].pending == Card(JOKER, WHITE_JOKER)
    assert label(game, PlaceJack(4)) == "Put the Joker on spot 4"
    events = game.play(0, "joker 4")
    assert events[0] == JackPlaced(0, 4, Card(JOKER, WHITE_JOKER), C("7♣"))
    assert said(events[0], NAMES) == "Kari put Joker on spot 4 and turned up 7♣."
    # G6b: a 4 takes its spot from a face-up Joker, which moves on to the last face-down spot and fills the layout.
    game = GarbageGame.from_position(["A♥ 9♦ 3♥ 🃏", "A♠ 2♠ 3♠ 4♠"], face_up=[[1, 3, 4], []], stock="4♦",
                                     settings=settings)  # fmt: skip
    events = game.play(0, "draw stock")
    assert events[1] == JackDisplaced(0, 4, C("4♦"), C("🃏"))
    assert events[2] == JackPlaced(0, 2, C("🃏"), C("9♦"))
    assert isinstance(events[-2], HandWon) and isinstance(events[-1], NewHandDealt)
    with pytest.raises(IllegalMoveError) as refused:
        GarbageGame.from_position(["A♥ 9♦ 3♥ 7♣", "A♠ 2♠ 3♠ 4♠"], settings=settings).play(0, "jack 2")
    assert refusal(refused.value).startswith("You have no wild card to place")


def test_gv2_a_joker_is_a_card_kasino_never_deals_and_every_other_card_is_unchanged() -> None:
    joker = Card(JOKER, BLACK_JOKER, 2)
    assert (str(joker), joker.code, joker.rank_text) == ("🃏", "🃏#2", "Jo")
    for typed in ("🃏#2", "jo#2", "Joker#2", "JO#2"):
        assert Card.parse(typed) == joker and Card.from_code(typed) == joker
    assert Card.parse("jo2") == Card.parse("🃟") == Card(JOKER, WHITE_JOKER)
    assert json.loads(json.dumps(joker.code)) == "🃏#2"
    # Every card of the three decks keeps its text, code and order; the Jokers sort after them.
    old = new_decks(3)
    assert len(old) == 156 and not any(card.is_joker for card in old) and len(new_deck()) == 52
    assert [old[0].code, old[12].code, old[13].code, old[-1].code, str(old[-1])] == ["A♠", "K♠", "A♥", "K♣#2", "K♣"]
    assert sorted([*old, joker])[-1] == joker and sorted([*old, joker])[:-1] == sorted(old)
    assert sorted([Card(JOKER, WHITE_JOKER), Card(JOKER, BLACK_JOKER), C("K♣")]) == [C("K♣"), C("🃏"), C("🃟")]
    dealt = json.dumps(KasinoGame.new(4, seed=1).to_dict(), ensure_ascii=False)
    assert BLACK_JOKER not in dealt and WHITE_JOKER not in dealt


def test_gv1_gv2_kings_wild_with_jokers_random_games_to_the_end() -> None:
    """Whole games under GV1 Kings wild and GV2 Jokers: B2 with Jokers, B1 replay, snapshots, nothing hidden shown."""
    kings_placed = jokers_placed = jacks_discarded = 0
    for seed, players in enumerate([2, 3, 4, 5, 6, 2, 3]):
        settings = GarbageSettings(start_size=[2, 3, 1][seed % 3], wild_rank="king", jokers=True)
        _, events = play_random(players, seed, settings, resign_rate=0.003)
        kings_placed += sum(isinstance(event, JackPlaced) and event.card.rank == KING for event in events)
        jokers_placed += sum(isinstance(event, JackPlaced) and event.card.is_joker for event in events)
        jacks_discarded += sum(
            isinstance(event, Discarded) and event.reason is DiscardReason.JACK_OR_QUEEN and event.card.rank == 11
            for event in events
        )
    assert kings_placed and jokers_placed and jacks_discarded


@pytest.mark.parametrize("strength", ["easy", "medium", "hard"])
def test_gv1_gv2_kings_wild_with_jokers_computer_games_to_the_end(strength: str) -> None:
    for seed in range(2):
        players = [make_player("garbage", strength, seed + seat) for seat in range(3)]
        settings = GarbageSettings(start_size=3, wild_rank="king", jokers=True, decks=2)

        def legal(game: AnyGame, seat: int, move: Any) -> None:
            assert move in game.legal_moves(seat)

        result = play_game("garbage", players, seed, settings, on_move=legal)
        assert 1 in result.outcome.places


def test_gv1_gv2_computers_take_the_wild_cards_of_the_house_rules_and_decide_from_the_view_alone() -> None:
    def after_a_turn(discard: str, settings: GarbageSettings, stock: str) -> GarbageGame:
        # Kari to move, `discard` on top of the pile, spots 2, 4 and 5 face down.
        return GarbageGame.from_position(["A♥ 9♦ 3♥ 7♣ 6♦", "A♠ 2♠ 3♠ 4♠ 5♠"], face_up=[[1, 3], []],
                                         discard=discard, stock=stock, settings=settings)  # fmt: skip

    for strength in ("easy", "medium", "hard"):
        player = make_player("garbage", strength, 1)
        # A King is wild when Kings are: medium and hard take it; a Jack then is dead, and nobody takes it.
        if strength != "easy":
            assert player.choose(after_a_turn("K♦", KINGS_AND_JOKERS, "5♣ 8♣").view(0)) == DrawDiscard()
            assert player.choose(after_a_turn("🃏", KINGS_AND_JOKERS, "5♣ 8♣").view(0)) == DrawDiscard()
        assert player.choose(after_a_turn("J♦", KINGS_AND_JOKERS, "5♣ 8♣").view(0)) == DrawStock()
        # Two tables that differ only in face-down cards and the stock get the same decision.
        first = after_a_turn("K♦", KINGS_AND_JOKERS, "5♣ 8♣ 4♥ 🃟")
        second = GarbageGame.from_position(["A♥ 10♠ 3♥ 2♦ Q♠", "🃟 8♣ 5♣ 7♥ 9♠"], face_up=[[1, 3], []],
                                           discard="K♦", stock="4♥ 6♦ 7♣", settings=KINGS_AND_JOKERS)  # fmt: skip
        assert first.view(0) == second.view(0)
        for seed in range(3):
            one = make_player("garbage", strength, seed).choose(first.view(0))
            assert one == make_player("garbage", strength, seed).choose(second.view(0))


# ----- GV3 layout ------------------------------------------------------------------------------------------------


def test_gv3_layout_is_the_start_size_from_one_to_ten_and_size_stays_a_lobby_option() -> None:
    rule = next(rule for rule in KIND.house_rules if rule.rule_id == "GV3")
    assert (rule.setting, rule.default, sorted(rule.values)) == ("start_size", 10, list(range(1, 11)))
    assert [option.name for option in KIND.options] == ["size"] and KIND.options[0].setting == "start_size"
    for size in (1, 6, 10):
        game = GarbageGame.new(4, seed=size, settings={"start_size": size})
        assert [seat.layout_size for seat in game.public_view().seats] == [size] * 4


# ----- GV4 last turn ---------------------------------------------------------------------------------------------


def three_seats(**kwargs: Any) -> GarbageGame:
    """Three layouts of three spots; seat 0's spot 3 is its last face down (a 3 fills it), played first this hand."""
    kwargs.setdefault("face_up", [[1, 2], [], []])
    kwargs.setdefault("settings", GarbageSettings(start_size=3, last_turn=True))
    return GarbageGame.from_position(["A♥ 2♥ 9♦", "A♠ 5♠ 3♠", "Q♣ 2♣ 8♣"], **kwargs)


def test_gv4_last_turn_gives_each_seat_behind_the_finisher_one_more_turn() -> None:
    game = three_seats(stock="3♦ K♦ Q♥", to_move=0, first=0)
    events = game.play(0, "draw stock")
    assert events[-1] == LastTurns(0, 1, C("9♦"), (1, 2))
    assert said(events[-1], NAMES) == (
        "Kari filled every spot and wins hand 1; 9♦ goes to the discard pile. One last turn each for Ola and Per."
    )
    view = game.public_view()
    assert (view.to_move, view.finished, view.last_turns, view.seats[0].hands_won) == (1, (0,), (1, 2), 1)
    events = game.play(1, "draw stock")  # K♦: no spot
    assert game.public_view().last_turns == (2,)
    events = game.play(2, "draw stock")  # Q♥: no spot, and the last of the last turns
    assert events[-2] == LastTurnsOver(1, (0,), (2, 3, 3), ())
    assert said(events[-2], NAMES) == "The last turns are over: hand 1 goes to Kari. Layouts now: Kari 2 spots, " \
        "Ola 3 spots, Per 3 spots."  # fmt: skip
    assert events[-1] == NewHandDealt(2, (2, 3, 3), 0)
    assert game.to_move == 0 and game.public_view().finished == ()


def test_gv4_without_last_turn_or_with_nobody_behind_the_first_complete_layout_wins_at_once() -> None:
    game = three_seats(stock="3♦", settings=GarbageSettings(start_size=3))  # the default: G7
    assert isinstance(game.play(0, "draw stock")[-2], HandWon)
    # The last seat of the round finishes: everyone has had as many turns, so the hand ends as in G7.
    game = three_seats(stock="3♦", to_move=0, first=1)
    events = game.play(0, "draw stock")
    assert isinstance(events[-2], HandWon) and isinstance(events[-1], NewHandDealt)


def test_gv4_a_last_turn_that_fills_a_layout_wins_the_hand_too() -> None:
    game = three_seats(stock="3♦ 2♦ 5♥", face_up=[[1, 2], [1, 3], []], to_move=0, first=0)
    game.play(0, "draw stock")
    events = game.play(1, "draw stock")  # 2♦ fills Ola's last spot: 5♠ goes to the discard pile
    assert events[-1] == AlsoWon(1, 1, C("5♠"))
    assert said(events[-1], NAMES) == (
        "Ola filled every spot on the last turn and wins hand 1 too; 5♠ goes to the discard pile."
    )
    events = game.play(2, "draw stock")
    over = next(event for event in events if isinstance(event, LastTurnsOver))
    assert over == LastTurnsOver(1, (0, 1), (2, 2, 3), ())
    assert game.to_dict()["hands_won"] == [1, 1, 0] and game.to_move == 0  # the first to finish starts


def test_gv4_several_filling_their_ace_spot_share_the_win_of_the_game() -> None:
    settings = GarbageSettings(start_size=3, last_turn=True)
    game = GarbageGame.from_position(["9♦", "7♠", "2♣"], hands_won=[2, 2, 2], stock="A♦ J♠ 5♥", settings=settings)
    events = game.play(0, "draw stock")
    assert events[-1] == LastTurns(0, 1, C("9♦"), (1, 2))
    events = game.play(1, "draw stock")  # a Jack on the Ace spot
    assert events[-1] == AlsoWon(1, 1, C("7♠"))
    events = game.play(2, "draw stock")  # 5♥: Per's last turn ends without the Ace
    assert events[-2] == LastTurnsOver(1, (0, 1), (0, 0, 1), (0, 1))
    assert said(events[-2], NAMES) == (
        "The last turns are over: Kari and Ola filled their Ace spots and share the win of the game!"
    )
    assert isinstance(events[-1], GameOver) and game.is_over()
    assert outcome_of(game).places == (1, 1, 3) and outcome_of(game).winners == (0, 1)


def test_gv4_one_ace_spot_filled_and_the_last_turns_missing_it_wins_the_game_alone() -> None:
    settings = GarbageSettings(start_size=2, last_turn=True)
    game = GarbageGame.from_position(["9♦", "7♠"], hands_won=[1, 1], stock="A♦ 6♥", settings=settings)
    game.play(0, "draw stock")
    events = game.play(1, "draw stock")
    assert events[-2] == LastTurnsOver(1, (0,), (0, 1), (0,))
    assert said(events[-2], NAMES) == "The last turns are over: Kari wins the game!"
    assert outcome_of(game).places == (1, 2)


def test_gv4_last_turns_survive_a_snapshot_and_a_resignation() -> None:
    game = three_seats(stock="3♦ J♣ K♦ Q♥", to_move=0, first=0)
    game.play(0, "draw stock")
    state = json.loads(json.dumps(game.to_dict()))
    assert (state["first"], state["finishers"]) == (0, [0])
    assert GarbageGame.from_dict(state) == game
    game.play(1, "draw stock")  # J♣: Ola must choose a spot for it
    events = game.play(1, "resign")  # the Jack goes to the discard pile, and Per plays the last turn
    assert events[1] == Discarded(1, C("J♣"), DiscardReason.RESIGNED, 3)
    assert game.to_move == 2 and game.public_view().last_turns == (2,)
    events = game.play(2, "draw stock")
    assert any(isinstance(event, LastTurnsOver) for event in events) and game.hand_number == 2
    # A two-player game ended by a resignation during the last turns ends once, with one GameOver.
    game = GarbageGame.from_position(["A♥ 9♦", "A♠ 5♠ 3♠"], face_up=[[1], []], hands_won=[1, 0], stock="2♦ J♣",
                                     settings=GarbageSettings(start_size=3, last_turn=True))  # fmt: skip
    game.play(0, "draw stock")
    game.play(1, "draw stock")
    events = game.play(1, "resign")
    assert sum(isinstance(event, GameOver) for event in events) == 1 and game.is_over()
    assert codes(game) == expected_codes(game)


def test_gv4_last_turn_random_games_to_the_end_with_a_shared_win() -> None:
    """Whole games with the last turn: B1, B2, G11 at every move; some hands won by several, some games shared."""
    seen: Counter[str] = Counter()
    for seed in range(40):
        players = 2 + seed % 5
        settings = GarbageSettings(start_size=1 + seed % 3, last_turn=True, jokers=seed % 2 == 0)
        game, events = play_random(players, seed, settings, resign_rate=0.002 if seed % 4 == 3 else 0.0)
        seen["last turns"] += sum(isinstance(event, LastTurns) for event in events)
        seen["also won"] += sum(isinstance(event, AlsoWon) for event in events)
        over = [event for event in events if isinstance(event, LastTurnsOver)]
        if over and len(over[-1].game_winners) > 1:
            seen["shared"] += 1
            assert len(outcome_of(game).winners) == len(over[-1].game_winners)
    assert seen["last turns"] and seen["also won"] and seen["shared"], seen


@pytest.mark.parametrize("strength", ["easy", "medium", "hard"])
def test_gv4_last_turn_computer_games_to_the_end_with_a_shared_win(strength: str) -> None:
    """Computer players play whole games with the last turn, legally, until one of them ends in a shared win (G10)."""
    last_turns = 0
    shared = None
    for seed in range(60):
        seats = 2 + seed % 3
        players = [make_player("garbage", strength, seed + seat) for seat in range(seats)]
        settings = GarbageSettings(start_size=1 + seed % 2, last_turn=True)

        def legal(game: AnyGame, seat: int, move: Any) -> None:
            assert move in game.legal_moves(seat)
            nonlocal last_turns
            last_turns += bool(game.public_view().last_turns)

        result = play_game("garbage", players, seed, settings, on_move=legal)
        if len(result.outcome.winners) > 1:
            shared = seed
            break
    assert last_turns and shared is not None, "no computer game played a last turn, or none ended in a shared win"


# ----- GV5 decks -------------------------------------------------------------------------------------------------


def test_gv5_fixed_decks_are_refused_with_the_reason_where_the_stock_would_be_too_small() -> None:
    assert KIND.house_rules_fit is not None
    unfit = KIND.house_rules_fit(GarbageSettings(decks=1), 5)
    assert unfit is not None and unfit.id == "garbage.refused.too-few-decks"
    assert render_message(unfit, "en") == (
        "1 deck (52 cards) is too few for 5 players with 10 spots each: the first deal must leave at least 10 cards "
        "in the stock, so the game needs 60 cards. Choose more decks, a smaller layout or automatic decks."
    )
    for locale in LOCALES:
        words = render_message(unfit, locale)
        assert "{" not in words and "52" in words and "60" in words, (locale, words)
    with pytest.raises(ValueError, match="too-few-decks"):
        GarbageGame.new(5, seed=1, settings={"decks": 1})
    # The boundary: players × layout ≤ cards − 10, Jokers counted.
    assert KIND.house_rules_fit(GarbageSettings(decks=1, start_size=7), 6) is None  # 42 ≤ 52 − 10
    assert KIND.house_rules_fit(GarbageSettings(decks=1, start_size=8), 6) is not None  # 48 > 42
    assert KIND.house_rules_fit(GarbageSettings(decks=1, start_size=9), 5) is not None  # 45 > 42
    assert KIND.house_rules_fit(GarbageSettings(decks=1, start_size=9, jokers=True), 5) is not None  # 45 > 44
    assert KIND.house_rules_fit(GarbageSettings(decks=1, start_size=8, jokers=True), 5) is None  # 40 ≤ 44
    two = Message("garbage.refused.too-few-decks", {**unfit.params, "decks": 2})  # the plural form, said the same way
    assert render_message(two, "en").startswith("2 decks (52 cards) are too few for 5 players")


def test_gv5_automatic_decks_always_fit_and_fixed_decks_deal_that_many() -> None:
    assert KIND.house_rules_fit is not None
    for players in range(2, 7):
        for jokers in (False, True):
            assert KIND.house_rules_fit(GarbageSettings(jokers=jokers), players) is None
    assert KIND.house_rules_fit(GarbageSettings(decks=1), 1) is None  # a lobby still waiting for players
    for players, decks in [(2, 3), (6, 2), (4, 1)]:
        game = GarbageGame.new(players, seed=3, settings={"decks": decks, "jokers": decks == 2})
        assert game.public_view().decks == decks
        assert codes(game) == expected_codes(game)
        assert len(codes(game)) == decks * (54 if decks == 2 else 52)
    for players in (2, 4, 6):
        assert len(codes(GarbageGame.new(players, seed=3, settings={"decks": 0}))) == 52 * {2: 1, 4: 2, 6: 3}[players]


def test_gv5_fixed_decks_random_games_to_the_end() -> None:
    for seed, (players, decks) in enumerate([(2, 3), (6, 2), (3, 1), (4, 3)]):
        game, _ = play_random(players, seed, GarbageSettings(start_size=2, decks=decks, jokers=seed % 2 == 1))
        assert game.public_view().decks == decks


def test_house_rules_views_and_moves_in_words() -> None:
    game = GarbageGame.new(3, seed=4, settings=KINGS_AND_JOKERS)
    view = game.public_view()
    assert (view.wild_rank, view.jokers, view.decks, view.last_turn, view.first) == (KING, True, 2, False, None)
    assert view.is_wild(C("K♠")) and view.is_wild(C("🃟#1")) and not view.is_wild(C("J♠"))
    assert game.to_move is not None
    assert game.legal_moves(game.to_move) == (DrawStock(),)

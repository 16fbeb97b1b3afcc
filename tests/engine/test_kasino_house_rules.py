"""Kasino's house rules (RULES.md "House rules (variants)", KV1-KV5): one test or more per rule, named after it.

KV5 partnerships are also played as whole games, random and by the computer players: every card conserved (B2)
after every move, the log replays to the same state (B1), no hidden card in a view (K16), both partners sharing
the team's place.
"""

import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields, is_dataclass, replace
from typing import Any

import pytest

from ai.arena import play_game
from ai.players import player_for
from bench.random_play import random_moves
from engine.base import AnyGame, Outcome
from engine.cards import Card, new_deck
from engine.errors import IllegalMoveError, SettingError
from engine.kasino import Build, Double, KasinoGame, KasinoSettings, Place, Raise, Take
from engine.kasino.events import BuildRaised, CardsTaken, GameOver, Resigned, RoundEnded, Swept
from engine.kasino.kind import KIND
from engine.kasino.positions import CardsSpec
from engine.kasino.rules import illegal_reason
from engine.kinds import WholeNumber, value_key
from engine.message import Joined, Message, Seat
from i18n import say
from i18n.catalog import LOCALES
from tests.outcome import outcome_of
from tests.said import refusal, said

DECK = frozenset(new_deck())
PARTNERS = {"partnerships": True}


def card(text: str) -> Card:
    return Card.parse(text)


def position(hands: Sequence[CardsSpec], table: Sequence[Any] = (), **kwargs: Any) -> KasinoGame:
    kwargs.setdefault("to_move", 0)
    return KasinoGame.from_position(hands, table, **kwargs)


def round_end(events: Iterable[object]) -> RoundEnded:
    return next(event for event in events if isinstance(event, RoundEnded))


def state_cards(game: KasinoGame) -> list[Card]:
    state = game.to_dict()
    codes = [c for hand in state["hands"] for c in hand] + state["stock"] + state["set_aside"]
    codes += [c for item in state["table"] for c in item["cards"]] + [c for pile in state["captured"] for c in pile]
    return [Card.parse(code) for code in codes]


def cards_in(value: object) -> set[Card]:
    if isinstance(value, Card):
        return {value}
    if is_dataclass(value):
        return set().union(*(cards_in(getattr(value, field.name)) for field in fields(value)))
    if isinstance(value, tuple | list | set | frozenset):
        return set().union(*(cards_in(item) for item in value)) if value else set()
    return set()


# --- the kind: house rules the lobby offers --------------------------------------------------------------------


def test_house_rules_are_kv2_to_kv5_with_the_settings_defaults() -> None:
    defaults = KasinoSettings()
    assert [(rule.rule_id, rule.setting) for rule in KIND.house_rules] == [
        ("KV2", "sweeps"),
        ("KV2", "last_deal_sweeps"),
        ("KV3", "most_cards"),
        ("KV3", "most_spades"),
        ("KV4", "building"),
        ("KV5", "partnerships"),
    ]
    for rule in KIND.house_rules:
        assert rule.default == getattr(defaults, rule.setting)
        assert rule.default in rule.values
        for value in rule.values:  # every value makes settings a game accepts
            KasinoSettings.from_dict({rule.setting: value})


@pytest.mark.parametrize("locale", LOCALES)
def test_every_house_rule_and_value_has_its_words_in_every_locale(locale: str) -> None:
    for rule in KIND.house_rules:
        name = f"kasino.rule.{rule.setting}"
        assert say(locale, name) != name
        for value in rule.values:
            for key in (f"{name}.{value_key(value)}", f"{name}.{value_key(value)}.rules"):
                assert say(locale, key) != key, key


# --- KV1 Target --------------------------------------------------------------------------------------------------


def test_kv1_the_target_is_a_lobby_option_from_1_to_99_default_16() -> None:
    (option,) = KIND.options
    assert isinstance(option, WholeNumber)
    assert (option.setting, option.low, option.high, option.default) == ("target", 1, 99, 16)
    assert KasinoSettings().target == 16
    with pytest.raises(SettingError):
        option.check(100)


@pytest.mark.parametrize("target", [11, 16, 21])
def test_kv1_a_game_ends_after_the_round_that_reaches_the_target(target: int) -> None:
    game = KasinoGame.new(2, seed=target, settings={"target": target})
    events: list[Any] = []
    while game.to_move is not None:
        seat = game.to_move
        events += game.apply(seat, game.legal_moves(seat)[0])
    ends = [event for event in events if isinstance(event, RoundEnded)]
    for end in ends:
        totals = sorted(score.game_total for score in end.scores)
        decided = totals[-1] >= target and totals[-1] > totals[-2]
        assert decided == (end is ends[-1])  # K15: the game ends after the first round that decides it


# --- KV2 Sweeps --------------------------------------------------------------------------------------------------


def test_kv2_sweeps_count_by_default() -> None:
    assert (KasinoSettings().sweeps, KasinoSettings().last_deal_sweeps) == ("count", True)
    game = position(["K♥", ""], [], captured=["4♣", "5♣"], sweeps=[2, 0])
    ended = round_end(game.play(0, "kh place"))
    assert (ended.scores[0].sweeps, ended.scores[0].cancelled) == (2, 0)


def test_kv2_sweeps_off_score_nothing_and_the_sweep_is_said_not_to_score() -> None:
    game = position(["5♥ K♠", "2♣ 3♣"], ["3♦", "2♥"], stock="9♣ 9♦", settings={"sweeps": "off"})
    events = game.play(0, "5h take 3d+2h")
    assert events[-1] == Swept(0, 1, scored=False)
    assert said(events[-1].message(), NAMES) == (
        "Kari sweeps the table (sweep 1 this round; sweeps score nothing at this table)."
    )
    ended = round_end(position(["K♥", ""], [], captured=["4♣", "5♣"], sweeps=[2, 0],
                               settings={"sweeps": "off"}).play(0, "kh place"))  # fmt: skip
    assert [score.sweeps for score in ended.scores] == [0, 0]
    assert ended.scores[0].round_total == 0  # K♥ goes nowhere: nobody took anything this round


def test_kv2_cancel_takes_the_fewest_sweeps_from_every_player() -> None:
    settings = {"sweeps": "cancel"}
    game = position(["K♥", "", ""], [], captured=["4♣", "5♣", "6♣"], sweeps=[3, 1, 2], settings=settings)
    ended = round_end(game.play(0, "kh place"))
    assert [(score.sweeps, score.cancelled) for score in ended.scores] == [(2, 1), (0, 1), (1, 1)]
    two = position(["K♥", ""], [], captured=["4♣", "5♣"], sweeps=[1, 4], settings=settings)
    ended = round_end(two.play(0, "kh place"))
    assert [score.sweeps for score in ended.scores] == [0, 3]  # with two players only the difference scores


def test_kv2_cancel_leaves_out_a_resigned_player() -> None:
    game = position(["K♥ 3♦", "", "Q♣"], [], captured=["4♣", "5♣", "6♣"], sweeps=[3, 2, 0], to_move=2,
                    settings={"sweeps": "cancel"})  # fmt: skip
    game.play(2, "resign")  # its turn is played for it: it places Q♣
    ended = round_end(game.play(0, "kh place") + game.play(0, "3d place"))
    assert [score.sweeps for score in ended.scores] == [1, 0, 0]


def test_kv2_last_deal_off_a_take_that_empties_the_table_after_the_stock_is_empty_is_no_sweep() -> None:
    settings = {"last_deal_sweeps": False}
    game = position(["5♥ K♠", "2♣ 3♣"], ["3♦", "2♥"], settings=settings)  # the stock is empty: the last deal
    events = game.play(0, "5h take 3d+2h")
    assert not any(isinstance(event, Swept) for event in events)
    assert game.public_view().seats[0].sweeps == 0
    earlier = position(["5♥ K♠", "2♣ 3♣"], ["3♦", "2♥"], stock="9♣ 9♦ 8♣ 8♦", settings=settings)
    assert earlier.play(0, "5h take 3d+2h")[-1] == Swept(0, 1)  # a deal before the last still sweeps


def test_kv2_last_deal_on_a_sweep_in_the_last_deal_counts() -> None:
    game = position(["5♥ K♠", "2♣ 3♣"], ["3♦", "2♥"])
    assert game.play(0, "5h take 3d+2h")[-1] == Swept(0, 1)


def test_kv2_old_stored_boolean_sweeps_load_as_count_and_off() -> None:
    assert KasinoSettings.from_dict({"sweeps": True}) == KasinoSettings(sweeps="count")
    assert KasinoSettings.from_dict({"sweeps": False}) == KasinoSettings(sweeps="off")
    assert KasinoSettings.from_dict({"sweeps": False}).to_dict()["sweeps"] == "off"
    with pytest.raises(ValueError, match="sweeps must be one of"):
        KasinoSettings.from_dict({"sweeps": "sometimes"})


@pytest.mark.parametrize("old", [True, False])
def test_kv2_an_old_stored_game_loads_and_replays_identically(old: bool) -> None:
    """A game stored before KV2 (`"sweeps": true/false` in its settings and snapshot) is the same game (B1)."""
    game = KasinoGame.new(2, seed=41, settings={"sweeps": old})
    log: list[tuple[int, str]] = []
    for _ in range(30):
        seat = game.to_move
        assert seat is not None
        move = game.legal_moves(seat)[-1 if len(log) % 3 else 0]
        log.append((seat, str(move)))
        game.apply(seat, move)
    stored = json.loads(json.dumps(game.to_dict()))
    stored["settings"]["sweeps"] = old  # as the snapshot was written before KV2
    for score in stored["last_round"] or ():
        score.pop("cancelled")
    loaded = KasinoGame.from_dict(stored)
    replayed = KasinoGame.replay(2, 41, {"sweeps": old}, log)
    assert loaded == replayed == game
    assert loaded.settings.sweeps == ("count" if old else "off")


# --- KV3 Scoring table -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("most_cards", "most_spades"), [(1, 2), (2, 2), (3, 2), (1, 1), (3, 1)])
def test_kv3_most_cards_and_most_spades_score_the_chosen_points(most_cards: int, most_spades: int) -> None:
    settings = {"most_cards": most_cards, "most_spades": most_spades}
    game = position(["K♥", ""], [], captured=["A♠ 2♠ 3♠ 4♦", "5♣"], last_taker=1, settings=settings)
    first, second = round_end(game.play(0, "kh place")).scores
    assert (first.most_cards, first.most_spades) == (most_cards, most_spades)
    assert (second.most_cards, second.most_spades) == (0, 0)
    assert KasinoSettings.from_dict(settings).round_points() == 11 - 1 - 2 + most_cards + most_spades


def test_kv3_a_tie_still_scores_for_nobody() -> None:
    game = position(["K♥", ""], [], captured=["2♣ 3♠", "4♣ 5♠ 6♥"], last_taker=0, settings={"most_cards": 3})
    ended = round_end(game.play(0, "kh place"))
    assert [(score.most_cards, score.most_spades) for score in ended.scores] == [(0, 0), (0, 0)]


def test_kv3_without_sweeps_a_round_distributes_the_tables_points() -> None:
    settings = KasinoSettings(sweeps="off", most_cards=3, most_spades=1)
    game = KasinoGame.new(3, seed=8, settings=settings)
    events: list[Any] = []
    while not any(isinstance(event, RoundEnded) for event in events):
        seat = game.to_move
        assert seat is not None
        events += game.apply(seat, game.legal_moves(seat)[0])
    ended = round_end(events)
    cards = [score.cards for score in ended.scores]
    spades = [score.spades for score in ended.scores]
    tied = (cards.count(max(cards)) > 1) * 3 + (spades.count(max(spades)) > 1) * 1
    assert sum(score.round_total for score in ended.scores) == settings.round_points() - tied == 12 - tied


# --- KV4 Building ------------------------------------------------------------------------------------------------


def test_kv4_building_off_lists_only_takes_and_places() -> None:
    table = ["7♣", "2♦", "5♠"]
    on = position(["7♦ 9♠ 2♥", "K♣"], table)
    off = position(["7♦ 9♠ 2♥", "K♣"], table, settings={"building": False})
    assert any(isinstance(move, Build | Double) for move in on.legal_moves(0))
    assert all(isinstance(move, Take | Place) for move in off.legal_moves(0))
    assert [move for move in on.legal_moves(0) if isinstance(move, Take | Place)] == list(off.legal_moves(0))


@pytest.mark.parametrize("text", ["2h build 7c", "7d double 7c", "2h build 7"])
def test_kv4_building_off_refuses_every_build_raise_and_double_with_the_reason(text: str) -> None:
    game = position(["7♦ 9♠ 2♥", "K♣"], ["7♣", "2♦"], settings={"building": False})
    with pytest.raises(IllegalMoveError) as refused:
        game.play(0, text)
    assert refused.value.message.id == "kasino.refused.building-off"
    assert "Building is off at this table" in refusal(refused.value)
    before = game.to_dict()
    for move in (Build(card("2♥"), card("7♣")), Double(card("7♦"), card("7♣"))):
        with pytest.raises(IllegalMoveError, match="building-off"):
            game.apply(0, move)
        assert game.to_dict() == before
    reason = illegal_reason(0, [card("3♣"), card("9♠")], [], Raise(card("3♣"), card("6♦")), building=False)
    assert reason == Message("kasino.refused.building-off", {"card": card("3♣")})


def test_kv4_building_off_still_takes_several_groups_at_once() -> None:
    game = position(["8♠ K♣", "2♣"], ["8♣", "5♦", "3♥"], settings={"building": False})
    takes = {move.targets for move in game.legal_moves(0) if isinstance(move, Take)}
    assert frozenset({card("8♣"), card("5♦"), card("3♥")}) in takes
    events = game.play(0, "8s take 8c | 5d+3h")
    assert isinstance(events[0], CardsTaken) and len(events[0].taken) == 3


def test_kv4_a_table_with_a_build_is_refused_when_building_is_off() -> None:
    with pytest.raises(ValueError, match="KV4"):
        position(["9♠", "K♣"], [{"build": "4♦ 5♠", "owner": 1}], settings={"building": False})


@pytest.mark.parametrize("seed", range(4))
def test_kv4_whole_games_without_building_never_put_a_build_or_pile_on_the_table(seed: int) -> None:
    game = KasinoGame.new(2 + seed % 3, seed=seed, settings={"building": False, "target": 11})
    rng = random.Random(seed)
    for _ in random_moves(game, rng):
        assert all(item.kind == "loose" for item in game.public_view().table)
    assert sorted(state_cards(game), key=str) == sorted(DECK, key=str)


# --- KV5 Partnerships --------------------------------------------------------------------------------------------

NAMES = ["Kari", "Ola", "Nora", "Per"]


def test_kv5_partnerships_need_exactly_four_players() -> None:
    assert KIND.house_rules_fit is not None
    for players in (2, 3):
        with pytest.raises(ValueError, match="partnerships are for 4 players"):
            KasinoGame.new(players, seed=1, settings=PARTNERS)
        settings = KasinoSettings(partnerships=True)
        assert KIND.house_rules_fit(settings, players) == Message(
            "kasino.refused.partnerships-need-four", {"seats": players}
        )
    assert KIND.house_rules_fit(KasinoSettings(partnerships=True), 4) is None
    assert KIND.house_rules_fit(KasinoSettings(), 3) is None
    assert say("en", "kasino.refused.partnerships-need-four", seats=3) == (
        "Partnerships need exactly four players, not 3."
    )


def test_kv5_seats_1_and_3_play_against_seats_2_and_4() -> None:
    assert KasinoSettings(partnerships=True).teams(4) == ((0, 2), (1, 3))
    assert KasinoGame.new(4, seed=3, settings=PARTNERS).public_view().teams == ((0, 2), (1, 3))
    assert KasinoGame.new(4, seed=3).public_view().teams is None


def test_kv5_partners_pool_captures_and_sweeps_and_share_the_team_points() -> None:
    # Seat 0 alone has fewer cards and spades than seat 1, but with its partner (seat 2) the team has more.
    captured = ["A♠ 2♠ 3♣", "4♠ 5♠ 6♠ 7♣ 8♣", "9♠ 10♠ J♣ Q♣ 10♦", "K♣"]
    game = position(["K♥", "", "", ""], [], captured=captured, sweeps=[1, 2, 2, 0], last_taker=3,
                    settings=PARTNERS)  # fmt: skip
    ended = round_end(game.play(0, "kh place"))
    team, other = ended.scores[0], ended.scores[1]
    assert ended.teams == ((0, 2), (1, 3))
    assert (team.cards, team.spades, other.cards, other.spades) == (8, 4, 7, 3)
    assert (team.most_cards, team.most_spades, team.aces, team.little_casino, team.big_casino) == (1, 2, 1, 1, 2)
    assert (team.sweeps, other.sweeps, team.last_take, other.last_take) == (3, 2, 0, 1)
    assert ended.scores[2] == replace(team, seat=2) and ended.scores[3] == replace(other, seat=3)
    assert [score.game_total for score in ended.scores] == [10, 3, 10, 3]
    assert said(ended.message(), NAMES).endswith("points this round (total): Kari & Nora 10 (10), Ola & Per 3 (3).")


def test_kv5_kv2_cancel_compares_the_teams_sweeps() -> None:
    game = position(["K♥", "", "", ""], [], captured=["4♣", "5♣", "6♣", "7♣"], sweeps=[1, 2, 2, 0],
                    settings={"partnerships": True, "sweeps": "cancel"})  # fmt: skip
    ended = round_end(game.play(0, "kh place"))
    assert [(score.sweeps, score.cancelled) for score in ended.scores] == [(1, 2), (0, 2), (1, 2), (0, 2)]


def test_kv5_the_team_total_goes_to_the_target() -> None:
    # Each player's own points would not reach 16; the team's do.
    game = position(["K♥", "", "", ""], [], captured=["A♠ A♥ 2♠", "4♣", "A♦ A♣ 10♦ 3♠", "5♣"], last_taker=2,
                    scores=[8, 6, 8, 6], settings=PARTNERS)  # fmt: skip
    events = game.play(0, "kh place")
    assert game.is_over()
    assert game.outcome() == Outcome((1, 2, 1, 2), (19, 6, 19, 6), ((0, 2), (1, 3)))
    assert isinstance(events[-1], GameOver) and events[-1].places == (1, 2, 1, 2)


def test_kv5_a_team_tie_at_the_top_plays_another_round() -> None:
    # Kari & Nora score 5 (ace, 2♠, most spades, last take), Ola & Per 4 (two aces, 10♦): 19 all.
    game = position(["K♥", "", "", ""], [], captured=["A♠ 2♠ 3♠", "A♥ A♦ 10♦ 4♣", "", ""], last_taker=0,
                    scores=[14, 15, 14, 15], settings=PARTNERS)  # fmt: skip
    ended = round_end(game.play(0, "kh place"))
    assert [score.game_total for score in ended.scores] == [19, 19, 19, 19]
    assert not game.is_over()


def test_kv5_each_player_sees_only_their_own_hand() -> None:
    game = KasinoGame.new(4, seed=12, settings=PARTNERS)
    hands = game.to_dict()["hands"]
    for seat in range(4):
        partner = (seat + 2) % 4
        partner_cards = {Card.parse(code) for code in hands[partner]}
        assert partner_cards <= game.hidden_cards(seat)
        assert not cards_in(game.view(seat)) & partner_cards
    assert not cards_in(game.public_view()) & game.hidden_cards()


def test_kv5_a_partners_build_may_be_raised_or_taken_like_any_build() -> None:
    table = [{"build": "4♦ 5♠", "owner": 2}, "7♣"]
    game = position(["3♣ Q♥ 9♥", "K♣", "9♦ K♦", "K♠"], table, settings=PARTNERS)
    moves = game.legal_moves(0)
    assert Raise(card("3♣"), card("4♦")) in moves  # K8: the partner's build is "someone else's"
    assert any(isinstance(move, Take) and card("4♦") in move.targets for move in moves)
    events = game.play(0, "3c raise 4d")
    assert isinstance(events[0], BuildRaised) and events[0].previous_owner == 2
    assert game.public_view().table[0].owner == 0


def test_kv5_a_player_who_resigns_concedes_the_game_for_the_team() -> None:
    game = KasinoGame.new(4, seed=5, settings=PARTNERS)
    seat = game.to_move
    assert seat is not None
    events = game.apply(seat, game.resign_move())
    assert isinstance(events[0], Resigned) and isinstance(events[-1], GameOver)
    outcome = game.outcome()
    losers = (seat, (seat + 2) % 4)
    assert outcome is not None
    assert [outcome.places[s] for s in range(4)] == [2 if s in losers else 1 for s in range(4)]
    assert outcome.teams == ((0, 2), (1, 3))


def test_kv5_the_outcome_names_the_teams_and_round_trips() -> None:
    outcome = Outcome((1, 2, 1, 2), (17, 9, 17, 9), ((0, 2), (1, 3)))
    assert Outcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome
    assert Outcome.from_dict({"places": [1, 2], "scores": [3, 1]}).teams is None
    assert "teams" not in Outcome((1, 2), (3, 1)).to_dict()


def play_to_the_end(
    game: KasinoGame,
    choose: Callable[[KasinoGame, int], Any],
    check: Callable[[KasinoGame, Sequence[Any]], None] | None = None,
) -> list[tuple[int, str]]:
    log: list[tuple[int, str]] = []
    while game.to_move is not None:
        seat = game.to_move
        move = choose(game, seat)
        log.append((seat, str(move)))
        events = game.apply(seat, move)
        if check is not None:
            check(game, events)
    return log


def check_position(game: KasinoGame, events: Sequence[Any]) -> None:
    assert sorted(state_cards(game), key=str) == sorted(DECK, key=str)  # B2
    hidden = game.hidden_cards()
    assert not cards_in(game.public_view()) & hidden
    for seat in range(4):
        assert not cards_in(game.view(seat)) & game.hidden_cards(seat)
    if not any(isinstance(event, RoundEnded) for event in events):  # a round's end reveals every card (K16)
        assert not cards_in(events) & hidden
    totals = game.scores
    assert totals[0] == totals[2] and totals[1] == totals[3]


def check_result(game: KasinoGame, log: list[tuple[int, str]], settings: dict[str, Any]) -> None:
    outcome = outcome_of(game)
    assert outcome.teams == ((0, 2), (1, 3))
    assert outcome.places[0] == outcome.places[2] and outcome.places[1] == outcome.places[3]
    assert sorted({outcome.places[0], outcome.places[1]}) == [1, 2]
    winners = outcome.winners
    assert max(game.scores) >= settings["target"] and all(game.scores[s] == max(game.scores) for s in winners)
    replayed = KasinoGame.replay(4, game.seed, settings, log)  # B1
    assert replayed == game
    assert KasinoGame.from_dict(json.loads(json.dumps(game.to_dict()))) == game


@pytest.mark.parametrize(
    "variant",
    [{}, {"sweeps": "cancel"}, {"sweeps": "off", "building": False}, {"last_deal_sweeps": False, "most_cards": 3}],
    ids=["plain", "cancel", "off-no-building", "last-deal-off-most-cards-3"],
)
@pytest.mark.parametrize("seed", range(3))
def test_kv5_random_games_play_to_the_end_conserve_cards_replay_and_share_places(
    variant: dict[str, Any], seed: int
) -> None:
    settings = {"partnerships": True, "target": 21, **variant}
    game = KasinoGame.new(4, seed=seed, settings=settings)
    rng = random.Random(seed)
    log = play_to_the_end(game, lambda game, seat: rng.choice(game.legal_moves(seat)), check_position)
    check_result(game, log, settings)


@pytest.mark.parametrize(("strengths", "variant"), [
    (("easy", "medium"), {}),
    (("medium", "hard"), {"sweeps": "cancel"}),
    (("hard", "expert"), {"building": False}),
])  # fmt: skip
def test_kv5_computer_players_play_partnerships_to_the_end(strengths: tuple[str, str], variant: dict[str, Any]) -> None:
    settings = {"partnerships": True, "target": 11, **variant}
    budgets = {"hard": {"samples": 3}, "expert": {"samples": 3, "max_samples": 6}}
    players = [player_for("kasino", strengths[seat % 2], seat, **budgets.get(strengths[seat % 2], {}))
               for seat in range(4)]  # fmt: skip
    log: list[tuple[int, str]] = []

    def record(game: AnyGame, seat: int, move: Any) -> None:
        assert move in game.legal_moves(seat)
        log.append((seat, str(move)))

    result = play_game("kasino", players, 7, settings, record)
    assert result.outcome.teams == ((0, 2), (1, 3))
    places = result.outcome.places
    assert places[0] == places[2] and places[1] == places[3] and sorted({places[0], places[1]}) == [1, 2]
    replayed = KasinoGame.replay(4, 7, settings, log)
    assert replayed.outcome() == result.outcome


def test_kv5_the_round_message_names_each_team_once() -> None:
    game = position(["K♥", "", "", ""], [], captured=["A♠", "", "", ""], last_taker=0, settings=PARTNERS)
    ended = round_end(game.play(0, "kh place"))
    message = ended.message()
    points = message.params["points"]
    assert isinstance(points, Joined) and isinstance(points.items[0], Message)
    assert points.items[0].params["player"] == Message("kasino.team", {"first": Seat(0), "second": Seat(2)})
    assert len(points.items) == 2

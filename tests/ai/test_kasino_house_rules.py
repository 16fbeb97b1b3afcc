"""The computer players under Kasino's house rules (KV2-KV5): legal in every variant, scoring by the game's table.

They read the rules from their seat's view (its settings), so nothing here hands them the game.
"""

from collections.abc import Callable
from typing import Any

import pytest

from ai.arena import play_game
from ai.kasino_knowledge import knowledge_from
from ai.kasino_medium import score_move
from ai.kasino_outcome import GameContext, round_points
from ai.kasino_rollout import Deal
from ai.kasino_table_math import DEFAULT_SCORING, scoring_for
from ai.players import player_for
from engine.base import AnyGame
from engine.cards import Card
from engine.kasino import KasinoGame, KasinoSettings
from engine.kasino.moves import Take
from tests.ai.conftest import kind_strengths, make_player

PARTNERS = {"partnerships": True}


def card(text: str) -> Card:
    return Card.parse(text)


def sweep_score(settings: dict[str, Any], stock: str) -> float:
    game = KasinoGame.from_position(["5♥ K♠", "2♣ 3♣"], ["3♦", "2♥"], stock=stock, to_move=0, settings=settings)
    know = knowledge_from(game.view(0))
    sweep = next(move for move in game.legal_moves(0) if isinstance(move, Take))
    return score_move(know, sweep)


def test_kv2_a_sweep_is_worth_a_point_only_where_it_scores() -> None:
    stock = "9♣ 9♦ 8♣ 8♦"
    counted = sweep_score({}, stock)
    assert counted - sweep_score({"sweeps": "off"}, stock) == pytest.approx(1.0)
    assert sweep_score({"sweeps": "cancel"}, stock) == pytest.approx(counted)  # it still moves the margin a point
    # In the last deal (no stock) a sweep scores only with last-deal sweeps on.
    assert sweep_score({}, "") - sweep_score({"last_deal_sweeps": False}, "") == pytest.approx(1.0)


def test_kv3_cards_and_spades_are_worth_what_the_table_gives_most_cards_and_most_spades() -> None:
    default = DEFAULT_SCORING.worth
    richer = scoring_for(KasinoSettings(most_cards=3, most_spades=1)).worth
    assert richer[card("5♥")] == pytest.approx(3 * default[card("5♥")])
    spade_share = default[card("5♠")] - default[card("5♥")]
    assert richer[card("5♠")] - richer[card("5♥")] == pytest.approx(spade_share / 2)
    assert richer[card("10♦")] - richer[card("10♥")] == pytest.approx(2.0)  # big casino as before


def test_kv3_round_points_count_most_cards_by_the_table() -> None:
    tallies = [(30, 5, 0, 0), (22, 8, 0, 0)]
    settings = KasinoSettings(most_cards=3, most_spades=1)
    assert round_points(tallies, True, scoring=scoring_for(settings)) == [3, 1]
    assert round_points(tallies, True) == [1, 2]


@pytest.mark.parametrize("strength", kind_strengths("kasino"))
@pytest.mark.parametrize(
    "variant",
    [{"building": False}, {"sweeps": "off", "most_cards": 2}, {"sweeps": "cancel", "last_deal_sweeps": False}],
    ids=["no-building", "no-sweeps", "cancel"],
)
def test_kv2_kv3_kv4_every_strength_plays_every_variant_legally_to_the_end(
    strength: str, variant: dict[str, Any]
) -> None:
    settings = {"target": 6, **variant}
    players = [make_player("kasino", strength, seed) for seed in (1, 2)]

    def legal(game: AnyGame, seat: int, move: Any) -> None:
        assert move in game.legal_moves(seat)

    result = play_game("kasino", players, 3, settings, legal)
    assert result.outcome is not None


def partner_build_game(owner: int) -> KasinoGame:
    """Seat 0 holds 9♥, which takes the 9 build that `owner` made; 7♦ take 7♣ is its other good move."""
    table: list[Any] = [{"build": "4♦ 5♠", "owner": owner}, "7♣", "K♦"]
    hands = ["9♥ 7♦ 3♣ Q♠", "8♣ 2♥ 6♥ J♣", "9♣ A♦ 4♥ 5♥", "10♠ 6♣ 8♦ J♦"]
    return KasinoGame.from_position(hands, table, stock="2♣ 3♦ 4♣ 6♠ 7♠ 8♠", to_move=0, settings=PARTNERS)


def takes_the_build(move: object) -> bool:
    return isinstance(move, Take) and card("4♦") in move.targets


def test_kv5_medium_leaves_its_partners_build_and_takes_an_opponents() -> None:
    for seed in range(3):
        assert str(make_player("kasino", "medium", seed).choose(partner_build_game(2).view(0))) == "7♦ take 7♣"
        assert takes_the_build(make_player("kasino", "medium", seed).choose(partner_build_game(1).view(0)))


def test_kv5_hard_mostly_leaves_its_partners_build() -> None:
    game = partner_build_game(2)
    choices = [player_for("kasino", "hard", seed).choose(game.view(0)) for seed in range(6)]
    assert sum(takes_the_build(move) for move in choices) <= 1


def test_kv5_a_playout_counts_the_teams_margin() -> None:
    deal = Deal([[], [], [], []], [], 0, False, None, (False,) * 4, scoring_for(KasinoSettings(partnerships=True)))
    deal.gains = [1.0, 2.0, 1.5, 0.0]
    assert deal.margin(0) == pytest.approx(0.5)
    assert deal.margin(3) == pytest.approx(-0.5)
    alone = Deal([[], [], [], []], [], 0, False, None, (False,) * 4)
    alone.gains = [1.0, 2.0, 1.5, 0.0]
    assert alone.margin(0) == pytest.approx(-1.0)


def test_kv5_partners_get_their_teams_round_points_and_lead() -> None:
    scoring = scoring_for(KasinoSettings(partnerships=True))
    tallies = [(10, 2, 1, 0), (12, 5, 0, 1), (15, 4, 2, 0), (5, 1, 0, 0)]
    points = round_points(tallies, True, scoring=scoring)
    # Pooled: 25 cards and 6 spades against 17 and 6: most cards to the first team, spades tied.
    assert points[0] == points[2] == 3 + 1 and points[1] == points[3] == 1
    context = GameContext((4, 6, 4, 6), 16, teams=True)
    assert context.utility(points, 0, True) == context.utility(points, 2, True)
    assert context.utility(points, 0, False) > context.utility(points, 1, False)


def test_kv5_the_players_read_the_partnership_from_the_view() -> None:
    game = KasinoGame.new(4, seed=2, settings=PARTNERS)
    assert game.to_move is not None
    know = knowledge_from(game.view(game.to_move))
    assert know.scoring.teams and know.partner() == (game.to_move + 2) % 4


@pytest.mark.parametrize("strength", kind_strengths("kasino"))
def test_kv5_a_seeded_partnership_match_replays_move_for_move(strength: str) -> None:
    def record(log: list[tuple[int, str]]) -> Callable[[Any, int, Any], None]:
        return lambda game, seat, move: log.append((seat, str(move)))

    settings = {"partnerships": True, "target": 6}
    logs: list[list[tuple[int, str]]] = [[], []]
    for log in logs:
        players = [make_player("kasino", strength, seed) for seed in (1, 2, 3, 4)]
        play_game("kasino", players, 4, settings, record(log))
    assert logs[0] == logs[1]
    assert KasinoGame.replay(4, 4, settings, logs[0]).outcome() is not None

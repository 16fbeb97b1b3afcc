"""The duplicate measure's parts: players from their specs, the round replayed from a decision, the pairing."""

from typing import Any

from ai.base import SampledSearch
from bench.bench_kasino_duplicate import Pairing, Tally, make_player, play_pairing, round_margin, summary
from engine.kasino.events import RoundEnded
from engine.registry import game_class

SHORT = (("target", 4),)  # a game of a round or two


def test_a_spec_names_a_strength_and_its_budget() -> None:
    player = make_player("hard:samples=3", 7)
    assert isinstance(player, SampledSearch)
    assert (player.strength, player.samples, player.seed) == ("hard", 3, 7)
    assert make_player("medium", 1).strength == "medium"


def test_the_replayed_round_is_the_round_the_players_then_play() -> None:
    players = [make_player("medium", seat) for seat in range(3)]
    game = game_class("kasino").new(3, 5, dict(SHORT))
    seat = game.to_move
    assert seat is not None
    move = players[seat].choose(game.view(seat), [])
    view_before = game.view(seat)
    replayed = round_margin(game, [], players, seat, move)
    assert game.view(seat) == view_before  # the replay plays a copy: the game itself is untouched
    history: list[Any] = []
    history.extend(game.apply(seat, move))
    while not any(isinstance(event, RoundEnded) for event in history):
        to_move = game.to_move
        assert to_move is not None
        history.extend(game.apply(to_move, players[to_move].choose(game.view(to_move), history)))
    ended = next(event for event in history if isinstance(event, RoundEnded))
    points = [score.round_total for score in ended.scores]
    assert replayed == points[seat] - (sum(points) - points[seat]) / 2


def test_a_player_measured_against_itself_never_differs() -> None:
    tally = play_pairing((Pairing("medium", "medium", "easy", 2, SHORT), 3, 1))
    assert tally.decisions > 0
    assert tally.differences == []


def test_a_weaker_variant_differs_and_each_difference_is_counted() -> None:
    pairing = Pairing("medium", "easy", "medium", 2, SHORT)
    tally = play_pairing((pairing, 3, 0))
    assert 0 < len(tally.differences) <= tally.decisions
    line = summary(pairing, tally)
    assert line.startswith(f"kasino 2p easy vs medium (against medium): {len(tally.differences)} of {tally.decisions}")


def test_a_run_adds_its_games_up() -> None:
    total = Tally()
    total.add(Tally(3, [1.0], 0.5, 1.0))
    total.add(Tally(2, [-1.0, 2.0], 0.5, 2.0))
    assert (total.decisions, total.differences) == (5, [1.0, -1.0, 2.0])
    assert "3 of 5 decisions differ (60.0%); +0.67 round points" in summary(Pairing("a", "b", "c", 2), total)
    assert summary(Pairing("a", "b", "c", 2), total).endswith("variant CPU 3.00x")

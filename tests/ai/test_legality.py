"""Every strength only ever plays legal moves, over random games of every player count."""

import random
from typing import Any

import pytest

from ai.arena import play_game
from ai.base import Player
from engine.base import AnyGame
from engine.garbage import GarbageSettings
from engine.kasino.scoring import KasinoSettings
from tests.ai.conftest import kind_strengths, make_player

STRENGTHS = ["easy", "medium", "hard"]  # the strengths every kind has
SEARCHERS = ("hard", "expert")


def check_legal(game: AnyGame, seat: int, move: Any) -> None:
    assert move in game.legal_moves(seat), f"{move} is not legal for seat {seat}"


def mixed_table(kind: str, strength: str, players: int, seed: int) -> list[Player[Any, Any]]:
    """`strength` at every seat but one random seat, which gets another strength (so mixed play is covered)."""
    chooser = random.Random(seed)
    seats = [make_player(kind, strength, seed + seat) for seat in range(players)]
    seats[chooser.randrange(players)] = make_player(kind, chooser.choice(STRENGTHS[:2]), seed)
    return seats


@pytest.mark.parametrize("strength", kind_strengths("kasino"))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kasino_players_play_only_legal_moves(strength: str, players: int) -> None:
    games = 2 if strength in SEARCHERS else 6
    settings = KasinoSettings(target=8) if strength in SEARCHERS else None  # shorter games keep the suite fast
    for seed in range(games):
        result = play_game("kasino", mixed_table("kasino", strength, players, seed), seed, settings, check_legal)
        assert result.outcome.winners


@pytest.mark.parametrize("strength", STRENGTHS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_garbage_players_play_only_legal_moves(strength: str, players: int) -> None:
    games = 2 if strength == "hard" else 6
    for seed in range(games):
        settings = GarbageSettings(start_size=[3, 10][seed % 2] if strength != "hard" else 3)
        result = play_game("garbage", mixed_table("garbage", strength, players, seed), seed, settings, check_legal)
        assert result.outcome.winners

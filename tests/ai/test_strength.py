"""A fixed set of seeded games, so these cannot flake: the stronger player must win clearly more."""

from typing import Any

from ai.arena import play_game
from tests.ai.conftest import make_player


def win_rate(
    kind: str, hero: str, villain: str, players: int, games: int, settings: dict[str, Any] | None = None
) -> float:
    wins = 0
    for seed in range(games):
        seat = seed % players  # alternate the seats
        table = [make_player(kind, villain, seed) for _ in range(players)]
        table[seat] = make_player(kind, hero, seed)
        outcome = play_game(kind, table, seed, settings).outcome
        assert outcome is not None
        wins += outcome.places[seat] == 1
    return wins / games


def test_kasino_medium_beats_easy() -> None:
    assert win_rate("kasino", "medium", "easy", 2, 40) >= 0.7


def test_kasino_easy_loses_to_medium() -> None:
    assert win_rate("kasino", "easy", "medium", 2, 40) <= 0.3

"""One contract over every registered kind, in the spirit of OpenSpiel's API test (issue 23).

Whatever the game, for random seeded games played to the end (with the odd resignation):
- B1: the replay of the move log equals the game, and the JSON snapshot reads back to an equal game;
- B3: a refused move (out of turn, not a move at all) changes nothing;
- K16/G11 in general: no public view holds a card hidden from everyone, no seat's view a card hidden from it;
- every public view of a kind that draws pictures renders.
A new kind gets all of this by being in `engine.registry.GAME_KINDS`: the toy game of `tests/toy_game.py`, listed
only while its tests run (`registry.registered`), proves it.
"""

from __future__ import annotations

import json
import random
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from engine import registry
from engine.errors import GameError, NotYourTurnError
from engine.kinds import GameKind
from render import has_table_picture, render_table
from tests import toy_game

MAX_MOVES = 20_000
GAMES = 6


def cards_in(value: Any, card_type: type) -> set[Any]:
    """Every card a view holds, wherever it sits in its (nested, frozen) fields."""
    if isinstance(value, card_type):
        return {value}
    if is_dataclass(value) and not isinstance(value, type):
        return set().union(*(cards_in(getattr(value, field.name), card_type) for field in fields(value)))
    if isinstance(value, tuple | list | set | frozenset):
        return set().union(*(cards_in(item, card_type) for item in value)) if value else set()
    return set()


def card_type_of(game: Any) -> type:
    return type(next(iter(game.hidden_cards())))


def check_position(kind: GameKind, game: Any, rng: random.Random) -> None:
    seat = game.to_move
    before = game.to_dict()
    card_type = card_type_of(game) if game.hidden_cards() else object
    assert not cards_in(game.public_view(), card_type) & game.hidden_cards(None)
    for viewer in range(game.players):
        assert not cards_in(game.view(viewer), card_type) & game.hidden_cards(viewer), (kind.name, viewer)
    # B3: a move out of turn, and text that is no move, are refused and change nothing.
    others = [other for other in range(game.players) if other != seat]
    with pytest.raises(GameError):
        game.apply(rng.choice(others), game.legal_moves(seat)[0])
    with pytest.raises(GameError):
        game.apply(seat, game.parse_move(seat, "no such move at all"))
    assert game.to_dict() == before


def play_random(kind: GameKind, seed: int, resign_chance: float = 0.002) -> tuple[Any, list[tuple[int, str]], int]:
    rng = random.Random(seed)
    players = rng.randint(kind.min_seats, kind.max_seats)
    game = kind.engine.new(players, seed)
    log: list[tuple[int, str]] = []
    while game.to_move is not None:
        assert len(log) < MAX_MOVES, f"{kind.name}: the game did not end"
        if len(log) % 7 == 0:
            check_position(kind, game, rng)
        seat = game.to_move
        move = game.resign_move() if rng.random() < resign_chance else rng.choice(game.legal_moves(seat))
        game.apply(seat, move)
        log.append((seat, str(move)))
    return game, log, players


@pytest.fixture(params=[*registry.KINDS, toy_game.KIND.name])
def kind(request):
    """Each registered kind by name, and the test suite's toy kind, registered for the test's length."""
    if request.param != toy_game.KIND.name:
        yield registry.game_kind(request.param)
        return
    with registry.registered(toy_game.KIND):
        yield registry.game_kind(request.param)


@pytest.mark.parametrize("seed", range(GAMES))
def test_b1_random_games_end_replay_to_the_same_state_and_round_trip_through_json(kind, seed):
    game, log, players = play_random(kind, seed)
    assert game.outcome() is not None and len(game.outcome().places) == players
    replayed = registry.game_class(kind.name).replay(players, seed, None, log)
    assert replayed.to_dict() == game.to_dict()
    again = kind.engine.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.to_dict() == game.to_dict()
    with pytest.raises(GameError):
        game.apply(0, game.resign_move())  # nothing is played after the end


def test_every_public_view_draws_where_the_kind_has_a_picture(kind):
    rng = random.Random(3)
    players = kind.max_seats
    game = kind.engine.new(players, 3)
    names = [f"Player {seat + 1}" for seat in range(players)]
    if not has_table_picture(kind):  # text only: nothing draws, and nothing pretends to
        with pytest.raises(TypeError):
            render_table(game.public_view(), names)
        return
    for step in range(400):
        if game.to_move is None:
            break
        if step % 40 == 0:
            picture = render_table(game.public_view(), names)
            assert picture.png.startswith(b"\x89PNG")
        game.apply(game.to_move, rng.choice(game.legal_moves(game.to_move)))
    assert render_table(game.public_view(), names).png.startswith(b"\x89PNG")


def test_a_view_hiding_a_card_would_be_caught():
    kind = registry.GAME_KINDS[0]
    game = kind.engine.new(kind.min_seats, 1)
    hidden = game.hidden_cards(None)
    card_type = card_type_of(game)
    assert hidden and cards_in(game.view(0), card_type) & hidden  # a seat's own view holds cards hidden from others


def test_a_refusal_that_changed_the_state_would_be_caught():
    kind = registry.GAME_KINDS[0]
    game = kind.engine.new(kind.min_seats, 1)
    with pytest.raises(NotYourTurnError):
        game.apply((game.to_move + 1) % game.players, game.legal_moves(game.to_move)[0])


def test_a_kind_registered_by_a_test_is_listed_only_while_it_runs():
    with registry.registered(toy_game.KIND):
        assert registry.game_kind("toy") is toy_game.KIND and registry.kind_by_code("t") is toy_game.KIND
        assert "toy" in registry.KINDS and toy_game.KIND in registry.GAME_KINDS
        with pytest.raises(ValueError, match="listed already"):
            registry.registered(toy_game.KIND).__enter__()
    assert "toy" not in registry.KINDS and toy_game.KIND not in registry.GAME_KINDS
    with pytest.raises(KeyError):
        registry.game_kind("toy")

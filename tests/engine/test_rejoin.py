"""A resigned seat taken over by someone new (issue 28): the `rejoin` move, shared by both engines."""

import pytest

from engine.base import AnyGame
from engine.core import BaseGame
from engine.errors import IllegalMoveError
from engine.events import Rejoined
from engine.garbage import GarbageGame
from engine.kasino import KasinoGame

ENGINES = [KasinoGame, GarbageGame]


def _resigned_three(cls: type[AnyGame], seed: int = 5) -> tuple[AnyGame, int]:
    game = cls.new(3, seed)
    assert game.to_move is not None
    leaver = (game.to_move + 1) % 3
    game.play(leaver, "resign")
    return game, leaver


@pytest.mark.parametrize("cls", ENGINES)
def test_a_resigned_seat_rejoins_and_is_no_longer_played_automatically(
    cls: type[AnyGame]
) -> None:
    game, leaver = _resigned_three(cls)
    assert game.public_view().seats[leaver].resigned
    events = game.play(leaver, "rejoin")
    assert events == (Rejoined(leaver),)
    assert not game.public_view().seats[leaver].resigned
    assert isinstance(game, BaseGame)  # both engines: resigned_seats is theirs, not the protocol's
    assert game.resigned_seats() == ()
    # Play on with the engine's simple moves until the seat's own turn comes: it waits for its player now.
    while game.to_move is not None and game.to_move != leaver:
        game.apply(game.to_move, game.auto_move(game.to_move))
    assert game.to_move == leaver


@pytest.mark.parametrize("cls", ENGINES)
def test_b1_a_rejoin_replays_from_the_log(cls: type[AnyGame]) -> None:
    game, leaver = _resigned_three(cls)
    log = [(leaver, "resign"), (leaver, "rejoin")]
    game.play(leaver, "rejoin")
    for _ in range(12):
        if game.to_move is None:
            break
        seat = game.to_move
        move = str(game.auto_move(seat))
        game.play(seat, move)
        log.append((seat, move))
    start = cls.new(3, 5)
    assert start.to_move is not None
    first = (start.to_move + 1) % 3
    assert first == leaver
    assert cls.replay(3, 5, None, log) == game
    assert cls.from_dict(game.to_dict()) == game


@pytest.mark.parametrize("cls", ENGINES)
def test_only_a_resigned_seat_may_rejoin(cls: type[AnyGame]) -> None:
    game = cls.new(3, 5)
    before = game.to_dict()
    with pytest.raises(IllegalMoveError) as refused:
        game.play(0, "rejoin")
    assert refused.value.message.id == "refused.not-resigned"
    assert game.to_dict() == before


@pytest.mark.parametrize("cls", ENGINES)
def test_a_rejoined_seat_places_by_its_standing(cls: type[AnyGame]) -> None:
    game, leaver = _resigned_three(cls)
    game.play(leaver, "rejoin")
    game.play((leaver + 1) % 3, "resign")
    game.play((leaver + 2) % 3, "resign")
    outcome = game.outcome()
    assert outcome is not None and outcome.places[leaver] == 1


def test_describe_rejoin() -> None:
    game = KasinoGame.new(3, 1)
    assert game.describe_move(game.rejoin_move()).id == "shared.move-rejoin"
    garbage = GarbageGame.new(3, 1)
    assert garbage.describe_move(garbage.rejoin_move()).id == "shared.move-rejoin"

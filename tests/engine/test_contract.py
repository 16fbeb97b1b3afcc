"""One contract over every registered kind, in the spirit of OpenSpiel's API test (issue 23).

Whatever the game, for random seeded games played to the end (with the odd resignation):
- B1: the replay of the move log equals the game, and the JSON snapshot reads back to an equal game;
- B3: a refused move (out of turn, not a move at all) changes nothing;
- K16/G11 in general: no public view holds a card hidden from everyone, no seat's view a card hidden from it;
- every public view of a kind that draws pictures renders.
A new kind gets all of this by being in `engine.registry.GAME_KINDS`: the toy game of `tests/toy_game.py`, listed
only while its tests run (`registry.registered`), proves it.

Issue 26: the same contract holds under every house rule a kind lists (`GameKind.house_rules`), each value alone and
in a few seeded random combinations, each on a number of seats the rules fit (`GameKind.house_rules_fit`); and B2,
every card of the game's decks in exactly one place (Jokers too, where a rule brings them), is counted by the
engine's own check of its state at every position checked. A kind's rules are picked up as it lists them.
"""

from __future__ import annotations

import contextlib
import json
import random
import zlib
from collections.abc import Iterator
from dataclasses import fields, is_dataclass, replace
from typing import Any

import pytest

from engine import registry
from engine.cards import Card
from engine.errors import GameError, NotYourTurnError
from engine.kinds import GameKind, value_key
from render import has_table_picture, render_table
from tests import toy_game
from tests.outcome import outcome_of

MAX_MOVES = 20_000
GAMES = 6
COMBINATIONS = 5  # seeded random combinations of a kind's house rules, besides each value alone


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
    game._check_state()  # B2 by the engine's own count of its cards (the decks it plays with, Jokers included)
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


def play_random(
    kind: GameKind, seed: int, resign_chance: float = 0.002, settings: dict[str, Any] | None = None
) -> tuple[Any, list[tuple[int, str]], int]:
    rng = random.Random(seed)
    fitting = seats_fitting(kind, settings or {})
    assert fitting, f"{kind.name}: no number of seats fits {settings}"
    players = rng.choice(fitting)
    game = kind.engine.new(players, seed, settings)
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


def seats_fitting(kind: GameKind, settings: dict[str, Any]) -> list[int]:
    """The numbers of seats the house rules in `settings` fit (every number the kind allows, without any)."""
    seats = range(kind.min_seats, kind.max_seats + 1)
    return [players for players in seats if kind.house_rules_misfit(settings, players) is None]


def variants(kind: GameKind) -> list[tuple[str, dict[str, Any]]]:
    """Each value of each house rule alone (off its default), then seeded random combinations that fit some seats."""
    found = [
        (f"{rule.rule_id}={value_key(value)}", {rule.setting: value})
        for rule in kind.house_rules
        for value in rule.values
        if value != rule.default
    ]
    if not kind.house_rules:
        return found
    rng = random.Random(f"{kind.name} house rules")
    combined = 0
    for _ in range(100 * COMBINATIONS):
        if combined == COMBINATIONS:
            break
        settings = {rule.setting: rng.choice(rule.values) for rule in kind.house_rules}
        try:
            kind.engine.settings_from_dict(settings)
        except ValueError:
            continue  # a combination the engine refuses as a whole: the lobby refuses it too
        if seats_fitting(kind, settings):
            found.append((f"mix{combined}", settings))
            combined += 1
    return found


# Every variant of every kind as it lists them when the tests are collected (the toy's too, registered at run time).
VARIANTS = [
    pytest.param(kind.name, settings, id=f"{kind.name}-{name}")
    for kind in (*registry.GAME_KINDS, toy_game.KIND)
    for name, settings in variants(kind)
]


@pytest.fixture(params=[*registry.KINDS, toy_game.KIND.name])
def kind(request: pytest.FixtureRequest) -> Iterator[GameKind]:
    """Each registered kind by name, and the test suite's toy kind, registered for the test's length."""
    if request.param != toy_game.KIND.name:
        yield registry.game_kind(request.param)
        return
    with registry.registered(toy_game.KIND):
        yield registry.game_kind(request.param)


@pytest.mark.parametrize("seed", range(GAMES))
def test_b1_random_games_end_replay_to_the_same_state_and_round_trip_through_json(kind: GameKind, seed: int) -> None:
    game, log, players = play_random(kind, seed)
    assert game.outcome() is not None and len(outcome_of(game).places) == players
    replayed = registry.game_class(kind.name).replay(players, seed, None, log)
    assert replayed.to_dict() == game.to_dict()
    again = kind.engine.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.to_dict() == game.to_dict()
    with pytest.raises(GameError):
        game.apply(0, game.resign_move())  # nothing is played after the end


@pytest.mark.parametrize(("kind_name", "settings"), VARIANTS)
def test_b1_b2_every_house_rule_plays_to_the_end_replays_and_round_trips(
    kind_name: str, settings: dict[str, Any]
) -> None:
    listed = registry.game_kind(kind_name) if kind_name in registry.KINDS else None
    with contextlib.ExitStack() as stack:
        kind = listed or stack.enter_context(registry.registered(toy_game.KIND))
        seed = zlib.crc32(json.dumps(settings, sort_keys=True).encode())
        game, log, players = play_random(kind, seed, settings=settings)
        assert game.settings == kind.engine.settings_from_dict(settings)
        game._check_state()
        assert game.outcome() is not None and len(outcome_of(game).places) == players
        replayed = kind.engine.replay(players, seed, settings, log)  # B1: the stored settings replay the game
        assert replayed.to_dict() == game.to_dict()
        again = kind.engine.from_dict(json.loads(json.dumps(game.to_dict())))
        assert again.to_dict() == game.to_dict() and again.settings == game.settings


def test_the_house_rules_of_every_kind_are_checked_and_the_toys_are_among_them() -> None:
    ids: list[str] = []
    for param in VARIANTS:
        assert isinstance(param.id, str), param
        ids.append(param.id)
    assert {"toy-TV1=1", "toy-TV1=2", "toy-TV2=on", "toy-TV3=on"} <= set(ids)
    assert sum(name.startswith("toy-mix") for name in ids) == COMBINATIONS
    for kind in registry.GAME_KINDS:  # each kind's own, as it lists them
        expected = sum(len(rule.values) - 1 for rule in kind.house_rules)
        assert sum(name.startswith(f"{kind.name}-") and "-mix" not in name for name in ids) == expected


def test_a_lost_card_is_caught_by_every_kinds_own_count(kind: GameKind) -> None:
    game = kind.engine.new(kind.min_seats, 5)
    snapshot = game.to_dict()
    assert drop_a_card(snapshot), f"{kind.name}: no cards found in its snapshot"
    with pytest.raises(ValueError):
        kind.engine.from_dict(snapshot)


def drop_a_card(value: Any) -> bool:
    """Take the last card out of the first list of card codes in a snapshot; True if one was found."""
    if isinstance(value, dict):
        return any(drop_a_card(item) for item in value.values())
    if isinstance(value, list) and value:
        if all(isinstance(item, str) and is_card_code(item) for item in value):
            value.pop()
            return True
        return any(drop_a_card(item) for item in value)
    return False


def is_card_code(text: str) -> bool:
    try:
        Card.from_code(text)
    except ValueError:
        return False
    return True


def test_every_public_view_draws_where_the_kind_has_a_picture(kind: GameKind) -> None:
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


def test_a_view_hiding_a_card_would_be_caught() -> None:
    kind = registry.GAME_KINDS[0]
    game = kind.engine.new(kind.min_seats, 1)
    hidden = game.hidden_cards(None)
    card_type = card_type_of(game)
    assert hidden and cards_in(game.view(0), card_type) & hidden  # a seat's own view holds cards hidden from others


def test_a_refusal_that_changed_the_state_would_be_caught() -> None:
    kind = registry.GAME_KINDS[0]
    game = kind.engine.new(kind.min_seats, 1)
    with pytest.raises(NotYourTurnError):
        assert game.to_move is not None
        game.apply((game.to_move + 1) % game.players, game.legal_moves(game.to_move)[0])


def test_a_kind_registered_by_a_test_is_listed_only_while_it_runs() -> None:
    with registry.registered(toy_game.KIND):
        assert registry.game_kind("toy") is toy_game.KIND and registry.kind_by_code("t") is toy_game.KIND
        assert "toy" in registry.KINDS and toy_game.KIND in registry.GAME_KINDS
        with pytest.raises(ValueError, match="listed already"):
            registry.registered(toy_game.KIND).__enter__()
    assert "toy" not in registry.KINDS and toy_game.KIND not in registry.GAME_KINDS
    with pytest.raises(KeyError):
        registry.game_kind("toy")


def _titled(title: str) -> dict[str, Any]:
    """The toy engine under another title (a kind's title is its engine's)."""
    return {"engine": type("Titled", (toy_game.KIND.engine,), {"TITLE": title})}


@pytest.mark.parametrize(
    ("changes", "said"),
    [({"name": "kasino"}, "named 'kasino'"), ({"code": "k"}, "coded 'k'"), (_titled("KASINO"), "titled 'Kasino'")],
)
def test_the_registry_refuses_a_second_kind_with_the_same_name_code_or_title(
    changes: dict[str, Any], said: str
) -> None:
    twin = replace(toy_game.KIND, **changes)
    with pytest.raises(ValueError, match=f"{said} is listed already"):
        registry.registered(twin).__enter__()
    assert twin not in registry.GAME_KINDS

"""Hypothesis over random Garbage games (2–6 players): B1 replay and snapshots, B2 conservation, B3 refusals,
G11 views, and that every game ends. Random play = uniform choice from `legal_moves`, plus rare resignations."""

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import GameError, InvalidMoveError
from engine.garbage import (
    DrawDiscard,
    DrawStock,
    GarbageGame,
    GarbageSettings,
    NewHandDealt,
    PlaceJack,
    Resign,
    StockReshuffled,
    parse_garbage_move,
)
from engine.garbage.moves import GarbageDecision
from engine.message import Message
from tests.engine.test_garbage import card_codes, cards_in, full_decks, hidden_cards
from tests.outcome import outcome_of
from tests.said import refusal

SMALL_GAME_MOVE_BOUND = 2_000  # start_size 1–4: the largest seen in 4,000 random games of this space was 753
FULL_GAME_MOVE_BOUND = 10_000  # start_size 10, 2–6 players: the largest seen in 500 random games was 2,102
EVERY_DECISION: tuple[GarbageDecision, ...] = (DrawStock(), DrawDiscard(), *(PlaceJack(spot) for spot in range(1, 11)))


def refusals_change_nothing(game: GarbageGame) -> None:
    """B3: every move that is not legal for its seat is refused with a sentence, and the state stays the same."""
    before = game.to_dict()
    seat = game.to_move
    assert seat is not None
    legal = game.legal_moves(seat)
    probes: list[tuple[int, GarbageDecision | Resign]] = [(seat, move) for move in EVERY_DECISION if move not in legal]
    probes += [((seat + 1) % game.players, legal[0])]
    probes += [(resigned, Resign()) for resigned in before["resigned"]]
    for probe_seat, move in probes:
        with pytest.raises(GameError) as refused:
            game.apply(probe_seat, move)
        said = refusal(refused.value)  # a sentence in English words, no placeholder left (B3)
        assert said.endswith(".") and len(said) > 10 and "{" not in said, said
    assert game.to_dict() == before


def nothing_hidden_is_shown(game: GarbageGame, events: tuple[Any, ...]) -> None:
    """G11: no view, and no event of a step that dealt no new hand, carries a face-down or stock card."""
    hidden = hidden_cards(game)
    shown = cards_in(game.public_view()) + [card for seat in range(game.players) for card in cards_in(game.view(seat))]
    assert not set(shown) & hidden
    if not any(isinstance(event, NewHandDealt) for event in events):
        assert not set(cards_in(events)) & hidden
    else:
        dealt = [event for event in events if isinstance(event, NewHandDealt)]
        assert cards_in(dealt) == []


def restores_every_field(game: GarbageGame) -> None:
    """B1: a JSON snapshot brings back every field of the state (not only the ones `==` looks at)."""
    restored = GarbageGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert {slot: getattr(restored, slot) for slot in GarbageGame.__slots__} == {
        slot: getattr(game, slot) for slot in GarbageGame.__slots__
    }


def new_game(players: int, seed: int, start_size: int, short_stock: int | None) -> GarbageGame:
    """A new game; with `short_stock`, the same deal but only that many cards left in the stock (G8 soon)."""
    game = GarbageGame.new(players, seed, GarbageSettings(start_size=start_size))
    if short_stock is None:
        return game
    state = game.to_dict()
    return GarbageGame.from_position(
        state["layouts"], stock=state["stock"][::-1][:short_stock], rest="discard", to_move=state["to_move"],
        seed=seed, settings=game.settings,
    )  # fmt: skip


def play_checked_game(
    players: int, seed: int, start_size: int, resign_rate: float, bound: int, short_stock: int | None = None
) -> GarbageGame:
    game = new_game(players, seed, start_size, short_stock)
    initial = game.to_dict()
    chooser = random.Random(seed)
    expected_cards = full_decks(players)
    log: list[tuple[int, str]] = []
    snapshot_at = chooser.randrange(40)
    # why -> a JSON snapshot: early, and just after the first reshuffle and the first new deal
    snapshots: dict[str, Any] = {}
    while game.to_move is not None:
        assert game.move_count < bound, "the game did not end"
        refusals_change_nothing(game)
        if len(log) == snapshot_at:
            snapshots.setdefault("early", json.loads(json.dumps(game.to_dict())))
        still_in = [seat for seat in range(players) if seat not in game.to_dict()["resigned"]]
        move: GarbageDecision | Resign
        if chooser.random() < resign_rate:
            seat, move = chooser.choice(still_in), Resign()
        else:
            seat = game.to_move
            move = chooser.choice(game.legal_moves(seat))
        events = game.apply(seat, move)
        log.append((seat, str(move)))
        assert card_codes(game) == expected_cards  # B2
        nothing_hidden_is_shown(game, events)
        if any(isinstance(event, StockReshuffled) for event in events):
            restores_every_field(game)
        for kind in (StockReshuffled, NewHandDealt):
            if any(isinstance(event, kind) for event in events) and game.to_move is not None:
                snapshots.setdefault(kind.__name__, json.loads(json.dumps(game.to_dict())))
    assert game.outcome() is not None and sorted(outcome_of(game).places)[0] == 1
    if short_stock is None:
        assert GarbageGame.replay(players, seed, game.settings, log) == game  # B1
    restores_every_field(game)
    for snapshot in [initial, *snapshots.values()]:
        # A snapshot taken mid-game, continued with the rest of the log, ends in the same state: it misses nothing.
        restored = GarbageGame.from_dict(snapshot)
        for seat, text in log[snapshot["moves"] :]:
            restored.play(seat, text)
        assert restored == game
    return game


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    start_size=st.integers(1, 4),
    resign_rate=st.sampled_from([0.0, 0.0, 0.005, 0.02]),
    short_stock=st.sampled_from([None, None, 0, 2]),
)
def test_b1_b2_b3_g8_g11_random_small_games(
    players: int, seed: int, start_size: int, resign_rate: float, short_stock: int | None
) -> None:
    play_checked_game(players, seed, start_size, resign_rate, SMALL_GAME_MOVE_BOUND, short_stock)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_b2_g10_full_size_random_game_ends_with_every_card_kept(players: int) -> None:
    game = GarbageGame.new(players, seed=players)
    chooser = random.Random(players)
    expected = full_decks(players)
    while game.to_move is not None:
        assert game.move_count < FULL_GAME_MOVE_BOUND
        game.apply(game.to_move, chooser.choice(game.legal_moves(game.to_move)))
        assert card_codes(game) == expected
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.scores[outcome.winners[0]] == 10 and outcome.winners == (outcome.scores.index(10),)


def test_b1_b2_b3_g11_one_full_size_game_with_every_check() -> None:
    play_checked_game(players=3, seed=2024, start_size=10, resign_rate=0.0, bound=FULL_GAME_MOVE_BOUND)


moves = st.sampled_from([*EVERY_DECISION, Resign()])


@given(moves)
def test_notation_round_trips(move: GarbageDecision | Resign) -> None:
    assert parse_garbage_move(str(move)) == move
    assert eval(repr(move), {cls.__name__: cls for cls in (DrawStock, DrawDiscard, PlaceJack, Resign)}) == move


@given(moves, st.lists(st.booleans(), min_size=12, max_size=12), st.sampled_from(["", " ", "  ", "\t"]))
def test_notation_accepts_any_case_and_spacing(move: GarbageDecision | Resign, upper: list[bool], pad: str) -> None:
    text = "".join(ch.upper() if flip else ch for ch, flip in zip(str(move), upper + [False] * 20, strict=False))
    assert parse_garbage_move(pad + text.replace(" ", " " + pad) + pad) == move


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("stock", DrawStock()),
        ("Draw from the stock", DrawStock()),
        ("DISCARD", DrawDiscard()),
        ("take discard", DrawDiscard()),
        ("take the top of the discard pile", DrawDiscard()),
        ("j 7", PlaceJack(7)),
        ("J7", PlaceJack(7)),
        ("jack on spot 10", PlaceJack(10)),
        ("put the jack on spot 3", PlaceJack(3)),
        ("jack -> 2", PlaceJack(2)),
        ("Resign.", Resign()),
    ],
)
def test_notation_accepts_what_people_type(text: str, move: GarbageDecision | Resign) -> None:
    assert parse_garbage_move(text) == move


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("jack 0", Message("garbage.refused.no-such-spot", {"spot": 0, "highest": 10})),
        ("j 11", Message("garbage.refused.no-such-spot", {"spot": 11, "highest": 10})),
        ("draw", Message("garbage.refused.not-a-move", {"text": "draw"})),
        ("7♣", Message("garbage.refused.not-a-move", {"text": "7♣"})),
    ],
)
def test_notation_refuses_what_is_not_a_move(text: str, reason: Message) -> None:
    with pytest.raises(InvalidMoveError) as refused:
        parse_garbage_move(text)
    assert refused.value.message == reason

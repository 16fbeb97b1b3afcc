"""The outcome of a game that has ended, for tests that read its places and scores."""

from engine.base import AnyGame, Outcome


def outcome_of(game: AnyGame) -> Outcome:
    """`game.outcome()`, which the test expects to be there: the game is over."""
    outcome = game.outcome()
    assert outcome is not None, "the game is not over"
    return outcome

"""Issue 24: plurals are formed in one place, and right ("1 card", "2 cards", "1 hand won")."""

import pytest

from engine.words import counted, plural


@pytest.mark.parametrize(
    ("count", "noun", "expected"),
    [
        (1, "card", "1 card"),
        (0, "card", "0 cards"),
        (2, "card", "2 cards"),
        (1, "hand won", "1 hand won"),
        (3, "hand won", "3 hands won"),
        (1, "point", "1 point"),
        (16, "point", "16 points"),
        (2, "match", "2 matches"),
    ],
)
def test_a_count_takes_the_form_of_its_noun_that_english_gives_it(count, noun, expected):
    assert counted(count, noun) == expected


def test_the_singular_is_for_exactly_one():
    assert plural("game", 1) == "game" and plural("game", -1) == "games" and plural("game", 0) == "games"

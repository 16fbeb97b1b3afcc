"""Kasino's table picture under house rules (issue 26): partnerships (KV5) mark each seat's team beside the team's
score, sweeps off (KV2) count none; the words fit in every language, with short and long names."""

import random
from typing import Any

import pytest

from engine.kasino import KasinoGame
from i18n import LOCALES, say
from render import render_table
from tests.render.test_legibility import LONG_NAMES
from tests.render.test_picture_languages import SHORT_NAMES, assert_fits, written


def played(settings: dict[str, Any], moves: int = 30, seed: int = 4) -> KasinoGame:
    game = KasinoGame.new(4, seed=seed, settings=settings)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = game.to_move
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    return game


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("long", [False, True], ids=["short names", "long names"])
def test_kv5_each_seat_shows_its_team_and_the_words_fit(locale: str, long: bool) -> None:
    game = played({"partnerships": True, "sweeps": "cancel"})
    view = game.public_view()
    names = (LONG_NAMES if long else SHORT_NAMES)[:4]
    picture = render_table(view, names, locale)
    assert_fits(picture, names)
    text = written(picture)
    for team in (1, 2):
        assert text.count(say(locale, "picture.kasino.team", team=team)) == 2
    assert view.seats[0].score == view.seats[2].score


@pytest.mark.parametrize("locale", LOCALES)
def test_kv2_with_sweeps_off_the_picture_counts_no_sweeps(locale: str) -> None:
    view = played({"sweeps": "off", "building": False}).public_view()
    picture = render_table(view, SHORT_NAMES[:4], locale)
    assert_fits(picture, SHORT_NAMES[:4])
    word = say(locale, "picture.kasino.sweeps", n=0).split()[0]  # "sweeps", "tabber", ...
    assert word not in written(picture)
    assert word in written(render_table(played({}).public_view(), SHORT_NAMES[:4], locale))

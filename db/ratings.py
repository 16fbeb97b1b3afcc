"""Skill ratings with openskill's Plackett-Luce model: one rating per (server, kind, player).

Members and computer players are rated alike; every computer player of one strength is one rated player per server
and kind ("Computer (hard)"), see `db.results`. A finished game with fewer than two rated players changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Skill:
    """openskill's belief about a player: mean `mu`, uncertainty `sigma`."""

    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        """The displayed, conservative rating `mu - 3*sigma` (openskill's ordinal); 0 for a new player."""
        return self.mu - 3 * self.sigma


DEFAULT_SKILL = Skill(_MODEL.mu, _MODEL.sigma)


def rate(skills: Sequence[Skill], places: Sequence[int]) -> tuple[Skill, ...]:
    """New skills after one game; `places[i]` is player i's place (1 = best, ties share a place).

    Raises:
        ValueError: `skills` and `places` differ in length.
    """
    if len(skills) != len(places):
        raise ValueError(f"{len(skills)} skills but {len(places)} places")
    if len(skills) < 2:
        return tuple(skills)
    teams = [[_MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return tuple(Skill(team[0].mu, team[0].sigma) for team in rated)

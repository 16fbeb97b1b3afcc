"""Skill ratings with openskill's Plackett-Luce model: one rating per (server, kind, player).

Members and computer players are rated alike; every computer player of one strength is one rated player per server
and kind ("Computer (hard)"), see `db.results`. A finished game with fewer than two rated players changes nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
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


def rate(skills: Sequence[Skill], places: Sequence[int], teams: Sequence[Hashable] | None = None) -> tuple[Skill, ...]:
    """New skills after one game; `places[i]` is player i's place (1 = best, ties share a place).

    With `teams`, player i plays in team `teams[i]` (partnerships): the model rates the teams against each other, each
    placed as its best member (partners share the team's place), and each partner's skill moves with the team's
    result. Fewer than two teams change nothing.

    Raises:
        ValueError: `skills`, `places` and `teams` differ in length.
    """
    if len(skills) != len(places) or (teams is not None and len(teams) != len(skills)):
        raise ValueError(f"{len(skills)} skills but {len(places)} places and {len(teams or ())} teams")
    keys: Sequence[Hashable] = teams if teams is not None else range(len(skills))
    members: dict[Hashable, list[int]] = {}
    for player, key in enumerate(keys):
        members.setdefault(key, []).append(player)
    if len(members) < 2:
        return tuple(skills)
    groups = list(members.values())
    ratings = [[_MODEL.rating(mu=skills[i].mu, sigma=skills[i].sigma) for i in group] for group in groups]
    ranks = [float(min(places[i] for i in group)) for group in groups]
    rated = _MODEL.rate(ratings, ranks=ranks)
    after = list(skills)
    for group, team in zip(groups, rated, strict=True):
        for player, rating in zip(group, team, strict=True):
            after[player] = Skill(rating.mu, rating.sigma)
    return tuple(after)

"""Computer players: seeded matches in alternating seats, win rates with Wilson 95% intervals, searchers' move times.

Run from the repository root: `python -m bench.bench_ai [--games 1000] [--hard-games 1000] [--four-games 300]
[--expert-games 400] [--expert-four-games 200] [--house-games 400] [--team-games 200] [--processes 2]
[--only kasino|kasino-expert|kasino-house|garbage]`. Game `i` of a match uses seed `i` and puts the player being
measured in seat `i % players`, the others at the remaining seats. The expert matches play every deal with expert
in each seat: game `i` uses seed `i // players` and seat `i % players`, so each seed is played `players` times
round the table (their game counts are rounded up to a whole number of seeds). The house-rule matches (issue 26,
`--only kasino-house`) play each deal both ways round too: 2p hard against medium with building off (KV4), and
4p partnerships (KV5) with a hard team against a medium team, game `i` giving the hard team seats 1 and 3 or 2
and 4 by `i % 2`; a team wins when it places first. Games run on `--processes` worker processes, one core each,
so the move times are single-core times. The Kasino 4p match defaults to 300 games (four seats and longer games
make it the slowest); each line says how many games it is over.

Targets: Kasino 2p hard beats medium >= 0.60 (interval above 0.55), medium beats easy >= 0.75, Kasino 4p
hard wins >= 0.35 among three medium (chance: 0.25); Garbage hard vs medium interval above 0.50 (luck
dominates Garbage); hard decides within 0.5 s at p95. Kasino 2p expert beats hard >= 0.60 (interval above
0.55) over >= 400 games, Kasino 4p expert wins >= 0.33 among three hard over >= 200 games; expert decides
within 0.5 s at p95. House rules: hard beats medium with building off, and a hard team beats a medium team in
partnerships, each with its interval above 0.50.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ai.arena import play_game
from ai.players import player_for

TIMED = ("hard", "expert")  # the players whose decision times are printed


@dataclass(frozen=True)
class Match:
    """`hero` at one seat against `villain` at every other seat, over `games` seeded games."""

    kind: str
    players: int
    hero: str
    villain: str
    games: int
    rotate: bool = False  # each seed played once with the hero in every seat (game i: seed i // players)
    settings: tuple[tuple[str, Any], ...] = ()  # the game's settings (house rules), as (key, value) pairs
    variant: str = ""  # the house rules in the line's words: "building off"
    teams: bool = False  # KV5: the hero plays in seats `seat` and `seat + 2`, with a partner as strong

    def seed_and_seat(self, index: int) -> tuple[int, int]:
        """The seed of game `index` and the hero's seat in it (with teams: its team's first seat, 0 or 1)."""
        if self.teams:
            return index // 2, index % 2
        return (index // self.players if self.rotate else index), index % self.players

    def hero_seats(self, seat: int) -> tuple[int, ...]:
        """The seats the hero plays: `seat`, and with teams its partner's too."""
        return (seat, seat + 2) if self.teams else (seat,)

    @property
    def name(self) -> str:
        """How the line names the match: "kasino 2p hard vs medium, building off"."""
        if self.teams:
            return f"{self.kind} {self.players}p {self.variant}, {self.hero} team vs {self.villain} team"
        variant = f", {self.variant}" if self.variant else ""
        return f"{self.kind} {self.players}p {self.hero} vs {self.villain}{variant}"


def play_one(task: tuple[Match, int]) -> tuple[bool, list[float]]:
    """Game `index` of a match: whether the hero (or its team) won alone in first place, and its decision times."""
    match, index = task
    seed, seat = match.seed_and_seat(index)
    heroes = match.hero_seats(seat)
    table = [
        player_for(match.kind, match.hero if other in heroes else match.villain, seed * 10 + other)
        for other in range(match.players)
    ]
    result = play_game(match.kind, table, seed, dict(match.settings) or None)
    places = result.outcome.places
    won = places[seat] == 1 and places.count(1) == len(heroes)
    return won, [second for hero in heroes for second in result.seconds[hero]]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate."""
    if not games:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def run(match: Match, pool: multiprocessing.pool.Pool, times: dict[str, list[float]]) -> None:
    """Play a match on the pool, print its win-rate line, and keep the searching players' move times."""
    wins = 0
    for won, seconds in pool.imap_unordered(play_one, [(match, index) for index in range(match.games)], chunksize=2):
        wins += won
        if match.hero in TIMED:
            times.setdefault(f"{match.kind} {match.hero}", []).extend(seconds)
    low, high = wilson(wins, match.games)
    print(
        f"{match.name}: win rate {wins / match.games:.2f} over {match.games} games (95% CI {low:.2f}-{high:.2f})",
        flush=True,
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, play the matches, print the lines."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games of each 2p match without a hard player")
    parser.add_argument("--hard-games", type=int, default=1000, help="games of each 2p match with a hard player")
    parser.add_argument("--four-games", type=int, default=300, help="games of the Kasino 4p match")
    parser.add_argument("--expert-games", type=int, default=400, help="games of the Kasino 2p expert match")
    parser.add_argument("--expert-four-games", type=int, default=200, help="games of the Kasino 4p expert match")
    parser.add_argument("--house-games", type=int, default=400, help="games of the Kasino 2p building-off match")
    parser.add_argument("--team-games", type=int, default=200, help="games of the Kasino 4p partnerships match")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--only", choices=["kasino", "kasino-expert", "kasino-house", "garbage"], default=None)
    options = parser.parse_args(argv)
    matches = []
    if options.only in (None, "kasino"):
        matches += [
            Match("kasino", 2, "hard", "medium", options.hard_games),
            Match("kasino", 2, "medium", "easy", options.games),
            Match("kasino", 4, "hard", "medium", options.four_games),
        ]
    if options.only in (None, "kasino", "kasino-expert"):
        matches += [
            Match("kasino", 2, "expert", "hard", _whole_seeds(options.expert_games, 2), rotate=True),
            Match("kasino", 4, "expert", "hard", _whole_seeds(options.expert_four_games, 4), rotate=True),
        ]
    if options.only in (None, "kasino", "kasino-house"):
        matches += house_rule_matches(options.house_games, options.team_games)
    if options.only in (None, "garbage"):
        matches += [
            Match("garbage", 2, "hard", "medium", options.hard_games),
            Match("garbage", 2, "medium", "easy", options.games),
        ]
    times: dict[str, list[float]] = {}
    with multiprocessing.Pool(options.processes) as pool:
        for match in matches:
            if match.games > 0:  # `--expert-four-games 0` (say) leaves a match out
                run(match, pool, times)
    for name, seconds in times.items():
        seconds.sort()
        p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]
        print(f"{name}: {sum(seconds) / len(seconds):.2f} s per move (p95 {p95:.2f} s)")


def house_rule_matches(games: int, team_games: int) -> list[Match]:
    """Issue 26's two matches: 2p hard vs medium with building off (KV4), and a hard team against a medium team in
    partnerships (KV5); each deal is played both ways round (game counts rounded up to whole deals)."""
    return [
        Match("kasino", 2, "hard", "medium", _whole_seeds(games, 2), rotate=True,
              settings=(("building", False),), variant="building off"),
        Match("kasino", 4, "hard", "medium", _whole_seeds(team_games, 2), settings=(("partnerships", True),),
              variant="partnerships", teams=True),
    ]  # fmt: skip


def _whole_seeds(games: int, players: int) -> int:
    """`games` rounded up to a whole number of seeds, each played once with the hero in every seat."""
    return -(-games // players) * players


if __name__ == "__main__":
    main()

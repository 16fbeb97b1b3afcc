"""Kasino as one kind of game among others: what the lobby, storage and boards need to know."""

from __future__ import annotations

from engine.kasino.game import KasinoGame
from engine.kasino.scoring import KasinoSettings
from engine.kasino.views import KasinoPublicView
from engine.kinds import GameKind, WholeNumber
from engine.message import Count, Message


def _settings_line(settings: KasinoSettings) -> Message:
    return Message("kasino.settings-line", {"target": Count(settings.target, "point")})


NOTATION = """\
`5♥ take 3♦+A♥` — play 5♥ and take 3♦ and A♥ (one group making 5)
`8♠ take 8♣ | 5♦+3♥` — take several groups at once, split by `|`
`4♠ build 5♣` — play 4♠ onto 5♣: a build of 9
`3♣ raise 6` — add 3♣ to the build of 6 (a build or pile is named by its value or one of its cards)
`7♦ double 7♣` — play 7♦ onto 7♣, making a pile of 7s
`Q♠ place` — put Q♠ on the table
`resign` — give up your seat
Cards are written `10♦`, `10d`, `Td`, `A♠` or `qh`.\
"""

KIND = GameKind(
    name="kasino",
    code="k",
    engine=KasinoGame,
    score_unit="point",
    private_hands=True,
    tagline="Play Kasino, the Norwegian fishing game.",
    options=(WholeNumber("target", "target", "Points to win (default 16)", 1, 99, 16),),
    settings_line=_settings_line,
    notation=NOTATION,
    public_view=KasinoPublicView,
    table_picture="render.kasino:render_kasino_table",
    players=(
        ("easy", "ai.kasino_easy:EasyKasino"),
        ("medium", "ai.kasino_medium:MediumKasino"),
        ("hard", "ai.kasino_hard:HardKasino"),
        ("expert", "ai.kasino_expert:ExpertKasino"),
    ),
)

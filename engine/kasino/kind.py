"""Kasino as one kind of game among others: what the lobby, storage and boards need to know."""

from __future__ import annotations

from engine.kasino.game import KasinoGame
from engine.kasino.scoring import KasinoSettings
from engine.kasino.views import KasinoPublicView
from engine.kinds import GameKind, WholeNumber
from engine.message import Count, Message


def _settings_line(settings: KasinoSettings) -> Message:
    return Message("kasino.settings-line", {"target": Count(settings.target, "point")})


KIND = GameKind(
    name="kasino",
    code="k",
    engine=KasinoGame,
    score_unit="point",
    private_hands=True,
    tagline="Play Kasino, the Norwegian fishing game.",
    options=(WholeNumber("target", "target", "Points to win (default 16)", 1, 99, 16),),
    settings_line=_settings_line,
    notation=Message("kasino.rules.notation"),
    public_view=KasinoPublicView,
    table_picture="render.kasino:render_kasino_table",
    players=(
        ("easy", "ai.kasino_easy:EasyKasino"),
        ("medium", "ai.kasino_medium:MediumKasino"),
        ("hard", "ai.kasino_hard:HardKasino"),
        ("expert", "ai.kasino_expert:ExpertKasino"),
    ),
)

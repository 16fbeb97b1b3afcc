"""Kasino as one kind of game among others: what the lobby, storage and boards need to know."""

from __future__ import annotations

from engine.kasino.game import KasinoGame
from engine.kasino.scoring import CANCEL, COUNT, OFF, PARTNERSHIP_PLAYERS, KasinoSettings
from engine.kasino.views import KasinoPublicView
from engine.kinds import GameKind, HouseRule, WholeNumber
from engine.message import Count, Message


def _settings_line(settings: KasinoSettings) -> Message:
    return Message("kasino.settings-line", {"target": Count(settings.target, "point")})


# RULES.md "House rules (variants)". KV1, the target, is the lobby's `target` option (any of 1-99) and the settings
# line, not a house rule here: a house rule offers a short list of values, each with its own words in the catalog.
# A rule with two settings (KV2, KV3) is two entries under one id.
HOUSE_RULES = (
    HouseRule("KV2", "sweeps", (COUNT, OFF, CANCEL), COUNT),
    HouseRule("KV2", "last_deal_sweeps", (True, False), True),
    HouseRule("KV3", "most_cards", (1, 2, 3), 1),
    HouseRule("KV3", "most_spades", (1, 2), 2),
    HouseRule("KV4", "building", (True, False), True),
    HouseRule("KV5", "partnerships", (False, True), False),
)


def house_rules_fit(settings: KasinoSettings, seats: int) -> Message | None:
    """Why the house rules do not fit `seats` players (KV5: partnerships need exactly four), or None."""
    if settings.partnerships and seats != PARTNERSHIP_PLAYERS:
        return Message("kasino.refused.partnerships-need-four", {"seats": seats})
    return None


KIND = GameKind(
    name="kasino",
    code="k",
    engine=KasinoGame,
    score_unit="count.point",
    private_hands=True,
    tagline="Play Kasino, the Norwegian fishing game.",
    options=(WholeNumber("target", "target", "Points to win (default 16)", 1, 99, 16, usual=(11, 16, 21)),),
    settings_line=_settings_line,
    notation=Message("kasino.rules.notation"),
    house_rules=HOUSE_RULES,
    house_rules_fit=house_rules_fit,
    public_view=KasinoPublicView,
    table_picture="render.kasino:render_kasino_table",
    players=(
        ("easy", "ai.kasino_easy:EasyKasino"),
        ("medium", "ai.kasino_medium:MediumKasino"),
        ("hard", "ai.kasino_hard:HardKasino"),
        ("expert", "ai.kasino_expert:ExpertKasino"),
    ),
)

"""Garbage as one kind of game among others: what the lobby, storage and boards need to know."""

from __future__ import annotations

from engine.garbage.game import GarbageGame
from engine.garbage.moves import MAX_SPOT
from engine.garbage.rules import DECK_CHOICES, WILD_RANKS, GarbageSettings, decks_fit
from engine.garbage.views import GarbagePublicView
from engine.kinds import GameKind, HouseRule, WholeNumber
from engine.message import Count, Message


def _settings_line(settings: GarbageSettings) -> Message:
    if settings.start_size == MAX_SPOT:
        return Message("garbage.settings-full", {"spots": Count(MAX_SPOT, "spot")})
    return Message("garbage.settings-short", {"spots": Count(settings.start_size, "spot")})


def _house_rules_fit(settings: GarbageSettings, seats: int) -> Message | None:
    """GV5: a fixed number of decks must leave a stock of ten cards after the first deal; the other rules always fit."""
    return decks_fit(settings, seats)


DEFAULTS = GarbageSettings()
HOUSE_RULES = (  # RULES.md "House rules (variants)", GV1–GV5, each value in the order the lobby offers it
    HouseRule("GV1", "wild_rank", tuple(WILD_RANKS), DEFAULTS.wild_rank),
    HouseRule("GV2", "jokers", (False, True), DEFAULTS.jokers),
    HouseRule("GV3", "start_size", tuple(range(MAX_SPOT, 0, -1)), DEFAULTS.start_size),
    HouseRule("GV4", "last_turn", (False, True), DEFAULTS.last_turn),
    HouseRule("GV5", "decks", DECK_CHOICES, DEFAULTS.decks),
)

KIND = GameKind(
    name="garbage",
    code="g",
    engine=GarbageGame,
    score_unit="count.hand won",
    private_hands=False,  # G3, G11: face-down spots are hidden from everyone, their owner too
    tagline="Play Garbage (Trash), 2 to 6 players.",
    options=(WholeNumber("size", "start_size", "Starting layout size, 1–10 (default 10)", 1, MAX_SPOT, MAX_SPOT),),
    settings_line=_settings_line,
    notation=Message("garbage.rules.notation"),
    house_rules=HOUSE_RULES,
    house_rules_fit=_house_rules_fit,
    public_view=GarbagePublicView,
    table_picture="render.garbage:render_garbage_table",
    players=(
        ("easy", "ai.garbage_players:EasyGarbage"),
        ("medium", "ai.garbage_players:MediumGarbage"),
        ("hard", "ai.garbage_hard:HardGarbage"),
    ),
    player_words=(
        ("easy", "garbage.computers.menu.easy"),
        ("medium", "garbage.computers.menu.medium"),
        ("hard", "garbage.computers.menu.hard"),
    ),
)

"""Garbage as one kind of game among others: what the lobby, storage and boards need to know."""

from __future__ import annotations

from engine.garbage.game import GarbageGame
from engine.garbage.moves import MAX_SPOT
from engine.garbage.rules import GarbageSettings
from engine.garbage.views import GarbagePublicView
from engine.kinds import GameKind, WholeNumber
from engine.message import Count, Message


def _settings_line(settings: GarbageSettings) -> Message:
    if settings.start_size == MAX_SPOT:
        return Message("garbage.settings-full", {"spots": Count(MAX_SPOT, "spot")})
    return Message("garbage.settings-short", {"spots": Count(settings.start_size, "spot")})


KIND = GameKind(
    name="garbage",
    code="g",
    engine=GarbageGame,
    score_unit="hand won",
    private_hands=False,  # G3, G11: face-down spots are hidden from everyone, their owner too
    tagline="Play Garbage (Trash), 2 to 6 players.",
    options=(WholeNumber("size", "start_size", "Starting layout size, 1–10 (default 10)", 1, MAX_SPOT, MAX_SPOT),),
    settings_line=_settings_line,
    notation=Message("garbage.rules.notation"),
    public_view=GarbagePublicView,
    table_picture="render.garbage:render_garbage_table",
    players=(
        ("easy", "ai.garbage_players:EasyGarbage"),
        ("medium", "ai.garbage_players:MediumGarbage"),
        ("hard", "ai.garbage_hard:HardGarbage"),
    ),
)

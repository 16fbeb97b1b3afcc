"""What the living table message shows, and what each game kind supplies to draw it."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from cogs.runtime.text import clip
from cogs.runtime.words import name_of
from db.records import GameRecord
from engine.base import AnyGame, Event
from engine.registry import game_kind
from i18n import SOURCE_LOCALE, say

PICTURE_NAME = "table.png"
DESCRIPTION_LIMIT = 1024  # characters in an attachment's description (its alt text)


@dataclass(frozen=True, slots=True)
class TableMessage:
    """What the living table shows: text, one embed, the buttons for the player to move, maybe a picture."""

    content: str
    embed: discord.Embed
    view: discord.ui.View | None = None
    picture: bytes | None = None
    locale: str = SOURCE_LOCALE  # the picture's language (the server's), which its description is told in

    def files(self) -> list[discord.File]:
        """The picture as an attachment with a short description (its alt text): `alt_text()`."""
        if self.picture is None:
            return []
        return [discord.File(io.BytesIO(self.picture), filename=PICTURE_NAME, description=self.alt_text())]

    def alt_text(self) -> str:
        """What the picture is, in one line, such as "Picture of the table: Kasino #12 · round 2 · Kari to play".

        Only the headline: the embed beside the picture already says everything the picture shows, so a screen
        reader that read the whole table here would read it twice. Told in the picture's `locale`.
        """
        headline = self.content.split("\n", 1)[0].replace("**", "")
        return clip(say(self.locale, "picture.table-alt", headline=headline), DESCRIPTION_LIMIT)

    def without_picture(self) -> TableMessage:
        """The same table as text only."""
        embed = self.embed.copy()
        embed.set_image(url=None)
        return replace(self, embed=embed, picture=None)


def turn_headline(record: GameRecord, stage: str, to_move: int | None, locale: str = SOURCE_LOCALE) -> str:
    """The table's first line in `locale`: who is to play at which stage ("round 2"), or that the game is over."""
    title = f"**{game_kind(record.kind).title} #{record.id}**"
    if to_move is None:
        return say(locale, "table.headline-over", title=title)
    return say(locale, "table.headline", title=title, stage=stage, player=name_of(record, to_move, locale))


def seat_heading(
    record: GameRecord, seat: int, to_move: int | None, *, resigned: bool, locale: str = SOURCE_LOCALE
) -> str:
    """A seat's name on the table, marked ▶ while it is to play (not once the game is cancelled) and when resigned."""
    marker = " ▶" if seat == to_move and record.status == "running" else ""
    name = f"{name_of(record, seat, locale)}{marker}"
    return say(locale, "table.seat-resigned", player=name) if resigned else name


class GameUI:
    """A game's Discord side: one object per kind, registered with the presenter by the kind's package.

    `render_table` and `rules` every kind supplies; the rest have defaults for a kind that lacks them: no one-off
    posts, no private hands (a kind whose `GameKind.private_hands` is set supplies `hand_panel`), no pictures of
    hands, nothing revealed once a game is over.
    """

    def render_table(self, record: GameRecord, game: AnyGame, narration: Sequence[str], locale: str) -> TableMessage:
        """The table message for the public view of `game`, in the server's `locale` (the narration is told in it)."""
        raise NotImplementedError

    def rules(self, locale: str) -> str:
        """The rules as players read them in `/rules`, in `locale`'s words."""
        raise NotImplementedError

    def notices(self, record: GameRecord, events: Sequence[Event], locale: str) -> list[str]:
        """One-off public posts for one move's events (a round's scores, a won hand), posted once each, in order.

        `locale` is the server's: what the posts tell from messages is told in it.
        """
        return []

    def hand_panel(self, record: GameRecord, game: AnyGame, seat: int, locale: str) -> dict[str, Any]:
        """A seat's private panel (message fields: content, view, attachments) from that seat's view, in `locale`."""
        raise NotImplementedError(f"{record.kind} has no private hands")

    async def draw_hand_pictures(self, record: GameRecord, game: AnyGame, readers: Iterable[tuple[int, str]]) -> None:
        """Draw off the event loop the pictures of these (seat, locale) panels, for `hand_panel` to use."""
        return None

    def reveals(self, record: GameRecord, events: Sequence[Event], locale: str) -> list[str]:
        """What one move's events reveal once the game is over (Kasino: each capture pile, K16), in `locale`."""
        return []

"""A Kasino player's private panel: their hand and the menu of their legal moves.

The same panel is sent by DM and, as an ephemeral reply, by **Show my hand** or `/kasino hand`. Every
component is a `DynamicItem` whose custom id carries the game (and, where a click changes the game, the
version it was drawn for), so the panel keeps working after a restart and a stale click is refused.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Self

import discord

from cogs.kasino.render import hand_text
from cogs.runtime.controls import unkept_view
from cogs.runtime.delivery import settle_and_tell, tell_caught_up
from cogs.runtime.drawing import drawn
from cogs.runtime.errors import acknowledge, guarded
from cogs.runtime.hands import refresh_button, seat_of
from cogs.runtime.ids import card_arg, component_id, game_template, number
from cogs.runtime.language import private_locale
from cogs.runtime.lookup import bot_of, check_component, component_checked, component_game_now, engine_as
from cogs.runtime.recent import Recent
from cogs.runtime.text import clip, legible
from cogs.runtime.words import move_words
from db.records import GameRecord
from engine.base import AnyGame
from engine.cards import Card
from engine.kasino import KasinoGame
from engine.kasino.moves import CardMove, Place, Take
from engine.kasino.table import hand_order
from engine.kasino.views import KasinoView
from i18n import SOURCE_LOCALE, card_words, counted, say
from render.kasino_hand import render_hand
from service.errors import RefusedError
from service.tables import USER_ERRORS, MoveResult

if TYPE_CHECKING:
    from cogs.runtime.host import GameBot

log = logging.getLogger(__name__)

SELECT_LIMIT = 25
BUTTON_LABEL_LIMIT = 80
ROW_WIDTH = 5  # buttons in one row
ROWS = 5  # rows in one message
ROW_LABELS = 60  # characters of labels in one row of move buttons, so a row reads on a phone without wrapping much
HAND_PICTURE = "hand.png"
# Hand pictures kept, newest first (about 7 KB each). One is drawn just before the panel that shows it is built, and
# shown again only while that hand stays the same (a Show hand click); 512 held 3.5 MB of the hands of games the
# start-up catch-up had shown and would not show again. A picture pushed out is drawn again (a few milliseconds).
HAND_PICTURES_KEPT = 128
CARD_ARG = r"(?:10|[2-9akqj])[shdc]"
OUT_OF_DATE = "kasino.table.out-of-date"  # a refusal: the move picked is not one of the current version's
# What may fail redrawing a panel once a move is saved: Discord, or reading the game back.
REDRAW_FAILURES: tuple[type[Exception], ...] = (discord.HTTPException, *USER_ERRORS)


def best_first(game: KasinoGame, moves: Sequence[CardMove]) -> list[CardMove]:
    """Moves in the order a player most likely wants them: biggest takes, then builds and doubles, then places."""

    def key(move: CardMove) -> tuple[int, int]:
        if isinstance(move, Take):
            return 0, -len(move.targets)
        return (2, 0) if isinstance(move, Place) else (1, 0)

    return sorted(moves, key=key)


def moves_by_card(game: KasinoGame, seat: int) -> dict[Card, list[CardMove]]:
    """The seat's legal moves per hand card, cards in hand order and each card's moves best first.

    A move button names its move by card and place in this list, which is the same for the same game version.
    """
    by_card: dict[Card, list[CardMove]] = {}
    for move in best_first(game, game.legal_moves(seat)):
        by_card.setdefault(move.card, []).append(move)
    return dict(sorted(by_card.items(), key=lambda pair: hand_order(pair[0])))


def kasino_hand_panel(record: GameRecord, game: AnyGame, seat: int, locale: str) -> dict[str, Any]:
    """Kasino's private panel for the shared hand machinery (`cogs.runtime.hands`), in its reader's `locale`."""
    return panel(record, engine_as(game, KasinoGame), seat, locale)


def panel(
    record: GameRecord,
    game: KasinoGame,
    seat: int,
    locale: str = SOURCE_LOCALE,
    *,
    card: Card | None = None,
    offset: int = 0,
) -> dict[str, Any]:
    """Content and view of a seat's panel: two taps to a move, the moves said in the reader's `locale`.

    On the seat's turn the first row holds the hand as buttons: a card with one legal move plays it at once (its
    label says the move, "Place 4♠"); any other card shows its moves (`card`), as buttons under the hand or, when
    they do not fit, as a menu (`offset`: its page). Refresh ends the first row.
    """
    view = unkept_view()
    by_card = moves_by_card(game, seat) if record.status == "running" else {}
    content = legible(hand_text(record, game, seat, locale))
    chosen = card if card is not None and len(by_card.get(card, ())) > 1 else None
    first_row: list[discord.ui.Item[Any]] = []
    for hand_card, moves in by_card.items():
        if len(moves) == 1:
            first_row.append(MoveButton.build(record, game, moves[0], 0, locale))
        else:
            first_row.append(
                CardButton(
                    record.id, record.version, hand_card, moves=len(moves), chosen=hand_card == chosen, locale=locale
                )
            )
    first_row.append(refresh_button("kasino", record.id, locale))
    for index, item in enumerate(first_row):
        item.row = index // ROW_WIDTH
        view.add_item(item)
    if chosen is not None:
        below = (len(first_row) - 1) // ROW_WIDTH + 1
        moves = by_card[chosen]
        rows = _button_rows([_label(game, move, locale) for move in moves], ROWS - below)
        if rows is None:
            select = MoveSelect.build(record, game, moves, locale, card=chosen, offset=offset)
            select.row = below
            view.add_item(select)
        else:
            for index, row in enumerate(rows):
                for position in row:
                    button = MoveButton.build(record, game, moves[position], position, locale)
                    button.row = below + index
                    view.add_item(button)
        content += "\n" + legible(say(locale, "kasino.table.choose", card=card_words(chosen, locale)))
    if record.status == "cancelled":  # the picture would still say "waiting"; the text says the game ended
        return {"content": content, "view": view, "attachments": []}
    picture = discord.File(
        io.BytesIO(_hand_png(game.view(seat), locale)),
        filename=HAND_PICTURE,
        description=say(locale, "kasino.table.hand-picture"),
    )
    return {"content": content, "view": view, "attachments": [picture]}


def _label(game: KasinoGame, move: CardMove, locale: str) -> str:
    """A move's words on a button: the imperative of `describe_move`, as the narration will say it."""
    return clip(legible(move_words(game, move, locale)), BUTTON_LABEL_LIMIT)


def _button_rows(labels: Sequence[str], rows: int) -> list[list[int]] | None:
    """The labels' positions packed into at most `rows` rows of buttons, in order (None: they do not fit)."""
    packed: list[list[int]] = []
    width = 0
    for position, label in enumerate(labels):
        if packed and len(packed[-1]) < ROW_WIDTH and width + len(label) <= ROW_LABELS:
            packed[-1].append(position)
            width += len(label)
        else:
            packed.append([position])
            width = len(label)
    return packed if len(packed) <= rows else None


def _style(move: CardMove) -> discord.ButtonStyle:
    # Takes in green, places in grey, builds and doubles in blue; the words say it too (colour is never alone).
    if isinstance(move, Take):
        return discord.ButtonStyle.success
    return discord.ButtonStyle.secondary if isinstance(move, Place) else discord.ButtonStyle.primary


_HAND_PICTURES: Recent[tuple[object, ...], bytes] = Recent(HAND_PICTURES_KEPT)


def _hand_key(view: KasinoView, locale: str) -> tuple[object, ...]:
    # What the picture shows (hand, round, turn) and in which words: it is drawn once per hand and language.
    public = view.public
    return (tuple(view.hand), public.round, public.over, public.to_move == view.seat, locale)


def _hand_png(view: KasinoView, locale: str) -> bytes:
    # Normally drawn already, off the event loop, by `draw_hand_pictures`; else drawn here (a few milliseconds).
    key = _hand_key(view, locale)
    return _HAND_PICTURES.get(key) or _HAND_PICTURES.put(key, render_hand(view, locale).png)


async def draw_hand_pictures(record: GameRecord, game: AnyGame, readers: Iterable[tuple[int, str]]) -> None:
    """Draw, in a worker thread, the hand pictures these (seat, locale) panels show and that are not drawn yet.

    `panel` then finds them drawn, so building a panel never draws on the event loop (a hand takes about 4 ms).
    """
    if record.status == "cancelled":
        return  # a cancelled game's panel has no picture
    kasino = engine_as(game, KasinoGame)
    wanted = ((kasino.view(seat), locale) for seat, locale in readers)
    views = {_hand_key(view, locale): (view, locale) for view, locale in wanted}
    missing = [(key, shown) for key, shown in views.items() if _HAND_PICTURES.get(key) is None]
    if not missing:
        return
    try:
        pictures = await drawn(lambda: [(key, render_hand(*shown).png) for key, shown in missing])
    except Exception:  # the panel draws it again, or goes without it
        log.exception("could not draw the hands of game %s", record.id)
        return
    for key, png in pictures:
        _HAND_PICTURES.put(key, png)


async def drawn_panel(
    record: GameRecord, game: KasinoGame, seat: int, locale: str, *, card: Card | None = None, offset: int = 0
) -> dict[str, Any]:
    """`panel`, with its picture drawn off the event loop first."""
    await draw_hand_pictures(record, game, ((seat, locale),))
    return panel(record, game, seat, locale, card=card, offset=offset)


async def load_seat(
    bot: GameBot, interaction: discord.Interaction, game_id: int, *, drawn_at: int | None = None
) -> tuple[GameRecord, KasinoGame, int]:
    """The Kasino game a panel component names, and the clicker's seat in it.

    The game as stored now (`TableService.current`: one read at most, the engine restored only when not cached). A
    click that is about to act on what it names gives `drawn_at`, the version its panel was drawn at: where the engine
    cache holds that version, the click's move is looked up in it without a read, and the action that follows reads
    the game and refuses it if that version is no longer the stored one.

    Raises:
        RefusedError: no such Kasino game here, or the clicker has no seat in it.
    """
    held = None if drawn_at is None else bot.service.held_at(game_id, drawn_at)
    if held is not None:
        record, engine = held
        check_component(record, interaction, "kasino")
    else:
        record, current = await component_game_now(bot, interaction, game_id, "kasino")
        engine = current if current is not None else bot.service.game_of(record)  # a lobby: refused there
    game = engine_as(engine, KasinoGame)
    return record, game, seat_of(record, game, interaction.user.id, private_locale(interaction))


def _page_choice(choice: str, locale: str) -> tuple[Card | None, int]:
    """The card and offset of a "More moves…" option (`more:<card or ->:<offset>`).

    Raises:
        RefusedError: the value is not one the bot made (said in the clicker's `locale`).
    """
    match = re.fullmatch(rf"more:(?P<card>{CARD_ARG}|-):(?P<offset>[0-9]{{1,4}})", choice)
    if match is None:
        raise RefusedError(say(locale, "kasino.table.unknown-entry", button=say(locale, "panel.refresh")))
    card = None if match["card"] == "-" else Card.parse(match["card"])
    return card, number(match["offset"])


class CardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=game_template("kasino", "card", CARD_ARG)):
    """The first tap: a hand card with several legal moves; the panel then shows its moves."""

    def __init__(
        self,
        game_id: int,
        version: int,
        card: Card,
        *,
        moves: int = 0,
        chosen: bool = False,
        locale: str = SOURCE_LOCALE,
    ) -> None:
        said = card_words(card, locale)
        label = (
            say(locale, "kasino.table.card-moves", card=said, moves=counted(moves, "move", locale)) if moves else said
        )
        super().__init__(
            discord.ui.Button(
                label=legible(label),
                style=discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary,
                custom_id=component_id("kasino", game_id, version, "card", card_arg(card)),
            )
        )
        self.game_id, self.version, self.card = game_id, version, card

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from the custom id."""
        return cls(number(match["game_id"]), number(match["version"]), Card.parse(match["arg"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the moves of the chosen card."""
        await acknowledge(interaction)
        record, game, seat = await load_seat(bot_of(interaction), interaction, self.game_id)
        locale = private_locale(interaction)
        if record.version != self.version:
            await interaction.edit_original_response(**await drawn_panel(record, game, seat, locale))
            stale = say(locale, "kasino.table.menu-out-of-date")
            await interaction.followup.send(stale, ephemeral=True)
            return
        await interaction.edit_original_response(**await drawn_panel(record, game, seat, locale, card=self.card))


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=game_template("kasino", "pick", rf"{CARD_ARG}:[0-9]{{1,4}}"),
):
    """The second tap (or the only one, for a card with one move): play this move.

    Its custom id names the move by hand card and place in `moves_by_card` at the game version it carries; a click
    on an older version is refused before the move is looked up, so it can never play a different move.
    """

    def __init__(self, game_id: int, version: int, card: Card, index: int, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.game_id, self.version, self.card, self.index = game_id, version, card, index

    @classmethod
    def build(cls, record: GameRecord, game: KasinoGame, move: CardMove, index: int, locale: str) -> MoveButton:
        """The button of `move`, the `index`-th of its card's moves, labelled with the move's words in `locale`."""
        custom_id = component_id("kasino", record.id, record.version, "pick", f"{card_arg(move.card)}:{index}")
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=_label(game, move, locale), style=_style(move), custom_id=custom_id
        )
        return cls(record.id, record.version, move.card, index, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from the custom id."""
        card, index = match["arg"].split(":")
        button = item if isinstance(item, discord.ui.Button) else discord.ui.Button(custom_id=match.string)
        return cls(number(match["game_id"]), number(match["version"]), Card.parse(card), number(index), button)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the move, if the panel is still current."""
        bot = bot_of(interaction)
        await acknowledge(interaction)
        record, game, seat = await load_seat(bot, interaction, self.game_id, drawn_at=self.version)
        locale = private_locale(interaction)
        if record.status != "running":
            raise RefusedError(say(locale, "table.game-is-over"))
        moves = moves_by_card(game, seat).get(self.card, []) if record.version == self.version else []
        if self.index >= len(moves):
            await _redraw(bot, interaction, self.game_id)
            raise RefusedError(say(locale, OUT_OF_DATE))
        await play_from_panel(bot, interaction, self.game_id, moves[self.index], self.version, checked=True)


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=game_template("kasino", "move")):
    """The menu of legal moves; its value is the move's notation, so the engine checks it again on arrival."""

    def __init__(self, game_id: int, version: int, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=component_id("kasino", game_id, version, "move")))
        self.game_id, self.version = game_id, version

    @classmethod
    def build(
        cls,
        record: GameRecord,
        game: KasinoGame,
        moves: Sequence[CardMove],
        locale: str,
        *,
        card: Card | None,
        offset: int,
    ) -> MoveSelect:
        """A menu of `moves` in `locale`, 25 at a time: the last option of a full page shows the next one."""
        if len(moves) > SELECT_LIMIT:
            offset = offset if offset < len(moves) else 0
            page = moves[offset : offset + SELECT_LIMIT - 1]
        else:
            offset, page = 0, moves
        options = [
            discord.SelectOption(label=clip(legible(move_words(game, move, locale)), 100), value=str(move))
            for move in page
        ]
        if len(moves) > SELECT_LIMIT:
            following = offset + len(page)
            more = f"more:{card_arg(card) if card else '-'}:{following if following < len(moves) else 0}"
            options.append(discord.SelectOption(label=say(locale, "kasino.table.more-moves"), value=more))
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=component_id("kasino", record.id, record.version, "move"),
            placeholder=say(locale, "kasino.table.choose-move"),
            options=options,
        )
        return cls(record.id, record.version, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild from the custom id, keeping the chosen values."""
        select = item if isinstance(item, discord.ui.Select) else None
        return cls(number(match["game_id"]), number(match["version"]), select)

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the chosen move, or turn the page."""
        bot = bot_of(interaction)
        await acknowledge(interaction)
        choice = self.item.values[0]
        if choice.startswith("more:"):
            locale = private_locale(interaction)
            card, offset = _page_choice(choice, locale)
            record, game, seat = await load_seat(bot, interaction, self.game_id)
            redrawn = await drawn_panel(record, game, seat, locale, card=card, offset=offset)
            await interaction.edit_original_response(**redrawn)
            return
        await play_from_panel(bot, interaction, self.game_id, choice, self.version)


async def play_from_panel(
    bot: GameBot,
    interaction: discord.Interaction,
    game_id: int,
    move: str | CardMove,
    version: int | None,
    *,
    checked: bool = False,
) -> None:
    """Apply a move picked on a panel (already acknowledged), show it everywhere, and redraw the panel it came from.

    The seat's DM panel is redrawn by the delivery like every seat's. An ephemeral one (Show my hand) becomes the
    member's kept panel, so the delivery redraws it through this click's token and tries again while the token lives
    should that fail. Once the move is saved, nothing that fails is answered as if it had not counted: the player
    is told it counted and that the table will catch up (`settle_and_tell`).

    `checked`: the component's game was checked already (`load_seat`); the move itself reads the game once, in the
    service, and everything after it is drawn from the move's result.
    """
    if not checked:
        await component_checked(bot, interaction, game_id, "kasino")
    try:
        result = await bot.service.play(game_id, interaction.user.id, move, version=version)
    except USER_ERRORS:
        await _redraw(bot, interaction, game_id)
        raise
    clicked = interaction.message
    if clicked is not None and clicked.flags.ephemeral:
        await bot.delivery.show_panel(game_id, interaction, clicked.id, state="")  # "": redrawn whatever it shows
    if await settle_and_tell(bot, interaction, [result]) and not _redrawn(bot, interaction, result):
        await _redraw_old_panel(bot, interaction, result)


def _redrawn(bot: GameBot, interaction: discord.Interaction, result: MoveResult) -> bool:
    """Whether the delivery redraws the panel clicked: the seat's DM panel, or an ephemeral panel (kept)."""
    clicked = interaction.message
    return clicked is None or clicked.flags.ephemeral or clicked.id == result.record.seats[result.seat].hand_message_id


async def _redraw_old_panel(bot: GameBot, interaction: discord.Interaction, result: MoveResult) -> None:
    """Redraw an older DM panel the move was picked on; a failure is told as the table catching up, not an error."""
    try:
        record, current = await bot.service.current(result.record.id)
        game = engine_as(current if current is not None else bot.service.game_of(record), KasinoGame)
        await interaction.edit_original_response(
            **await drawn_panel(record, game, result.seat, private_locale(interaction))
        )
    except REDRAW_FAILURES:
        log.info("game #%d: the panel a move was picked on could not be redrawn", result.record.id)
        await tell_caught_up(interaction)


async def _redraw(bot: GameBot, interaction: discord.Interaction, game_id: int) -> None:
    # A refused pick was made on an old menu: show the current one in its place.
    try:
        record, game, seat = await load_seat(bot, interaction, game_id)
        if record.status == "running":
            redrawn = await drawn_panel(record, game, seat, private_locale(interaction))
            await interaction.edit_original_response(**redrawn)
    except USER_ERRORS:
        log.debug("the panel of game %s cannot be redrawn", game_id)
    except discord.HTTPException:
        log.debug("could not redraw the panel of game %s", game_id)


DYNAMIC_ITEMS = (CardButton, MoveButton, MoveSelect)

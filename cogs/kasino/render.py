"""Kasino as text: the public table (from `public_view()` only) and a player's hand (from `view(seat)`).

Every text is told in one locale: the table and the round's scores in the server's, a panel in its reader's.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs.runtime.table import seat_heading, turn_headline
from cogs.runtime.text import clip
from cogs.runtime.words import game_title, seat_names
from db.records import GameRecord
from engine.cards import Card
from engine.kasino import KasinoGame
from engine.kasino.kind import KIND
from engine.kasino.scoring import OFF, KasinoSettings, SeatScore
from engine.kasino.table import TableItem, hand_order
from engine.kasino.views import KasinoPublicView
from engine.kinds import value_key
from i18n import SOURCE_LOCALE, card_words, counted, join_names, say

FIELD_LIMIT = 1024
SCORE_LINES = (  # K14's lines of a round's score, each said with its points ("most cards 2")
    ("most_cards", "kasino.table.most-cards"),
    ("most_spades", "kasino.table.most-spades"),
    ("aces", "kasino.table.aces"),
    ("little_casino", "kasino.table.little-casino"),
    ("big_casino", "kasino.table.big-casino"),
    ("sweeps", "kasino.table.sweeps"),
    ("last_take", "kasino.table.last-take"),
)
# The house rules that change how a round adds up (KV2, KV3): a round's scores name them when they differ from the
# defaults. Partnerships (KV5) show as the teams' own blocks.
SCORING_RULES = ("sweeps", "last_deal_sweeps", "most_cards", "most_spades")
DEFAULT_SETTINGS = KasinoSettings()


def cards_words(cards: Sequence[Card], locale: str, sep: str = " ") -> str:
    """Cards as `locale` writes them, in a row."""
    return sep.join(card_words(card, locale) for card in cards)


def item_text(item: TableItem, names: Sequence[str], locale: str = SOURCE_LOCALE) -> str:
    """One table item in words: `7♣`, `pile 7♦ 7♣ (7)`, `build 9 of Ali: 4♠ 5♥`."""
    if item.kind == "loose":
        return card_words(item.cards[0], locale)
    cards = cards_words(item.cards, locale)
    if item.kind == "pile":
        return say(locale, "kasino.table.pile", cards=cards, value=item.value)
    owner = names[item.owner] if item.owner is not None else "?"  # a build always has one (the engine checks)
    build = "kasino.table.build-doubled" if item.doubled else "kasino.table.build"
    return say(locale, build, value=item.value, owner=owner, cards=cards)


def table_items(items: Sequence[TableItem], names: Sequence[str], locale: str) -> str:
    """Every item on the table, or that it is empty."""
    return " · ".join(item_text(item, names, locale) for item in items) or say(locale, "table.empty")


def team_number(seat: int) -> int:
    """KV5: a seat's team as players number them, 1 (seats 1 and 3) or 2 (seats 2 and 4)."""
    return seat % 2 + 1


def side_words(side: Sequence[int], names: Sequence[str], locale: str = SOURCE_LOCALE) -> str:
    """A player by name, or partners (KV5) as "Kari & Nora"."""
    if len(side) == 1:
        return names[side[0]]
    return say(locale, "kasino.team", first=names[side[0]], second=names[side[1]])


def public_table(
    record: GameRecord, view: KasinoPublicView, narration: Sequence[str], locale: str = SOURCE_LOCALE
) -> tuple[str, discord.Embed]:
    """The living table in the server's `locale`: whose turn, every table item, the counts per seat, the last action.

    In partnerships (KV5) a line names the teams, each seat's heading its team, and its score is the team's.
    """
    names = seat_names(record, locale)
    to_move = None if view.over else view.to_move
    headline = turn_headline(record, say(locale, "kasino.table.stage", round=view.round), to_move, locale)
    items = table_items(view.table, names, locale)
    counts = say(
        locale,
        "kasino.table.counts",
        stock=counted(view.stock, "card", locale),
        dealer=names[view.dealer],
        target=counted(view.target, "point", locale),
    )
    description = say(locale, "kasino.table.on-table", items=items) + "\n" + counts
    teams = view.teams
    if teams is not None:
        description += "\n" + " · ".join(
            say(locale, "kasino.table.team-players", team=team_number(team[0]), players=side_words(team, names, locale))
            for team in teams
        )
    embed = discord.Embed(
        title=say(locale, "kasino.table.title", title=game_title(record), round=view.round), description=description
    )
    seat_line = _SEAT_LINES[teams is not None, view.settings.sweeps == OFF]
    for seat in view.seats:
        heading = seat_heading(record, seat.seat, to_move, resigned=seat.resigned, locale=locale)
        if teams is not None:
            heading += " · " + say(locale, "kasino.table.team", team=team_number(seat.seat))
        counts_of_seat = {"hand": seat.hand_size, "captured": seat.captured, "score": seat.score}
        if view.settings.sweeps != OFF:
            counts_of_seat["sweeps"] = seat.sweeps
        embed.add_field(name=heading, value=say(locale, seat_line, **counts_of_seat), inline=True)
    last = "\n".join(narration)
    if last:
        embed.add_field(name=say(locale, "kasino.table.last-move"), value=clip(last, FIELD_LIMIT), inline=False)
    return headline, embed


# (partnerships, sweeps off): a seat's line on the table
_SEAT_LINES = {
    (False, False): "kasino.table.seat",
    (False, True): "kasino.table.seat-no-sweeps",
    (True, False): "kasino.table.seat-team",
    (True, True): "kasino.table.seat-team-no-sweeps",
}


def score_table(
    names: Sequence[str],
    scores: Sequence[SeatScore],
    round_number: int,
    locale: str = SOURCE_LOCALE,
    *,
    teams: Sequence[Sequence[int]] | None = None,
    settings: KasinoSettings = DEFAULT_SETTINGS,
) -> str:
    """The K14 breakdown of one round (posted when the round is scored): one short block per player, name first.

    Not a fixed-width table: its columns cut long names ("Computer (hard)"); each name here is whole, and on a phone
    each block wraps as words do. Told in the server's `locale`. It adds up as the game's house rules do: a line
    names the scoring rules that differ from the defaults and the points a round holds with them; in partnerships
    (`teams`, KV5) each team has one block, "Kari & Nora"; cancelled sweeps (KV2) are said with the sweeps.
    """
    blocks = []
    escaped = [discord.utils.escape_markdown(name) for name in names]
    sides = teams or [(score.seat,) for score in scores]
    for side in sides:
        score = scores[side[0]]
        # Named, not shown as cards: this text is public, and these cards may be in a hand next round.
        scored = [_score_line(score, field, line, locale) for field, line in SCORE_LINES if _scores(score, field)]
        scored = scored or [say(locale, "kasino.table.nothing-scored")]
        blocks.append(
            say(
                locale,
                "kasino.table.score-block",
                player=f"**{side_words(side, escaped, locale)}**",
                points=counted(score.round_total, "point", locale),
                total=score.game_total,
                cards=counted(score.cards, "card", locale),
                spades=counted(score.spades, "spade", locale),
                scored=" · ".join(scored),
            )
        )
    head = [say(locale, "kasino.table.scored", round=round_number)]
    rules = scoring_rules(settings, locale)
    if rules is not None:
        head.append(rules)
    return "\n".join([*head, *blocks, *tied_lines(scores, sides, locale)])


# K14's "most" lines, each with the count it compares, its counted noun, and what a tie is said with.
_MOST = (("cards", "card", "kasino.table.tie-cards"), ("spades", "spade", "kasino.table.tie-spades"))


def tied_lines(scores: Sequence[SeatScore], sides: Sequence[Sequence[int]], locale: str) -> list[str]:
    """A line for each "most" that a tie left unscored (K14: nobody scores it), which the blocks alone never say."""
    lines = []
    for count, noun, message in _MOST:
        counts = [getattr(scores[side[0]], count) for side in sides]
        top = max(counts, default=0)
        unscored = not any(getattr(scores[side[0]], f"most_{count}") for side in sides)
        if top > 0 and counts.count(top) > 1 and unscored:
            lines.append(say(locale, message, count=counted(top, noun, locale)))
    return lines


def _scores(score: SeatScore, field: str) -> bool:
    # Sweeps cancelled under KV2 are said even when none are left to score.
    return bool(getattr(score, field)) or (field == "sweeps" and score.cancelled > 0)


def _score_line(score: SeatScore, field: str, line: str, locale: str) -> str:
    if field == "sweeps" and score.cancelled:
        return say(locale, "kasino.table.sweeps-cancelled", points=score.sweeps, cancelled=score.cancelled)
    return say(locale, line, points=getattr(score, field))


def scoring_rules(settings: KasinoSettings, locale: str = SOURCE_LOCALE) -> str | None:
    """The scoring house rules in force, said once over a round's scores; None when the round adds up as K14 says.

    "Scoring at this table: Most cards: 2 points · Sweeps: cancel out; a round holds 12 points besides sweeps."
    """
    changed = [
        rule for rule in KIND.house_rules
        if rule.setting in SCORING_RULES and getattr(settings, rule.setting) != getattr(DEFAULT_SETTINGS, rule.setting)
    ]  # fmt: skip
    if not changed:
        return None
    words = " · ".join(
        say(
            locale,
            "kasino.table.rule-value",
            rule=say(locale, f"kasino.rule.{rule.setting}"),
            value=say(locale, f"kasino.rule.{rule.setting}.{value_key(getattr(settings, rule.setting))}"),
        )
        for rule in changed
    )
    message = "kasino.table.scoring-no-sweeps" if settings.sweeps == OFF else "kasino.table.scoring"
    return say(locale, message, rules=words, points=counted(settings.round_points(), "point", locale))


def hand_text(record: GameRecord, game: KasinoGame, seat: int, locale: str = SOURCE_LOCALE) -> str:
    """The private panel's text in its reader's `locale`: the hand, and on the seat's turn the table and what to do.

    While it is not the seat's turn the text names nothing that changes with other players' moves, so a waiting
    player's panel is edited only when their own hand changes.
    """
    view = game.view(seat)
    names = [s.name for s in record.seats]
    hand = cards_words(sorted(view.hand, key=hand_order), locale, "  ") or say(locale, "table.no-cards")
    partners = [] if view.public.teams is None else [partner_line(names, seat, locale)]
    place = f"<#{record.thread_id or record.channel_id}>"
    title = game_title(record)
    if view.public.over or record.status != "running":
        if view.public.over:
            ended = "kasino.table.panel-over"
        else:
            ended = "kasino.table.panel-cancelled" if record.status == "cancelled" else "kasino.table.panel-ended"
        return "\n".join(
            [say(locale, ended, title=f"**{title}**", place=place), say(locale, "kasino.table.last-hand", hand=hand)]
        )
    if view.public.to_move != seat:
        return "\n".join(
            [
                say(locale, "kasino.table.panel-waiting", title=title, round=view.public.round),
                *partners,
                f"# {hand}",
                say(locale, "kasino.table.panel-not-yet", place=place),
            ]
        )
    return "\n".join(
        [
            say(locale, "kasino.table.panel-turn", title=title, round=view.public.round, move=view.public.played + 1),
            *partners,
            f"# {hand}",
            say(locale, "kasino.table.panel-table", items=table_items(view.public.table, names, locale)),
            say(locale, "kasino.table.panel-how", command="/kasino play"),
        ]
    )


def partner_line(names: Sequence[str], seat: int, locale: str = SOURCE_LOCALE) -> str:
    """KV5, on a player's own panel: "You play with Nora, against Ola and Per."."""
    opponents = [names[other] for other in range(len(names)) if (other - seat) % 2]
    return say(
        locale, "kasino.table.panel-partner", partner=names[(seat + 2) % 4], opponents=join_names(opponents, locale)
    )

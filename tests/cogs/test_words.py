"""Issue 24, "Words right everywhere": counts with 1, the rating scale, one wording of the resign rule, whole names in
the round's scores, and a Garbage discard that is of no use saying so. Through SimCord where Discord shows it."""

import random
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import discord
import simcord

from cogs.garbage.cog import no_use
from cogs.garbage.cog import public_table as garbage_table
from cogs.kasino.render import hand_text, score_table
from cogs.kasino.render import public_table as kasino_table
from cogs.leaderboard import _kind_field, leaderboard_embed, shown_rating
from cogs.runtime.text import CONTENT_LIMIT, RESIGNED_TURNS
from cogs.runtime.timing import in_words
from db.ratings import DEFAULT_SKILL
from db.records import GameRecord, KindStats, LeaderboardPage, LeaderboardRow, Tally
from engine.cards import Card
from engine.events import AutoPlayed
from engine.garbage import GarbageGame
from engine.garbage.events import Discarded, DiscardReason, HandWon, StockReshuffled
from engine.kasino import KasinoGame
from engine.kasino.scoring import SeatScore
from render.garbage import render_garbage_table
from render.kasino import render_kasino_table
from render.layout import Rendered
from tests.cogs.helpers import (
    bot_of,
    custom_ids,
    game_thread,
    given,
    is_enabled,
    labels,
    member_for,
    open_and_start,
    private_text,
    record_of,
    result_message,
    state_of,
    table_message,
)
from tests.cogs.test_leaderboard import finish_garbage
from tests.outcome import outcome_of
from tests.said import said

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
WRONG = re.compile(r"\b1 (cards|points|spots|hands|games|wins|turns|seconds|minutes|hours)\b|\bpts\b")


def record_stub(kind: str, names: list[str], *, game_id: int = 7) -> GameRecord:
    """What the table functions read of a game's record: kind, id, status and the seats' names."""
    seats = tuple(SimpleNamespace(name=name, is_computer=False, user_id=None) for name in names)
    # The table functions read these fields alone: the stub stands in for the whole record.
    return cast("GameRecord", SimpleNamespace(kind=kind, id=game_id, status="running", seats=seats))


def embed_text(embed: discord.Embed) -> str:
    return "\n".join([embed.description or "", *(f"{f.name}\n{f.value}" for f in embed.fields)])


def picture_words(picture: Rendered) -> list[str]:
    return [written.words for written in picture.texts]


# ----- plurals with 1 --------------------------------------------------------------------------------------------


def test_kv1_kasino_table_and_picture_say_1_point_and_1_card() -> None:
    game = KasinoGame.from_position(["A♠ 5♦", "3♣ 9♥"], ["7♣"], stock="6♥", scores=[1, 0], settings={"target": 1})
    view = game.public_view()
    _, embed = kasino_table(record_stub("kasino", ["Kari", "Ola"]), view, [])
    text = embed_text(embed)
    assert "**Stock:** 1 card ·" in text and "**Playing to** 1 point" in text
    assert "**1** point" in text and "**0** points" in text
    assert not WRONG.search(text), text
    words = picture_words(render_kasino_table(view, ["Kari", "Ola"]))
    assert "1 point" in words and "0 points" in words
    assert any("stock 1 card" in line for line in words) and any("playing to 1 point" in line for line in words)
    assert not any(WRONG.search(line) for line in words), words
    over = replace(view, to_move=None, over=True)
    over_words = " ".join(picture_words(render_kasino_table(over, ["Kari", "Ola"])))
    assert "Game over · won by Kari with 1 point " in over_words


async def test_kv1_a_one_point_game_through_the_bot_says_point(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    await open_and_start(channel, alice, [bob], "kasino new", seats=2, target=1)
    table = table_message(game_thread(channel, 1), 1)
    text = embed_text(table.embeds[0])
    assert "**Playing to** 1 point" in text and text.count("**0** points") == 2
    assert not WRONG.search(text), text


def test_g2_g8_garbage_table_and_picture_say_1_card_1_spot_1_hand_won() -> None:
    # Seat 0 has won one hand (9 spots left); seat 1 has one spot left; the stock holds one card.
    game = GarbageGame.from_position(["A♠ 2♥ 3♦ 4♣ 5♠ 6♥ 7♦ 8♣ 9♠", "A♥"], stock="K♦", discard="Q♣", rest="discard")
    view = game.public_view()
    _, embed = garbage_table(record_stub("garbage", ["Kari", "Ola"]), view, [])
    text = embed_text(embed)
    assert "**Stock:** 1 card" in text
    assert "9 spots · 1 hand won" in text and "1 spot · 9 hands won" in text
    assert not WRONG.search(text), text
    words = picture_words(render_garbage_table(view, ["Kari", "Ola"]))
    assert "1 card" in words
    assert any("9 spots · 1 hand won" in line for line in words)
    assert any("1 spot · 9 hands won" in line for line in words)
    assert not any(WRONG.search(line) for line in words), words


def test_g2_an_empty_discard_pile_is_said_once_without_a_count() -> None:
    # Issue 42's stale lines: it read "Discard pile: (empty) (0 cards)".
    game = GarbageGame.from_position(["A♠", "A♥"], stock="K♦ Q♣", rest="stock")
    view = game.public_view()
    assert view.discard_top is None and view.discard_size == 0
    for locale, empty in (("en", "empty"), ("no", "tom"), ("hu", "üres"), ("id", "kosong")):
        _, embed = garbage_table(record_stub("garbage", ["Kari", "Ola"]), view, [], locale)
        assert embed.description is not None and f":** {empty} · **" in embed.description, embed.description
        assert "(" not in embed.description, embed.description


def test_g6d_g7_g8_garbage_narration_counts_one_right() -> None:
    names = ["Kari", "Ola"]
    assert said(Discarded(0, Card.parse("2♣"), DiscardReason.ABOVE_LAYOUT, 1), names) == (
        "Kari discarded 2♣: Kari's layout has only 1 spot."
    )
    assert said(StockReshuffled(1), names) == (
        "The stock ran out: the discard pile under its top card (1 card) was shuffled into a new stock."
    )
    won = said(HandWon(0, 3, Card.parse("Q♣"), (1, 2), game_won=False), names)
    assert won.endswith("Layouts now: Kari 1 spot, Ola 2 spots.")


def test_boards_stats_and_timers_count_one_right() -> None:
    row = LeaderboardRow(1, 5, "alice", 0.0, 1, 1, 1.0, 1)
    page = LeaderboardPage((row,), 0, 1, 1, "win_rate", 1)
    embed = leaderboard_embed("Cards", "kasino", page)
    assert embed.description == "**1.** alice — rating 1000 · 1 win / 1 game (100%) · 1 point"
    assert embed.footer.text is not None
    assert "at least 1 game" in embed.footer.text
    field = _kind_field(KindStats("kasino", Tally(1, 1, 1), Tally(1, 0, 0), 0.0, 1, 1))
    assert (
        field == "This server: 1 game · 1 win (100%) · 1 point · rating 1000 (#1 of 1)\n"
        "All servers: 1 game · 0 wins (0%) · 0 points"
    )
    assert [in_words(1), in_words(60), in_words(3661)] == ["1 second", "1 minute", "1 hour 1 minute 1 second"]


async def test_a_lobby_with_a_limit_of_one_automatic_turn_says_turn(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    opened = await members[0].slash(channel, "garbage new", timer="2m", afk=1)
    assert opened.response is not None
    assert "2 minutes per turn; after 1 automatic turn in a row a player is resigned." in opened.response.content


# ----- ratings ---------------------------------------------------------------------------------------------------


def test_shown_rating_starts_new_players_at_1000_and_is_never_negative() -> None:
    assert DEFAULT_SKILL.rating == 0 and shown_rating(DEFAULT_SKILL.rating) == 1000
    assert shown_rating(-1.833) == 908 and shown_rating(3.4) == 1170
    assert shown_rating(-30.0) == 0
    ordinals = [-25.0, -1.8, 0.0, 0.1, 2.5, 40.0]
    assert [shown_rating(o) for o in ordinals] == sorted(shown_rating(o) for o in ordinals)  # the order is kept


async def test_a_player_who_lost_their_first_game_is_shown_a_positive_rating(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=1)
    final = await finish_garbage(simcord_env, channel, members, game_id)
    loser = member_for(members, final, 1 - state_of(final)["game_winner"])
    # The result line counts each player's hands won in the right form ("1 hand won", "0 hands won").
    line = result_message(game_thread(channel, game_id), game_id).content
    counts = re.findall(r": (\d+) (hands? won)", line)
    assert len(counts) == 2 and all((n == "1") == (noun == "hand won") for n, noun in counts), line
    assert loser is not None
    assert channel.guild is not None
    stored = await bot_of(simcord_env).store.player_stats(loser.id, channel.guild.id)
    # openskill's ordinal (mu - 3 sigma), as stored: below zero after a first loss.
    rating = next(kind for kind in stored.kinds if kind.kind == "garbage").rating
    assert rating is not None
    assert rating < 0
    stats = await loser.slash(channel, "stats")
    assert stats.response is not None
    field = next(f for f in stats.response.embeds[0].fields if f.name == "Garbage")
    assert field.value is not None
    found = re.search(r"rating (-?\d+)", field.value)
    assert found is not None
    shown = int(found[1])
    assert 800 < shown < 1000, field.value
    board = await carol.slash(channel, "leaderboard", game="garbage")
    assert board.response is not None
    assert board.response.embeds[0].description is not None
    ratings = [int(n) for n in re.findall(r"rating (-?\d+)", board.response.embeds[0].description)]
    assert len(ratings) == 2 and all(rating > 0 for rating in ratings)
    newcomer = await carol.slash(channel, "stats")
    assert newcomer.response is not None
    newcomer_field = next(f for f in newcomer.response.embeds[0].fields if f.name == "Garbage")
    assert newcomer_field.value is not None
    assert "unrated" in newcomer_field.value


# ----- one rule, one wording -------------------------------------------------------------------------------------


async def test_the_resigned_players_turns_are_told_in_one_sentence_in_readme_rules_and_timer_text(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    """What the engines do (engine/core.py `apply`): the seat places last, its later turns are played with the game's
    simple move, and a game with one player left ends. README, `/rules` of both games and the lobby's timer line
    say it in the same sentence."""
    alice = members[0]

    def flat(text: str | None) -> str:
        assert text is not None
        return " ".join(text.split())

    assert RESIGNED_TURNS in flat(README)
    for game in ("kasino", "garbage"):
        shown = await alice.slash(channel, "rules", game=game)
        assert shown.response is not None
        assert RESIGNED_TURNS in flat(shown.response.embeds[0].description), game
        assert shown.response.embeds[0].description is not None
        assert "remaining turns" not in shown.response.embeds[0].description
    opened = await alice.slash(channel, "kasino new", timer="15m")
    assert opened.response is not None
    assert RESIGNED_TURNS in flat(opened.response.content)


def test_the_resign_sentence_says_what_the_engines_do() -> None:
    # "a game left with one player ends at once", and the resigned player places last:
    two = KasinoGame.from_position(["A♠ 5♦", "3♣ 9♥"], ["7♣"], to_move=1)
    two.play(0, "resign")
    assert two.is_over() and outcome_of(two).places == (2, 1)
    # "the bot plays each of their later turns with the simplest move": Kasino's places the lowest card (K11).
    three = KasinoGame.from_position(["A♠ 5♦", "3♣ 9♥", "2♥ 4♥"], ["7♣"], to_move=0)
    three.play(1, "resign")
    events = three.play(0, "5♦ place")
    assert [str(event.move) for event in events if isinstance(event, AutoPlayed)] == ["3♣ place"]
    assert not three.is_over()


# ----- the round's scores ----------------------------------------------------------------------------------------


def test_k14_the_round_scores_show_every_name_whole_within_discords_limit() -> None:
    names = ["Computer (hard)", "little casino fan", "A" * 32, "Ola"]
    scores = [
        SeatScore(seat, 13, 4, int(seat == 0), 2 * int(seat == 1), 1, int(seat == 2), 0, 0, int(seat == 3), 2, 9)
        for seat in range(4)
    ]
    text = score_table(names, scores, 3)
    assert len(text) <= CONTENT_LIMIT
    for name in names:
        assert f"**{name}**:" in text
    assert "**Computer (hard)**: 2 points this round, 9 in all\n13 cards, 4 spades · most cards 1 · aces 1" in text
    assert "little casino 1" in text and "most spades 2" in text and "last take 1" in text
    one = score_table(["Kari", "Ola"], [SeatScore(0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1),
                                        SeatScore(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)], 1)  # fmt: skip
    assert "**Kari**: 1 point this round, 1 in all\n1 card, 1 spade · last take 1" in one
    assert "**Ola**: 0 points this round, 0 in all\n0 cards, 0 spades · nothing scored" in one
    assert "tie" not in text and "tie" not in one


def test_k14_a_tie_for_most_cards_or_spades_is_said_with_nobody_scoring_it() -> None:
    # Issue 42's stale lines: the breakdown did not say why nobody scored "most cards" when it was a tie.
    tied = [SeatScore(0, 26, 7, 0, 2, 0, 0, 0, 0, 0, 2, 2), SeatScore(1, 26, 6, 0, 0, 0, 0, 0, 0, 1, 1, 1)]
    for locale, said_tie in (("en", "Most cards: a tie at 26 cards; nobody scores it."),
                             ("no", "Flest kort: uavgjort med 26 kort; ingen får poengene.")):  # fmt: skip
        text = score_table(["Kari", "Ola"], tied, 1, locale)
        assert text.endswith(said_tie), text
        assert "spade" not in text.splitlines()[-1] and "spar" not in text.splitlines()[-1]
    three = [SeatScore(seat, (20, 20, 12)[seat], (5, 4, 4)[seat], 0, 2 * (seat == 0), 0, 0, 0, 0, 0, 0, 0)
             for seat in range(3)]  # fmt: skip
    assert score_table(["Kari", "Ola", "Per"], three, 2).endswith("Most cards: a tie at 20 cards; nobody scores it.")


# ----- Garbage: a discard of no use ------------------------------------------------------------------------------


def test_g6_a_discard_is_of_no_use_exactly_when_g6d_would_discard_it() -> None:
    game = GarbageGame.from_position(["A♠ 2♥ 3♦ J♣ 5♠", "A♥ 2♣"], face_up=[[1, 4], []], stock="9♦")
    seat = game.public_view().seats[0]
    useful = ["2♠", "4♥", "J♦", "3♣"]  # G6a face-down spots 2 and 3; G6b the Jack on spot 4; G6c a Jack
    useless = ["A♦", "6♣", "10♥", "Q♠", "K♥"]  # G6d: spot 1 already shows an Ace; ranks above 5; Queen, King
    assert [no_use(Card.parse(c), seat) for c in useful] == [False] * 4
    assert [no_use(Card.parse(c), seat) for c in useless] == [True] * 5


async def test_g5_g6d_take_discard_says_when_it_is_of_no_use_and_stays_allowed(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2)
    thread = game_thread(channel, game_id)
    rng = random.Random(3)
    seen: set[bool | str] = set()
    for _ in range(200):
        record = await bot_of(simcord_env).store.get_game(game_id)
        assert record is not None
        game = GarbageGame.from_dict(state_of(record))
        public = game.public_view()
        table = table_message(thread, game_id)
        assert game.to_move is not None
        player = member_for(members, record, game.to_move)
        top = public.discard_top
        if top is not None and public.seats[game.to_move].pending is None:
            wasted = no_use(top, public.seats[game.to_move])
            label = next(given(label) for label in labels(table) if given(label).startswith("Take discard"))
            expected = f"Take discard ({top})".replace("♠", "♠\ufe0e").replace("♣", "♣\ufe0e")
            assert label == expected + (" — no use to you" if wasted else ""), label
            seen.add(wasted)
            if wasted and "clicked" not in seen:
                # Still a legal choice (G5): it only ends the turn, the card going back to the pile (G6d).
                taken = await player.click(table, label=label)
                assert taken.acknowledged and not private_text(taken)
                after = GarbageGame.from_dict(state_of(await record_of(simcord_env, game_id))).public_view()
                assert after.discard_top == top and after.to_move != game.to_move
                seen.add("clicked")
                continue
        if {True, False, "clicked"} <= seen:
            return
        choices = [cid for cid in custom_ids(table) if is_enabled(table, cid)]
        await player.click(table, custom_id=rng.choice(choices))
    raise AssertionError(f"saw only {seen}")


def test_k5_a_kasino_panel_numbers_the_move_within_its_round() -> None:
    # Issue 42's stale lines: the panel said "round 2, move 53", counting on across rounds.
    game = KasinoGame.new(2, seed=3)
    rng = random.Random(3)
    stub = record_stub("kasino", ["Kari", "Ola"])
    record = cast("GameRecord", SimpleNamespace(**vars(stub), thread_id=1, channel_id=1))
    while game.public_view().round == 1:
        seat = game.to_move
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_moves(seat)))
    assert game.move_count == 48  # K3: the whole deck, four cards to the table, then one card a move
    seat = game.to_move
    assert seat is not None
    assert "(round 2, move 1):" in hand_text(record, game, seat)
    game.apply(seat, game.legal_moves(seat)[0])
    assert "(round 2, move 2):" in hand_text(record, game, 1 - seat)

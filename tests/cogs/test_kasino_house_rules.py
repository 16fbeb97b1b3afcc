"""Kasino's presenters under house rules (issue 26): rounds add up the chosen way, teams show as teams (KV5).

A partnership game is set up through the lobby's "House rules…" and played through the bot to its result; a guest
is refused the panel, and partnerships are refused where the lobby is not for four.
"""

import random
from types import SimpleNamespace
from typing import cast

import simcord

from cogs.kasino.render import hand_text, public_table, score_table, scoring_rules
from db.records import GameRecord
from engine.kasino import KasinoGame, KasinoSettings
from engine.kasino.events import RoundEnded
from engine.kasino.scoring import SeatScore
from tests.cogs.helpers import (
    Shown,
    bot_of,
    custom_ids,
    game_thread,
    given,
    lobby_button,
    private_text,
    record_of,
    response_of,
    result_message,
    state_of,
    table_message,
)
from tests.cogs.test_kasino_flow import play_to_end, state
from tests.cogs.test_words import embed_text, record_stub
from tests.said import said

NAMES = ["Kari", "Ola", "Nora", "Per"]
PARTNERS = {"partnerships": True}


def ended(game: KasinoGame, text: str) -> RoundEnded:
    return next(event for event in game.play(0, text) if isinstance(event, RoundEnded))


def test_kv5_a_round_is_scored_once_per_team_named_by_both_partners() -> None:
    game = KasinoGame.from_position(["K♥", "", "", ""], [], captured=["A♠ 2♠ 3♣", "4♠ 5♠ 6♠ 7♣ 8♣",
                                    "9♠ 10♠ J♣ Q♣ 10♦", "K♣"], sweeps=[1, 2, 2, 0], last_taker=3,
                                    to_move=0, settings=PARTNERS)  # fmt: skip
    event = ended(game, "kh place")
    text = score_table(NAMES, event.scores, 1, teams=event.teams, settings=game.settings)
    assert text.startswith("Round 1 scored:\n**Kari & Nora**: 10 points this round, 10 in all\n8 cards, 4 spades")
    assert "**Ola & Per**: 3 points this round, 3 in all\n7 cards, 3 spades · sweeps 2 · last take 1" in text
    assert "**Kari**:" not in text and text.count("**") == 4
    assert said_round(event) == "Kari & Nora 10 (10), Ola & Per 3 (3)"


def said_round(event: RoundEnded) -> str:
    return said(event.message(), NAMES).split("(total): ", 1)[1].rstrip(".")


def test_kv2_cancelled_sweeps_are_said_and_the_scoring_in_use_is_named() -> None:
    settings = {"sweeps": "cancel", "most_cards": 2}
    game = KasinoGame.from_position(["K♥", ""], [], captured=["4♣ 5♣", "6♣"], sweeps=[3, 1], last_taker=0,
                                    to_move=0, settings=settings)  # fmt: skip
    event = ended(game, "kh place")
    text = score_table(NAMES[:2], event.scores, 2, settings=game.settings)
    lines = text.split("\n")
    assert lines[0] == "Round 2 scored:"
    assert lines[1] == (
        "Scoring at this table: Sweeps: cancel out · Most cards: 2 points; a round holds 12 points besides sweeps."
    )
    assert "sweeps 2 (1 cancelled)" in text and "sweeps 0 (1 cancelled)" in text
    assert "most cards 2" in text


def test_kv2_with_sweeps_off_a_round_has_no_sweep_line_and_the_table_counts_none() -> None:
    settings = KasinoSettings(sweeps="off")
    assert scoring_rules(settings) == "Scoring at this table: Sweeps: off; a round holds 11 points."
    scores = [SeatScore(0, 30, 8, 1, 2, 2, 1, 2, 0, 1, 9, 9), SeatScore(1, 22, 5, 0, 0, 2, 0, 0, 0, 0, 2, 2)]
    text = score_table(NAMES[:2], scores, 1, settings=settings)
    assert "sweep" not in text.split("\n", 2)[2]
    game = KasinoGame.new(2, seed=3, settings={"sweeps": "off"})
    _, embed = public_table(record_stub("kasino", NAMES[:2]), game.public_view(), [])
    assert "sweeps" not in embed_text(embed) and "hand 4 · captured 0 · **0** points" in embed_text(embed)


def test_default_rules_say_no_scoring_line() -> None:
    assert scoring_rules(KasinoSettings()) is None
    assert scoring_rules(KasinoSettings(building=False, target=21)) is None  # not a scoring rule


def test_kv5_the_table_names_the_teams_and_each_seat_its_team() -> None:
    game = KasinoGame.new(4, seed=9, settings=PARTNERS)
    _, embed = public_table(record_stub("kasino", NAMES), game.public_view(), [])
    assert "**Team 1:** Kari & Nora · **Team 2:** Ola & Per" in given(embed.description)
    headings = [field.name for field in embed.fields[:4]]
    assert [given(heading).rsplit(" · ", 1)[1] for heading in headings] == ["team 1", "team 2", "team 1", "team 2"]
    assert all("team **0** points" in given(field.value) for field in embed.fields[:4])


def test_kv5_a_players_panel_names_the_partner_and_the_opponents() -> None:
    game = KasinoGame.new(4, seed=9, settings=PARTNERS)
    # The panel reads these fields alone: the stub stands in for the whole record.
    record = cast("GameRecord", SimpleNamespace(**vars(record_stub("kasino", NAMES)), thread_id=1, channel_id=1))
    for seat in range(4):
        text = hand_text(record, game, seat)
        partner, opponents = NAMES[(seat + 2) % 4], [NAMES[(seat + 1) % 4], NAMES[(seat + 3) % 4]]
        assert f"You play with {partner}, against {' and '.join(sorted(opponents, key=NAMES.index))}." in text
    assert "You play with" not in hand_text(record, KasinoGame.new(4, seed=9), 0)


def control(message: Shown, suffix: str) -> str:
    return next(custom_id for custom_id in custom_ids(message) if custom_id.endswith(suffix))


async def test_kv5_a_partnership_game_plays_to_its_result_through_the_bot(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    host, *others = members[:4]
    opened = await host.slash(channel, "kasino new", seats=4, target=5)
    assert opened.response is not None
    game_id = int(opened.response.content.split("#", 1)[1].split("*", 1)[0])
    for member in others:
        await member.click(opened.response, custom_id=lobby_button(opened.response, "join"))
    # The host sets the house rules in the lobby's panel: sweeps cancel out (KV2), partnerships (KV5).
    panel = await host.click(opened.response, custom_id=control(opened.response, ":0:houserules"))
    panel = await host.select(response_of(panel), ["cancel"], custom_id=control(response_of(panel), ":hr:0"))
    await host.click(response_of(panel), custom_id=control(response_of(panel), ":hr:5:on"))
    assert opened.response is not None
    assert "House rules: Sweeps: cancel out; Partnerships: two against two." in opened.response.content
    started = await host.click(opened.response, custom_id=lobby_button(opened.response, "start"))
    assert started.acknowledged

    record, game = await state(simcord_env, game_id)
    assert game.settings.partnerships
    thread = game_thread(channel, game_id)
    table = table_message(thread, game_id)
    names = [seat.name for seat in record.seats]
    assert f"**Team 1:** {names[0]} & {names[2]}" in given(table.embeds[0].description)
    record = await play_to_end(simcord_env, channel, members, game_id, random.Random(4), ["dm", "slash", "panel"])
    game = KasinoGame.from_dict(state_of(record))
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.teams == ((0, 2), (1, 3))
    assert outcome.places[0] == outcome.places[2] and outcome.places[1] == outcome.places[3]
    posts = [message.content for message in thread.history()]
    assert any(post.startswith("Round 1 scored:\nScoring at this table: Sweeps: cancel out") for post in posts)
    assert any(f"**{names[0]} & {names[2]}**:" in post for post in posts)
    result = result_message(thread, game_id).content  # partners share their team's place, as one entry
    assert f"1. {names[0]} & {names[2]}" in result or f"1. {names[1]} & {names[3]}" in result


async def test_kv5_partnerships_are_refused_for_three_seats_and_a_guest_may_not_set_house_rules(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    host, guest = members[:2]
    opened = await host.slash(channel, "kasino new", seats=3)
    await guest.click(response_of(opened), custom_id=lobby_button(response_of(opened), "join"))
    refused = await guest.click(response_of(opened), custom_id=control(response_of(opened), ":0:houserules"))
    assert private_text(refused) == "Only the host can change the house rules."
    panel = await host.click(response_of(opened), custom_id=control(response_of(opened), ":0:houserules"))
    refused = await host.click(response_of(panel), custom_id=control(response_of(panel), ":hr:5:on"))
    assert "four players" in private_text(refused) + (refused.response.content if refused.response else "")
    assert opened.response is not None
    assert "House rules" not in opened.response.content  # nothing changed


async def test_kv1_the_usual_targets_are_offered_first_and_any_from_1_to_99_may_be_typed(
    channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    host = members[0]

    async def offered(typed: str) -> list[int]:
        return [choice["value"] for choice in await host.autocomplete(channel, "kasino new", "target", typed)]

    assert await offered("") == [11, 16, 21]
    assert await offered("2") == [2, 21]
    assert await offered("30") == [30]
    assert await offered("100") == []  # beyond 99: Discord's range refuses it anyway
    opened = await host.slash(channel, "kasino new", seats=2, target=30)
    assert opened.response is not None
    assert "Playing to 30 points." in opened.response.content


async def test_kv4_a_failed_lobby_redraw_after_the_rule_is_saved_never_says_it_did_not_change(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    # Fault: Discord refuses the public lobby message's edit once (503) right after building off is saved.
    host = members[0]
    opened = await host.slash(channel, "kasino new", seats=2)
    assert opened.response is not None
    game_id = int(opened.response.content.split("#", 1)[1].split("*", 1)[0])
    record = await bot_of(simcord_env).store.get_game(game_id)
    panel = await host.click(opened.response, custom_id=control(opened.response, ":0:houserules"))
    assert record is not None
    simcord_env.inject_error(
        "PATCH", f"/channels/{channel.id}/messages/{record.lobby_message_id}",
        status=503, message="Service Unavailable", times=1,
    )  # fmt: skip
    turned = await host.click(response_of(panel), custom_id=control(response_of(panel), ":hr:4:off"))
    assert turned.acknowledged and private_text(turned) == ""  # no apology, no refusal: the change stands
    assert panel.response is not None
    assert "Building: off" in panel.response.content  # the host's panel (edited through the interaction) says so
    assert (await record_of(simcord_env, game_id)).settings["building"] is False
    assert opened.response is not None
    assert "Building" not in opened.response.content  # the public lobby missed this redraw only
    await host.select(panel.response, ["1"], custom_id=control(panel.response, ":hr:3"))  # the next change redraws it
    assert "Building: off" in opened.response.content


async def test_kv5_a_partnership_lobby_says_the_number_of_players_once(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    # Issue 42: the lobby said "2 players at least" beside "Partnerships need exactly four players, not 1."
    host, other = members[:2]
    opened = await host.slash(channel, "kasino new", seats=4, target=5)
    assert opened.response is not None
    assert "(2 players at least; one of you and computers will do)" in opened.response.content
    panel = await host.click(opened.response, custom_id=control(opened.response, ":0:houserules"))
    await host.click(response_of(panel), custom_id=control(response_of(panel), ":hr:5:on"))
    await other.click(opened.response, custom_id=lobby_button(opened.response, "join"))
    lobby = opened.response.content
    assert "Partnerships need exactly four players, not 2." in lobby, lobby
    assert "2 players at least" not in lobby and "as many players as the house rules above ask" in lobby, lobby

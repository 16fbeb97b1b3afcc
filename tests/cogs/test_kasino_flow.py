"""Issue 6: Kasino through the bot — DM hands with menus, Show my hand, /kasino play — and no hand card in public."""

import random
import threading
from collections.abc import Callable, Sequence

import discord
import pytest
import simcord

import cogs.kasino.panel
import render.kasino_hand
from bot import CardBot
from cogs.runtime.ids import card_arg
from cogs.runtime.recent import Recent
from cogs.runtime.text import TEXT_STYLE, legible
from cogs.runtime.words import said
from db.records import GameRecord
from engine.kasino import KasinoGame
from engine.kasino.views import KasinoView
from render.layout import Rendered
from tests.cogs.helpers import (
    InjectedError,
    Shown,
    bot_of,
    components,
    game_thread,
    guild_of,
    member_for,
    message_in,
    open_and_start,
    private_text,
    public_messages,
    public_texts,
    record_of,
    response_of,
    seat_to_move,
    state_of,
    table_message,
    texts_visible_to,
)

VERBS = {"Take", "Build", "Raise", "Double", "Place"}


CLOSED: InjectedError = {"status": 403, "code": 50007, "message": "Cannot send messages to this user"}

# Who taps a panel: a guild member (Show my hand, an ephemeral panel), or the user in its DMs.
Actor = simcord.MemberActor | simcord.UserHandle


async def state(env: simcord.Env, game_id: int) -> tuple[GameRecord, KasinoGame]:
    record = await bot_of(env).store.get_game(game_id)
    assert record is not None
    assert record.state is not None
    return record, KasinoGame.from_dict(record.state)


def hand_cards(record: GameRecord) -> set[str]:
    """Every card in some player's hand right now, as displayed."""
    assert record.state is not None
    return {code for hand in record.state["hands"] for code in hand}


def assert_no_hand_card_in_public(guild: simcord.GuildHandle, record: GameRecord) -> None:
    texts = public_texts(guild)
    leaked = {card for card in hand_cards(record) if card in texts}
    assert leaked == set(), f"hand cards shown in public: {leaked}"


def secret_through(before: GameRecord, after: GameRecord, played: str) -> set[str]:
    """Cards hidden before a move (in a hand or the stock) that are still, or newly, in a hand after it.

    A card made public earlier (played, taken, left on the table) may be dealt again in a later round;
    older messages naming it then say nothing about any hand, so only these cards must stay unnamed.
    """
    assert before.state is not None
    hidden_before = (hand_cards(before) - {played}) | set(before.state["stock"])
    return hidden_before & hand_cards(after)


def new_public_text(before_messages: dict[int, str], guild: simcord.GuildHandle) -> str:
    """Text of the public messages posted or edited since `before_messages` was taken."""
    now = public_messages(guild)
    return "\n".join(text for key, text in now.items() if before_messages.get(key) != text)


def dm_hand_message(member: simcord.MemberActor, record: GameRecord, seat: int) -> discord.Message:
    message_id = record.seats[seat].hand_message_id
    assert message_id is not None, f"seat {seat} has no hand message"
    return message_in(member.user.dm_channel, message_id)


def card_of(custom_id: str) -> str:
    """The hand card a panel button names: `k:<game>:<version>:card:9d` or `k:<game>:<version>:pick:9d:2`."""
    return custom_id.split(":")[4]


async def choose_on_panel(actor: Actor, message: Shown, rng: random.Random) -> simcord.InteractionResult:
    """Play a random move on a panel (a DM message or an ephemeral reply); returns the last tap's result."""
    return (await two_taps(actor, message, rng))[0]


async def two_taps(actor: Actor, message: Shown, rng: random.Random) -> tuple[simcord.InteractionResult, int]:
    """Play a random move on a panel in two taps: a hand card, then its move (a card with one move plays at once).

    Returns the last tap's result and the number of taps (clicks and picks) it took; a first tap that Discord did not
    deliver ends it there.
    """
    parts = components(message)
    hand = [c for c in parts if c["type"] == 2 and (":card:" in c["custom_id"] or ":pick:" in c["custom_id"])]
    assert hand, f"no moves on the panel: {parts}"
    assert all(":pick:" not in c["custom_id"] or c["label"].split()[0] in VERBS for c in hand), hand
    tapped = rng.choice(hand)
    first = await actor.click(message, custom_id=tapped["custom_id"])
    if ":pick:" in tapped["custom_id"] or not first.acknowledged:
        return first, 1
    if isinstance(message, discord.Message):  # a DM: read the edited message again
        assert isinstance(actor, simcord.UserHandle), actor
        message = message_in(actor.dm_channel, message.id)
    card = card_of(tapped["custom_id"])
    parts = components(message)
    picks = [c for c in parts if c["type"] == 2 and ":pick:" in c["custom_id"] and card_of(c["custom_id"]) == card]
    select = next((c for c in parts if c["type"] == 3), None)
    if picks:
        assert select is None and len(picks) >= 2, parts
        assert all(c["label"].split()[0] in VERBS for c in picks), picks  # imperative words, not notation
        return await actor.click(message, custom_id=rng.choice(picks)["custom_id"]), 2
    assert select is not None, f"the card's moves are not on the panel: {parts}"
    values = [o["value"] for o in select["options"] if not o["value"].startswith("more:")]
    return await actor.select(message, [rng.choice(values)], custom_id=select["custom_id"]), 2


async def play_turn(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    game_id: int,
    rng: random.Random,
    how: str,
) -> GameRecord:
    """One turn by the player to move; afterwards, no message posted or edited for it names a hidden card."""
    before_messages = public_messages(guild_of(channel))
    record, game = await state(env, game_id)
    seat = seat_to_move(game)
    member = member_for(members, record, seat)
    thread = game_thread(channel, game_id)
    if how == "slash":
        choices = await member.autocomplete(thread, "kasino play", "move", "")
        assert choices and len(choices) <= 25
        typed = await member.slash(thread, "kasino play", move=rng.choice(choices)["value"])
        assert typed.response is not None
        assert typed.ephemeral and typed.response.content.startswith("Done: "), typed
    elif how == "dm":
        _, taps = await two_taps(member.user, dm_hand_message(member, record, seat), rng)
        assert taps <= 2
    else:
        shown = await member.click(table_message(thread, game_id), label="Show my hand")
        assert "Your turn" in private_text(shown)
        _, taps = await two_taps(member, response_of(shown), rng)
        assert taps <= 2
    after, _ = await state(env, game_id)
    assert after.version == record.version + 1, "the move was not applied"
    played = (await bot_of(env).store.game_moves(game_id))[-1].move.split()[0]
    posted = new_public_text(before_messages, guild_of(channel))
    leaked = {card for card in secret_through(record, after, played) if card in posted}
    assert leaked == set(), f"hidden cards named in public after {how}: {leaked}"
    return after


async def play_to_end(
    env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    game_id: int,
    rng: random.Random,
    ways: Sequence[str],
    limit: int = 2000,
) -> GameRecord:
    for turn in range(limit):
        record = await play_turn(env, channel, members, game_id, rng, ways[turn % len(ways)])
        if record.status == "finished":
            return record
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("players", "target"), [(2, 16), (4, 5)])
async def test_complete_game_through_slash_commands_and_menus(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    players: int,
    target: int,
) -> None:
    host, *others = members[:players]
    _, game_id = await open_and_start(channel, host, others, "kasino new", seats=players, target=target)
    record = await play_to_end(simcord_env, channel, members, game_id, random.Random(players), ["dm", "slash", "panel"])
    game = KasinoGame.from_dict(state_of(record))
    assert game.outcome() is not None and max(game.scores) >= target
    thread = game_thread(channel, game_id)
    assert any(m.content.startswith("Round 1 scored") for m in thread.history())
    assert table_message(thread, game_id).content == f"**Kasino #{game_id}** is over."
    assert channel.last_message is not None
    assert channel.last_message.content.startswith(f"Kasino #{game_id} is over. 1. ")
    assert channel.guild is not None
    board = await bot_of(simcord_env).store.leaderboard(channel.guild.id, "kasino", "rating")
    assert board.total == players


async def test_each_player_gets_their_hand_by_dm_and_only_their_own(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, game = await state(simcord_env, game_id)
    for seat, member in enumerate(member_for(members, record, s) for s in range(2)):
        dm = dm_hand_message(member, record, seat)
        own = {str(card) for card in game.view(seat).hand}
        others = set(state_of(record)["hands"][1 - seat])
        assert all(card in dm.content for card in own)
        assert not any(card in dm.content for card in others)
    to_move = member_for(members, record, seat_to_move(game))
    # The mover's panel shows the hand as buttons, every card with at least one move (K11: a card can always be placed).
    hand_buttons = components(dm_hand_message(to_move, record, seat_to_move(game)))[:-1]  # the last one is Refresh
    hand = game.view(seat_to_move(game)).hand
    assert sorted(card_of(c["custom_id"]) for c in hand_buttons) == sorted(map(card_arg, hand))


async def test_a_player_with_closed_dms_plays_a_whole_game_through_show_my_hand(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    simcord_env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", times=None, **CLOSED)
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2, target=1)
    thread = game_thread(channel, game_id)
    notes = [m for m in thread.history() if "can't send you direct messages" in m.content]
    assert len(notes) == 1 and bob.mention in notes[0].content
    # The first edit that takes the notice's button away fails: the game is over all the same, and a retry does it.
    simcord_env.inject_error("PATCH", f"/channels/{thread.id}/messages/{notes[0].id}", status=503,
                             message="Service Unavailable")  # fmt: skip
    record, _ = await state(simcord_env, game_id)
    bob_seat = record.seat_of(bob.id)
    assert bob_seat is not None
    assert record.seats[bob_seat].dm_ok is False
    rng = random.Random(5)
    while record.status == "running":
        _, game = await state(simcord_env, game_id)
        if game.to_move == bob_seat:
            how = "panel" if rng.random() < 0.5 else "hand"
            if how == "hand":
                shown = await bob.slash(thread, "kasino hand")
                assert "Your turn" in private_text(shown)
                await choose_on_panel(bob, response_of(shown), rng)
                record, _ = await state(simcord_env, game_id)
                continue
        record = await play_turn(
            simcord_env, channel, members, game_id, rng, "panel" if game.to_move == bob_seat else "dm"
        )
    notes = [m for m in thread.history() if "can't send you direct messages" in m.content]
    assert len(notes) == 1  # said once, not at every deal
    assert list(bob.user.dm_channel.history()) == []
    assert record.status == "finished"
    await simcord_env.advance_time(60)  # the delivery's retry after the failed edit
    notes = [m for m in thread.history() if "can't send you direct messages" in m.content]
    # Issue 42: once the game is over, the notice keeps its words but its Show my hand button goes.
    assert notes[0].components == [], components(notes[0])
    assert (await record_of(simcord_env, game_id)).dm_notice_message_id is None


async def test_refusals_are_ephemeral_and_change_nothing(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, game = await state(simcord_env, game_id)
    thread = game_thread(channel, game_id)
    mover = member_for(members, record, seat_to_move(game))
    waiting = member_for(members, record, 1 - seat_to_move(game))
    waiting_card = state_of(record)["hands"][1 - seat_to_move(game)][0]
    mover_card = state_of(record)["hands"][game.to_move][0]
    absent = next(c for c in ["K♠", "K♥", "K♦", "K♣", "Q♠", "Q♥"] if c not in state_of(record)["hands"][game.to_move])
    cases = [
        (waiting, f"{waiting_card} place", f"It is {record.seats[seat_to_move(game)].name}'s turn, not yours."),
        (carol, f"{mover_card} place", "You are not playing in a Kasino game in this server."),
        (mover, f"{absent} place", f"{absent} is not in your hand"),
        (mover, "banana split", "not a card"),
    ]
    for actor, typed, reason in cases:
        refused = await actor.slash(thread, "kasino play", move=typed)
        assert refused.response is not None
        shown = refused.response.content.replace(TEXT_STYLE, "")  # black suits carry a text-style selector
        assert refused.ephemeral and reason in shown, (typed, refused.response.content)
        after, _ = await state(simcord_env, game_id)
        assert after.version == record.version and after.state == record.state
    stranger = await carol.click(table_message(thread, game_id), label="Show my hand")
    assert "You are not playing in this game" in private_text(stranger)
    assert_no_hand_card_in_public(guild_of(channel), record)


async def test_autocomplete_offers_only_the_callers_legal_moves(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, game = await state(simcord_env, game_id)
    thread = game_thread(channel, game_id)
    mover = member_for(members, record, seat_to_move(game))
    waiting = member_for(members, record, 1 - seat_to_move(game))
    legal = {str(move) for move in game.legal_moves(seat_to_move(game))}
    offered = await mover.autocomplete(thread, "kasino play", "move", "")
    assert {choice["value"] for choice in offered} == legal if len(legal) <= 25 else len(offered) == 25
    assert {choice["value"] for choice in offered} <= legal
    placed = await mover.autocomplete(thread, "kasino play", "move", "place")
    assert placed and all(choice["value"].endswith(" place") for choice in placed)
    # The words are the panel's ("Take 8♦+3♣ with J♦"); what is typed may be notation, words or ASCII cards.
    assert {choice["name"].split()[0] for choice in offered} <= {"Take", "Build", "Raise", "Double", "Place"}
    card = str(game.legal_moves(seat_to_move(game))[0].card)
    ascii_card = card[:-1].lower() + {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}[card[-1]]
    by_ascii = await mover.autocomplete(thread, "kasino play", "move", ascii_card)
    assert by_ascii and all(card in choice["value"] for choice in by_ascii)
    # With nothing to offer, the one suggestion says why; sent anyway, it is refused in the same words.
    turn = f"It is {record.seats[seat_to_move(game)].name}'s turn, not yours."
    stranger = "You are not playing in a Kasino game in this server."
    for actor, reason in [(waiting, turn), (carol, stranger)]:
        (why,) = await actor.autocomplete(thread, "kasino play", "move", "")
        assert why["name"] == reason
        refused = await actor.slash(thread, "kasino play", move=why["value"])
        assert refused.ephemeral and private_text(refused) == reason
        after, _ = await state(simcord_env, game_id)
        assert after.version == record.version and after.state == record.state


async def test_a_stale_menu_is_refused(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, game = await state(simcord_env, game_id)
    thread = game_thread(channel, game_id)
    mover = member_for(members, record, seat_to_move(game))
    panel = await mover.click(table_message(thread, game_id), label="Show my hand")
    snapshot = response_of(panel)
    cards = [c for c in components(snapshot) if ":card:" in c["custom_id"]]
    if cards:  # the first tap shows that card's moves; it changes nothing
        await mover.click(snapshot, custom_id=cards[0]["custom_id"])
    pick = next(c for c in components(snapshot) if ":pick:" in c["custom_id"])
    assert pick["custom_id"].startswith(f"k:{game_id}:{record.version}:pick:")
    # An ephemeral panel is kept current through its token; once the token lapsed (15 minutes) it cannot change.
    for _ in range(3):  # in steps: each advance must settle within the wall-clock settle timeout
        await simcord_env.advance_time(5 * 60)
    await mover.slash(thread, "kasino play", move=str(game.legal_moves(seat_to_move(game))[0]))
    played, _ = await state(simcord_env, game_id)
    # So this one is a snapshot: its move buttons still carry the old version.
    stale = await mover.click(snapshot, custom_id=pick["custom_id"])
    assert "out of date" in private_text(stale)
    # The refused panel is redrawn in place with the current (waiting) panel.
    assert stale.response is not None
    assert "Not your turn yet" in stale.response.content
    after, _ = await state(simcord_env, game_id)
    assert after.version == played.version and after.state == played.state
    assert len(await bot_of(simcord_env).store.game_moves(game_id)) == 1


async def test_restart_mid_round_keeps_hands_table_and_menus(
    simcord_env: simcord.Env,
    make_bot: Callable[[], CardBot],
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    rng = random.Random(9)
    for how in ["dm", "slash", "dm"]:
        await play_turn(simcord_env, channel, members, game_id, rng, how)
    before, game = await state(simcord_env, game_id)
    # A restart: the old process is gone, and its database lock with it (a second open would be refused).
    await bot_of(simcord_env).store.close()
    await simcord_env.restart_bot(make_bot())
    table = table_message(game_thread(channel, game_id), game_id)
    last_move = said(before, before.narration)[-1]
    # The table was not redrawn (Discord already showed this version), and its narration is the stored one.
    assert table.embeds[0].to_dict()["fields"][-1]["value"].endswith(legible(last_move))
    mover = member_for(members, before, seat_to_move(game))
    # The DM menu sent before the restart still works.
    await choose_on_panel(mover.user, dm_hand_message(mover, before, seat_to_move(game)), rng)
    after, _ = await state(simcord_env, game_id)
    assert after.version == before.version + 1
    # So does the table's button, and the typed command.
    await play_turn(simcord_env, channel, members, game_id, rng, "panel")
    await play_turn(simcord_env, channel, members, game_id, rng, "slash")


async def test_hand_panels_are_only_visible_to_their_owner(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, _ = await state(simcord_env, game_id)
    thread = game_thread(channel, game_id)
    await alice.click(table_message(thread, game_id), label="Show my hand")
    alice_seat = record.seat_of(alice.id)
    alice_cards = state_of(record)["hands"][alice_seat]
    seen_by_bob = texts_visible_to(bob, guild_of(channel))
    assert not any(card in seen_by_bob for card in alice_cards)
    assert all(card in texts_visible_to(alice, guild_of(channel)) for card in alice_cards)


async def test_hand_pictures_are_drawn_off_the_event_loop(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn_in: list[threading.Thread] = []
    draw = render.kasino_hand.render_hand

    def recording(view: KasinoView, locale: str) -> Rendered:
        drawn_in.append(threading.current_thread())
        return draw(view, locale)

    monkeypatch.setattr(cogs.kasino.panel, "render_hand", recording)
    monkeypatch.setattr(cogs.kasino.panel, "_HAND_PICTURES", Recent(512))  # nothing drawn by earlier tests
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    rng = random.Random(3)
    for how in ("dm", "panel", "slash", "dm", "panel", "dm"):  # DM panels, Show my hand, typed moves
        await play_turn(simcord_env, channel, members, game_id, rng, how)
    await alice.slash(game_thread(channel, game_id), "kasino hand")
    assert len(drawn_in) >= 6  # hands changed: each new one was drawn
    assert threading.main_thread() not in drawn_in

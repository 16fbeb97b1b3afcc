"""Issue 44 (Why 1 and 2): a seat's private views go to its current holder only.

- The seat race: a seat changes hands while the delivery is still editing the old holder's DM panel (slowed, as a
  retried or overloaded request would be). The old holder's DM channel and panel must not come back to the seat.
- A member who left a seat (resigned) sees nothing of it afterwards: not by `/kasino hand`, not by Show my hand, and
  not through their earlier ephemeral panel, which the delivery no longer keeps current.
"""

import asyncio
from collections.abc import Callable, Iterable
from typing import Any

import pytest
import simcord
from discord.http import Route

from db.records import GameRecord
from engine.cards import Card
from engine.kasino import KasinoGame
from engine.kasino.moves import Take
from i18n import card_words
from tests.cogs.helpers import (
    bot_of,
    custom_ids,
    game_thread,
    open_and_start,
    private_text,
    seat_to_move,
    state_of,
    table_message,
)


async def state(env: simcord.Env, game_id: int) -> tuple[GameRecord, KasinoGame]:
    record = await bot_of(env).store.get_game(game_id)
    assert record is not None
    return record, KasinoGame.from_dict(state_of(record))


def a_move(game: KasinoGame) -> str:
    """A take where there is one (so the game moves on), else the engine's simple move."""
    takes = [move for move in game.legal_moves(seat_to_move(game)) if isinstance(move, Take)]
    return str(takes[0] if takes else game.auto_move(seat_to_move(game)))


async def play_until(
    env: simcord.Env,
    thread: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    game_id: int,
    done: Callable[[GameRecord, KasinoGame], bool],
) -> tuple[GameRecord, KasinoGame]:
    """Play the members' turns with `/kasino play` until `done(record, game)` holds; returns the record and game."""
    for _ in range(200):
        record, game = await state(env, game_id)
        if done(record, game):
            return record, game
        assert game.to_move is not None and record.status == "running", "the game ended first"
        player = record.seats[game.to_move].user_id
        member = next(member for member in members if member.id == player)
        played = await member.slash(thread, "kasino play", move=a_move(game))
        assert played.acknowledged, played
    raise AssertionError("never reached")


def dm_texts(member: simcord.MemberActor) -> list[tuple[int, str, str]]:
    channel = member.user.dm_channel
    return [(message.id, message.content, str([e.to_dict() for e in message.embeds])) for message in channel.history()]


def shows_any(text: str, cards: Iterable[Card]) -> list[Card]:
    return [card for card in cards if card_words(card, "en") in text]


def slow_dm_edits_until_the_seat_changes_hands(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch, dm_channel_id: int
) -> dict[str, int]:
    """Hold the bot's next edit of a message in this DM channel until a seat of any game changes hands.

    The edit waits as a slow request does (SimCord counts it as an outside wait, so the member's action returns);
    the store's `change_seat` lets it go on once the change is saved. Returns what happened, for the test to check.
    """
    seen = {"slowed": 0}
    gate = asyncio.Event()
    http = bot_of(env).http
    request = http.request

    async def slow_request(route: Route, **kwargs: Any) -> Any:
        if route.method == "PATCH" and f"/channels/{dm_channel_id}/messages/" in route.url and not gate.is_set():
            seen["slowed"] += 1
            await env.external_wait(gate.wait(), reason="a slow edit of the old holder's DM panel")
        return await request(route, **kwargs)

    store = bot_of(env).service.store
    change_seat = store.change_seat

    async def changing_hands(*args: Any, **kwargs: Any) -> Any:
        changed = await change_seat(*args, **kwargs)
        gate.set()
        return changed

    monkeypatch.setattr(http, "request", slow_request)
    monkeypatch.setattr(store, "change_seat", changing_hands)
    return seen


async def test_a_seat_changing_hands_during_a_slowed_panel_edit_sends_later_panels_to_the_new_holder_only(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, bob, carol, dave = members[:4]
    _, game_id = await open_and_start(channel, alice, [bob, carol], seats=3, target=1)
    thread = game_thread(channel, game_id)
    record, _ = await state(simcord_env, game_id)
    seat = record.seat_of(bob.id)
    assert seat is not None
    await play_until(simcord_env, thread, [alice, bob, carol], game_id, lambda _, game: game.to_move == seat)
    bobs_dm = bob.user.dm_channel
    assert bobs_dm is not None and dm_texts(bob), "bob's turn reached him by DM"

    # bob resigns on his turn: the delivery retires his DM panel's menu, and that edit is slow.
    seen = slow_dm_edits_until_the_seat_changes_hands(simcord_env, monkeypatch, bobs_dm.id)
    resigned = await bob.slash(thread, "game resign")
    assert resigned.acknowledged and seen["slowed"] == 1
    # Meanwhile dave asks for the seat and the host approves: the seat changes hands during the edit.
    asked = await dave.click(table_message(thread, game_id), custom_id=f"seat:take:{game_id}")
    assert "You asked the host" in private_text(asked)
    request = thread.last_message
    assert request is not None
    approved = await alice.click(request, custom_id=f"seat:yes:{game_id}:{seat}:{dave.id}")
    assert approved.acknowledged

    record, game = await state(simcord_env, game_id)
    assert record.seats[seat].user_id == dave.id
    assert record.seats[seat].dm_channel_id != bobs_dm.id  # the old holder's DM channel did not come back
    daves_dm = dave.user.dm_channel
    assert daves_dm is not None and record.seats[seat].dm_channel_id == daves_dm.id
    assert any("**Your hand** in Kasino" in text for _, text, _ in dm_texts(dave))  # the new holder's panel
    bobs_after_the_change = dm_texts(bob)

    # Every later panel of the seat goes to dave; bob's DMs show nothing of the seat from here on.
    dealt_at_change = set(game.view(seat).hand)
    record, game = await play_until(
        simcord_env,
        thread,
        [alice, carol, dave],
        game_id,
        lambda record, game: record.status != "running" or bool(set(game.view(seat).hand) - dealt_at_change),
    )
    assert dm_texts(bob) == bobs_after_the_change
    new_cards = set(game.view(seat).hand) - dealt_at_change
    if new_cards:
        assert shows_any(" ".join(text for _, text, _ in dm_texts(dave)), new_cards)
    assert not shows_any(" ".join(text for _, text, _ in dm_texts(bob)), new_cards)


async def test_a_resigned_player_sees_nothing_of_the_seat_afterwards(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob, carol], seats=3)
    thread = game_thread(channel, game_id)
    record, game = await state(simcord_env, game_id)
    seat = record.seat_of(bob.id)
    assert seat is not None
    show_hand = f"k:{game_id}:0:hand"
    panel = await bob.click(table_message(thread, game_id), custom_id=show_hand)
    assert "**Your hand** in Kasino" in private_text(panel)

    resigned = await bob.slash(thread, "game resign")
    assert resigned.acknowledged
    record, game = await state(simcord_env, game_id)
    held_at_resign = set(game.view(seat).hand)
    assert panel.response is not None
    panel_at_resign = panel.response.content
    dms_at_resign = dm_texts(bob)

    # alice and carol play on until the seat bob left is dealt new cards.
    record, game = await play_until(
        simcord_env, thread, [alice, carol], game_id, lambda _, game: bool(set(game.view(seat).hand) - held_at_resign)
    )
    new_cards = set(game.view(seat).hand) - held_at_resign

    # His earlier ephemeral panel was not kept current with the seat's new cards.
    assert panel.response.content == panel_at_resign
    assert not shows_any(panel.response.content, new_cards)
    # Neither `/kasino hand` nor Show my hand shows him the seat: he is told why, in words.
    by_command = await bob.slash(thread, "kasino hand")
    by_button = await bob.click(table_message(thread, game_id), custom_id=show_hand)
    for refused in (by_command, by_button):
        assert refused.ephemeral or all(followup.ephemeral for followup in refused.followups)
        assert "You left this game" in private_text(refused), private_text(refused)
        assert not shows_any(private_text(refused), new_cards)
        assert not custom_ids(refused.response) if refused.response is not None else True
    # Nor his DMs: whatever they showed when he left is all they show.
    assert dm_texts(bob) == dms_at_resign
    assert not shows_any(" ".join(text for _, text, _ in dm_texts(bob)), new_cards)
    assert simcord_env.errors == []

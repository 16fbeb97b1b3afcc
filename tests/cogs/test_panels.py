"""Issue 24: private panels that are current or plainly old, and a channel that stays readable."""

import random
import re

import discord
import pytest
import simcord

from cogs.runtime.text import legible
from db.records import GameRecord
from tests.cogs.helpers import (
    InjectedError,
    Shown,
    components,
    game_thread,
    member_for,
    open_and_start,
    record_of,
    response_of,
    state_of,
    table_message,
)

CLOSED: InjectedError = {"status": 403, "code": 50007, "message": "Cannot send messages to this user"}
STAMP = re.compile(r"Drawn <t:(\d+):R>")
TOKEN_LIFETIME = 15 * 60


def panel_text(message: Shown) -> str:
    return "\n".join([message.content or "", *(embed.description or "" for embed in message.embeds)])


def drawn_at(message: Shown) -> int | None:
    found = STAMP.search(panel_text(message))
    return int(found[1]) if found else None


class Table:
    """The members of a game, and which panel each was last shown."""

    def __init__(
        self,
        env: simcord.Env,
        channel: simcord.ChannelHandle,
        members: list[simcord.MemberActor],
        closed: set[int],
        game_id: int,
    ) -> None:
        self.env, self.channel, self.members, self.game_id = env, channel, members, game_id
        self.closed = closed
        self.ephemeral: dict[int, int] = {}  # member id → id of their latest ephemeral panel
        self.thread = game_thread(channel, game_id)

    async def record(self) -> GameRecord:
        return await record_of(self.env, self.game_id)

    def dm_panel(self, member: simcord.MemberActor) -> discord.Message | None:
        found = [m for m in member.user.dm_channel.history() if components(m) and f"#{self.game_id}" in m.content]
        return found[-1] if found else None

    def ephemeral_panel(self, member: simcord.MemberActor) -> discord.Message | None:
        wanted = self.ephemeral.get(member.id)
        return next((m for m in self.thread.history(viewer=member) if m.id == wanted), None)

    def latest_panel(self, member: simcord.MemberActor) -> discord.Message | None:
        return self.ephemeral_panel(member) if member.id in self.closed else self.dm_panel(member)

    async def show_hand(self, member: simcord.MemberActor) -> discord.Message | None:
        pings = [m for m in self.thread.history() if member.mention in (m.content or "") and components(m)]
        shown = await member.click(
            pings[-1] if pings else table_message(self.thread, self.game_id), label="Show my hand"
        )
        assert shown.ephemeral
        assert shown.response is not None
        self.ephemeral[member.id] = shown.response.message.id
        return self.ephemeral_panel(member)

    def assert_current_or_plainly_old(self, record: GameRecord) -> None:
        """Every seat's latest panel shows its real hand and whose turn it is, or says plainly how old it is."""
        game_state = state_of(record)
        now = int(self.env.now().timestamp())
        for seat, player in enumerate(record.seats):
            member = next(m for m in self.members if m.id == player.user_id)
            panel = self.latest_panel(member)
            if panel is None:
                assert member.id in self.closed  # never asked for a hand yet: nothing that could be wrong
                continue
            text = panel_text(panel)
            hand = [legible(card) for card in game_state["hands"][seat]]
            to_move = record.seats[game_state["to_move"]].name if record.status == "running" else None
            mine = to_move == player.name
            current = all(card in text for card in hand) and (
                ("Your turn" in text) == mine
                and (mine or to_move is None or f"**{to_move}** to play" in text or member.id not in self.closed)
            )
            live = [c for c in components(panel) if f":{self.game_id}:{record.version}:" in c.get("custom_id", "")]
            if member.id in self.closed:
                stamp = drawn_at(panel)
                assert stamp is not None, f"an ephemeral panel without its age: {text}"
                if not current:
                    # Its token lapsed, so it could not be changed: it says how old it is.
                    assert now - stamp >= TOKEN_LIFETIME - 60, (seat, text)
                    assert live == []  # its controls are stamped with an older version, and refused
            else:
                assert current, (seat, text)
                assert bool(live) == mine


async def play(table: Table, member: simcord.MemberActor, rng: random.Random) -> None:
    """`member` plays a move from the panel they have, asking for their hand only when it does not show the turn."""
    record = await table.record()
    if member.id in table.closed:
        panel = table.ephemeral_panel(member)
        if panel is None or not any(f":{record.version}:" in c.get("custom_id", "") for c in components(panel)):
            panel = await table.show_hand(member)
        actor: simcord.MemberActor | simcord.UserHandle = member
    else:
        panel, actor = table.dm_panel(member), member.user
    before: set[str] = set()
    for _ in range(5):
        assert panel is not None, "no panel to play from"
        # The player follows what their last tap opened (a card's moves) rather than tapping another card.
        shown = [c for c in components(panel) if c.get("label") != "Refresh"]
        parts, before = [c for c in shown if c["custom_id"] not in before] or shown, {c["custom_id"] for c in shown}
        select = next((c for c in parts if c["type"] == 3), None)
        if select is not None:
            values = [o["value"] for o in select["options"] if not o["value"].startswith("more:")]
            await actor.select(panel, [rng.choice(values)], custom_id=select["custom_id"])
        else:
            buttons = [c for c in parts if c["type"] == 2 and not c.get("disabled")]
            await actor.click(panel, custom_id=rng.choice(buttons)["custom_id"])
        if (await table.record()).version != record.version:
            return
        panel = table.ephemeral_panel(member) if member.id in table.closed else table.dm_panel(member)
    raise AssertionError("no move was played")


@pytest.mark.parametrize(("players", "target"), [(2, 11), (4, 5)])
async def test_every_panel_is_current_or_plainly_old_through_whole_games(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    players: int,
    target: int,
) -> None:
    seated = members[:players]
    closed = {seated[-1].id}
    simcord_env.inject_error("POST", f"/channels/{seated[-1].user.dm_channel.id}/messages", **CLOSED, times=None)
    _, game_id = await open_and_start(channel, seated[0], seated[1:], "kasino new", seats=players, target=target)
    table = Table(simcord_env, channel, seated, closed, game_id)
    rng = random.Random(players)
    waited = False
    for _ in range(500):
        record = await table.record()
        if record.status != "running":
            break
        mover = member_for(seated, record, state_of(record)["to_move"])
        if not waited and mover.id not in closed and table.ephemeral:
            # The closed-DM player's token lapses while the others play: their panel cannot change any more.
            for _ in range(4):
                await simcord_env.advance_time(4 * 60)
            waited = True
        await play(table, mover, rng)
        table.assert_current_or_plainly_old(await table.record())
    assert (await table.record()).status == "finished"
    assert waited


async def test_an_expired_panel_shows_its_age_and_a_click_on_it_answers_with_the_current_panel(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    simcord_env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", **CLOSED, times=None)
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    table = Table(simcord_env, channel, [alice, bob], {bob.id}, game_id)
    rng = random.Random(1)
    record = await table.record()
    if member_for([alice, bob], record, state_of(record)["to_move"]) is alice:
        await play(table, alice, rng)
    shown = await table.show_hand(bob)
    assert shown is not None
    assert "Your turn" in shown.content and drawn_at(shown) == int(simcord_env.now().timestamp())
    await play(table, bob, rng)
    # Alice plays while bob's token lives: bob's panel follows, with his turn and a live menu.
    await play(table, alice, rng)
    panel = table.ephemeral_panel(bob)
    assert panel is not None
    record = await table.record()
    assert "Your turn" in panel.content
    assert any(f":{record.version}:" in c.get("custom_id", "") for c in components(panel))
    await play(table, bob, rng)
    for _ in range(4):
        await simcord_env.advance_time(4 * 60)
    await play(table, alice, rng)  # bob's token has lapsed: his panel cannot follow
    old = table.ephemeral_panel(bob)
    assert old is not None
    assert "Your turn" not in old.content
    old_stamp = drawn_at(old)
    assert old_stamp is not None
    assert int(simcord_env.now().timestamp()) - old_stamp >= TOKEN_LIFETIME
    # The turn ping brings him back in one tap, and it links to the table.
    record = await table.record()
    ping = [m for m in table.thread.history() if bob.mention in (m.content or "") and "your turn" in m.content][-1]
    assert f"/{table.thread.id}/{record.table_message_id})" in ping.content
    assert [c.get("label") for c in components(ping)] == ["Show my hand"]
    # A click on the old panel answers with the current one.
    refreshed = await bob.click(old, label="Refresh")
    assert refreshed.acknowledged
    now = table.ephemeral_panel(bob)
    assert now is not None
    assert "Your turn" in now.content and drawn_at(now) == int(simcord_env.now().timestamp())


async def test_show_my_hand_replaces_the_panel_before_it(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    thread = game_thread(channel, game_id)
    first = response_of(await alice.click(table_message(thread, game_id), label="Show my hand")).message.id
    second = await alice.click(table_message(thread, game_id), label="Show my hand")
    ids = [m.id for m in thread.history(viewer=alice) if m.flags.ephemeral]
    assert second.response is not None
    assert ids == [second.response.message.id] and first not in ids


async def test_one_notice_for_every_closed_dm_and_no_confirmation_of_a_click(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    seated = members[:4]
    for member in seated[2:]:
        simcord_env.inject_error("POST", f"/channels/{member.user.dm_channel.id}/messages", **CLOSED, times=None)
    _, game_id = await open_and_start(channel, seated[0], seated[1:], "kasino new", seats=4)
    thread = game_thread(channel, game_id)
    notices = [m for m in thread.history() if "can't send you direct messages" in (m.content or "")]
    assert len(notices) == 1
    assert all(member.mention in notices[0].content for member in seated[2:])
    assert [c.get("label") for c in components(notices[0])] == ["Show my hand"]
    # A move from a panel says nothing more than the table and panels show.
    table = Table(simcord_env, channel, seated, {m.id for m in seated[2:]}, game_id)
    rng = random.Random(4)
    for _ in range(4):
        record = await table.record()
        mover = member_for(seated, record, state_of(record)["to_move"])
        before = {m.id for m in thread.history(viewer=mover)}
        await play(table, mover, rng)
        said = [m for m in thread.history(viewer=mover) if m.id not in before and m.flags.ephemeral]
        assert all(table.ephemeral.get(mover.id) == m.id for m in said), [m.content for m in said]
    # The table tells every move since the player to move last moved: the three others'.
    record = await table.record()
    told = table_message(thread, game_id).embeds[0].to_dict()["fields"][-1]["value"]
    others = [seat.name for index, seat in enumerate(record.seats) if index != state_of(record)["to_move"]]
    assert all(name in told for name in others), told

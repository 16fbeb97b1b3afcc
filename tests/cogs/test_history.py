"""Issue 28: `/game history`, the replay and `/game export`, private to their reader and free of counted requests.

A finished Kasino game is told move by move with its rounds' scores and capture piles (K16 reveals them once a round
is scored), and replayed move by move and round by round; a running Garbage game is told and replayed with nothing
face down in it (G11), checked the way the tables are (`hidden_cards`, `texts_visible_to`); a finished game's export
reads back and replays to the stored final state (B1), a running game's carries no seed.
"""

import random
from typing import Any

import pytest
import simcord
from simcord.types import HttpLogEntry

from db.records import GameRecord, MoveRecord
from engine.base import AnyGame
from engine.registry import game_class
from i18n import say
from render import render_table
from service.export import ExportFormatError, read_export
from tests.cogs.helpers import (
    bot_of,
    components,
    game_thread,
    guild_of,
    labels,
    open_and_start,
    public_texts,
    response_of,
    texts_visible_to,
)
from tests.cogs.test_computers import solo_lobby
from tests.cogs.test_garbage_flow import hidden_cards, play_turn_by_buttons
from tests.cogs.test_language import speaking


async def finished_kasino(
    env: simcord.Env, channel: simcord.ChannelHandle, alice: simcord.MemberActor, target: int
) -> GameRecord:
    """A Kasino game of alice against an easy computer, played to its end by alice's typed moves."""
    opened, game_id = await solo_lobby(channel, alice, "kasino new", ["easy"], seats=2, target=target)
    await alice.click(response_of(opened), label="Start")
    thread = game_thread(channel, game_id)
    rng = random.Random(3)
    for _ in range(2000):
        record = await bot_of(env).store.get_game(game_id)
        assert record is not None
        if record.status != "running":
            break
        choices = await alice.autocomplete(thread, "kasino play", "move", "")
        await alice.slash(thread, "kasino play", move=rng.choice(choices)["value"])
    assert record is not None
    assert record.status == "finished"
    return record


def shown(result: simcord.InteractionResult) -> str:
    """The text of an ephemeral page: content, embed and components."""
    response = response_of(result)
    parts = [response.content or ""]
    parts += [str(embed.to_dict()) for embed in response.embeds]
    parts += [str(component) for component in components(response)]
    return "\n".join(parts)


def button(result: simcord.InteractionResult, label: str) -> dict[str, Any]:
    return next(c for c in components(response_of(result)) if c.get("label") == label)


def enabled(result: simcord.InteractionResult, label: str) -> bool:
    return not button(result, label).get("disabled", False)


async def click(
    member: simcord.MemberActor, result: simcord.InteractionResult, label: str
) -> simcord.InteractionResult:
    clicked = await member.click(response_of(result), custom_id=button(result, label)["custom_id"])
    assert clicked.response is not None
    assert clicked.acknowledged and clicked.response.ephemeral, clicked
    return clicked


def counted_since(env: simcord.Env, start: int) -> list[HttpLogEntry]:
    """The requests since `start` that count against the global rate limit (as `bench.bench_requests` counts)."""
    free = ("/interactions/", "/webhooks/")  # interaction callbacks, and followups and edits through a token
    return [entry for entry in env.http_requests[start:] if not entry.path.startswith(free)]


def replayed(record: GameRecord, moves: list[MoveRecord], upto: int) -> AnyGame:
    cls = game_class(record.kind)
    return cls.replay(len(record.seats), record.seed, record.settings, [(m.seat, m.move) for m in moves[:upto]])


def description(result: simcord.InteractionResult) -> str:
    text = response_of(result).embeds[0].description
    assert text is not None, result
    return text


async def test_k16_history_and_replay_of_a_finished_kasino_game(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, carol = members[0], members[2]
    record = await finished_kasino(simcord_env, channel, alice, target=21)
    moves = await bot_of(simcord_env).store.game_moves(record.id)
    start = len(simcord_env.http_requests)
    # Carol never played: any member of the server may read any game of it, privately. (A page is one message edited
    # in place, so what it shows is read as it is shown.)
    opened = await carol.slash(channel, "game history", game=record.id)
    assert opened.response is not None
    assert opened.ephemeral and opened.response.embeds[0].title == f"History of Kasino #{record.id}"
    assert opened.response.content.startswith(f"Kasino #{record.id} is over")
    pages = [description(opened)]
    while enabled(opened, "▶"):
        opened = await click(carol, opened, "▶")
        pages.append(description(opened))
    told = "\n".join(pages)
    assert told.startswith("`0` The game begins.")
    assert all(f"`{move.seq}` " in told for move in moves)  # every move is told, in order, once
    assert told.index(f"`{len(moves)}` ") > told.index(f"`{len(moves) - 1}` ")
    assert "Game over" in told
    assert "captured" in told  # the finished game's rounds reveal their capture piles (K16)
    assert opened.response is not None
    footer = opened.response.embeds[0].footer.text
    assert footer is not None
    assert footer.startswith(f"Page {len(pages)} of {len(pages)}") and footer.endswith(f"of {len(moves)}")
    assert len(pages) > 1, "some 100 moves and two rounds' scores fill more than a page"
    back = await click(carol, opened, "◀")
    assert description(back) == pages[-2]

    # The replay: the table at the deal, then move by move, and round by round from the menu.
    replay = await click(carol, back, "Replay")
    first = pages[-2].split("`", 2)[1]  # the first move on that page
    assert replay.response is not None
    assert replay.response.content.startswith(f"Replay of Kasino #{record.id}: move {first} of {len(moves)} · round ")
    rounds = next(c for c in components(response_of(replay)) if c.get("custom_id", "").endswith(":round"))
    assert len(rounds["options"]) >= 2, "a game to 21 takes more than one round"
    replay = await carol.select(response_of(replay), ["0"], custom_id=rounds["custom_id"])
    assert replay.response is not None
    assert replay.response.content.startswith(f"Replay of Kasino #{record.id}: move 0 of {len(moves)} · round 1")
    assert not enabled(replay, "◀")
    names = [seat.name for seat in record.seats]
    picture = await replay.response.attachments[0].read()
    assert picture == render_table(replayed(record, moves, 0).public_view(), names, "en").png
    step = await click(carol, replay, "▶")
    assert f": move 1 of {len(moves)} · round 1" in response_of(step).content
    picture = await response_of(step).attachments[0].read()
    assert picture == render_table(replayed(record, moves, 1).public_view(), names, "en").png
    last_round = rounds["options"][-1]
    jumped = await carol.select(response_of(step), [last_round["value"]], custom_id=rounds["custom_id"])
    assert jumped.response is not None
    assert f": move {last_round['value']} of {len(moves)} · round {len(rounds['options'])}" in jumped.response.content
    # A whole round back and on, the start and the end, each in one tap (issue 42: a game took dozens of ▶).
    before_last = rounds["options"][-2]["value"]
    back_a_round = await click(carol, jumped, "◀◀ Round")
    said_back = response_of(back_a_round).content
    assert f": move {before_last} of {len(moves)} · round {len(rounds['options']) - 1}" in said_back, said_back
    on_a_round = await click(carol, back_a_round, "Round ▶▶")
    assert f": move {last_round['value']} of {len(moves)}" in response_of(on_a_round).content
    at_the_deal = await click(carol, on_a_round, "⏮")
    assert f": move 0 of {len(moves)} · round 1" in response_of(at_the_deal).content
    assert not enabled(at_the_deal, "⏮") and not enabled(at_the_deal, "◀◀ Round") and enabled(at_the_deal, "Round ▶▶")
    jumped = await click(carol, at_the_deal, "⏭")
    assert jumped.response is not None
    assert f": move {len(moves)} of {len(moves)}" in jumped.response.content
    assert not enabled(jumped, "⏭") and not enabled(jumped, "▶") and not enabled(jumped, "Round ▶▶")
    assert f"Kasino #{record.id}** is over." in jumped.response.content
    final = replayed(record, moves, len(moves))
    assert final.to_dict() == record.state
    assert await jumped.response.attachments[0].read() == render_table(final.public_view(), names, "en").png
    history = await click(carol, jumped, "History")  # back to the page holding this move
    assert description(history) == pages[-1]
    assert not response_of(history).attachments

    # Every page was an answer to its own interaction: nothing counted against the rate limit, nothing public.
    assert counted_since(simcord_env, start) == []
    assert f"History of Kasino #{record.id}" not in public_texts(guild_of(channel))
    assert f"History of Kasino #{record.id}" not in texts_visible_to(alice, guild_of(channel))


async def test_g11_history_and_replay_of_a_running_garbage_game_show_no_hidden_card(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=10)
    rng = random.Random(11)
    for _ in range(16):
        record = await play_turn_by_buttons(simcord_env, channel, members, game_id, rng)
    assert record.status == "running"
    moves = await bot_of(simcord_env).store.game_moves(game_id)
    thread = game_thread(channel, game_id)
    start = len(simcord_env.http_requests)
    opened = await carol.slash(thread, "game history")  # in the game's thread: that game
    assert opened.response is not None
    assert opened.ephemeral and opened.response.content.startswith(f"Garbage #{game_id} is still being played")
    pages = [description(opened)]
    while enabled(opened, "◀"):  # a running game opens at its latest page
        opened = await click(carol, opened, "◀")
        pages.insert(0, description(opened))
    told = "\n".join(pages)
    assert all(f"`{move.seq}` " in told for move in moves)
    assert "captured" not in told
    replay = await click(carol, opened, "Replay")
    seen = [(0, shown(replay))]
    while enabled(replay, "▶"):
        replay = await click(carol, replay, "▶")
        seen.append((len(seen), shown(replay)))
    assert len(seen) == len(moves) + 1
    # one hand so far
    assert not any(c.get("custom_id", "").endswith(":round") for c in components(response_of(replay)))
    # Nothing face down at a move is named on that move's replay page (G11; the stock never ran out in 16 turns).
    for step, text in seen:
        game = replayed(record, moves, step)
        leaked = {str(card) for card in game.hidden_cards() if str(card) in text}
        assert leaked == set(), f"move {step} shows hidden cards {leaked}"
    # The same check as the tables': nothing face down now is anywhere carol can see, her own pages included.
    visible = texts_visible_to(carol, guild_of(channel))
    assert f"Replay of Garbage #{game_id}" in visible and " · hand 1" in visible  # Garbage plays hands, not rounds
    assert {code for code in await hidden_cards(simcord_env, game_id) if code.split("#")[0] in visible} == set()
    assert counted_since(simcord_env, start) == []
    assert f"History of Garbage #{game_id}" not in texts_visible_to(bob, guild_of(channel))


async def test_b1_a_finished_games_export_reads_back_and_replays_to_the_stored_state(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, carol = members[0], members[2]
    record = await finished_kasino(simcord_env, channel, alice, target=1)
    exported = await carol.slash(channel, "game export", game=record.id)
    assert exported.response is not None
    assert exported.ephemeral and exported.response.content.startswith(f"Kasino #{record.id} as a file: ")
    attachment = exported.response.attachments[0]
    assert attachment.filename == f"kasino-{record.id}.txt"
    text = (await attachment.read()).decode("utf-8")
    game = read_export(text)
    assert game.tags["Event"] == f"Kasino #{record.id}" and game.tags["Seed"] == str(record.seed)
    assert game.tags["Seat1"] == record.seats[0].name and game.tags["Replayable"] == "yes"
    assert len(game.moves) == record.move_count
    assert any(comment.startswith("Round 1") for comment in game.comments)  # the round's result, as a comment
    assert game.replay().to_dict() == record.state


async def test_a_running_games_export_has_no_seed_and_cannot_be_replayed(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "garbage new", seats=2, size=3)
    rng = random.Random(5)
    for _ in range(4):
        await play_turn_by_buttons(simcord_env, channel, members, game_id, rng)
    exported = await bob.slash(game_thread(channel, game_id), "game export")
    assert exported.response is not None
    assert "cannot be replayed until the game ends" in exported.response.content
    game = read_export((await exported.response.attachments[0].read()).decode("utf-8"))
    assert "Seed" not in game.tags and game.tags["Result"] == "*" and game.tags["Replayable"].startswith("no")
    assert [move.move for move in game.moves] == [m.move for m in await bot_of(simcord_env).store.game_moves(game_id)]
    with pytest.raises(ExportFormatError):
        game.replay()


async def test_a_norwegian_reader_gets_the_history_in_norwegian(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, bob, carol = members[:3]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    speaking(monkeypatch, carol, "no")
    opened = await carol.slash(channel, "game history", game=game_id)
    title = f"Kasino #{game_id}"
    assert opened.response is not None
    assert opened.response.embeds[0].title == say("no", "history.title", title=title) == f"Historikken til {title}"
    assert opened.response.content == say("no", "history.running-note", title=title)
    assert opened.response.embeds[0].description is not None
    assert opened.response.embeds[0].description.startswith("`0` Spillet begynner. Rekkefølge rundt bordet: ")
    assert labels(opened.response) == ["◀", "▶", "Avspilling"]
    replay = await click(carol, opened, "Avspilling")
    assert response_of(replay).content.startswith(f"Avspilling av {title}: trekk 0 av 0 · runde 1")
    assert labels(response_of(replay))[-1] == "Historikk"


async def test_a_lobby_or_another_servers_game_has_no_history(
    simcord_env: simcord.Env, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice, bob = members[:2]
    opened = await alice.slash(channel, "kasino new", seats=2)
    assert opened.response is not None
    lobby_id = int(opened.response.content.split("#", 1)[1].split("*", 1)[0])
    refused = await bob.slash(channel, "game history", game=lobby_id)
    assert refused.response is not None
    assert refused.ephemeral and not refused.response.embeds
    other = simcord_env.create_guild("Elsewhere")
    stranger = other.add_member(simcord_env.create_user("stranger"))
    refused = await stranger.slash(other.create_text_channel("games"), "game export", game=lobby_id)
    assert refused.response is not None
    assert refused.ephemeral and refused.response.content == f"There is no game #{lobby_id} in this server."
    assert not refused.response.attachments

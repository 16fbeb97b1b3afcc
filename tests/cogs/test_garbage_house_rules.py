"""Issue 26: Garbage's table under its house rules (GV1–GV5), through SimCord and in the table's words.

A whole game under Kings wild, Jokers and the last turn starts from the server's usual house rules (`/houserules`),
as a new lobby does; the rest tests the game itself, its buttons and its words.
"""

import random
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
import simcord

from cogs.garbage.cog import GarbageUI, no_use, public_table, table_view
from cogs.runtime.host import GameBot
from db.records import GameRecord
from engine.cards import Card
from engine.garbage import GarbageGame, GarbageSettings
from i18n import card_words
from tests.cogs.helpers import (
    Shown,
    bot_of,
    custom_ids,
    game_thread,
    given,
    is_enabled,
    labels,
    member_for,
    open_and_start,
    response_of,
    state_of,
    table_message,
)
from tests.cogs.test_words import embed_text, record_stub

C = Card.parse
KINGS_JOKERS_LAST_TURN = {"wild_rank": "king", "jokers": True, "last_turn": True}


def control(message: Shown, suffix: str) -> str:
    return next(custom_id for custom_id in custom_ids(message) if custom_id.endswith(suffix))


def table_record(names: list[str], *, computers: tuple[int, ...] = ()) -> GameRecord:
    """What the table functions read of a game's record, with the version its buttons carry."""
    seats = tuple(
        SimpleNamespace(name=name, is_computer=seat in computers, user_id=None) for seat, name in enumerate(names)
    )
    # The table functions read these fields alone: the stub stands in for the whole record.
    return cast("GameRecord", SimpleNamespace(kind="garbage", id=7, version=3, status="running", seats=seats))


def spot_labels(game: GarbageGame, locale: str = "en") -> list[str | None]:
    view = table_view(table_record(["Kari", "Ola", "Per"][: game.players]), game, locale)
    assert view is not None
    assert all(isinstance(item, discord.ui.DynamicItem) for item in view.children)  # the table's buttons
    return [cast("discord.ui.DynamicItem[Any]", item).item.label for item in view.children]


@pytest.mark.parametrize(
    ("settings", "held", "words"),
    [
        ({}, "J♣", "Jack → spot"),
        ({"wild_rank": "king"}, "K♣", "King → spot"),
        ({"jokers": True}, "🃏", "Joker → spot"),
        ({"wild_rank": "king", "jokers": True}, "🃟", "Joker → spot"),
    ],
)
def test_gv1_gv2_the_spot_buttons_name_the_wild_card_being_placed(
    settings: dict[str, Any], held: str, words: str
) -> None:
    game = GarbageGame.from_position(["A♥ 9♦ 3♥", "A♠ 2♠ 3♠"], pending=held,
                                     settings=GarbageSettings(start_size=3, **settings))  # fmt: skip
    assert spot_labels(game) == [f"{words} {spot}" for spot in (1, 2, 3)]


def test_gv1_gv2_the_spot_buttons_in_each_language() -> None:
    kings = GarbageGame.from_position(["A♥ 9♦ 3♥", "A♠ 2♠ 3♠"], pending="K♣",
                                      settings=GarbageSettings(start_size=3, wild_rank="king"))  # fmt: skip
    assert spot_labels(kings, "no")[0] == "Konge → plass 1"
    assert spot_labels(kings, "hu")[0] == "Király → 1. hely"
    assert spot_labels(kings, "id")[0] == "King → posisi 1"
    jokers = GarbageGame.from_position(["A♥ 9♦ 3♥", "A♠ 2♠ 3♠"], pending="🃏",
                                       settings=GarbageSettings(start_size=3, jokers=True))  # fmt: skip
    assert spot_labels(jokers, "no")[0] == "Joker → plass 1"


def test_gv1_under_kings_wild_a_jack_on_the_discard_pile_is_of_no_use_and_a_king_is() -> None:
    game = GarbageGame.from_position(["A♠ 2♥ 3♦ K♣ 5♠", "A♥ 2♣ 3♣ 4♣ 5♣"], face_up=[[1, 4], []], discard="J♦",
                                     settings=GarbageSettings(start_size=5, wild_rank="king"))  # fmt: skip
    view = game.public_view()
    seat = view.seats[0]
    assert no_use(C("J♦"), seat, view) and no_use(C("Q♠"), seat, view)
    assert not no_use(C("K♥"), seat, view) and not no_use(C("4♥"), seat, view)  # G6c; G6b the King on spot 4
    assert spot_labels(game)[1] == "Take discard (J♦) — no use to you"


def test_gv4_the_table_says_who_finished_and_who_plays_a_last_turn() -> None:
    settings = GarbageSettings(start_size=3, last_turn=True)
    game = GarbageGame.from_position(["A♥ 2♥ 9♦", "A♠ 5♠ 3♠", "Q♣ 2♣ 8♣"], face_up=[[1, 2], [], []],
                                     stock="3♦ K♦ Q♥", settings=settings)  # fmt: skip
    events = game.play(0, "draw stock")
    record = record_stub("garbage", ["Kari", "Ola", "Per"])
    _, embed = public_table(record, game.public_view(), [], "en")
    assert "**Last turns:** Kari filled every spot; still to play: Ola and Per." in embed_text(embed)
    _, embed = public_table(record, game.public_view(), [], "hu")
    assert "**Utolsó körök:** teljes a kirakása: Kari; még sorra kerül: Ola és Per." in embed_text(embed)
    ui = GarbageUI(bot=cast("GameBot", None))  # its notices need no bot
    assert ui.notices(record, events, "en") == [
        "🏆 Kari filled every spot and wins hand 1; 9♦ goes to the discard pile. One last turn each for Ola and Per."
    ]
    game.play(1, "draw stock")
    events = game.play(2, "draw stock")
    assert ui.notices(record, events, "en") == [
        "🏆 The last turns are over: hand 1 goes to Kari. Layouts now: Kari 2 spots, Ola 3 spots, Per 3 spots."
    ]
    _, embed = public_table(record, game.public_view(), [], "en")
    assert "Last turns:" not in embed_text(embed)


async def test_gv1_gv2_gv4_a_game_plays_to_its_result_with_kings_wild_jokers_and_the_last_turn(
    simcord_env: simcord.Env,
    guild: simcord.GuildHandle,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    # The server's usual house rules, set by a manager with `/houserules edit`, are where the new lobby starts from.
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    panel = await mod.slash(channel, "houserules edit", game="garbage")
    panel = await mod.select(response_of(panel), ["king"], custom_id=control(response_of(panel), ":hr:0"))
    panel = await mod.click(response_of(panel), custom_id=control(response_of(panel), ":hr:1:on"))
    await mod.click(response_of(panel), custom_id=control(response_of(panel), ":hr:3:on"))
    host, *others = members[:3]
    _, game_id = await open_and_start(channel, host, others, "garbage new", seats=3, size=4)
    rules = "Wild cards: Kings wild; Jokers: 2 per deck; Layout: 4 spots; Last turn: one more turn for the others."
    assert rules in table_message(game_thread(channel, game_id), game_id).content  # the table names them
    record = await bot_of(simcord_env).store.get_game(game_id)
    assert record is not None
    assert {key: record.settings[key] for key in KINGS_JOKERS_LAST_TURN} == KINGS_JOKERS_LAST_TURN
    thread = game_thread(channel, game_id)
    rng = random.Random(5)
    seen = set()
    for _ in range(3000):
        record = await bot_of(simcord_env).store.get_game(game_id)
        assert record is not None
        if record.status == "finished":
            break
        game = GarbageGame.from_dict(state_of(record))
        table = table_message(thread, game_id)
        shown = table.content + str(table.embeds[0].to_dict())
        # G11: every face-down spot is shown as "?" (two decks here: a hidden card may share its face with a copy in
        # sight, so the spots are compared one by one; Discord's text-style mark after a suit is left out).
        state = state_of(record)
        fields = [field["value"].replace("\ufe0e", "") for field in table.embeds[0].to_dict()["fields"]]
        for seat, (spots, up) in enumerate(zip(state["layouts"], state["face_up"], strict=True)):
            for spot, (code, face_up) in enumerate(zip(spots, up, strict=True), start=1):
                said = f"{spot} {'?' if not face_up else card_words(C(code))}"
                assert said in fields[seat].split("\n")[0].split(" · "), (said, fields[seat])
        assert game.to_move is not None
        held = game.public_view().seats[game.to_move].pending
        words = labels(table)
        assert not any(given(label).startswith("Jack") for label in words)
        if held is not None:
            kind = "Joker" if held.is_joker else "King"
            assert words and all(given(label).startswith(f"{kind} → spot") for label in words)
            seen.add(kind)
        if game.public_view().last_turns:
            assert "**Last turns:**" in shown
            seen.add("last turns")
        player = member_for(members, record, game.to_move)
        choices = [cid for cid in custom_ids(table) if is_enabled(table, cid)]
        await player.click(table, custom_id=rng.choice(choices))
    else:
        pytest.fail("the game did not finish")
    assert channel.last_message is not None
    assert channel.last_message.content.startswith(f"Garbage #{game_id} is over. 1. ")
    assert {"King", "Joker"} <= seen, seen

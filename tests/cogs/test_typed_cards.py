"""Issue 25: a move typed with the player's own rank letters ("D♠" for a Norwegian queen) is the same move."""

import pytest
import simcord

from engine.kasino import KasinoGame
from i18n import render_message
from tests.cogs.helpers import game_thread, member_for, open_and_start, record_of, seat_to_move, state_of
from tests.cogs.test_kasino_twotap import deal_in
from tests.cogs.test_language import speaking

# Seat 0 holds a queen, a jack and an ace: the ranks Norwegian writes D, Kn and E.
MOVER_HAND = "Q♠ J♦ A♣ 9♥"
OTHER_HAND = "K♣ 7♦ 8♠ 2♥"
TABLE = ["Q♥", "5♣", "4♦"]


async def test_a_norwegian_player_types_moves_with_norwegian_ranks(
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deal_in(monkeypatch, [MOVER_HAND, OTHER_HAND], TABLE, "8♣ 8♥ 8♦ 3♠ 3♣ 3♥ 3♦ 6♠")
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record = await record_of(simcord_env, game_id)
    mover = member_for(members, record, 0)
    speaking(monkeypatch, mover, "no")
    thread = game_thread(channel, game_id)
    # Suggestions: "ds" (the Norwegian queen of spades, ASCII suit) and "qs" (the English) find the same moves.
    by_local = await mover.autocomplete(thread, "kasino play", "move", "ds")
    by_english = await mover.autocomplete(thread, "kasino play", "move", "qs")
    assert by_local and by_local == by_english
    assert {"Q♠ take Q♥", "Q♠ place"} <= {choice["value"] for choice in by_local}
    assert all(choice["value"].startswith("Q♠ ") for choice in by_local)
    assert all("D♠" in choice["name"] for choice in by_local)  # the words say the card as Norwegians write it
    # Typed by hand with the Norwegian letters, the move is made.
    played = await mover.slash(thread, "kasino play", move="D♠ take dh")
    assert played.ephemeral
    record = await record_of(simcord_env, game_id)
    assert record is not None
    game = KasinoGame.from_dict(state_of(record))
    assert record.move_count == 1 and "Q♠" not in state_of(record)["hands"][0] and seat_to_move(game) == 1
    assert "D♠" in render_message(record.narration[0], "no", [seat.name for seat in record.seats])

"""Issue 25 through SimCord: a refusal is told in the language of the member who acted, whoever else is there.

The engine's, the service's and the store's refusals each come as an ephemeral reply in the actor's Discord locale.
Expectations are the catalogs' words for the same message (`cogs.runtime.errors.sentence`), never a hand-made sentence,
and each differs from the English one.
"""

import pytest
import simcord

from cogs.runtime.errors import sentence
from cogs.runtime.text import TEXT_STYLE, legible
from db.errors import AlreadySeatedError
from engine.cards import Card
from engine.message import Message
from tests.cogs.helpers import (
    game_thread,
    member_for,
    open_and_start,
    private_text,
    response_of,
    seat_to_move,
    state_of,
)
from tests.cogs.test_kasino_flow import state
from tests.cogs.test_language import speaking


def shown(result: simcord.InteractionResult) -> str:
    return private_text(result).replace(TEXT_STYLE, "")  # black suits carry a text-style selector


def told(message_or_error: BaseException | Message, locale: str) -> str:
    return legible(sentence(message_or_error, locale)).replace(TEXT_STYLE, "")


async def test_a_store_refusal_comes_in_the_clickers_language(
    monkeypatch: pytest.MonkeyPatch, channel: simcord.ChannelHandle, members: list[simcord.MemberActor]
) -> None:
    alice = members[0]
    speaking(monkeypatch, alice, "hu")
    opened = await alice.slash(channel, "kasino new", seats=2)
    again = await alice.click(response_of(opened), label="Join")  # the host already has a seat
    assert shown(again) == told(AlreadySeatedError(), "hu") != told(AlreadySeatedError(), "en")


async def test_engine_and_service_refusals_come_in_each_actors_language(
    monkeypatch: pytest.MonkeyPatch,
    simcord_env: simcord.Env,
    channel: simcord.ChannelHandle,
    members: list[simcord.MemberActor],
) -> None:
    alice, bob = members[:2]
    _, game_id = await open_and_start(channel, alice, [bob], "kasino new", seats=2)
    record, game = await state(simcord_env, game_id)
    thread = game_thread(channel, game_id)
    mover = member_for(members, record, seat_to_move(game))
    waiting = member_for(members, record, 1 - seat_to_move(game))
    speaking(monkeypatch, mover, "no")
    speaking(monkeypatch, waiting, "id")
    hand = state_of(record)["hands"][seat_to_move(game)]
    absent = next(code for code in ["K♠", "K♥", "K♦", "K♣", "Q♠", "Q♥"] if code not in hand)

    refused = await mover.slash(thread, "kasino play", move=f"{absent} place")
    not_held = Message("kasino.refused.not-in-hand", {"card": Card.parse(absent)})
    assert refused.ephemeral and shown(refused) == told(not_held, "no") != told(not_held, "en")

    waiting_card = state_of(record)["hands"][1 - seat_to_move(game)][0]
    refused = await waiting.slash(thread, "kasino play", move=f"{waiting_card} place")
    others_turn = Message("refused.others-turn", {"player": record.seats[seat_to_move(game)].name})
    assert refused.ephemeral and shown(refused) == told(others_turn, "id") != told(others_turn, "en")
    assert record.seats[seat_to_move(game)].name in shown(refused)

    after, _ = await state(simcord_env, game_id)
    assert after.version == record.version and after.state == record.state

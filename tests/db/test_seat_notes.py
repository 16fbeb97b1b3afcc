"""Issue 44 (Why 1): how a seat's player is reached is noted for its holder only, on both backends.

The delivery notes a seat's DM channel, panel message and digest after reaching its player, across awaits (a slow
or retried DM edit). A seat that changed hands meanwhile must not get the former holder's notes back.
"""

from typing import Any

from db.records import GameRecord, Occupant
from db.sql_store import SqlStore
from engine.message import Message
from tests.db.helpers import later, record_in, running_game

STATE = {"schema": 1, "turn": 0}


async def seat_three_changes_hands(store: SqlStore) -> GameRecord:
    """Users 1, 2 and 3 play; user 3 (seat 2) resigns and the host gives the seat to user 4."""
    record = await running_game(store, (1, 2, 3))
    await store.note_seat(record.id, 2, holder=3, hand_message_id=555, dm_channel_id=666, panel="abc")
    for seat, move in ((0, "x"), (1, "x"), (2, "resign")):
        record = await store.save_move(record.id, record.version, seat, move, STATE, later(record.move_count + 1))
    return await store.change_seat(
        record.id,
        record.version,
        2,
        Occupant(4, "u4"),
        host_id=1,
        state=STATE,
        now=later(record.move_count + 1),
        narration=[Message("shared.seat-given-member", {"host": "u1", "before": "u3", "after": "u4"})],
        move="rejoin",
    )


def reach(record: GameRecord, seat: int) -> tuple[Any, ...]:
    kept = record.seats[seat]
    return kept.user_id, kept.dm_ok, kept.dm_channel_id, kept.hand_message_id, kept.panel


async def test_a_note_for_a_holder_who_no_longer_holds_the_seat_changes_nothing(store: SqlStore) -> None:
    changed = await seat_three_changes_hands(store)
    assert reach(changed, 2) == (4, True, None, None, None)

    # The delivery that was reaching user 3 when the seat changed hands notes what it did: nothing is written.
    assert not await store.note_seat(changed.id, 2, holder=3, hand_message_id=555, dm_channel_id=666, panel="abc")
    assert not await store.note_seat(changed.id, 2, holder=3, dm_ok=False)
    assert reach(await record_in(store, changed.id), 2) == (4, True, None, None, None)

    # The seat's holder is noted as ever.
    assert await store.note_seat(changed.id, 2, holder=4, hand_message_id=777, dm_channel_id=888, panel="def")
    assert reach(await record_in(store, changed.id), 2) == (4, True, 888, 777, "def")


async def test_a_note_names_the_seat_s_holder_and_no_other_seat(store: SqlStore) -> None:
    record = await running_game(store, (1, 2))
    assert not await store.note_seat(record.id, 1, holder=1, panel="x")  # user 1 holds seat 0, not seat 1
    assert not await store.note_seat(record.id + 1, 0, holder=1, panel="x")  # no such game
    assert await store.note_seat(record.id, 0, holder=1, panel="x")
    after = await store.get_game(record.id)
    assert after is not None
    assert (after.seats[0].panel, after.seats[1].panel) == ("x", None)

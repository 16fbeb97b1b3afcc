"""Issue 45 in the store, on SQLite and PostgreSQL: a member's data shown and forgotten, a departed server purged."""

import random
from collections.abc import Sequence
from datetime import timedelta

from db.copy import TABLES
from db.records import FORMER_PLAYER_NAME, GameRecord, Occupant, former_player_id, is_computer_id, is_former_player_id
from db.sql_store import SqlStore
from engine.base import AnyGame, Outcome
from engine.message import Message
from engine.registry import game_class
from tests.db.helpers import GUILD, NOW, finish_game, later, play_random, real_game, record_in, rename, running_game

ALICE, BOB, CAROL, DAVE = 310000000000000001, 320000000000000002, 330000000000000003, 340000000000000004
SECRET = "Alice Secretname"
OTHER_GUILD = 9009


async def every_row(store: SqlStore) -> str:
    """Every row of every table, as text: what a scan for a member's name or id reads."""
    lines = []
    async with store.transaction() as conn:
        for table in TABLES:
            lines += [f"{table}: {tuple(row)}" for row in await conn.execute_fetchall(f"SELECT * FROM {table}")]
    return "\n".join(lines)


async def played_out(store: SqlStore, users: Sequence[int | None], seed: int) -> tuple[GameRecord, AnyGame]:
    """A real Kasino game of `users`, played by random legal moves to its end; (record, engine game)."""
    record, game = await real_game(store, "kasino", users, seed=seed)
    while game.outcome() is None:
        record = await play_random(store, record, game, 200, random.Random(seed))
    return record, game


async def test_forgetting_leaves_no_row_with_the_members_name_or_id(store: SqlStore) -> None:
    finished = await finish_game(store, (ALICE, BOB), (1, 2), names={ALICE: SECRET})
    await finish_game(store, (BOB, ALICE, CAROL), (2, 1, 3), names={ALICE: SECRET})
    running = await running_game(store, (CAROL, ALICE, BOB), max_seats=3)
    await rename(store, running.id, 1, SECRET)
    await store.note_seat(running.id, 1, holder=ALICE, dm_channel_id=4242, hand_message_id=4343, panel="p")
    assert SECRET in await every_row(store) and str(ALICE) in await every_row(store)

    forgotten = await store.forget_member(ALICE, ["Ali"])

    rows = await every_row(store)
    assert SECRET not in rows and str(ALICE) not in rows and "4242" not in rows
    assert set(forgotten.games) == {finished.id, finished.id + 1, running.id}
    assert (forgotten.results, forgotten.ratings) == (2, 1)  # her two results; one rating (one server, one kind)
    record = await store.get_game(finished.id)
    assert record is not None
    assert [(seat.user_id, seat.name) for seat in record.seats] == [(former_player_id(0), FORMER_PLAYER_NAME),
                                                                    (BOB, "u" + str(BOB))]  # fmt: skip
    assert is_former_player_id(record.host_id) and not is_computer_id(record.host_id)
    assert not is_former_player_id(BOB) and not is_former_player_id(None)


async def test_forgetting_changes_nobody_elses_figures_and_drops_the_members_row(store: SqlStore) -> None:
    await finish_game(store, (ALICE, BOB), (1, 2), names={ALICE: SECRET})
    await finish_game(store, (BOB, CAROL), (1, 2))
    before = {user: await store.player_stats(user, GUILD) for user in (BOB, CAROL)}
    board = await store.leaderboard(GUILD, "kasino", "wins")
    assert ALICE in [row.user_id for row in board.rows]

    await store.forget_member(ALICE)

    after = await store.leaderboard(GUILD, "kasino", "wins")
    assert [row.user_id for row in after.rows] == [row.user_id for row in board.rows if row.user_id != ALICE]
    for user in (BOB, CAROL):
        stats = await store.player_stats(user, GUILD)
        assert [(k.server, k.overall, k.rating) for k in stats.kinds] == [
            (k.server, k.overall, k.rating) for k in before[user].kinds
        ]
    gone = await store.player_stats(ALICE, GUILD)
    assert gone.name is None and all(k.server.games == 0 and k.rating is None for k in gone.kinds)


async def test_a_forgotten_members_finished_game_still_replays_to_its_stored_state(store: SqlStore) -> None:
    record, _ = await played_out(store, (ALICE, BOB), seed=11)
    assert record.status == "finished"
    await store.forget_member(ALICE)
    kept = await store.get_game(record.id)
    moves = await store.game_moves(record.id)
    assert kept is not None
    replayed = game_class("kasino").replay(
        len(kept.seats), kept.seed, kept.settings, [(move.seat, move.move) for move in moves]
    )
    assert replayed.to_dict() == kept.state and len(moves) == kept.move_count


async def test_seat_changes_and_narration_name_a_former_player(store: SqlStore) -> None:
    record = await running_game(store, (BOB, ALICE, CAROL), max_seats=3)
    await rename(store, record.id, 1, SECRET)
    record = await store.save_move(record.id, record.version, 1, "resign", {"schema": 1}, later(1))
    told = [Message("shared.seat-given-member", {"host": "u" + str(BOB), "before": SECRET, "after": "dave"})]
    record = await store.change_seat(
        record.id, record.version, 1, Occupant(DAVE, "dave"), host_id=BOB, state={"schema": 1}, now=later(2),
        narration=told, move="rejoin",
    )  # fmt: skip
    await store.forget_member(ALICE)
    [change] = await store.seat_changes(record.id)
    assert change.before == Occupant(former_player_id(1), FORMER_PLAYER_NAME)
    assert change.after == Occupant(DAVE, "dave")
    assert change.narration[0].params["before"] == Message("privacy.former-player")
    assert (await record_in(store, record.id)).narration[0].params["before"] == Message("privacy.former-player")


async def test_a_game_finished_after_forgetting_rates_the_others_only(store: SqlStore) -> None:
    record = await running_game(store, (ALICE, BOB, CAROL), max_seats=3)
    await store.forget_member(ALICE)
    outcome = Outcome((3, 1, 2), (0, 5, 3))
    await store.save_move(record.id, record.version, 1, "x", {"over": True}, later(5), outcome=outcome)
    async with store.transaction() as conn:
        rated = sorted(row[0] for row in await conn.execute_fetchall("SELECT user_id FROM results"))
        ratings = sorted(row[0] for row in await conn.execute_fetchall("SELECT user_id FROM ratings"))
    assert rated == ratings == sorted([BOB, CAROL])
    board = await store.leaderboard(GUILD, "kasino", "wins")
    assert sorted(row.user_id for row in board.rows) == sorted([BOB, CAROL])


async def test_member_data_holds_only_the_members_rows(store: SqlStore) -> None:
    finished = await finish_game(store, (ALICE, BOB), (1, 2), names={ALICE: SECRET})
    await finish_game(store, (BOB, CAROL), (1, 2))
    data = await store.member_data(ALICE)
    assert [(g["game"], g["seat"], g["name"], g["place"], g["status"]) for g in data.games] == [
        (finished.id, 0, SECRET, 1, "finished")
    ]
    assert data.hosted == (finished.id,)
    assert [(r["game"], r["place"]) for r in data.results] == [(finished.id, 1)]
    assert [(s["server"], s["kind"], s["games"], s["wins"]) for s in data.stats] == [(GUILD, "kasino", 1, 1)]
    assert [(r["server"], r["kind"]) for r in data.ratings] == [(GUILD, "kasino")]
    text = str(data.to_dict())
    assert str(BOB) not in text and str(CAROL) not in text and "u" + str(BOB) not in text


async def test_a_departed_servers_data_is_purged_and_a_return_keeps_it(store: SqlStore) -> None:
    gone = await finish_game(store, (ALICE, BOB), (1, 2))
    await running_game(store, (ALICE, CAROL))
    await store.set_language(GUILD, "no")
    await store.save_house_rules_preset(GUILD, "kasino", {"target": 11}, NOW)
    kept = await finish_game(store, (ALICE, BOB), (2, 1), guild=OTHER_GUILD)

    await store.mark_departed(GUILD, NOW)
    await store.mark_departed(GUILD, NOW + timedelta(days=3))  # the first mark stands
    assert await store.departed_since(GUILD) == NOW
    assert await store.departed_before(NOW) == []
    assert await store.departed_before(NOW + timedelta(days=30, seconds=1)) == [GUILD]
    assert await store.clear_departed(GUILD) and not await store.clear_departed(GUILD)
    assert await store.departed_since(GUILD) is None

    await store.mark_departed(GUILD, NOW)
    purged = await store.purge_guild(GUILD)
    assert gone.id in purged and kept.id not in purged
    assert await store.get_game(gone.id) is None and await store.get_game(kept.id) is not None
    assert await store.language(GUILD) is None and await store.house_rules_preset(GUILD, "kasino") == {}
    assert (await store.player_stats(ALICE, GUILD)).kinds[0].server.games == 0
    assert (await store.player_stats(ALICE, OTHER_GUILD)).kinds[0].server.games == 1
    assert await store.departed_since(GUILD) is None
    assert str(GUILD) not in (await every_row(store)).replace(str(OTHER_GUILD), "")

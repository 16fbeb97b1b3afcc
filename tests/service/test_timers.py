"""The service sets each turn's warning time with its deadline, so the timer loop finds warnings through the index."""

from datetime import datetime, timedelta

import pytest

import cogs.runtime.timing
from cogs.runtime.timing import TIMER_PRESETS
from db.records import GameRecord
from db.sql_store import SqlStore
from service.tables import LobbyOptions, TableService
from service.timers import warning_lead, warning_time
from tests.db.helpers import NOW


@pytest.mark.parametrize(("turn_seconds", "lead"), [(20, 10), (120, 30), (900, 225), (86_400, 3600)])
def test_the_warning_comes_a_quarter_of_the_turn_before_the_deadline_10_s_to_1_h(turn_seconds: int, lead: int) -> None:
    assert warning_lead(turn_seconds) == lead
    assert warning_time(NOW, turn_seconds) == NOW - timedelta(seconds=lead)
    assert warning_time(NOW, None) is None and warning_time(None, 120) is None


def test_the_cogs_show_the_same_lead_as_the_service_keeps() -> None:
    shown_lead = vars(cogs.runtime.timing)["warning_lead"]  # what the cogs import (not one of their own names)
    for seconds in (*(value for value in TIMER_PRESETS.values() if value), 1, 59, 7_777):
        assert shown_lead(seconds) == warning_lead(seconds)


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def service(any_store: SqlStore) -> TableService:
    return TableService(any_store, clock=Clock(), new_seed=lambda: 5)


async def started(service: TableService, turn_seconds: int | None) -> GameRecord:
    lobby = await service.open_lobby(
        "garbage", LobbyOptions(2, {"start_size": 3}, turn_seconds), guild_id=1, channel_id=2, host_id=10, host_name="a"
    )
    await service.join(lobby.id, 11, "b")
    return (await service.start(lobby.id, 10)).record


async def test_a_turn_is_due_for_its_warning_then_at_its_deadline(service: TableService) -> None:
    record = await started(service, 120)
    assert record.deadline == NOW + timedelta(seconds=120)
    assert await service.due_timers(NOW + timedelta(seconds=89)) == []
    (due,) = await service.due_timers(NOW + timedelta(seconds=90))
    assert (due.id, due.version, due.timer.warned, due.is_expired(NOW + timedelta(seconds=90))) == (
        record.id,
        record.version,
        False,
        False,
    )
    await service.mark_warned(record.id, version=due.version)
    assert await service.due_timers(NOW + timedelta(seconds=119)) == []
    (due,) = await service.due_timers(NOW + timedelta(seconds=120))
    assert due.timer.warned and due.is_expired(NOW + timedelta(seconds=120))
    clock = service.clock
    assert isinstance(clock, Clock)
    clock.now = NOW + timedelta(seconds=120)
    (played, *_) = await service.expire(record.id, version=due.version)
    assert played.auto and played.record.deadline == NOW + timedelta(seconds=240)
    assert await service.due_timers(NOW + timedelta(seconds=209)) == []
    assert [due.id for due in await service.due_timers(NOW + timedelta(seconds=210))] == [record.id]


async def test_a_game_without_a_timer_is_never_due(service: TableService) -> None:
    record = await started(service, None)
    assert record.deadline is None
    assert await service.due_timers(NOW + timedelta(days=400)) == []

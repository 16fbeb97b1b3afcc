"""The table's account of the recent moves (the presenter's `recent_narration`), from the engine's own events."""

from types import SimpleNamespace
from typing import cast

from cogs.garbage.cog import GarbageUI
from cogs.runtime.host import GameBot
from cogs.runtime.presenter import Presenter
from db.records import GameRecord
from engine.base import AnyGame
from engine.garbage import GarbageGame, GarbageSettings
from service.tables import MoveResult, narrate


async def test_g6c_while_a_second_jack_waits_the_account_keeps_the_start_of_the_movers_own_turn() -> None:
    # Issue 42's stale lines: with a Jack waiting for its spot, "Last turn" dropped the start of the mover's turn.
    game = GarbageGame.from_position(["J♦ 2♥ 3♦", "A♠ 5♠ 3♠"], stock="J♣ 4♣ 5♣", settings=GarbageSettings(start_size=3))
    no_bot = cast("GameBot", None)  # the account of moves in memory needs no bot: nothing is read again
    presenter = Presenter(no_bot)
    presenter.register("garbage", GarbageUI(no_bot))
    names = ("Kari", "Ola")
    seats = tuple(SimpleNamespace(name=name, is_computer=False, strength=None, user_id=None) for name in names)
    record = SimpleNamespace(kind="garbage", id=1, status="running", seats=seats, move_count=0, narration=())
    for move in ("draw stock", "jack 1"):  # Kari draws J♣ and puts it on spot 1, which turns up J♦: a second Jack
        events = game.play(0, move)
        record = SimpleNamespace(**{**vars(record), "move_count": record.move_count + 1, "narration": narrate(events)})
        presenter.remember([MoveResult(cast("GameRecord", record), game, events, 0, move)])
    assert game.to_move == 0 and game.public_view().seats[0].pending is not None
    told = await presenter.recent_narration(cast("GameRecord", record), cast("AnyGame", game))
    assert len(told) == 2 and "J♣" in told[0] and "J♦" in told[1], told

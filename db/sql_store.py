"""The store's ports in SQL, written once for SQLite (`db.store.Store`) and PostgreSQL (`db.postgres.store`).

One class per role, each in its module and each the SQL side of one port of `service.ports`, on the connections
and transactions a backend provides (`db.sql_backend.SqlBackend`):

- `db.sql_games.SqlGames`: games and their move logs (`GameRepository`), built on `db.sql_checks.SqlChecks`, the
  check of each game's snapshot against its log (`StartUpChecks`);
- `db.sql_delivery.SqlDelivery`: what Discord shows (`DeliveryProjection`);
- `db.sql_boards.SqlBoards`: leaderboards and player figures (`Boards`);
- `db.sql_settings.SqlServerSettings`: each server's choices (`ServerSettings`);
- `db.sql_members.SqlMemberRecords`: a member's data and a departed server's (`MemberRecords`).

`SqlStore` is a backend with its roles composed: each role is an attribute (`games`, `delivery`, `boards`,
`server_settings`, `members`), and its methods are the store's too, so that one store satisfies `GameStore`. A
backend subclass (`Store`, `PostgresStore`) gives the connections, and may give a role of its own
(`delivery_role`).
"""

from __future__ import annotations

from typing import ClassVar

from db.sql_backend import ALL_GAMES, CANCELLABLE, UNFINISHED, SqlBackend, T, shard_condition
from db.sql_boards import SqlBoards
from db.sql_checks import replayed_check
from db.sql_delivery import SqlDelivery
from db.sql_games import SqlGames
from db.sql_members import SqlMemberRecords
from db.sql_settings import SqlServerSettings

__all__ = [
    "ALL_GAMES",
    "CANCELLABLE",
    "UNFINISHED",
    "SqlBackend",
    "SqlStore",
    "T",
    "replayed_check",
    "shard_condition",
]


class SqlStore(SqlBackend):
    """A backend with the SQL roles composed on its connections; a backend subclass gives the connections."""

    delivery_role: ClassVar[type[SqlDelivery]] = SqlDelivery  # a backend with a claim of its own gives its own

    def __init__(self, own_games: str = ALL_GAMES) -> None:
        super().__init__(own_games)
        self.games = SqlGames(self)
        self.delivery = self.delivery_role(self)
        self.boards = SqlBoards(self)
        self.server_settings = SqlServerSettings(self)
        self.members = SqlMemberRecords(self)
        # Each role's methods are the store's: one store is every port (`service.ports.GameStore`).
        games = self.games
        self.create_lobby = games.create_lobby
        self.join_lobby = games.join_lobby
        self.leave_lobby = games.leave_lobby
        self.add_computer = games.add_computer
        self.remove_computer = games.remove_computer
        self.set_lobby_settings = games.set_lobby_settings
        self.start_game = games.start_game
        self.cancel_game = games.cancel_game
        self.update_seat = games.update_seat
        self.set_auto_streak = games.set_auto_streak
        self.set_timer = games.set_timer
        self.save_move = games.save_move
        self.change_seat = games.change_seat
        self.seat_changes = games.seat_changes
        self.game_moves = games.game_moves
        self.get_game = games.get_game
        self.running_games_with_computers = games.running_games_with_computers
        self.due_games = games.due_games
        self.due_timers = games.due_timers
        self.games_in_guild = games.games_in_guild
        self.running_games_in_channel = games.running_games_in_channel
        self.start_up_check = games.start_up_check
        self.checked_game = games.checked_game
        self.unchecked_games = games.unchecked_games
        self.take_frozen = games.take_frozen
        self.load_unfinished = games.load_unfinished

        delivery = self.delivery
        self.set_messages = delivery.set_messages
        self.note_seat = delivery.note_seat
        self.claim_delivery = delivery.claim_delivery
        self.release_delivery = delivery.release_delivery
        self.note_notices = delivery.note_notices
        self.release_all_deliveries = delivery.release_all_deliveries
        self.unshown_games = delivery.unshown_games
        self.unshown_game_ids = delivery.unshown_game_ids
        self.game_counts = delivery.game_counts
        self.move_to_channel = delivery.move_to_channel

        boards = self.boards
        self.leaderboard = boards.leaderboard
        self.player_stats = boards.player_stats

        server_settings = self.server_settings
        self.pictures_on = server_settings.pictures_on
        self.set_pictures = server_settings.set_pictures
        self.language = server_settings.language
        self.set_language = server_settings.set_language
        self.house_rules_preset = server_settings.house_rules_preset
        self.save_house_rules_preset = server_settings.save_house_rules_preset
        self.reset_house_rules_preset = server_settings.reset_house_rules_preset

        members = self.members
        self.member_data = members.member_data
        self.member_games = members.member_games
        self.forget_member = members.forget_member
        self.mark_departed = members.mark_departed
        self.clear_departed = members.clear_departed
        self.departed_since = members.departed_since
        self.departed_before = members.departed_before
        self.purge_guild = members.purge_guild

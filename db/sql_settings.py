"""Each server's own choices, in SQL (the port `ServerSettings`): table pictures, language, house rules presets."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from db._codec import time_to_text, to_json
from db.sql_backend import SqlBackend


class SqlServerSettings:
    """Pictures, language and house rules presets per server on a backend's connections."""

    def __init__(self, db: SqlBackend) -> None:
        self._db = db  # the backend: its connections, transactions and the statements its database says its own way

    async def pictures_on(self, guild_id: int) -> bool:
        """Whether the server's tables are shown as pictures (yes unless a manager turned them off)."""
        async with self._db._reading() as conn:
            rows = list(
                await conn.execute_fetchall("SELECT pictures FROM guild_settings WHERE guild_id = ?", (guild_id,))
            )
            return bool(rows[0][0]) if rows else True

    async def set_pictures(self, guild_id: int, on: bool) -> None:
        """Turn the server's table pictures on or off."""
        async with self._db.transaction() as conn:
            await conn.execute(
                """INSERT INTO guild_settings (guild_id, pictures) VALUES (?, ?)
                   ON CONFLICT (guild_id) DO UPDATE SET pictures = excluded.pictures""",
                (guild_id, on),
            )

    async def language(self, guild_id: int) -> str | None:
        """The locale a manager chose for the server's public text, or None: the server's own default."""
        async with self._db._reading() as conn:
            rows = list(
                await conn.execute_fetchall("SELECT language FROM guild_settings WHERE guild_id = ?", (guild_id,))
            )
            return str(rows[0][0]) if rows and rows[0][0] is not None else None

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Choose the locale of the server's public text (None: back to the server's own default)."""
        async with self._db.transaction() as conn:
            await conn.execute(
                """INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)
                   ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language""",
                (guild_id, language),
            )

    async def house_rules_preset(self, guild_id: int, kind: str) -> dict[str, Any]:
        """The server's usual house rules for `kind` (settings by key), empty when none are saved."""
        async with self._db._reading() as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT settings FROM house_rule_presets WHERE guild_id = ? AND kind = ?", (guild_id, kind)
                )
            )
        if not rows:
            return {}
        loaded = json.loads(rows[0][0])
        return dict(loaded) if isinstance(loaded, dict) else {}

    async def save_house_rules_preset(self, guild_id: int, kind: str, settings: dict[str, Any], now: datetime) -> None:
        """Keep `settings` as the server's usual house rules for `kind`; an empty one removes the preset."""
        async with self._db.transaction() as conn:
            if not settings:
                await conn.execute("DELETE FROM house_rule_presets WHERE guild_id = ? AND kind = ?", (guild_id, kind))
                return
            await conn.execute(
                """INSERT INTO house_rule_presets (guild_id, kind, settings, updated_at) VALUES (?, ?, ?, ?)
                   ON CONFLICT (guild_id, kind) DO UPDATE SET settings = excluded.settings,
                                                             updated_at = excluded.updated_at""",
                (guild_id, kind, to_json(settings), time_to_text(now)),
            )

    async def reset_house_rules_preset(self, guild_id: int, kind: str) -> bool:
        """Forget the server's usual house rules for `kind`: new lobbies start from the main rules. True if any were."""
        async with self._db.transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM house_rule_presets WHERE guild_id = ? AND kind = ?", (guild_id, kind)
            )
            return bool(cursor.rowcount)

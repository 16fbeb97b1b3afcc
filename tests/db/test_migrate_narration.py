"""Migration 0010 (issue 25): narration becomes messages; English stored before it stays readable as it was."""

import json
from pathlib import Path

import aiosqlite

from db.migrate import load_migrations, migrate
from db.store import Store
from engine.message import STORED_TEXT, Message
from i18n import render_message
from tests.db.helpers import running_game


async def test_old_english_narration_is_kept_word_for_word_as_stored_text(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    store = await Store.open(path)
    try:
        record = await running_game(store, (1, 2))
    finally:
        await store.close()
    old = ["Kari places 4♠.", "Everyone gets 4 new cards; 1 card is left in the stock."]
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        # Back to the schema before 0010, with narration as it was stored then: a list of English sentences (and
        # without what later migrations added: 0011's server language, 0012's house rules, 0013's seat changes,
        # 0014's departed servers, 0015's closed-DM notice).
        await conn.execute("ALTER TABLE guild_settings DROP COLUMN language")
        await conn.execute("ALTER TABLE games DROP COLUMN dm_notice_message_id")
        await conn.execute("DROP TABLE house_rule_presets")
        await conn.execute("DROP TABLE seat_changes")
        await conn.execute("DROP TABLE departed_guilds")
        await conn.execute("ALTER TABLE results DROP COLUMN house_rules")
        await conn.execute("PRAGMA user_version = 9")
        await conn.execute("UPDATE games SET narration = ? WHERE id = ?", (json.dumps(old), record.id))
        await conn.execute("UPDATE games SET narration = '[]' WHERE id <> ?", (record.id,))
        assert await migrate(conn) == load_migrations()[-1].version
    store = await Store.open(path)
    try:
        migrated = await store.get_game(record.id)
    finally:
        await store.close()
    assert migrated is not None
    assert migrated.narration == tuple(Message(STORED_TEXT, {"text": line}) for line in old)
    assert [render_message(message, "en", ["Kari", "Ola"]) for message in migrated.narration] == old

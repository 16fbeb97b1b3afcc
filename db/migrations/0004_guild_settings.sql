-- Reason: per-server settings a server's managers choose; the first is whether tables are shown as pictures.

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    pictures INTEGER NOT NULL DEFAULT 1 CHECK (pictures IN (0, 1))
) STRICT;

-- Reason: issue 45, a server's data is kept only a while after the bot leaves it. When the bot is removed from a
-- server, the server is written here with the time; a rejoin within RETENTION_DAYS deletes the row and keeps
-- everything, otherwise a periodic task deletes everything keyed by the server (games, moves, results, ratings,
-- settings) and then this row.

CREATE TABLE departed_guilds (
    guild_id INTEGER PRIMARY KEY,
    left_at  TEXT    NOT NULL
) STRICT, WITHOUT ROWID;

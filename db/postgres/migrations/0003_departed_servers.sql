-- Reason: SQLite's migration 0014 in PostgreSQL's words (issue 45): the servers the bot was removed from, and since
-- when, so that their data is deleted after RETENTION_DAYS unless the bot rejoins first.

CREATE TABLE departed_guilds (
    guild_id BIGINT PRIMARY KEY,
    left_at  TEXT   NOT NULL
);

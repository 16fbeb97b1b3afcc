-- Reason: game kinds are validated in Python (`engine.registry.KINDS`), so that adding a kind needs no migration;
-- SQLite can only drop the CHECK on `games.kind` by rebuilding the table. The same rebuild lets `status` take
-- 'frozen': a running game whose move log cannot be replayed, which accepts no more moves.
-- The runner switches foreign keys off around this file, so DROP TABLE games does not cascade to seats, moves and
-- results, and runs PRAGMA foreign_key_check before committing.

CREATE TABLE games_new (
    id               INTEGER PRIMARY KEY,
    kind             TEXT    NOT NULL,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    ping_message_id  INTEGER,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'frozen')),
    host_id          INTEGER NOT NULL,
    settings         TEXT    NOT NULL CHECK (json_valid(settings)),
    -- Decimal text: a seed may not fit SQLite's signed 64-bit integers.
    seed             TEXT    NOT NULL,
    max_seats        INTEGER NOT NULL CHECK (max_seats >= 1),
    -- The engine's snapshot (`to_dict`); NULL while in the lobby. The move log wins when they disagree.
    state            TEXT,
    version          INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    -- The move log's length, and the latest move: `save_move` sets them and trigger `log_move` appends the move
    -- to `moves`, so that logging a move and storing its snapshot are one statement (atomic on their own).
    move_count       INTEGER NOT NULL DEFAULT 0 CHECK (move_count >= 0),
    last_seat        INTEGER,
    last_move        TEXT,
    last_auto        INTEGER NOT NULL DEFAULT 0 CHECK (last_auto IN (0, 1)),
    deadline         TEXT,
    warned           INTEGER NOT NULL DEFAULT 0 CHECK (warned IN (0, 1)),
    created_at       TEXT    NOT NULL,
    updated_at       TEXT    NOT NULL,
    finished_at      TEXT,
    turn_seconds     INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0),
    afk_limit        INTEGER NOT NULL DEFAULT 3 CHECK (afk_limit >= 1)
) STRICT;

INSERT INTO games_new (
    id, kind, guild_id, channel_id, thread_id, lobby_message_id, table_message_id, ping_message_id, status, host_id,
    settings, seed, max_seats, state, version, move_count, last_seat, last_move, last_auto, deadline, warned,
    created_at, updated_at, finished_at, turn_seconds, afk_limit
)
SELECT
    id, kind, guild_id, channel_id, thread_id, lobby_message_id, table_message_id, ping_message_id, status, host_id,
    settings, seed, max_seats, state, version, move_count, last_seat, last_move, last_auto, deadline, warned,
    created_at, updated_at, finished_at, turn_seconds, afk_limit
FROM games;

DROP TABLE games;
ALTER TABLE games_new RENAME TO games;

CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_by_thread ON games (thread_id, status) WHERE thread_id IS NOT NULL;
CREATE INDEX games_unfinished ON games (status) WHERE status IN ('lobby', 'running');
CREATE INDEX games_by_deadline ON games (deadline) WHERE status = 'running' AND deadline IS NOT NULL;

CREATE TRIGGER log_move AFTER UPDATE OF move_count ON games
BEGIN
    INSERT INTO moves (game_id, seq, seat, move, auto, created_at)
    VALUES (NEW.id, NEW.move_count, NEW.last_seat, NEW.last_move, NEW.last_auto, NEW.updated_at);
END;

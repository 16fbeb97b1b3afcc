-- Reason: first schema. Lobbies and games with their seats, the append-only move log (B1: seed + settings + moves
-- rebuild any game), one result row per human seat of a finished game, and ratings per (server, kind, player).
-- Conventions: times are ISO 8601 text in UTC; JSON columns hold objects; booleans are 0/1.

CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    kind             TEXT    NOT NULL CHECK (kind IN ('kasino', 'garbage')),
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    ping_message_id  INTEGER,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
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
    finished_at      TEXT
) STRICT;

CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_by_channel ON games (channel_id, status);
CREATE INDEX games_by_thread ON games (thread_id, status) WHERE thread_id IS NOT NULL;
CREATE INDEX games_unfinished ON games (status) WHERE status IN ('lobby', 'running');

-- In the lobby `seat` is the join order; from the start it is the engine's seat number.
CREATE TABLE seats (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0),
    user_id         INTEGER,
    name            TEXT    NOT NULL,
    is_computer     INTEGER NOT NULL DEFAULT 0 CHECK (is_computer IN (0, 1)),
    dm_ok           INTEGER NOT NULL DEFAULT 1 CHECK (dm_ok IN (0, 1)),
    auto_streak     INTEGER NOT NULL DEFAULT 0 CHECK (auto_streak >= 0),
    hand_message_id INTEGER,
    PRIMARY KEY (game_id, seat),
    -- NULLs are distinct in a UNIQUE constraint, so any number of computer seats is allowed.
    UNIQUE (game_id, user_id),
    CHECK ((user_id IS NULL) = (is_computer = 1))
) STRICT, WITHOUT ROWID;

CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    move       TEXT    NOT NULL,
    auto       INTEGER NOT NULL DEFAULT 0 CHECK (auto IN (0, 1)),
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

CREATE TRIGGER log_move AFTER UPDATE OF move_count ON games
BEGIN
    INSERT INTO moves (game_id, seq, seat, move, auto, created_at)
    VALUES (NEW.id, NEW.move_count, NEW.last_seat, NEW.last_move, NEW.last_auto, NEW.updated_at);
END;

-- One row per human seat of a finished game; leaderboards aggregate these rows.
CREATE TABLE results (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    name         TEXT    NOT NULL,
    place        INTEGER NOT NULL CHECK (place >= 1),
    score        INTEGER NOT NULL,
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    finished_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE
) STRICT;

CREATE INDEX results_by_board ON results (guild_id, kind, user_id);
CREATE INDEX results_by_user ON results (user_id, kind);
CREATE INDEX results_latest_name ON results (guild_id, user_id, finished_at);

-- The current skill per (server, kind, player); a row exists once the player finished a rated game.
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL CHECK (sigma > 0),
    rated_games INTEGER NOT NULL CHECK (rated_games >= 1),
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, kind, user_id)
) STRICT, WITHOUT ROWID;

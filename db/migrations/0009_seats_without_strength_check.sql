-- Reason: an expert computer player joins easy, medium and hard (issue 29), and only some game kinds have it, so
-- strengths are validated in Python (`db.records.STRENGTHS`, and `ai.players` per kind) as game kinds are (0003);
-- adding a strength then needs no migration. SQLite can only drop the CHECK on `seats.strength` by rebuilding the
-- table. The runner switches foreign keys off around this file, so DROP TABLE seats does not cascade to moves and
-- results, and runs PRAGMA foreign_key_check before committing.

CREATE TABLE seats_new (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL CHECK (seat >= 0),
    user_id         INTEGER,
    name            TEXT    NOT NULL,
    is_computer     INTEGER NOT NULL DEFAULT 0 CHECK (is_computer IN (0, 1)),
    dm_ok           INTEGER NOT NULL DEFAULT 1 CHECK (dm_ok IN (0, 1)),
    auto_streak     INTEGER NOT NULL DEFAULT 0 CHECK (auto_streak >= 0),
    hand_message_id INTEGER,
    -- A computer seat's strength ("easy", "medium", "hard", "expert"); NULL for a member's seat.
    strength        TEXT    CHECK (strength IS NULL OR is_computer = 1),
    dm_channel_id   INTEGER,
    panel           TEXT,
    PRIMARY KEY (game_id, seat),
    -- NULLs are distinct in a UNIQUE constraint, so any number of computer seats is allowed.
    UNIQUE (game_id, user_id),
    CHECK ((user_id IS NULL) = (is_computer = 1))
) STRICT, WITHOUT ROWID;

INSERT INTO seats_new (
    game_id, seat, user_id, name, is_computer, dm_ok, auto_streak, hand_message_id, strength, dm_channel_id, panel
)
SELECT game_id, seat, user_id, name, is_computer, dm_ok, auto_streak, hand_message_id, strength, dm_channel_id, panel
FROM seats;

DROP TABLE seats;
ALTER TABLE seats_new RENAME TO seats;

CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- Reason: Discord as a projection of the stored game (issue 11). A move now stores its narration with it, and each
-- game records how far Discord has caught up with it: `shown_version` (the version whose table, ping, panels and
-- warnings are on Discord) and `shown_moves` (moves whose one-off posts, such as round scores and the result, went
-- out). A move raises `version` in the same statement that logs it, so `shown_version < version` is the outbox of
-- work still owed to Discord, written in the move's own transaction. `delivery_owner`/`delivery_until` lease that
-- work to one worker at a time. Seats keep their DM channel (no user lookup per move) and a digest of the panel
-- their DM shows (edited only when it changes).

ALTER TABLE games ADD COLUMN narration TEXT CHECK (narration IS NULL OR json_valid(narration));
ALTER TABLE games ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0 CHECK (shown_version >= 0);
ALTER TABLE games ADD COLUMN shown_moves INTEGER NOT NULL DEFAULT 0 CHECK (shown_moves >= 0);
ALTER TABLE games ADD COLUMN ping_user_id INTEGER;
ALTER TABLE games ADD COLUMN warning_message_id INTEGER;
ALTER TABLE games ADD COLUMN delivery_owner TEXT;
ALTER TABLE games ADD COLUMN delivery_until TEXT;

ALTER TABLE seats ADD COLUMN dm_channel_id INTEGER;
ALTER TABLE seats ADD COLUMN panel TEXT;

-- Games from before this migration were shown by the code of their time.
UPDATE games SET shown_version = version, shown_moves = move_count;

-- Start-up finds the games Discord is behind on without reading the others.
CREATE INDEX games_unshown ON games (id) WHERE shown_version < version;

-- Reason: a seat may change hands during a game (issue 28): the host gives a vacated seat to a computer player, or a
-- member takes a computer's or a vacated seat with the host's approval. `seats` holds who sits there now; each change
-- is kept here, in order, so that history and replays show it (after move `after_move`, the game's move count once
-- the change was made, its `rejoin` move included when it logged one), its narration (a JSON list of messages, as
-- `games.narration`) tells it again after a restart, and a finished game's results can credit the seat (db.results).

CREATE TABLE seat_changes (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL CHECK (number >= 1),
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    after_move    INTEGER NOT NULL CHECK (after_move >= 0),
    -- Who held the seat before, and who holds it after: a member (user id) or a computer (strength).
    from_user_id  INTEGER,
    from_name     TEXT    NOT NULL,
    from_strength TEXT,
    to_user_id    INTEGER,
    to_name       TEXT    NOT NULL,
    to_strength   TEXT,
    host_id       INTEGER NOT NULL,
    narration     TEXT    NOT NULL CHECK (json_valid(narration)),
    created_at    TEXT    NOT NULL,
    PRIMARY KEY (game_id, number),
    FOREIGN KEY (game_id, seat) REFERENCES seats (game_id, seat) ON DELETE CASCADE,
    CHECK ((from_user_id IS NULL) = (from_strength IS NOT NULL)),
    CHECK ((to_user_id IS NULL) = (to_strength IS NOT NULL))
) STRICT, WITHOUT ROWID;

-- Reason: an action takes its game's lock with its first read and gives it back with its write, so that a move
-- costs two round trips instead of four (`db.postgres.store.PostgresStore.hold_game`).
--
-- A game's lock is the session-level advisory lock whose one-bigint key is the game's id. A write that gives the
-- lock back does so before its own commit, so it first takes the game's commit gate (the key minus the game's id,
-- for its transaction, which ends after the commit). Whoever takes the lock then passes the gate before reading,
-- and so reads what that write committed.

-- Take the game's lock, wait for the commit of a write that just gave it back, and return the game row's xmin as
-- it now stands (a VOLATILE function's statements see every commit before them, unlike the statement calling it).
CREATE FUNCTION take_game(game bigint) RETURNS xid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    seen xid;
BEGIN
    PERFORM pg_advisory_lock(game);
    PERFORM pg_advisory_xact_lock_shared(-game);
    SELECT xmin INTO seen FROM games WHERE id = game;
    RETURN seen;
END
$$;

-- Give the game's lock back from within a write: the commit gate stays shut until the write's transaction ends.
CREATE FUNCTION give_game(game bigint) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(-game);
    RETURN pg_advisory_unlock(game);
END
$$;

-- Reason: each one-off post of a move (a round's scores, a won hand, the result, the result line in the parent
-- channel) is delivered exactly once. `shown_moves` counts the moves whose posts all went out; `shown_notices`
-- counts the posts of the next move that already went out, so a failure part-way through a move's posts resends
-- neither the ones before it nor any earlier move's.

ALTER TABLE games ADD COLUMN shown_notices INTEGER NOT NULL DEFAULT 0 CHECK (shown_notices >= 0);

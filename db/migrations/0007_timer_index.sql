-- Reason: the timer loop asks only for the games whose turn timer needs the bot now, through an index, without
-- reading any snapshot. `timer_at` is that moment: the time to warn the player to move while they have not been
-- warned, then the deadline itself; NULL when no timer runs. The store sets it with every deadline (the service
-- says when to warn). Games already running get the warning time of the rule when this file was written (a
-- quarter of the turn, 10 s to 1 h before the deadline) unless they were warned; a deadline is stored as
-- `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`, and whole seconds leave its fraction and zone unchanged.

ALTER TABLE games ADD COLUMN timer_at TEXT;

UPDATE games
SET timer_at = CASE
    WHEN warned = 0 AND turn_seconds IS NOT NULL THEN
        strftime('%Y-%m-%dT%H:%M:%S', deadline, printf('-%d seconds', max(10, min(turn_seconds / 4, 3600))))
        || substr(deadline, 20)
    ELSE deadline
END
WHERE status = 'running' AND deadline IS NOT NULL;

CREATE INDEX games_by_timer ON games (timer_at) WHERE status = 'running' AND timer_at IS NOT NULL;

-- Reason: turn timers. The host picks the time a player has for each turn (NULL: no timer) and how many automatic
-- turns in a row a player may have before being resigned; the timer loop finds due games through the new index.

ALTER TABLE games ADD COLUMN turn_seconds INTEGER CHECK (turn_seconds IS NULL OR turn_seconds > 0);
ALTER TABLE games ADD COLUMN afk_limit INTEGER NOT NULL DEFAULT 3 CHECK (afk_limit >= 1);

CREATE INDEX games_by_deadline ON games (deadline) WHERE status = 'running' AND deadline IS NOT NULL;

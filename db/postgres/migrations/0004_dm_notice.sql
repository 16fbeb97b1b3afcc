-- Reason: SQLite's migration 0015 in PostgreSQL's words (issue 42): the closed-DM notice's message id, so that its
-- Show my hand button goes once the game is over.

ALTER TABLE games ADD COLUMN dm_notice_message_id BIGINT;
